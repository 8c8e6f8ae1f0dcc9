"""The batch path against the bare engine loop: ``uno simulate``, ``play_games`` and ``Table.play_out``.

What it measures
    Random-bot games of one round (``single_round``), every seat the ``random``
    bot, in four cases (Classic 2 and 4 seats, Duo 2, Flex 4). Sides:

    ``loop``        the bare loop: per game ``new_game(rules, seats, seed=k)``, then
                    ``apply_unchecked(state, seat, bot.choose(None, legal_actions(state, seat)))``
                    until the game is over (one ``RandomBot`` for the whole run);
                    nothing else: no bot per game, no checks, no record;
    ``loop_bots``   the same loop with a new bot per game and seat, seeded as the
                    batch path seeds them (``seat_random(seed, seat)``):
                    what seeding the bots costs (it is most of the batch path's
                    difference from the bare loop); not a target side;
    ``simulate``    ``unoengine.play.simulate.simulate(rules, seats, 8, "random", k)``,
                    what ``uno simulate`` runs (its own figures, wins, lengths);
    ``play_games``  ``unoengine.play.simulate.play_games(rules, range(k, k + 8), "random")``;
    ``table``       ``Table.new(..., controllers=[RandomBot(...)] * seats).play_out()``
                    (the record of actions kept, as a table keeps it).

    ``simulate`` and ``play_games`` make fresh seeded bots per game (so that a
    game is a function of its seed) and check every bot's choice; that is part
    of what they cost. For each side: steps/s (actions applied per second),
    games/s; and each side's steps/s as a fraction of the loop's (target: at
    least 0.85, "within 15 %").

How it runs
    In one process: after a warm-up, every side of a case runs for a timed slice
    (``--slice``, whole games or batches), the sides one after the other, the
    order flipping every repetition, so that the machine's noise hits every side
    alike; the figures are medians over the repetitions.

Usage
    python benchmarks/batch.py            # about a minute
    python benchmarks/batch.py --quick    # a few seconds
    python benchmarks/batch.py --json     # one JSON object on stdout
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for path in (HERE.parent / "src", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from report import add_result_options, facts_line, run, run_facts, text_table  # noqa: E402
from unoengine import apply_unchecked, legal_actions, new_game  # noqa: E402
from unoengine.bots.random_bot import RandomBot  # noqa: E402
from unoengine.bots.rng import seat_random  # noqa: E402
from unoengine.core.rules import find_rules  # noqa: E402
from unoengine.play.simulate import play_games, simulate  # noqa: E402
from unoengine.play.table import Table  # noqa: E402

CASES: list[tuple[str, int]] = [("classic", 2), ("classic", 4), ("duo", 2), ("flex", 4)]
SIDES = ["loop", "loop_bots", "simulate", "play_games", "table"]
BATCH = 8
TARGET = 0.85
"""A side's steps/s as a fraction of the loop's: at least this ("within 15 %")."""

Chunk = Callable[[], tuple[int, int]]
"""Plays some games; returns (games, steps)."""


def make_chunk(side: str, rules: str, seats: int, seed: int) -> Chunk:
    ruleset = find_rules(rules)
    options = ruleset.options({"single_round": True})
    next_seed = [seed]

    def seeds(count: int) -> range:
        first = next_seed[0]
        next_seed[0] += count
        return range(first, first + count)

    if side == "loop":
        choose = RandomBot(random.Random(seed)).choose

        def loop() -> tuple[int, int]:
            (game,) = seeds(1)
            state = new_game(ruleset, seats, seed=game, options=options)
            steps = 0
            while state.outcome is None:
                seat: int = state.pending.seat  # type: ignore[assignment]
                state = apply_unchecked(state, seat, choose(None, legal_actions(state, seat)))
                steps += 1
            return 1, steps

        return loop
    if side == "loop_bots":

        def loop_bots() -> tuple[int, int]:
            (game,) = seeds(1)
            state = new_game(ruleset, seats, seed=game, options=options)
            bots = [RandomBot(seat_random(game, seat)) for seat in range(seats)]
            steps = 0
            while state.outcome is None:
                seat: int = state.pending.seat  # type: ignore[assignment]
                state = apply_unchecked(state, seat, bots[seat].choose(None, legal_actions(state, seat)))
                steps += 1
            return 1, steps

        return loop_bots
    if side == "simulate":

        def run_simulate() -> tuple[int, int]:
            first = seeds(BATCH).start
            result = simulate(ruleset.name, seats, BATCH, "random", first, options=options)
            return result.games, result.steps

        return run_simulate
    if side == "play_games":

        def run_play_games() -> tuple[int, int]:
            games = play_games(ruleset, seeds(BATCH), "random", seats=seats, options=options)
            return len(games), sum(game.steps for game in games)

        return run_play_games
    if side == "table":
        rng = random.Random(seed)

        def run_table() -> tuple[int, int]:
            (game,) = seeds(1)
            bots = [RandomBot(rng) for _ in range(seats)]
            table = Table(new_game(ruleset, seats, seed=game, options=options), bots)
            return 1, table.play_out()

        return run_table
    raise ValueError(side)


def run_slice(chunk: Chunk, seconds: float) -> tuple[int, int, float, float]:
    """Whole chunks for ``seconds`` of wall time: (games, steps, wall seconds, CPU seconds of this process)."""
    games = steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        g, s = chunk()
        games += g
        steps += s
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, steps, elapsed, time.process_time() - cpu


def bench(args: argparse.Namespace) -> dict[str, Any]:
    log = not args.json
    cases = []
    started = time.perf_counter()
    for rules, seats in args.cases:
        chunks = {side: make_chunk(side, rules, seats, args.seed) for side in SIDES}
        slices: dict[str, list[tuple[int, int, float, float]]] = {side: [] for side in SIDES}
        for chunk in chunks.values():
            run_slice(chunk, min(0.2, args.slice))  # warm-up
        for rep in range(args.reps):
            order = SIDES if rep % 2 == 0 else SIDES[::-1]
            for side in order:
                slices[side].append(run_slice(chunks[side], args.slice))
        if log:
            print(f"{rules} {seats} done", file=sys.stderr, flush=True)
        figures: dict[str, dict[str, float]] = {}
        for side, runs in slices.items():
            figures[side] = {
                "steps_per_s": statistics.median(s / t for _, s, t, _ in runs),
                "games_per_s": statistics.median(g / t for g, _, t, _ in runs),
                "steps_per_cpu_s": statistics.median(s / c for _, s, _, c in runs),
                "steps_per_game": sum(r[1] for r in runs) / max(1, sum(r[0] for r in runs)),
                "games": sum(r[0] for r in runs),
            }
        # The ratio of steps per CPU second of this process (what the machine's other work
        # disturbs least), per repetition (neighbouring slices), then the median.
        ratios = {
            side: statistics.median(
                (s / c) / (ls / lc) for (_, s, _, c), (_, ls, _, lc) in zip(slices[side], slices["loop"], strict=True)
            )
            for side in SIDES
            if side != "loop"
        }
        cases.append({"case": f"{rules} {seats}", "sides": figures, "vs_loop": ratios})
    return {
        "benchmark": "the batch path (simulate, play_games, Table.play_out) vs the bare apply_unchecked loop",
        **run_facts(),
        "slice_seconds": args.slice,
        "repetitions": args.reps,
        "seconds": round(time.perf_counter() - started, 1),
        "target": TARGET,
        "cases": cases,
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    out = [
        facts_line(report),
        f"{report['repetitions']} alternating slices of {report['slice_seconds']} s per side ({report['seconds']} s), "
        "medians; x loop = steps per CPU second over the loop's, slice by slice",
        "",
    ]
    rows = [["case", "side", "steps/s", "games/s", "steps/CPU s", "steps/game", "x loop", "target"]]
    for case in report["cases"]:
        for side, figures in case["sides"].items():
            ratio = case["vs_loop"].get(side)
            verdict = "" if ratio is None or side == "loop_bots" else ("met" if ratio >= report["target"] else "MISSED")
            rows.append(
                [
                    case["case"],
                    side,
                    f"{figures['steps_per_s']:,.0f}",
                    f"{figures['games_per_s']:,.1f}",
                    f"{figures['steps_per_cpu_s']:,.0f}",
                    f"{figures['steps_per_game']:.1f}",
                    "" if ratio is None else f"{ratio:.3f}",
                    verdict,
                ]
            )
    out += text_table(rows)
    out.append(f"\ntarget: every side at least {report['target']:.2f}x the loop's steps/s (within 15 %)")
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="The batch path against the bare apply_unchecked loop.")
    parser.add_argument("--slice", type=float, default=0.5, help="seconds per timed slice (default 0.5)")
    parser.add_argument("--reps", type=int, default=8, help="slices per side and case (default 8)")
    parser.add_argument("--quick", action="store_true", help="3 slices of 0.2 s")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_result_options(parser, "batch-speed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--case", action="append", metavar="RULES:SEATS", help="a case (repeatable)")
    args = parser.parse_args(argv)
    if args.quick:
        args.slice, args.reps = 0.2, 3
    try:
        args.cases = [(t.split(":")[0], int(t.split(":")[1])) for t in args.case] if args.case else CASES
    except (IndexError, ValueError):
        parser.error("--case takes RULES:SEATS, e.g. classic:2")
    if args.slice <= 0 or args.reps < 1:
        parser.error("need --slice > 0 and --reps >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    return run(parse_args, bench, report_lines, argv, "batch")


if __name__ == "__main__":
    sys.exit(main())
