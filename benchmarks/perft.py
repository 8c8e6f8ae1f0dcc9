"""Perft as a benchmark of legal-move generation: nodes per second per position and rule set.

What it measures
    For every position of ``tests/perft/*.perft`` (or those whose id contains
    ``--match``), :func:`unoengine.core.perft.perft` at the deepest depth of the
    file whose count is at most ``--max-nodes`` (default 50,000), timed
    ``--runs`` times (median). Nodes are the count itself (the leaves, as
    Stockfish's ``go perft`` counts them); nodes/s is the count over the time.
    Positions are the inner nodes of the walk, where every seat's legal actions
    are generated (1 + perft 1 + … + perft depth-1, from the file): positions/s
    is the speed of legal-move generation, and tells more than nodes/s where a
    tree is narrow. Each count is also checked against the file, so a fast wrong
    answer shows. Per rule set: the totals over its positions.

    A perft walks every legal action of every seat: ``legal_actions`` at every
    node and ``apply_unchecked`` at every inner one, no bot, no view.

Usage
    python benchmarks/perft.py                 # about a minute
    python benchmarks/perft.py --quick         # a few seconds (--max-nodes 5000, one run)
    python benchmarks/perft.py --json          # one JSON object on stdout
    python benchmarks/perft.py --match duo     # only positions whose id contains "duo"
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for path in (HERE.parent / "src", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from report import add_result_options, facts_line, run, run_facts, text_table  # noqa: E402
from unoengine.core.perft import PerftCase, parse_perft, perft  # noqa: E402

PERFT_DIR = HERE.parent / "tests" / "perft"


def load_cases(match: str | None) -> list[tuple[str, PerftCase]]:
    """``(file stem, case)`` for every case of the files (whose id contains ``match``)."""
    out: list[tuple[str, PerftCase]] = []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        for case in parse_perft(path.read_text(encoding="utf-8")):
            if match is None or match in case.id:
                out.append((path.stem, case))
    return out


def bench(args: argparse.Namespace) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    for stem, case in load_cases(args.match):
        usable = [(depth, count) for depth, count in case.counts if 0 < count <= args.max_nodes]
        if not usable:
            continue
        depth, expected = usable[-1]
        by_depth = dict(case.counts)
        if any(d not in by_depth for d in range(1, depth)):
            continue
        positions = 1 + sum(by_depth[d] for d in range(1, depth))
        state = case.position()
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            count = perft(state, depth)
            times.append(time.perf_counter() - start)
            if count != expected:
                raise SystemExit(f"{case.id}: perft {depth} = {count}, the file says {expected}")
        seconds = statistics.median(times)
        rows.append(
            {
                "id": case.id,
                "file": stem,
                "rules": state.rules.name,
                "seats": state.seats,
                "depth": depth,
                "nodes": expected,
                "positions": positions,
                "seconds": seconds,
                "nodes_per_s": expected / seconds if seconds else None,
                "positions_per_s": positions / seconds if seconds else None,
            }
        )
    by_rules: dict[str, dict[str, float]] = {}
    for row in rows:
        group = by_rules.setdefault(row["rules"], {"nodes": 0, "positions": 0, "seconds": 0.0})
        group["nodes"] += row["nodes"]
        group["positions"] += row["positions"]
        group["seconds"] += row["seconds"]
    totals = {
        rules: {
            **group,
            "nodes_per_s": group["nodes"] / group["seconds"] if group["seconds"] else 0.0,
            "positions_per_s": group["positions"] / group["seconds"] if group["seconds"] else 0.0,
        }
        for rules, group in by_rules.items()
    }
    return {
        "benchmark": "perft of tests/perft/*.perft",
        **run_facts(),
        "max_nodes": args.max_nodes,
        "runs": args.runs,
        "seconds": round(time.perf_counter() - started, 1),
        "positions": rows,
        "rule_sets": totals,
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    out = [
        facts_line(report),
        f"perft at the deepest depth of at most {report['max_nodes']:,} nodes, median of {report['runs']} run(s)",
        "",
    ]
    rows = [["position", "rules", "seats", "depth", "nodes", "positions", "ms", "nodes/s", "positions/s"]]
    for row in report["positions"]:
        rows.append(
            [
                row["id"],
                row["rules"],
                str(row["seats"]),
                str(row["depth"]),
                f"{row['nodes']:,}",
                f"{row['positions']:,}",
                f"{row['seconds'] * 1000:,.1f}",
                f"{row['nodes_per_s']:,.0f}",
                f"{row['positions_per_s']:,.0f}",
            ]
        )
    for rules, group in report["rule_sets"].items():
        rows.append(
            [
                f"all {rules}",
                rules,
                "",
                "",
                f"{group['nodes']:,.0f}",
                f"{group['positions']:,.0f}",
                f"{group['seconds'] * 1000:,.1f}",
                f"{group['nodes_per_s']:,.0f}",
                f"{group['positions_per_s']:,.0f}",
            ]
        )
    out += text_table(rows)
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Perft nodes/s per position and rule set.")
    parser.add_argument("--max-nodes", type=int, default=50_000, help="the deepest depth of at most this count")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per position (median)")
    parser.add_argument("--match", help="only positions whose id contains this")
    parser.add_argument("--quick", action="store_true", help="--max-nodes 5000 --runs 1")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_result_options(parser, "perft-speed")
    args = parser.parse_args(argv)
    if args.quick:
        args.max_nodes, args.runs = 5_000, 1
    if args.max_nodes < 1 or args.runs < 1:
        parser.error("need --max-nodes >= 1 and --runs >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    return run(parse_args, bench, report_lines, argv, "perft")


if __name__ == "__main__":
    sys.exit(main())
