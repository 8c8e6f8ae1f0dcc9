"""The levels for people: ``easy``, ``medium`` and ``hard``, each a measured bot (docs/STRENGTH.md)."""

from __future__ import annotations

from unoengine.bots.base import register_level

register_level("easy", "random")
register_level("medium", "heuristic")
register_level("hard", "ismcts:iterations=80")
