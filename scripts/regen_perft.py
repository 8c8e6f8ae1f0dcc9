#!/usr/bin/env python3
"""Write the perft files of tests/perft/: positions in state notation with their counts.

Every case of :data:`CASES` is a position: either written by hand (short
notation, ``draw=*``) or the first state of a seeded game of ``uniform`` bots
that has a given decision pending (``challenge``, ``drawn``, ``draft``, …) or
another feature (an open UNO window, a 7 with a swap target, a Flex target, a
red Power Card, a jump-in). The counts are :func:`unoengine.core.perft.perft`
at depths 1, 2, … as long as the count stays at most ``--max-nodes`` (and the
depth at most ``--max-depth``). The files are one per rule set
(``classic.perft``, ``duo.perft``, ``flex.perft``, ``house.perft`` for the
house rules' presets); the format is in docs/NOTATION.md ("Perft files").

tests/test_perft.py checks every count (the deep ones behind the ``slow``
marker) and checks some of them with an independent count of its own. After an
intended change to the rules (never after a change of representation: the
counts must not move then)::

    .venv/bin/python scripts/regen_perft.py           # rewrite tests/perft/
    .venv/bin/python scripts/regen_perft.py --check   # exit 1 if a count differs

and review ``git diff tests/perft/`` before committing.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unoengine import GameState, apply_unchecked, format_action, format_state, legal_actions, new_game, parse_state
from unoengine.core.perft import parse_perft, perft

ROOT = Path(__file__).resolve().parents[1]
PERFT_DIR = ROOT / "tests" / "perft"

Predicate = Callable[[GameState], bool]


def pending(kind: str) -> Predicate:
    """A state whose pending decision is ``kind``."""
    return lambda state: state.pending.kind == kind


def some_action(text: str) -> Predicate:
    """A state where the seat to act has a legal action whose notation contains ``text``."""

    def test(state: GameState) -> bool:
        seat = state.to_act
        return seat is not None and any(text in format_action(a) for a in legal_actions(state, seat))

    return test


def window(state: GameState) -> bool:
    """A state with an open UNO window: a seat may be caught (C-18)."""
    return state.unsafe is not None


def jump_in(state: GameState) -> bool:
    """A state where a seat that is not to act may jump in (H-3)."""
    return any(legal_actions(state, seat) for seat in range(state.seats) if seat != state.to_act)


def red_power(state: GameState) -> bool:
    """A Flex state where the seat to act holds a red Power Card (F-12)."""
    seat = state.to_act
    return seat is not None and bool(state.power) and not state.power[seat]


@dataclass(frozen=True, slots=True)
class Case:
    """One position: its id, and either its notation or the game to find it in."""

    id: str
    file: str
    comment: str
    notation: str | None = None
    rules: str = "classic"
    seats: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    find: Predicate | None = None
    """The first state of a game (seed 1, 2, …) for which this is true."""


def found(case: Case, tries: int = 400) -> GameState:
    """The position of a case."""
    if case.notation is not None:
        return parse_state(case.notation)
    assert case.find is not None
    options = {"single_round": True, **case.options}
    for seed in range(1, tries + 1):
        state = new_game(case.rules, case.seats, seed=seed, options=options)
        rng = random.Random(f"perft:{seed}")
        for _ in range(2000):
            if case.find(state):
                return state
            if state.outcome is not None:
                break
            movers = [(seat, a) for seat in range(state.seats) for a in legal_actions(state, seat)]
            seat, action = movers[int(rng.random() * len(movers))]
            state = apply_unchecked(state, seat, action)
    raise SystemExit(f"{case.id}: no position found in {tries} games")


PARTY = {"stack_draw": "mixed", "jump_in": True, "seven_zero": True, "draw_until_playable": True}
MOBILE = {"stack_draw": "same", "seven_zero": True, "forced_play": True}
MATTEL = {"stack_draw": "same", "draw_to_match": True}

CASES: list[Case] = [
    # -- Classic -------------------------------------------------------------------
    Case(
        "classic-2-tiny",
        "classic",
        "counted by hand in tests/test_perft.py",
        "classic/2 hands=R7,G2/B3,Y9 discard=R5 color=r pending=turn:0",
    ),
    Case(
        "classic-2-wild",
        "classic",
        "counted by hand in tests/test_perft.py: a wild's four colours, with and without uno",
        "classic/2 hands=W,G2/B3 discard=R5 color=r pending=turn:0",
    ),
    Case("classic-2-start", "classic", "a new game, seed 1", rules="classic", seats=2, find=lambda s: True),
    Case("classic-4-start", "classic", "a new game, seed 1", rules="classic", seats=4, find=lambda s: True),
    Case("classic-3-drawn", "classic", "the drawn card's decision (C-8)", seats=3, find=pending("drawn")),
    Case("classic-4-uno-window", "classic", "an open UNO window: catch or call (C-18)", seats=4, find=window),
    Case(
        "classic-4-challenge",
        "classic",
        "a Wild Draw Four challenge (C-16)",
        seats=4,
        options={"wild_draw_four": "challenge"},
        find=pending("challenge"),
    ),
    Case(
        "classic-2-draw-until-playable",
        "classic",
        "draw until playable (C-9 option)",
        options={"draw_until_playable": True},
        find=pending("drawn"),
    ),
    Case(
        "classic-10-start",
        "classic",
        "ten seats, a new game",
        seats=10,
        find=lambda s: True,
    ),
    Case(
        "classic-2-over",
        "classic",
        "a finished game: no action at any depth",
        seats=2,
        find=lambda s: s.outcome is not None,
    ),
    # -- Duo -----------------------------------------------------------------------
    Case("duo-2-draft", "duo", "the draft (D-3)", rules="duo", find=pending("draft")),
    Case("duo-2-turn", "duo", "a turn after the draft", rules="duo", find=pending("turn")),
    Case("duo-2-color", "duo", "the first Wild's colour (D-7)", rules="duo", find=pending("color")),
    Case("duo-2-volley", "duo", "a Draw Two volley (D-14)", rules="duo", find=pending("volley")),
    Case("duo-2-dump", "duo", "a Reverse dump (D-15)", rules="duo", find=pending("dump")),
    Case("duo-2-drawn", "duo", "the drawn card", rules="duo", find=pending("drawn")),
    Case("duo-2-uno-window", "duo", "an open UNO window (D-11)", rules="duo", find=window),
    Case(
        "duo-2-standard108",
        "duo",
        "Duo with the standard deck",
        rules="duo",
        options={"duo_deck": "standard108"},
        find=pending("turn"),
    ),
    # -- Flex ----------------------------------------------------------------------
    Case("flex-2-start", "flex", "a new game, seed 1", rules="flex", find=lambda s: True),
    Case("flex-4-start", "flex", "a new game, seed 1", rules="flex", seats=4, find=lambda s: True),
    Case("flex-4-target", "flex", "a flex side with a target (F-20 ...)", rules="flex", seats=4, find=some_action(">")),
    Case("flex-3-red-power", "flex", "a red Power Card (F-12)", rules="flex", seats=3, find=red_power),
    Case(
        "flex-4-flex-side", "flex", "a card playable on its flex side", rules="flex", seats=4, find=some_action("@flex")
    ),
    Case("flex-4-challenge", "flex", "a Wild Draw Four challenge", rules="flex", seats=4, find=pending("challenge")),
    Case("flex-4-uno-window", "flex", "an open UNO window", rules="flex", seats=4, find=window),
    Case("flex-2-drawn", "flex", "the drawn card", rules="flex", find=pending("drawn")),
    # -- house rules -----------------------------------------------------------------
    Case(
        "classic-4-party-stack",
        "house",
        "preset party: a draw stack (H-1)",
        seats=4,
        options=PARTY,
        find=pending("stack"),
    ),
    Case(
        "classic-4-party-swap", "house", "preset party: a 7 swaps (H-2)", seats=4, options=PARTY, find=some_action("7>")
    ),
    Case("classic-4-party-jump-in", "house", "preset party: a jump-in (H-3)", seats=4, options=PARTY, find=jump_in),
    Case(
        "classic-3-mobile-stack",
        "house",
        "preset mobile: a same-kind stack, forced play (H-1, H-4)",
        seats=3,
        options=MOBILE,
        find=pending("stack"),
    ),
    Case(
        "classic-3-mobile-swap",
        "house",
        "preset mobile: a 7 swaps (H-2)",
        seats=3,
        options=MOBILE,
        find=some_action("7>"),
    ),
    Case(
        "classic-3-mattel-drawn",
        "house",
        "preset mattel_house: draw to match (H-5)",
        seats=3,
        options=MATTEL,
        find=pending("drawn"),
    ),
    Case(
        "classic-4-penalty-window",
        "house",
        "uno_penalty 4 and hand_size 5 (H-7, H-8): an open UNO window",
        seats=4,
        options={"uno_penalty": 4, "hand_size": 5},
        find=window,
    ),
    Case(
        "duo-2-house-drawn",
        "house",
        "Duo with forced play, draw to match and challenges (H-4, H-5, C-16): the drawn card",
        rules="duo",
        options={"forced_play": True, "draw_to_match": True, "wild_draw_four": "challenge"},
        find=pending("drawn"),
    ),
    Case(
        "flex-4-house-drawn",
        "house",
        "Flex with forced play, draw until playable, uno_penalty 1, hand_size 9: the drawn card",
        rules="flex",
        seats=4,
        options={"forced_play": True, "draw_until_playable": True, "uno_penalty": 1, "hand_size": 9},
        find=pending("drawn"),
    ),
]


def counts(state: GameState, max_nodes: int, max_depth: int) -> list[tuple[int, int]]:
    """``(depth, perft)`` from depth 1 while the count stays within ``max_nodes``."""
    out: list[tuple[int, int]] = []
    for depth in range(1, max_depth + 1):
        count = perft(state, depth)
        out.append((depth, count))
        if count == 0 or count > max_nodes:
            break
    return out


HEADER = """\
# Perft counts of unoengine ({file} positions): see docs/NOTATION.md, "Perft files".
# Written by scripts/regen_perft.py; checked by tests/test_perft.py.
"""


def render(max_nodes: int, max_depth: int, log: bool) -> dict[str, str]:
    files: dict[str, list[str]] = {}
    for case in CASES:
        state = found(case)
        if log:
            print(f"{case.id} ...", file=sys.stderr, flush=True)
        lines = files.setdefault(case.file, [HEADER.format(file=case.file)])
        lines.append(f"\nid {case.id}\n# {case.comment}\nstate {format_state(state)}\n")
        for depth, count in counts(state, max_nodes, max_depth):
            lines.append(f"perft {depth} {count}\n")
    return {f"{name}.perft": "".join(lines) for name, lines in files.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file differs; write nothing")
    parser.add_argument("--max-nodes", type=int, default=300_000, help="stop deepening past this count")
    parser.add_argument("--max-depth", type=int, default=8)
    args = parser.parse_args(argv)
    rendered = render(args.max_nodes, args.max_depth, not args.check)
    stale = []
    for name, text in rendered.items():
        path = PERFT_DIR / name
        parse_perft(text)  # the file reads back
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            PERFT_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print("stale: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
