"""The docs' benchmark figures, rendered from the JSON results in ``benchmarks/results/``: no figure pasted by hand.

Every benchmark that produces figures for the docs writes its result (the figures, the machine, the date and
the command: ``benchmarks/report.py``, :func:`report.result`) to ``benchmarks/results/<benchmark>.json``
(``server_load.jsonl``: a line per command, a table row each). A Markdown file holds a benchmark's figures
between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``; this fills every such block it knows (:data:`BLOCKS`)
from the results, the benchmark's text followed by a line naming the result's command, date and machine.
Blocks of other names (``docs/RL.md``'s tables, ``src/unoengine/rl/tables.py``) are left alone.

  python benchmarks/render.py --write docs/PERFORMANCE.md            # fill its blocks from the results
  python benchmarks/render.py --check --write docs/PERFORMANCE.md    # exit 1 if a block differs from them
  python benchmarks/render.py --check                                # README.md and docs/*.md with a block
  python benchmarks/render.py --list                                 # the blocks and their results

A benchmark's own ``--write FILE`` writes its result, then renders its block of FILE with this module. A block
whose result is missing (or unreadable) is left as it is and named, with the command that makes its result;
the exit status is then 1.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results"
RESULTS_VARIABLE = "UNOENGINE_BENCHMARK_RESULTS"


def results_dir() -> Path:
    """The results folder: ``$UNOENGINE_BENCHMARK_RESULTS`` if set (the tests' runs), else ``benchmarks/results``."""
    return Path(os.environ.get(RESULTS_VARIABLE) or RESULTS)


Result = dict[str, Any]


class MissingResult(Exception):
    """A block's result file is missing or cannot be read; the message names the benchmark and what to run."""


# -- each block's text, from its result ---------------------------------------------------------------------


def figures_of(run: Result) -> Result:
    """A result's figures with its ``command`` and ``date`` (a result file's envelope, or a flat older record)."""
    figures = run.get("figures")
    if not isinstance(figures, dict):
        return run
    return {**figures, "command": run.get("command"), "date": run.get("date")}


def _ms(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def server_load_table(runs: list[Result]) -> str:
    """``server-load``: a table, a row per command (in the results file's order)."""
    lines = [
        "| command | date | load before → after | others' cores | actions/s | server CPU an action "
        "| end to end p50 / p99 | in the server p50 / p99 | commit p50 / p99 | clients' lag p99 | errors "
        "| setup + deal |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for one in runs:
        run = figures_of(one)
        cells = [
            f"`{run['command']}`",
            run["date"],
            f"{run['load_before'][0]:.1f} → {run['load_after'][0]:.1f}",
            f"{run['others_cpu']:.2f}",
            f"{run['actions_per_s']:,.0f}",
            f"{run['server_cpu_ms_per_action']:.2f} ms",
            f"{_ms(run['p50_ms'])} / {_ms(run['p99_ms'])} ms",
            f"{_ms(run['server_p50_ms'])} / {_ms(run['server_p99_ms'])} ms",
            f"{_ms(run['commit_p50_ms'])} / {_ms(run['commit_p99_ms'])} ms",
            f"{_ms(run['client_lag_p99_ms'])} ms",
            str(run["errors"]),
            f"{run['setup_s']:.1f} + {run['deal_s']:.1f} s",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _load(machine: Result) -> float:
    load = machine.get("load") or [0.0]
    return float(load[0])


def server_actor_text(result: Result) -> str:
    """``server-actor``: one sentence, the CPU of an action without sockets."""
    figures, machine = result["figures"], result["machine"]
    return (
        f"Measured {result['date']} with `{result['command']}` ({machine['build']}, {machine['cores']} cores, load"
        f" {_load(machine):.1f}): **{figures['cpu_us_per_action'] / 1000:.2f} ms of CPU an action** for the"
        f" table's own work and its commit, {figures['tables']} tables, {figures['actions_per_commit']:.0f} actions"
        " a commit."
    )


def analyze_text(result: Result) -> str:
    """``analyze-speed``: the command, the machine, the time and marks at each budget, the marks that moved."""
    figures, machine = result["figures"], result["machine"]
    lines = [
        f"Measured {result['date']} with `{result['command']}` ({machine['build']}, Python {machine['python']}, "
        f"{machine['cores']} cores, load {_load(machine):.1f}): a game of {figures['actions']} actions and "
        f"{figures['decisions']} reviewed decisions.",
        "",
        f"| budget (deals a decision) | seconds, `--jobs {figures['jobs']}` | inaccuracies | mistakes | blunders |",
        "|---:|---:|---:|---:|---:|",
    ]
    for run in figures["runs"]:
        marks = run["marks"]
        lines.append(
            f"| {run['iterations']:,} | {run['seconds']:.1f} | {marks['inaccuracy']} | {marks['mistake']} |"
            f" {marks['blunder']} |"
        )
    lines += [
        "",
        f"Doubling the budget changed {figures['marks_changed']} mark(s) of {figures['decisions']}; the drop"
        f" moved by {figures['mean_drop_change']} on average and {figures['max_drop_change']} at most.",
    ]
    return "\n".join(lines)


def notify_commit_text(result: Result) -> str:
    """``notify-commit``: the raw commits with and without ``NOTIFY``, and the store's group commit."""
    report = result["figures"]
    before, after = report["load_before"][0], report["load_after"][0]
    lines = [
        f"Measured {result['date']} with `{result['command']}` ({report['cores']} cores, load {before} → {after}):",
        "",
        "| writers | commits/s without `NOTIFY` | with `NOTIFY` | commit p99 without / with |",
        "|---:|---:|---:|---:|",
    ]
    cases = {(row["connections"], row["notify"]): row for row in report["cases"]}
    for connections in sorted({row["connections"] for row in report["cases"]}):
        plain, notified = cases[(connections, False)], cases[(connections, True)]
        lines.append(
            f"| {connections} | {plain['commits_per_s']:,.0f} | {notified['commits_per_s']:,.0f} |"
            f" {plain['commit_p99_ms']} / {notified['commit_p99_ms']} ms |"
        )
    if report["store"]:
        lines += [
            "",
            "| tables appending through `PostgresStore` | actions/s | transactions/s | actions a transaction |"
            " append p50 / p99 |",
            "|---:|---:|---:|---:|---:|",
        ]
        for row in report["store"]:
            lines.append(
                f"| {row['store_tables']:,} | {row['actions_per_s']:,.0f} | {row['transactions_per_s']:,.0f} |"
                f" {row['actions_per_transaction']} | {row['append_p50_ms']} / {row['append_p99_ms']} ms |"
            )
    return "\n".join(lines)


RL_LABELS = {
    "rlcard_env": "RLCard `env.run` (random agents)",
    "rlcard_engine": "RLCard bare `UnoGame`",
    "aec": "ours AEC (`env`, PettingZoo API)",
    "gym": "ours Gymnasium (`SingleAgentEnv` vs `random`)",
    "vector_bots": "ours `VectorEnv(256)` vs `random` inside",
}
RL_PARTS = {
    "engine_and_offers": "the engine's step and the offers (`Match.take_id`)",
    "observation": "the observation writer",
    "mask": "the mask writer",
    "clear": "clearing the arrays (NumPy)",
    "agent": "the agent (`sample_actions`)",
    "env_step": "all of `env.step` and the agent",
}
RL_AEC_PARTS = {
    "aec_step": "a step of the AEC side",
    "aec_agent": "its agent alone (`np.flatnonzero` on the mask and `Generator.choice`)",
}


def rl_label(name: str) -> str:
    if name.startswith("vector_") and name != "vector_bots":
        return f"ours `VectorEnv({name.removeprefix('vector_')})`, self-play"
    return RL_LABELS[name]


def rl_speed_markdown(report: Result, command: str) -> str:
    """``rl-speed``'s text from one run's report (``benchmarks/rl_env.py --json``) and its command."""
    ratios = report["vs_rlcard_env"] or {}
    targets = report["targets"] or {}
    lines = [
        f"Measured {report['date']} with `{command}`: Classic, 2 seats, {report['build']} build, Python "
        f"{report['python']}, NumPy {report['numpy']}, RLCard {report['rlcard'] or 'not measured'}; "
        f"{report['repetitions']} alternating slices of {report['slice_seconds']} s per side (medians); "
        f"{report['cpus']} cores, load average {report['load']} at the start (a shared machine: the absolute "
        "figures move from run to run, the ratios much less).",
        "",
        "| side | steps/s | × RLCard env | target |",
        "|---|---:|---:|---|",
    ]
    for name, value in report["steps_per_s"].items():
        ratio = f"{ratios[name]:.2f}" if name in ratios else "n/a"
        target = targets.get(name)
        verdict = "" if target is None else f"≥ {target['target']:g}×: {'met' if target['met'] else '**missed**'}"
        lines.append(f"| {rl_label(name)} | {value:,.0f} | {ratio} | {verdict} |")
    parts = report["breakdown_us_per_game_step"]
    if parts:
        shown = "; ".join(f"{RL_PARTS[name]} {parts[name]:.2f}" for name in RL_PARTS)
        aec = "; ".join(f"{RL_AEC_PARTS[name]} {parts[name]:.2f}" for name in RL_AEC_PARTS)
        lines += [
            "",
            f"Where a step of `VectorEnv(256)` goes, µs a game-step: {shown}. The AEC side, µs: {aec}.",
        ]
    return "\n".join(lines)


def rl_speed_text(result: Result) -> str:
    return rl_speed_markdown(result["figures"], result["command"])


def text_report(script: str) -> Callable[[Result], str]:
    """A block of a ``report.run`` benchmark: its own text report (``report_lines``) as a code block."""

    def render(result: Result) -> str:
        module = _benchmark_module(script)
        return "```text\n" + "\n".join(module.report_lines(result["figures"])).rstrip() + "\n```"

    return render


def _benchmark_module(script: str) -> Any:
    name = f"unoengine_benchmark_{script}"
    if name in sys.modules:
        return sys.modules[name]
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    spec = importlib.util.spec_from_file_location(name, HERE / f"{script}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# -- the blocks ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A block of the docs: the benchmark that makes it, its results file, its text, and the command to run."""

    benchmark: str
    text: Callable[[Any], str]
    command: str
    history: bool = False  # a JSON-lines file of results, one per command (the block: all of them)

    @property
    def file(self) -> str:
        return f"{self.benchmark}.jsonl" if self.history else f"{self.benchmark}.json"


BLOCKS: dict[str, Block] = {
    "server-load": Block(
        "server_load",
        server_load_table,
        "python benchmarks/server_load.py --tables 1000 --seconds 30 --pace human",
        history=True,
    ),
    "server-actor": Block("server_actor", server_actor_text, "python benchmarks/server_actor.py"),
    "notify-commit": Block(
        "notify_commit",
        notify_commit_text,
        "python benchmarks/notify_commit.py --db postgresql://… --connections 1 4 16 --seconds 4"
        " --store-tables 100 1000",
    ),
    "rl-speed": Block("rl_env", rl_speed_text, "python benchmarks/rl_env.py --breakdown"),
    "analyze-speed": Block("analyze", analyze_text, "python benchmarks/analyze.py"),
    "engine-speed": Block("engine", text_report("engine"), "python benchmarks/engine.py --reps 8"),
    "engine-pure-speed": Block(
        "engine_pure",
        text_report("engine"),
        "python benchmarks/engine.py --pure --reps 4 --slice 0.4 --case classic:2 --case classic:4",
    ),
    "batch-speed": Block("batch", text_report("batch"), "python benchmarks/batch.py"),
    "perft-speed": Block("perft", text_report("perft"), "python benchmarks/perft.py"),
}
"""Every block this renders, by its marker name."""


def read_results(block: Block, results: Path | None = None) -> Any:
    """A block's result (a list of them for a history file).

    Raises:
        MissingResult: the file is missing, empty or not JSON.
    """
    path = (results if results is not None else results_dir()) / block.file
    shown = _shown(path)
    if not path.exists():
        raise MissingResult(f"{shown} is missing")
    try:
        text = path.read_text(encoding="utf-8")
        if block.history:
            runs = [json.loads(line) for line in text.splitlines() if line.strip()]
            if not runs:
                raise MissingResult(f"{shown} holds no result")
            return runs
        return json.loads(text)
    except (OSError, ValueError) as error:
        raise MissingResult(f"{shown} cannot be read: {error}") from error


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def machine_text(machine: Result) -> str:
    """A machine in words: its CPU, cores, OS, Python and build (what a result recorded of them)."""
    cpu, cores = machine.get("cpu"), machine.get("cores")
    parts = []
    if cpu:
        parts.append(f"{cpu} ({cores} cores)" if cores else str(cpu))
    elif cores:
        parts.append(f"{cores} cores")
    for key, shown in (("os", "{}"), ("python", "Python {}"), ("build", "{}")):
        if machine.get(key):
            parts.append(shown.format(machine[key]))
    missing = [name for key, name in (("cpu", "CPU model"), ("os", "OS")) if not machine.get(key)]
    text = ", ".join(parts) or "machine not recorded"
    if missing and parts:
        text += f" ({' and '.join(missing)} not recorded)"
    if machine.get("notes"):
        text += f"; {machine['notes']}"
    return text


def _when(result: Result) -> str:
    stamp = result.get("time")
    if isinstance(stamp, str) and len(stamp) >= 16:
        return f"{stamp[:10]} {stamp[11:16]} UTC"
    return str(result.get("date"))


def provenance(block: Block, data: Any, path: Path) -> str:
    """The line under a block: its result file ``path``, and the command, date and machine of the result(s)."""
    where = _shown(path)
    if block.history:
        machines: dict[str, list[str]] = {}
        sources: list[str] = []
        for run in data:
            machines.setdefault(machine_text(run.get("machine") or {}), []).append(run.get("date", "?"))
            source = run.get("source", "run")
            if source != "run" and source not in sources:
                sources.append(source)
        said = (
            "; ".join(machines)
            if len(machines) == 1
            else "; ".join(f"{text} ({', '.join(sorted(set(dates)))})" for text, dates in machines.items())
        )
        origin = f"; {'; '.join(sources)}" if sources else ""
        return f"Results: `{where}`, a line per command (its date in its row){origin}; measured on {said}."
    source = data.get("source", "run")
    origin = "" if source == "run" else f" ({source})"
    return (
        f"Result: `{where}`{origin}: `{data['command']}`, {_when(data)}, on {machine_text(data.get('machine') or {})}."
    )


def render_block(name: str, data: Any, path: Path | None = None) -> str:
    """The text of the block ``name`` from its result(s) ``data`` (read from ``path``, by default its file in
    ``benchmarks/results/``): the benchmark's text, then its provenance.

    Raises:
        MissingResult: a result lacks a field the text needs.
    """
    block = BLOCKS[name]
    path = path if path is not None else results_dir() / block.file
    try:
        body = block.text(data)
        line = provenance(block, data, path)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as error:
        raise MissingResult(f"{_shown(path)} lacks what the block needs ({error!r})") from error
    return f"{body}\n\n{line}"


def block_text(name: str, results: Path | None = None) -> str:
    """The text of the block ``name`` from ``results`` (:func:`render_block` of :func:`read_results`)."""
    results = results if results is not None else results_dir()
    return render_block(name, read_results(BLOCKS[name], results), results / BLOCKS[name].file)


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- {re.escape(name)}:begin -->\n)(.*?)(\n<!-- {re.escape(name)}:end -->)", re.S)


def blocks_in(text: str) -> list[str]:
    """The known blocks that ``text`` holds, in :data:`BLOCKS`' order."""
    return [name for name in BLOCKS if _pattern(name).search(text)]


@dataclass
class Rendered:
    """A file's text with its blocks rendered; which blocks changed, and the errors (blocks left as they were)."""

    old: str
    new: str
    blocks: list[str]
    changed: list[str]
    errors: list[str]


def render_text(
    text: str, target: str = "FILE", results: Path | None = None, only: Iterable[str] | None = None
) -> Rendered:
    """``text`` with every known block (of the benchmarks ``only``, if given) filled from ``results``."""
    wanted = set(only) if only is not None else None
    new = text
    blocks, changed, errors = [], [], []
    for name in blocks_in(text):
        block = BLOCKS[name]
        if wanted is not None and block.benchmark not in wanted:
            continue
        blocks.append(name)
        try:
            body = block_text(name, results)
        except MissingResult as error:
            errors.append(
                f"{target}: the {name} block (benchmark {block.benchmark}) has no result: {error};"
                f" run `{block.command} --write {target}` to measure it and write it"
            )
            continue
        pattern = _pattern(name)
        if any(match.group(2) != body for match in pattern.finditer(new)):
            changed.append(name)
        new = pattern.sub(lambda match, body=body: match.group(1) + body + match.group(3), new)
    return Rendered(text, new, blocks, changed, errors)


def write_file(path: Path, results: Path | None = None, only: Iterable[str] | None = None) -> Rendered:
    """Fill ``path``'s blocks (of the benchmarks ``only``) from ``results`` and write it back if it changed.

    Raises:
        ValueError: ``only`` was given and the file has no block of those benchmarks.
        MissingResult: a block's result is missing (the other blocks are written first).
    """
    text = path.read_text(encoding="utf-8")
    rendered = render_text(text, str(path), results, only)
    if only is not None and not rendered.blocks:
        names = [name for name, block in BLOCKS.items() if block.benchmark in set(only)]
        markers = " or ".join(f"<!-- {name}:begin --> … <!-- {name}:end -->" for name in names)
        raise ValueError(f"{path} has no {markers} block")
    if rendered.new != text:
        path.write_text(rendered.new, encoding="utf-8")
    if rendered.errors:
        raise MissingResult("\n".join(rendered.errors))
    return rendered


def discover(root: Path = REPO) -> list[Path]:
    """The Markdown files that hold a known block: ``README.md`` and ``docs/*.md``."""
    candidates = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    return [path for path in candidates if path.is_file() and blocks_in(path.read_text(encoding="utf-8"))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--write",
        type=Path,
        action="append",
        metavar="FILE",
        help="a Markdown file whose blocks to fill (repeatable; default: README.md and docs/*.md with a block)",
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block differs")
    parser.add_argument("--results", type=Path, default=None, help="the results folder (benchmarks/results)")
    parser.add_argument("--list", action="store_true", help="the blocks, their results and their commands")
    args = parser.parse_args(argv)
    args.results = args.results if args.results is not None else results_dir()
    if args.list:
        for name, block in BLOCKS.items():
            present = "present" if (args.results / block.file).exists() else "MISSING"
            print(f"{name:<18} {block.file:<20} {present:<8} {block.command}")
        return 0
    files = args.write or discover()
    if not files:
        print("no Markdown file with a benchmark block (README.md, docs/*.md)", file=sys.stderr)
        return 1
    status = 0
    for path in files:
        if not path.is_file():
            print(f"{path}: no such file", file=sys.stderr)
            status = 1
            continue
        text = path.read_text(encoding="utf-8")
        rendered = render_text(text, str(path), args.results)
        for error in rendered.errors:
            print(error, file=sys.stderr)
            status = 1
        if not rendered.blocks:
            print(f"{path}: no benchmark block (known: {', '.join(BLOCKS)})", file=sys.stderr)
            status = 1
        elif args.check:
            for name in rendered.changed:
                status = 1
                print(f"{path}: the {name} block differs from its result (python benchmarks/render.py --write {path})")
            if rendered.changed:
                diff = difflib.unified_diff(
                    text.splitlines(), rendered.new.splitlines(), f"{path}", "rendered", lineterm="", n=1
                )
                print("\n".join(diff))
        else:
            if rendered.new != text:
                path.write_text(rendered.new, encoding="utf-8")
            changed = ", ".join(rendered.changed) or "none"
            print(f"{path}: {len(rendered.blocks)} block(s) ({', '.join(rendered.blocks)}); changed: {changed}")
    return status


if __name__ == "__main__":
    sys.exit(main())
