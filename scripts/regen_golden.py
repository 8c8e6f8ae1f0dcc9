#!/usr/bin/env python3
"""Write the golden playthroughs of tests/golden/: whole bot games, step by step.

Each golden (the table :data:`GOLDENS`) is one complete game of a rule set with a
fixed seed, options and bots (``heuristic`` and ``random``, each drawing from
``seat_random(seed, seat)``), played by :func:`unoengine.play.simulate.play_game`.
Two files per golden:

- ``tests/golden/<name>.txt``: a header, then for every action (out-of-turn
  ``uno`` and ``catch N`` included) the step index, the acting seat,
  ``format_state`` of the state before it, that seat's legal actions in
  notation and the chosen action; at the end ``state_to_json`` of the final
  state as sorted JSON, one key per line.
- ``tests/golden/<name>.record.json``: the game's record with its deck
  (``format_record(record_of(start, actions, deck=True))``).

tests/test_golden.py replays every golden in memory and compares it with these
files line by line, so any change to the rules, the shuffle, the notation or the
bots shows up as the first line that differs. After an intended change, run::

    .venv/bin/python scripts/regen_golden.py          # rewrite tests/golden/
    .venv/bin/python scripts/regen_golden.py --check  # exit 1 if a file is stale

and review ``git diff tests/golden/`` before committing the new files.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unoengine import (
    GameState,
    apply,
    format_action,
    format_record,
    format_state,
    legal_actions,
    new_game,
    record_of,
    state_to_json,
)
from unoengine.bots import make_bot
from unoengine.bots.rng import seat_random
from unoengine.core.actions import Action
from unoengine.play.simulate import play_game

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = ROOT / "tests" / "golden"


@dataclass(frozen=True, slots=True)
class Golden:
    """One golden game: its file name, rule set, seats, seed, options and bots by seat."""

    name: str
    rules: str
    seats: int
    seed: int
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


SINGLE = {"single_round": True}

GOLDENS: tuple[Golden, ...] = (
    Golden("classic-2", "classic", 2, 14, ("heuristic", "random"), SINGLE),
    Golden("classic-4", "classic", 4, 3, ("heuristic", "random", "random", "heuristic"), SINGLE),
    Golden(
        "classic-3-challenge",
        "classic",
        3,
        10,
        ("heuristic", "random", "heuristic"),
        {"single_round": True, "wild_draw_four": "challenge", "draw_until_playable": True},
    ),
    Golden("duo-2", "duo", 2, 365, ("random", "heuristic"), SINGLE),
    Golden("flex-2", "flex", 2, 38, ("heuristic", "random"), SINGLE),
    Golden("flex-5", "flex", 5, 46, ("random", "heuristic", "random", "heuristic", "random"), SINGLE),
    Golden(
        "flex-3-match",
        "flex",
        3,
        9,
        ("heuristic", "heuristic", "heuristic"),
        {"single_round": False, "target_score": 150},
    ),
    Golden("nomercy-2", "nomercy", 2, 12, ("random", "random"), SINGLE),
    Golden("nomercy-4", "nomercy", 4, 14, ("random", "random", "random", "random"), SINGLE),
)
"""Seeds chosen for short games (50-150 actions) that still show catches, challenges and, for the match, 4 rounds;
No Mercy's show stacks, roulettes, Skip Everyone, Discard All, 7s, 0s and the Mercy Rule (nomercy-2 ends when seat
1 is knocked out, N-21, N-23; in nomercy-4 three seats are, the last two playing on as two players, N-24)."""


@dataclass(frozen=True, slots=True)
class Playthrough:
    """A played golden: its first state, its actions with their seats and its final state."""

    golden: Golden
    start: GameState
    actions: tuple[tuple[int, Action], ...]
    final: GameState


def play(golden: Golden) -> Playthrough:
    """Play the golden's game with its seeded bots.

    Raises:
        AssertionError: the game did not end or replaying its actions gave another final state.
    """
    start = new_game(golden.rules, golden.seats, seed=golden.seed, options=golden.options)
    bots = [make_bot(name, seat_random(golden.seed, seat)) for seat, name in enumerate(golden.bots)]
    result = play_game(start, bots, keep_actions=True)
    assert result.actions is not None
    assert result.state.outcome is not None, f"{golden.name}: the game did not end"
    return Playthrough(golden, start, tuple(result.actions), result.state)


def final_json(state: GameState) -> str:
    """``state_to_json`` as sorted JSON text, one key per line (no trailing newline)."""
    data = state_to_json(state)
    body = ",\n".join(f"  {json.dumps(key)}: {json.dumps(data[key], sort_keys=True)}" for key in sorted(data))
    return "{\n" + body + "\n}"


def transcript(run: Playthrough) -> str:
    """The text of ``<name>.txt``: header, one block per action, then the final state as JSON.

    Raises:
        AssertionError: a chosen action is not legal, or stepping through the actions
            does not end in the state the game ended in.
    """
    golden = run.golden
    lines = [
        f"# golden playthrough {golden.name}: written by scripts/regen_golden.py, do not edit",
        f"# rules={golden.rules} seats={golden.seats} seed={golden.seed} bots={','.join(golden.bots)}",
        f"# options={json.dumps(golden.options, sort_keys=True)}",
        f"# actions={len(run.actions)} rounds={run.final.round}",
    ]
    state = run.start
    for index, (seat, action) in enumerate(run.actions):
        legal = legal_actions(state, seat)
        assert action in legal, f"{golden.name} step {index}: {action} is not legal for seat {seat}"
        lines.append(f"step {index} seat {seat}")
        lines.append(f"  state: {format_state(state)}")
        lines.append(f"  legal: {' | '.join(format_action(item) for item in legal)}")
        lines.append(f"  action: {format_action(action)}")
        state = apply(state, seat, action).state
    assert state == run.final, f"{golden.name}: stepping through the actions gave another final state"
    lines.append("final:")
    lines.append(final_json(state))
    return "\n".join(lines) + "\n"


def record_text(run: Playthrough) -> str:
    """The text of ``<name>.record.json``: the game's record with its deck."""
    return format_record(record_of(run.start, run.actions, deck=True))


def render(golden: Golden) -> dict[str, str]:
    """Every file of one golden, by file name."""
    run = play(golden)
    return {f"{golden.name}.txt": transcript(run), f"{golden.name}.record.json": record_text(run)}


def render_all(goldens: Sequence[Golden] = GOLDENS) -> dict[str, str]:
    """Every file of every golden, by file name."""
    files: dict[str, str] = {}
    for golden in goldens:
        files.update(render(golden))
    return files


def main(argv: list[str] | None = None) -> int:
    """Rewrite tests/golden/ (or, with ``--check``, report the stale files and exit 1)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a golden file is missing or stale")
    parser.add_argument("--dir", type=Path, default=GOLDEN_DIR, help="the folder of golden files")
    args = parser.parse_args(argv)
    folder: Path = args.dir
    files = render_all()
    if args.check:
        stale = [
            name
            for name, text in files.items()
            if not (folder / name).exists() or (folder / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            sys.stderr.write(f"{folder / name} is stale: run scripts/regen_golden.py\n")
        return 1 if stale else 0
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        print(f"{folder / name}: {len(text.encode())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
