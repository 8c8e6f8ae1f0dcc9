"""Instructions a step and a call, counted under callgrind: the driver of ``benchmarks/instructions.py``.

What it measures
    Runs ``benchmarks/instructions.py`` under ``valgrind --tool=callgrind`` (with
    ``PYTHONHASHSEED=0``), once with the work and once without it, for each case:
    a step (``legal_actions`` + ``apply`` with the random bot, ``--games`` seeded
    games of one round) of each rule set and seats, Flex 4 again over the games
    after the first ``--games`` (its play tables built by then), and a call of each
    of ``pickle``, ``view_for``, ``legal_mask``, ``determinize`` and ``sample`` over
    200 sampled states of Classic 4 (``--passes`` passes). The difference of the
    two "Collected" totals over the steps (calls) the first run printed is the
    instructions a step (call), which the load of the machine does not change.

Usage
    python benchmarks/instruction_counts.py --write docs/PERFORMANCE.md   # about 3 minutes on 2 cores
    python benchmarks/instruction_counts.py --json
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import report

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "instructions.py"

STEP_CASES = (("classic", 2), ("classic", 4), ("duo", 2), ("flex", 4))
"""The rule sets and seats whose step is counted."""

CALLS = ("pickle", "view_for", "legal_mask", "determinize", "sample")
"""The calls counted (``instructions.py --call NAME``), over states of Classic 4."""

CALL_RULES, CALL_SEATS = "classic", 4

COLLECTED = re.compile(r"^==\d+==\s+Collected\s*:\s*([\d,]+)\s*$", re.MULTILINE)
STEPS = re.compile(r"^steps (\d+) digest (-?\d+)\s*$", re.MULTILINE)
CALLS_MADE = re.compile(r"^calls (\d+)\s*$", re.MULTILINE)


def collected(stderr: str) -> int:
    """The total of callgrind's summary line (``==PID== Collected : N``) in a run's standard error.

    Raises:
        ValueError: no such line.
    """
    found = COLLECTED.findall(stderr)
    if not found:
        raise ValueError("no callgrind 'Collected' line in the output")
    return int(found[-1].replace(",", ""))


def parse_steps(stdout: str) -> tuple[int, int]:
    """The steps and digest ``instructions.py`` printed (``steps N digest D``)."""
    match = STEPS.search(stdout)
    if match is None:
        raise ValueError(f"no 'steps … digest …' line in {stdout!r}")
    return int(match.group(1)), int(match.group(2))


def parse_calls(stdout: str) -> int:
    """The calls ``instructions.py --call`` printed (``calls N``)."""
    match = CALLS_MADE.search(stdout)
    if match is None:
        raise ValueError(f"no 'calls …' line in {stdout!r}")
    return int(match.group(1))


def valgrind_version() -> str:
    done = subprocess.run(["valgrind", "--version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def callgrind(args: list[str]) -> tuple[int, str]:
    """Run ``instructions.py ARGS`` under callgrind with ``PYTHONHASHSEED=0``: its total and standard output."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        str(SCRIPT),
        *args,
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return collected(done.stderr), done.stdout


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="seeded games a step's run plays (default 300)")
    parser.add_argument(
        "--flex-games", type=int, default=900, help="games of the second Flex 4 run; 0: none (default 900)"
    )
    parser.add_argument("--passes", type=int, default=10, help="passes a call's run makes (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="callgrind runs at once (default 2)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    report.add_result_options(parser, "instruction-steps and instruction-calls")
    return parser.parse_args(argv)


def bench(args: argparse.Namespace) -> dict[str, Any]:
    runs: dict[tuple[Any, ...], list[str]] = {}
    for rules, seats in STEP_CASES:
        for games in (args.games, 0):
            runs[("step", rules, seats, games)] = [rules, str(seats), str(games)]
    if args.flex_games > args.games:
        runs[("step", "flex", 4, args.flex_games)] = ["flex", "4", str(args.flex_games)]
    for name in CALLS:
        for passes in (args.passes, 0):
            runs[("call", name, passes)] = ["--call", name, CALL_RULES, str(CALL_SEATS), str(passes)]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        done = dict(zip(runs, pool.map(callgrind, runs.values()), strict=True))

    steps = []
    for rules, seats in STEP_CASES:
        total, out = done[("step", rules, seats, args.games)]
        start, _ = done[("step", rules, seats, 0)]
        count, digest = parse_steps(out)
        steps.append(
            {
                "rules": rules,
                "seats": seats,
                "first_game": 1,
                "games": args.games,
                "steps": count,
                "digest": digest,
                "instructions": total,
                "start_instructions": start,
                "per_step": (total - start) / count,
            }
        )
    if ("step", "flex", 4, args.flex_games) in done:
        total, out = done[("step", "flex", 4, args.flex_games)]
        start, before = done[("step", "flex", 4, args.games)]
        count, digest = parse_steps(out)
        earlier, _ = parse_steps(before)
        steps.append(
            {
                "rules": "flex",
                "seats": 4,
                "first_game": args.games + 1,
                "games": args.flex_games - args.games,
                "steps": count - earlier,
                "digest": digest,
                "instructions": total,
                "start_instructions": start,
                "per_step": (total - start) / (count - earlier),
            }
        )
    calls = []
    for name in CALLS:
        total, out = done[("call", name, args.passes)]
        start, _ = done[("call", name, 0)]
        made = parse_calls(out)
        calls.append(
            {
                "call": name,
                "rules": CALL_RULES,
                "seats": CALL_SEATS,
                "passes": args.passes,
                "calls": made,
                "instructions": total,
                "start_instructions": start,
                "per_call": (total - start) / made,
            }
        )
    facts = report.run_facts()
    return {
        "benchmark": "callgrind instructions of benchmarks/instructions.py",
        **facts,
        "valgrind": valgrind_version(),
        "hashseed": "0",
        "games": args.games,
        "passes": args.passes,
        "steps": steps,
        "calls": calls,
    }


def report_lines(result: dict[str, Any]) -> list[str]:
    rows = [["a step", "games", "steps", "instructions a step", "digest"]]
    for row in result["steps"]:
        last = row["first_game"] + row["games"] - 1
        rows.append(
            [
                f"{row['rules']} {row['seats']}",
                f"{row['first_game']}-{last}",
                str(row["steps"]),
                f"{row['per_step']:,.0f}",
                str(row["digest"]),
            ]
        )
    calls = [["a call", "rules", "calls", "instructions a call"]]
    for row in result["calls"]:
        calls.append([row["call"], f"{row['rules']} {row['seats']}", str(row["calls"]), f"{row['per_call']:,.0f}"])
    return [
        f"{report.facts_line(result)}; {result['valgrind']}, PYTHONHASHSEED={result['hashseed']}",
        "",
        *report.text_table(rows),
        "",
        *report.text_table(calls),
    ]


def main(argv: list[str] | None = None) -> int:
    return report.run(parse_args, bench, report_lines, argv, benchmark="instruction_counts")


if __name__ == "__main__":
    raise SystemExit(main())
