"""The ``uno`` console command: ``uno replay``, ``uno simulate`` and ``uno rules``.

The command is :func:`unoengine.cli.main.main` (installed as ``uno``; also
``python -m unoengine.cli``).
"""

from __future__ import annotations

from unoengine.cli.main import cli, main

__all__ = ["cli", "main"]
