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
    "aec": "ours AEC (`env`, PettingZoo API), our agent (`sample_action`)",
    "aec_textbook": "ours AEC, the textbook agent (`rng.choice(np.flatnonzero(mask))`)",
    "gym": "ours Gymnasium (`SingleAgentEnv` vs `random`), our agent (`sample_action`)",
    "gym_textbook": "ours Gymnasium, the textbook agent",
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
    "aec_step": "a step of the AEC side (with our agent)",
    "aec_agent": "our agent alone (`sample_action`)",
    "textbook_agent": "the textbook agent alone (`np.flatnonzero` on the mask and `Generator.choice`)",
    "rlcard_agent": "RLCard's `RandomAgent.step` alone",
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
        aec = "; ".join(f"{RL_AEC_PARTS[name]} {parts[name]:.2f}" for name in RL_AEC_PARTS if name in parts)
        lines += [
            "",
            f"Where a step of `VectorEnv(256)` goes, µs a game-step: {shown}. The AEC side, µs: {aec}.",
        ]
    return "\n".join(lines)


def rl_speed_text(result: Result) -> str:
    return rl_speed_markdown(result["figures"], result["command"])


def rl_headline_text(result: Result) -> str:
    """``rl-headline``: the README's two lines of the RL environments' speed and where a vector step goes."""
    report = result["figures"]
    ratios = report["vs_rlcard_env"] or {}
    if not ratios:
        return f"Not measured against RLCard in the last run (`{result['command']}`)."
    targets = report["targets"] or {}

    def shown(name: str, label: str) -> str:
        target = targets.get(name)
        verdict = "" if target is None else f" (target {target['target']:g}×: {'met' if target['met'] else 'missed'})"
        return f"{label} **{ratios[name]:.1f}×**{verdict}"

    sides = [("aec", "the AEC env"), ("gym", "the Gymnasium env against `random`")]
    sides += [(name, f"`VectorEnv({name.removeprefix('vector_')})`") for name in ratios if name[7:].isdigit()]
    lines = [
        f"Steps per second over RLCard {report['rlcard']}'s UNO env, side by side in one process "
        f"({report['date']}, {report['cpus']} cores, `{result['command']}`): "
        + ", ".join(shown(name, label) for name, label in sides if name in ratios)
        + (
            "; each side with its own random agent (with `rng.choice(np.flatnonzero(mask))` instead, the AEC env "
            f"{ratios['aec_textbook']:.1f}×)."
            if "aec_textbook" in ratios
            else "; random masked agents."
        )
    ]
    parts = report["breakdown_us_per_game_step"]
    if parts:
        lines.append(
            f"A step of `VectorEnv(256)`, {parts['env_step']:.2f} µs a game with the agent: the engine and the "
            f"offers {parts['engine_and_offers']:.2f}, the observation {parts['observation']:.2f}, the mask "
            f"{parts['mask']:.2f}, the agent {parts['agent']:.2f}."
        )
    return "\n".join(lines)


# -- engine.py, batch.py, perft.py: Markdown tables from their results ----------------------------------------

RULES_TITLES = {"classic": "Classic", "duo": "Duo", "flex": "Flex", "nomercy": "No Mercy"}


def _case_title(case: str) -> str:
    """``classic 2`` as ``Classic 2``."""
    rules, _, seats = case.partition(" ")
    return f"{RULES_TITLES.get(rules, rules.title())} {seats}".strip()


def _num(value: float | None, digits: int = 0) -> str:
    return "" if value is None else f"{value:,.{digits}f}"


def _x(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}×"


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def _span(values: list[float], digits: int = 2, unit: str = "×") -> str:
    """The range of ``values`` (``1.23–1.45×``, or one figure)."""
    low, high = f"{min(values):.{digits}f}", f"{max(values):.{digits}f}"
    return f"{low}{unit}" if low == high else f"{low}–{high}{unit}"


def _met(ok: bool) -> str:
    return "met" if ok else "**missed**"


def _load_span(machine: Result) -> str:
    before, after = (machine.get("load") or [None])[0], (machine.get("load_after") or [None])[0]
    if before is None:
        return "load not recorded"
    return f"load average {before:.1f}" + ("" if after is None else f" → {after:.1f}")


