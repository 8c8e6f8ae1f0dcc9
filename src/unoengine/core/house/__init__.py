"""The house rules, one module each (docs/RULES.md H-1 …): ``HOUSE_RULES`` and a rule set's options.

Each module declares its options and what it adds to a game
(:class:`~unoengine.core.rules.compose.HouseRule`); a rule set lists those it
allows (:func:`allowed`), and a game composes those its options turn on
(:func:`~unoengine.core.rules.compose.compose`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from unoengine.core.house.deflect import DEFLECT_RULE
from unoengine.core.house.draw_to_match import DRAW_TO_MATCH
from unoengine.core.house.forced_play import FORCED_PLAY
from unoengine.core.house.hand_size import HAND_SIZE
from unoengine.core.house.jump_in import JUMP_IN
from unoengine.core.house.multi_play import MULTI_PLAY
from unoengine.core.house.seven_zero import SEVEN_ZERO
from unoengine.core.house.stack_draw import STACK_DRAW
from unoengine.core.house.teams import TEAMS
from unoengine.core.house.uno_penalty import UNO_PENALTY
from unoengine.core.rules.compose import HouseRule
from unoengine.core.rules.option_specs import SHARED_OPTIONS, OptionSpec

HOUSE_RULES: tuple[HouseRule, ...] = (
    STACK_DRAW,
    DEFLECT_RULE,  # H-9 composes on H-1's parts (its stack decision and draw effects)
    SEVEN_ZERO,
    MULTI_PLAY,  # H-10 after H-2: a 7 or a 0 ends the turn
    JUMP_IN,
    DRAW_TO_MATCH,  # before H-4, which wraps its ``drawn`` decision (H-4's Reading with H-5)
    FORCED_PLAY,
    UNO_PENALTY,
    HAND_SIZE,
    TEAMS,
)
"""Every house rule, in the order a game composes them (rule order, but H-5 before H-4; H-6 is the rule sets'
own option ``wild_draw_four``)."""

HOUSE_OPTIONS: tuple[OptionSpec, ...] = tuple(spec for house in HOUSE_RULES for spec in house.specs)
"""The house rules' options, each declared once by its module."""


def allowed(name: str) -> tuple[HouseRule, ...]:
    """The house rules the rule set called ``name`` allows (each option's ``rulesets``)."""
    return tuple(house for house in HOUSE_RULES if all(name in spec.rulesets for spec in house.specs))


def rule_set_options(name: str, own: Sequence[OptionSpec], **defaults: Any) -> tuple[OptionSpec, ...]:
    """A rule set's options: its own, the shared ones and the house rules it allows, with its defaults."""
    specs = [*own, *(spec for spec in SHARED_OPTIONS if name in spec.rulesets)]
    specs += [spec for house in allowed(name) for spec in house.specs]
    out: list[OptionSpec] = []
    for spec in specs:
        out.append(replace(spec, default=defaults.pop(spec.name)) if spec.name in defaults else spec)
    assert not defaults, f"defaults for options {name} does not have: {sorted(defaults)}"
    return tuple(sorted(out, key=lambda spec: spec.name))


__all__ = ["HOUSE_OPTIONS", "HOUSE_RULES", "allowed", "rule_set_options"]
