"""What the benchmarks of this folder share: a text table and the run of a benchmark's ``main``."""

from __future__ import annotations

import argparse
import json
import platform
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from unoengine import _build


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


def run_facts() -> dict[str, str]:
    """What every report says about its run: the day, the Python and the build measured."""
    return {"date": time.strftime("%Y-%m-%d"), "python": platform.python_version(), "build": _build.describe()}


def facts_line(report: dict[str, Any]) -> str:
    """A report's first line: the build, the Python and the day (from :func:`run_facts`)."""
    return f"unoengine {report['build']}, Python {report['python']}; {report['date']}"


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


def write_block(path: Path, name: str, block: str) -> None:
    """Replace the text between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` in the Markdown file ``path``
    with ``block``: how a benchmark writes its latest figures into the docs (``--write``).

    Raises:
        ValueError: the file has no such markers.
    """
    begin, end = f"<!-- {name}:begin -->\n", f"\n<!-- {name}:end -->"
    text = path.read_text(encoding="utf-8")
    if begin not in text or end not in text.split(begin, 1)[1]:
        raise ValueError(f"{path} has no {begin.strip()} … {end.strip()} block")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(head + begin + block + end + tail, encoding="utf-8")


UNMEASURED = {"--json": 0, "--write": 1}
"""Options that do not change what a benchmark measures, and how many values follow each."""


def shown_command(script: str, argv: Sequence[str], unmeasured: dict[str, int] = UNMEASURED) -> str:
    """The command a report shows for a run of ``benchmarks/SCRIPT``: its arguments without the ``unmeasured``
    options (``--json``, ``--write FILE``), a PostgreSQL URL as ``postgresql://…`` (the machine's, not the run's)."""
    kept: list[str] = []
    skip = 0
    for arg in argv:
        name = arg.split("=", 1)[0]
        if skip:
            skip -= 1
        elif name in unmeasured:
            skip = 0 if "=" in arg else unmeasured[name]
        else:
            kept.append(re.sub(r"postgres(?:ql)?://\S*", "postgresql://…", arg))
    return " ".join([f"python benchmarks/{script}", *kept])
