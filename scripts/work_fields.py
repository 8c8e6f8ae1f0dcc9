#!/usr/bin/env python3
"""Write the field code of src/unoengine/core/work.py from GameState's one field list.

``Work.__init__`` unpacks a state into the work's attributes and ``Work.freeze``
packs them back, in the order of ``GameState._fields``. That code sits between
the ``BEGIN FIELDS`` and ``END FIELDS`` markers of work.py and is written by
this script, never by hand, so the field order is defined once (GameState)
while the code stays plain attribute access (fast, and compiled natively by
mypyc). tests/test_work_fields.py fails when it is stale.

Usage::

    scripts/work_fields.py           # rewrite the block in work.py
    scripts/work_fields.py --check   # exit 1 if the block is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "src" / "unoengine" / "core" / "work.py"
BEGIN = "    # BEGIN FIELDS: written by scripts/work_fields.py from GameState._fields; do not edit\n"
END = "    # END FIELDS\n"
LISTS = ("hands", "power")
"""Fields that are lists while an action resolves (tuples in the state)."""


def block(fields: tuple[str, ...]) -> str:
    """The generated methods for these fields, as ``ruff format`` writes them."""
    unpack = [" " * 12 + (f"{name}," if name in LISTS else f"self.{name},") for name in fields]
    pack = [" " * 16 + (f"tuple(self.{name})," if name in LISTS else f"self.{name},") for name in fields]
    lines = [
        "    def __init__(self, state: GameState, events: list[Event] | None) -> None:",
        '        """Copy ``state``: its fields become attributes (lists for hands and flags)."""',
        "        (",
        *unpack,
        "        ) = state",
        *(f"        self.{name} = list({name})" for name in LISTS),
        "        game = self.game",
        "        self.rules = game.rules",
        "        self.options = game.options",
        "        self.tables = game.tables",
        "        self.seats = game.seats",
        "        self.prior = self.pending",
        "        self.prior_color = self.color",
        "        self.events = events",
        "",
        "    def freeze(self) -> GameState:",
        '        """The immutable state this work describes (the work may go on)."""',
        "        return make_state(",
        "            GameState,",
        "            (",
        *pack,
        "            ),",
        "        )",
        "",
    ]
    return "".join(line + "\n" for line in lines)


def render(text: str, fields: tuple[str, ...]) -> str:
    """work.py's text with its field block rewritten."""
    start = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    return text[:start] + block(fields) + text[end:]


def state_fields() -> tuple[str, ...]:
    sys.path.insert(0, str(ROOT / "src"))
    from unoengine.core.state import GameState

    return tuple(GameState._fields)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if work.py's field block is stale")
    args = parser.parse_args(argv)
    text = WORK.read_text(encoding="utf-8")
    wanted = render(text, state_fields())
    if args.check:
        if wanted != text:
            sys.stderr.write("src/unoengine/core/work.py: the field block is stale: run scripts/work_fields.py\n")
            return 1
        return 0
    WORK.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
