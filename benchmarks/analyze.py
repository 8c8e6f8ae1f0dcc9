"""``uno analyze`` as a benchmark: the time to review a heads-up game, and how the budget moves the marks.

What it measures
    A fixed heads-up Classic game (the heuristic policy on both seats, seed
    ``--game-seed``, cut once it holds ``--decisions`` reviewed decisions: about 60)
    is reviewed with :func:`unoengine.analysis.analyze` at the default budget
    (``DEFAULT_ITERATIONS`` deals a decision) with ``--jobs`` processes, then at
    double that budget. It reports the seconds of each, the marks of each, how many
    decisions changed mark between the two, and the mean absolute change of the
    drop ``best_win - win`` (the estimate's noise, roughly).

Usage
    python benchmarks/analyze.py              # default budget and double, --jobs 2
    python benchmarks/analyze.py --json       # one JSON object on stdout
    python benchmarks/analyze.py --save       # write benchmarks/results/analyze.json
    python benchmarks/analyze.py --write docs/REVIEW.md   # and rewrite that file's analyze-speed block
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from unoengine import new_game
from unoengine.analysis import DEFAULT_ITERATIONS, Analysis, analyze, decisions_of
from unoengine.bots.ismcts import rollout_action
from unoengine.core.actions import format_action
from unoengine.core.engine import apply, legal_actions
from unoengine.core.record import Record, record_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import add_result_options, machine, publish


def game(seed: int, decisions: int) -> Record:
    """The heuristic policy against itself from ``seed``, cut after the action that makes ``decisions`` decisions."""
    start = new_game("classic", 2, seed=seed, options={"single_round": True})
    rng = random.Random(seed)
    state = start
    taken: list[tuple[int, str]] = []
    while state.outcome is None:
        seat = state.pending.seat
        assert seat is not None
        action = rollout_action(state, seat, legal_actions(state, seat), rng)
        taken.append((seat, format_action(action)))
        state = apply(state, seat, action).state
    record = record_of(start, taken, deck=True)
    indices = decisions_of(record)
    if len(indices) > decisions:
        record = Record(
            record.rules,
            record.seats,
            record.seed,
            record.options,
            record.dealer,
            record.deck,
            record.actions[: indices[decisions - 1] + 1],
        )
    return record


def marks(analysis: Analysis) -> dict[str, int]:
    found = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    for decision in analysis.decisions:
        if decision.mark is not None:
            found[decision.mark] += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game-seed", type=int, default=32)
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--json", action="store_true")
    add_result_options(parser, "analyze-speed")
    args = parser.parse_args()
    measured_on = machine()
    record = game(args.game_seed, args.decisions)
    runs: list[dict[str, Any]] = []
    reviews: list[Analysis] = []
    for iterations in (args.iterations, 2 * args.iterations):
        began = time.perf_counter()
        review = analyze(record, iterations=iterations, jobs=args.jobs, seed=0)
        seconds = time.perf_counter() - began
        reviews.append(review)
        runs.append({"iterations": iterations, "seconds": round(seconds, 2), "marks": marks(review)})
    first, second = reviews
    changed = sum(a.mark != b.mark for a, b in zip(first.decisions, second.decisions, strict=True))
    moved = [abs(a.drop - b.drop) for a, b in zip(first.decisions, second.decisions, strict=True)]
    result = {
        "game_seed": args.game_seed,
        "actions": len(record.actions),
        "decisions": len(first.decisions),
        "jobs": args.jobs,
        "runs": runs,
        "marks_changed": changed,
        "mean_drop_change": round(sum(moved) / max(len(moved), 1), 4),
        "max_drop_change": round(max(moved, default=0.0), 4),
    }
    if args.save or args.write is not None:
        publish("analyze", sys.argv[1:], result, measured_on, args.write)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"heads-up Classic game (seed {args.game_seed}): {result['actions']} actions, {result['decisions']} decisions"
    )
    for run in runs:
        print(
            f"  {run['iterations']:>5} deals a decision, --jobs {args.jobs}: "
            f"{run['seconds']:.2f} s, marks {run['marks']}"
        )
    print(
        f"  marks changed when the budget doubled: {changed} of {result['decisions']}; "
        f"drop moved by {result['mean_drop_change']:.4f} on average, {result['max_drop_change']:.4f} at most"
    )


if __name__ == "__main__":
    main()
