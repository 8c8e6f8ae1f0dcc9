"""What the benchmarks of this folder share: a text table and the run of a benchmark's ``main``."""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import render
from render import results_dir
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
    benchmark: str | None = None,
) -> int:
    """A benchmark's ``main``: run it, print the report as text or (``--json``) one JSON object; with ``--save``
    or ``--write FILE`` (:func:`add_result_options`) also write it as ``benchmarks/results/BENCHMARK.json``, and
    with ``--write`` rewrite the benchmark's block of FILE from that result."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    measured_on = machine()
    report = bench(args)
    print(json.dumps(report) if args.json else "\n".join(report_lines(report)))
    write = getattr(args, "write", None)
    if benchmark is not None and (getattr(args, "save", False) or write is not None):
        path = publish(benchmark, argv, report, measured_on, write)
        print(f"result written to {path}", file=sys.stderr)
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


# -- results: what a run leaves in benchmarks/results/ for the docs (benchmarks/render.py) --------------------

# Where the benchmarks write their results (``<benchmark>.json``; ``server_load.jsonl``: a line per command):
# ``render.results_dir()``, the one reading of ``$UNOENGINE_BENCHMARK_RESULTS`` (else ``benchmarks/results``).


SCHEMA = 1
"""The version of a result's layout (see :func:`result`)."""

RESULT_OPTIONS = {"--json": 0, "--write": 1, "--save": 0}
"""Options of the ``report.run`` benchmarks that change nothing measured (left out of a result's command)."""


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``; ``platform.processor()`` elsewhere), or ``unknown``."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load_average() -> list[float]:
    """The machine's load averages over 1, 5 and 15 minutes (empty where the system has none)."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except (AttributeError, OSError):
        return []


def busy_note(load: Sequence[float], cores: int | None, after: Sequence[float] = ()) -> str:
    """What a result says of a shared machine: its load at the start (and end) set beside its cores ('' when
    quiet)."""
    highest = max([*load[:1], *after[:1]], default=0.0)
    if not cores or highest < 0.25 * cores:
        return ""
    end = f", {after[0]:.1f} at the end" if after else ""
    return (
        f"a shared machine, busy with other work: load average {load[0] if load else 0:.1f} on {cores} cores at the"
        f" start{end} (the absolute figures are a floor; ratios measured side by side move less)"
    )


def machine() -> dict[str, Any]:
    """The machine a result was measured on: CPU model, cores, OS, Python, the build, the load at the start."""
    load = load_average()
    cores = os.cpu_count()
    return {
        "cpu": cpu_model(),
        "cores": cores,
        "os": f"{platform.system()} {platform.release()} {platform.machine()}",
        "python": platform.python_version(),
        "build": _build.describe(),
        "load": load,
        "notes": busy_note(load, cores),
    }


def invocation(script: str, argv: Sequence[str]) -> str:
    """The command line exactly as run (every option, ``--write`` included), a PostgreSQL URL as ``postgresql://…``."""
    args = [re.sub(r"postgres(?:ql)?://\S*", "postgresql://…", arg) for arg in argv]
    return " ".join([f"python benchmarks/{script}", *(shlex.quote(arg) for arg in args)])


def result(
    benchmark: str,
    argv: Sequence[str],
    figures: dict[str, Any],
    measured_on: dict[str, Any] | None = None,
    unmeasured: dict[str, int] = RESULT_OPTIONS,
    script: str | None = None,
) -> dict[str, Any]:
    """A run's result as ``benchmarks/results/<benchmark>.json`` holds it (the layout the docs are rendered from):

    ``schema``, ``benchmark``; ``command`` (what was measured: :func:`shown_command`) and ``invocation`` (the
    command line as typed); ``date`` (``YYYY-MM-DD``) and ``time`` (UTC, ISO 8601); ``machine`` (:func:`machine`,
    taken at the start of the run: ``measured_on``); ``source`` (``"run"``, or where imported figures came from);
    ``figures`` (what the benchmark's ``--json`` prints). ``script``: the benchmark's file, if not ``BENCHMARK.py``.
    """
    script = script or f"{benchmark}.py"
    now = time.gmtime()
    return {
        "schema": SCHEMA,
        "benchmark": benchmark,
        "command": shown_command(script, argv, unmeasured),
        "invocation": invocation(script, argv),
        "date": time.strftime("%Y-%m-%d", now),
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", now),
        "machine": measured_on if measured_on is not None else machine(),
        "source": "run",
        "figures": figures,
    }


def result_path(benchmark: str, results: Path | None = None) -> Path:
    """The file of a benchmark's result (in :func:`results_dir` unless ``results`` is given)."""
    return (results if results is not None else results_dir()) / f"{benchmark}.json"


def save_result(record: dict[str, Any], path: Path | None = None) -> Path:
    """Write ``record`` (from :func:`result`) to ``path`` (by default ``benchmarks/results/<benchmark>.json``)."""
    path = path if path is not None else result_path(record["benchmark"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def add_result_options(parser: argparse.ArgumentParser, block: str) -> None:
    """``--save`` (write the JSON result) and ``--write FILE`` (write it, then rewrite the ``block`` block of FILE)."""
    parser.add_argument("--save", action="store_true", help="write the JSON result to benchmarks/results/")
    parser.add_argument(
        "--write",
        type=Path,
        metavar="FILE",
        help=f"write the JSON result, then rewrite the {block} block of this Markdown file from it",
    )


def publish(
    benchmark: str,
    argv: Sequence[str],
    figures: dict[str, Any],
    measured_on: dict[str, Any],
    write: Path | None,
    unmeasured: dict[str, int] = RESULT_OPTIONS,
    script: str | None = None,
) -> Path:
    """Save a run's result and, with ``write``, rewrite its blocks of that file (``benchmarks/render.py``).

    Raises:
        ValueError: the file has no block of the benchmark (the result is saved all the same).
    """
    after = load_average()
    cores = measured_on.get("cores")
    measured_on = {**measured_on, "load_after": after, "notes": busy_note(measured_on.get("load") or [], cores, after)}
    path = save_result(result(benchmark, argv, figures, measured_on, unmeasured, script))
    if write is not None:
        render.write_file(write, path.parent, only={benchmark})
    return path