ENGINE_COLUMNS = (
    ("apply", "ours `apply`", ("ratios", "ratios_reseeded")),
    ("unchecked", "`apply_unchecked`", ("ratios",)),
    ("simulate", "`simulate`", ("ratios",)),
    ("table", "`Table.run_bots`", ("ratios",)),
    ("play_out", "`Table.play_out`", ("ratios",)),
)
"""engine.py's sides in the table's columns: the side, its heading, its ratio columns (× RLCard seeded once, ×′
reseeded per game)."""


def engine_table(figures: Result) -> list[str]:
    """engine.py's steps/s and games/s, a row each per case: RLCard's two loops, ours, and the ratios."""
    head = ["case", "RLCard", "RLCard reseeded"]
    for _, title, ratios in ENGINE_COLUMNS:
        head += [title, *("×′" if key == "ratios_reseeded" else "×" for key in ratios)]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for case in figures["cases"]:
        sides = case["sides"]
        for unit, key in (("steps/s", "steps_per_s"), ("games/s", "games_per_s")):
            cells = [f"{_case_title(case['case'])}, {unit}"]
            for anchor in ("rlcard", "rlcard_reseed"):
                cells.append(_num((sides.get(anchor) or {}).get(key)))
            for name, _, ratios in ENGINE_COLUMNS:
                cells.append(_num((sides.get(name) or {}).get(key)))
                for ratio in ratios:
                    cells.append(_num((case.get(ratio, {}).get(name) or {}).get(key), 2))
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def _engine_heading(result: Result) -> str:
    figures, machine = result["figures"], result["machine"]
    rlcard = (
        f"RLCard {figures['rlcard_version']} (NumPy {figures['numpy_version']})"
        if figures.get("rlcard_version")
        else "RLCard not measured"
    )
    return (
        f"Measured {_when(result)} with `{result['command']}` ({figures['build']}, Python {figures['python']},"
        f" {machine.get('cores')} cores, {_load_span(machine)}; {rlcard}): {figures['repetitions']} alternating"
        f" slices of {figures['slice_seconds']:g} s per side and case, medians, per second of the process's CPU time."
        " × is ours over RLCard seeded once, ×′ over RLCard reseeded per game."
    )


def _vs_loop(figures: Result, key: str) -> list[float]:
    return [case[key]["unchecked"] for case in figures["cases"] if "unchecked" in case.get(key, {})]


def _loop_sentence(figures: Result) -> str:
    names = _listed([_case_title(case["case"]) for case in figures["cases"]])
    parts = []
    for key, title in (
        ("play_out_vs_loop", "`Table.play_out`"),
        ("simulate_vs_loop", "`simulate`"),
        ("table_vs_loop", "`Table.run_bots`"),
    ):
        values = _vs_loop(figures, key)
        if values:
            parts.append(f"{title} at {_listed([f'{value:.2f}×' for value in values])}")
    if not parts:
        return ""
    return f"Against the `apply_unchecked` loop, slice by slice ({names}): {'; '.join(parts)}."


def _step_costs(figures: Result) -> list[tuple[str, str, float]]:
    """(case, its Classic case, its µs per step over the Classic case's) for Duo 2 and Flex 4."""
    by_case = {case["case"]: case for case in figures["cases"]}
    out = []
    for other, classic in (("duo 2", "classic 2"), ("flex 4", "classic 4")):
        if other in by_case and classic in by_case:
            mine, base = by_case[other]["sides"].get("apply"), by_case[classic]["sides"].get("apply")
            if mine and base:
                out.append((other, classic, base["steps_per_s"] / mine["steps_per_s"]))
    return out


def engine_speed_text(result: Result) -> str:
    """``engine-speed``: the heading, the steps/s and games/s table, the batch loops against the bare loop."""
    figures = result["figures"]
    lines = [_engine_heading(result), "", *engine_table(figures)]
    loops = _loop_sentence(figures)
    costs = _step_costs(figures)
    if costs:
        said = " and ".join(
            f"{_case_title(other)}'s µs per step was {cost:.2f}× {_case_title(classic)}'s"
            for other, classic, cost in costs
        )
        loops = f"{loops} {said[0].upper()}{said[1:]}." if loops else f"{said[0].upper()}{said[1:]}."
    steps = _steps_a_game(figures)
    if steps:
        loops = f"{loops} {steps}" if loops else steps
    if loops:
        lines += ["", loops]
    return "\n".join(lines)


