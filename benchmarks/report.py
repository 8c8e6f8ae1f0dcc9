"""What the benchmarks of this folder share: a text table and the run of a benchmark's ``main``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any


def text_table(rows: Sequence[Sequence[str]], left: int = 2) -> list[str]:
    """The lines of a table: the first ``left`` columns aligned left, the others right; a rule under the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = zip(row, widths, strict=True)
        out.append("  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(cells)))
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def run(
    parse_args: Callable[[list[str] | None], argparse.Namespace],
    bench: Callable[[argparse.Namespace], dict[str, Any]],
    report_lines: Callable[[dict[str, Any]], list[str]],
    argv: list[str] | None,
) -> int:
    """A benchmark's ``main``: run it, print the report as text or (``--json``) one JSON object."""
    args = parse_args(argv)
    report = bench(args)
    print(json.dumps(report) if args.json else "\n".join(report_lines(report)))
    return 0
