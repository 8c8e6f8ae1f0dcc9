"""The strength table of docs/STRENGTH.md: tournaments of ``ismcts`` against ``heuristic`` and ``random``.

``scripts/strength`` runs it (short: 200 games a row; ``--full``: 10,000 games a row,
the targets' size, for the rows of share 1); ``--json`` prints every tournament's
figures; ``--plot FILE.png`` saves the heads-up row's chart (docs/STRENGTH.md's). Every row is one
``uno tournament`` (seats rotated over the same deals, seed 20000), so any row can
be rerun alone with the command it prints.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HARD = "ismcts:iterations=80"
"""The ``hard`` level (bots/levels.py): the race at 80 iterations, its defaults otherwise."""
PAIRED = "ismcts:mode=paired,iterations=40"
"""The bot before the race (short rollouts, the linear evaluation, the check on whole rollouts)."""

ROWS: list[tuple[str, str, int, str, float]] = [
    # (what, rules, seats, bots, games as a share of the run's size)
    ("ismcts vs heuristic, heads-up", "classic", 2, f"{HARD},heuristic", 1.0),
    ("one ismcts, three heuristic", "classic", 4, f"{HARD},heuristic", 1.0),
    ("ismcts vs random, heads-up", "classic", 2, f"{HARD},random", 0.5),
    ("ismcts vs heuristic, Duo", "duo", 2, f"{HARD},heuristic", 0.5),
    ("ismcts vs heuristic, Flex", "flex", 2, f"{HARD},heuristic", 0.5),
    ("ladder: 2× budget vs 1×", "classic", 2, "ismcts:iterations=20,ismcts:iterations=10", 0.5),
    ("ladder: 4× budget vs 1×", "classic", 2, "ismcts:iterations=40,ismcts:iterations=10", 0.5),
    ("ladder: 8× budget vs 1×", "classic", 2, "ismcts:iterations=80,ismcts:iterations=10", 0.5),
    ("the race vs the bot before it", "classic", 2, f"{HARD},{PAIRED}", 0.25),
    ("heuristic vs random, heads-up", "classic", 2, "heuristic,random", 1.0),
]


def command(rules: str, seats: int, bots: str, games: int, jobs: int, plot: str | None = None) -> list[str]:
    """The ``uno tournament`` command line of one row."""
    return [
        "uno", "tournament", "--rules", rules, "--seats", str(seats), "--bots", bots,
        "--games", str(games), "--seed", "20000", "--jobs", str(jobs), "--json",
        *(["--plot", plot] if plot else []),
    ]  # fmt: skip


def run(rules: str, seats: int, bots: str, games: int, jobs: int, plot: str | None = None) -> dict[str, object]:
    """One row's tournament figures (through the installed ``uno``)."""
    uno = ROOT / ".venv" / "bin" / "uno"
    args = [str(uno) if uno.exists() else "uno", *command(rules, seats, bots, games, jobs, plot)[1:]]
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    figures: dict[str, object] = json.loads(done.stdout)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="10,000 games a row (the targets' size)")
    parser.add_argument("--games", type=int, default=None, help="games of a full row (default 200, or 10,000)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", type=int, nargs="*", default=None, help="row numbers to run (from 0)")
    parser.add_argument("--plot", default=None, help="save the first row's chart (uno tournament --plot) here")
    args = parser.parse_args(argv)
    size = args.games or (10_000 if args.full else 200)
    results = []
    print("| what | rules, seats | bots | games | first bot wins | 95 % CI | ms/decision |")
    print("|---|---|---|---:|---:|---:|---:|")
    for index, (what, rules, seats, bots, share) in enumerate(ROWS):
        if args.only is not None and index not in args.only:
            continue
        games = max(2, int(size * share))
        figures = run(rules, seats, bots, games, args.jobs, args.plot if index == 0 else None)
        results.append(figures)
        first = figures["bots"][0]  # type: ignore[index]
        print(
            f"| {what} | {rules}, {seats} | `{bots}` | {first['games']} | {100 * first['win_rate']:.1f} % "
            f"| {100 * first['ci_low']:.1f}–{100 * first['ci_high']:.1f} % | {first['ms_per_decision']:.1f} |",
            flush=True,
        )
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