def _steps_a_game(figures: Result) -> str:
    """Steps a game, ours through ``apply`` against RLCard's (seeded once), in the cases with RLCard."""
    ours, theirs, names = [], [], []
    for case in figures["cases"]:
        mine, rlcard = case["sides"].get("apply"), case["sides"].get("rlcard")
        if mine and rlcard and mine.get("steps_per_game") and rlcard.get("steps_per_game"):
            names.append(_case_title(case["case"]))
            ours.append(f"{mine['steps_per_game']:.1f}")
            theirs.append(f"{rlcard['steps_per_game']:.1f}")
    if not names:
        return ""
    return f"Steps a game ({_listed(names)}): ours {_listed(ours)} through `apply`, RLCard's {_listed(theirs)}."


MICRO_COLUMNS = (
    ("legal_actions_us", "`legal_actions`", 2),
    ("apply_us", "`apply`", 2),
    ("apply_unchecked_us", "`apply_unchecked`", 2),
    ("view_for_us", "`view_for`", 2),
    ("legal_mask_us", "`legal_mask`", 2),
    ("determinize_us", "`determinize`", 2),
    ("determinize_sample_us", "`sample`", 2),
    ("pickle_round_trip_us", "pickle round trip", 2),
    ("deepcopy_us", "`deepcopy`", 2),
    ("bytes_per_live_state", "bytes/state", 0),
)


def engine_calls_text(result: Result) -> str:
    """``engine-calls``: engine.py's µs a call and bytes a live state, a row per case."""
    figures = result["figures"]
    cases = figures["cases"]
    micro = cases[0]["micro"]
    lines = [
        f"µs of CPU a call over {micro['states']:,} sampled states a case, bytes a state over {micro['live_states']:,}"
        f" kept states ({figures['build']}, the run of {_when(result)}):",
        "",
        "| case | " + " | ".join(title for _, title, _ in MICRO_COLUMNS) + " |",
        "|---|" + "---:|" * len(MICRO_COLUMNS),
    ]
    for case in cases:
        cells = [_num(case["micro"].get(key), digits) for key, _, digits in MICRO_COLUMNS]
        lines.append(f"| {_case_title(case['case'])} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def engine_targets_text(result: Result) -> str:
    """``engine-targets``: each target of engine.py's run, its figures and whether it was met."""
    figures = result["figures"]
    targets = figures["targets"]
    cases = figures["cases"]
    lines = [f"In the run of {_when(result)} (through `legal_actions` + `apply` unless said):", ""]
    classic = [case for case in cases if case.get("ratios", {}).get("apply")]
    for key, unit, target in (
        ("steps_per_s", "steps/s", targets["steps_per_s"]),
        ("games_per_s", "games/s", targets["games_per_s"]),
    ):
        if not classic:
            lines.append(f"- **≥ {target:g}× RLCard's {unit}: not measured** (RLCard was not run).")
            continue
        once = [case["ratios"]["apply"][key] for case in classic]
        again = [
            case["ratios_reseeded"]["apply"][key] for case in classic if case.get("ratios_reseeded", {}).get("apply")
        ]
        names = _listed([_case_title(case["case"]) for case in classic])
        text = (
            f"- **≥ {target:g}× RLCard's {unit}: {_met(min(once) >= target)}** against RLCard seeded once:"
            f" {_listed([f'{value:.2f}×' for value in once])} ({names})"
        )
        if again:
            text += f"; {_listed([f'{value:.2f}×' for value in again])} against it reseeded per game"
        unchecked = [case["ratios"]["unchecked"][key] for case in classic if "unchecked" in case["ratios"]]
        if unchecked:
            text += f"; {_span(unchecked)} through `apply_unchecked`"
        lines.append(text + ".")
    costs = _step_costs(figures)
    if costs:
        said = " and ".join(
            f"{_case_title(other)} {cost:.2f}× {_case_title(classic)}'s µs per step" for other, classic, cost in costs
        )
        ok = all(cost <= 1.5 for *_, cost in costs)
        lines.append(f"- **Duo 2 and Flex 4 within 1.5× of Classic's cost per step: {_met(ok)}**: {said}.")
    determinize = [case["micro"]["determinize_us"] for case in cases if case["micro"].get("determinize_us") is not None]
    sample = [case["micro"]["determinize_sample_us"] for case in cases if case["micro"].get("determinize_sample_us")]
    if determinize:
        text = f"- **`determinize` ≤ 10 µs: {_met(max(determinize) <= 10.0)}**: {_span(determinize, 1, ' µs')} a call"
        if sample:
            text += f"; `Determinizer.sample`, what a search bot calls per iteration, {_span(sample, 1, ' µs')}"
        lines.append(text + ".")
    tolerance = targets["simulate"]
    batch = [
        (title, _vs_loop(figures, key))
        for key, title in (("play_out_vs_loop", "`Table.play_out`"), ("simulate_vs_loop", "`simulate`"))
    ]
    batch = [(title, values) for title, values in batch if values]
    if batch:
        ok = all(min(values) >= 1 - tolerance for _, values in batch)
        said = "; ".join(f"{title} {_span(values)} the loop" for title, values in batch)
        lines.append(
            f"- **The batch path within {tolerance * 100:.0f} % of the `apply_unchecked` loop: {_met(ok)}**: {said}."
        )
    return "\n".join(lines)


def engine_pure_text(result: Result) -> str:
    """``engine-pure-speed``: the pure build's heading, table, loops and `determinize`."""
    figures = result["figures"]
    lines = [_engine_heading(result), "", *engine_table(figures)]
    loops = _loop_sentence(figures)
    determinize = [case["micro"]["determinize_us"] for case in figures["cases"] if case["micro"].get("determinize_us")]
    sample = [
        case["micro"]["determinize_sample_us"]
        for case in figures["cases"]
        if case["micro"].get("determinize_sample_us")
    ]
    said = []
    if determinize:
        said.append(f"its `determinize` takes {_span(determinize, 1, ' µs')}")
    if sample:
        said.append(f"`Determinizer.sample` {_span(sample, 1, ' µs')}")
    tail = f" In this build {', '.join(said)}." if said else ""
    if loops or tail:
        lines += ["", (loops + tail).strip()]
    return "\n".join(lines)


BATCH_SIDES = {
    "loop": "bare loop",
    "loop_bots": "bare loop + seeded bots",
    "simulate": "`simulate` (`uno simulate`)",
    "play_games": "`play_games`",
    "table": "`Table.play_out`",
}


def batch_text(result: Result) -> str:
    """``batch-speed``: batch.py's steps per CPU second a side and case, and its ratio to the bare loop."""
    figures, machine = result["figures"], result["machine"]
    target = figures["target"]
    lines = [
        f"Measured {_when(result)} with `{result['command']}` ({figures['build']}, Python {figures['python']},"
        f" {machine.get('cores')} cores, {_load_span(machine)}): {figures['repetitions']} alternating slices of"
        f" {figures['slice_seconds']:g} s per side and case; medians. × loop is the median of the slice-by-slice"
        " ratios, so it is not always the ratio of the medians shown.",
        "",
        "| case | side | steps/CPU s | × loop | target |",
        "|---|---|---:|---:|---|",
    ]
    spans: dict[str, list[float]] = {}
    for case in figures["cases"]:
        for side, row in case["sides"].items():
            ratio = case["vs_loop"].get(side)
            verdict = "" if ratio is None or side == "loop_bots" else f"≥ {target:.2f}×: {_met(ratio >= target)}"
            if ratio is not None and side != "loop_bots":
                spans.setdefault(side, []).append(ratio)
            lines.append(
                f"| {_case_title(case['case'])} | {BATCH_SIDES.get(side, side)} | {row['steps_per_cpu_s']:,.0f}"
                f" | {'' if ratio is None else f'{ratio:.3f}'} | {verdict} |"
            )
    if spans:
        missed = [BATCH_SIDES.get(side, side) for side, values in spans.items() if min(values) < target]
        said = "; ".join(f"{BATCH_SIDES.get(side, side)} {_span(values)}" for side, values in spans.items())
        verdict = "met in every case" if not missed else f"**missed** by {_listed(missed)}"
        lines += [
            "",
            f"**Target (within {(1 - target) * 100:.0f} % of the bare `apply_unchecked` loop): {verdict}.**"
            f" Against the loop: {said}.",
        ]
    return "\n".join(lines)


def perft_text(result: Result) -> str:
    """``perft-speed``: perft.py's nodes/s and positions/s a rule set."""
    figures, machine = result["figures"], result["machine"]
    lines = [
        f"Measured {_when(result)} with `{result['command']}` ({figures['build']}, Python {figures['python']},"
        f" {machine.get('cores')} cores, {_load_span(machine)}): perft at the deepest depth of at most"
        f" {figures['max_nodes']:,} nodes, median of {figures['runs']} run(s) a position.",
        "",
        "| rule set | positions | nodes | nodes/s | positions/s |",
        "|---|---:|---:|---:|---:|",
    ]
    for rules, group in figures["rule_sets"].items():
        rows = [row for row in figures["positions"] if row["rules"] == rules]
        house = sum(1 for row in rows if row.get("file") == "house")
        count = f"{len(rows)} position{'s' if len(rows) != 1 else ''}" + (
            f", {house} with house rules" if house else ""
        )
        lines.append(
            f"| {RULES_TITLES.get(rules, rules)} ({count}) | {group['positions']:,.0f} | {group['nodes']:,.0f}"
            f" | {group['nodes_per_s']:,.0f} | {group['positions_per_s']:,.0f} |"
        )
    return "\n".join(lines)


def _counted(result: Result) -> str:
    figures = result["figures"]
    return (
        f"Counted {_when(result)} with `{result['command']}` ({figures['build']}, Python {figures['python']},"
        f" {figures['valgrind']}, `PYTHONHASHSEED={figures['hashseed']}`)"
    )


def instruction_steps_text(result: Result) -> str:
    """``instruction-steps``: callgrind's instructions a step of each rule set, and against Classic's."""
    figures = result["figures"]
    classic = {row["seats"]: row["per_step"] for row in figures["steps"] if row["rules"] == "classic"}
    lines = [
        f"{_counted(result)}: a step is `legal_actions` + `apply` with the random bot; the start-up, counted by a"
        " run of no games, subtracted; the machine's load does not change these counts.",
        "",
        "| a step | games (their seeds) | steps | instructions a step | against Classic's, same seats | digest |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in figures["steps"]:
        first, last = row["first_game"], row["first_game"] + row["games"] - 1
        base = classic.get(row["seats"])
        ratio = f"{row['per_step'] / base:.2f}×" if base else ""
        lines.append(
            f"| {RULES_TITLES.get(row['rules'], row['rules'])} {row['seats']} | {first}–{last}"
            f" ({999 + first}–{999 + last}) | {row['steps']:,}"
            f" | {row['per_step']:,.0f} | {ratio} | {row['digest']} |"
        )
    return "\n".join(lines)


CALL_TITLES = {
    "pickle": "pickle round trip",
    "view_for": "`view_for`",
    "legal_mask": "`legal_mask`",
    "determinize": "`determinize`",
    "sample": "`Determinizer.sample`",
}


def instruction_calls_text(result: Result) -> str:
    """``instruction-calls``: callgrind's instructions a call over sampled states."""
    figures = result["figures"]
    rows = figures["calls"]
    rules = {f"{RULES_TITLES.get(row['rules'], row['rules'])} {row['seats']}" for row in rows}
    lines = [
        f"{_counted(result)}: each call over 200 sampled states of {_listed(sorted(rules))} (every tenth decision"
        f" of 40 seeded games), {figures['passes']} passes after a warm-up pass; a run of no passes subtracted.",
        "",
        "| a call | calls | instructions a call |",
        "|---|---:|---:|",
    ]
    for row in rows:
        lines.append(f"| {CALL_TITLES.get(row['call'], row['call'])} | {row['calls']:,} | {row['per_call']:,.0f} |")
    return "\n".join(lines)


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
    "rl-headline": Block("rl_env", rl_headline_text, "python benchmarks/rl_env.py --breakdown"),
    "analyze-speed": Block("analyze", analyze_text, "python benchmarks/analyze.py"),
    "engine-speed": Block("engine", engine_speed_text, "python benchmarks/engine.py --reps 8"),
    "engine-calls": Block("engine", engine_calls_text, "python benchmarks/engine.py --reps 8"),
    "engine-targets": Block("engine", engine_targets_text, "python benchmarks/engine.py --reps 8"),
    "engine-pure-speed": Block(
        "engine_pure",
        engine_pure_text,
        "python benchmarks/engine.py --pure --reps 4 --slice 0.4 --case classic:2 --case classic:4",
    ),
    "batch-speed": Block("batch", batch_text, "python benchmarks/batch.py"),
    "perft-speed": Block("perft", perft_text, "python benchmarks/perft.py"),
    "instruction-steps": Block("instruction_counts", instruction_steps_text, "python benchmarks/instruction_counts.py"),
    "instruction-calls": Block("instruction_counts", instruction_calls_text, "python benchmarks/instruction_counts.py"),
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
