"""The docs' benchmark figures come from the JSON results in benchmarks/results/, not from a hand.

Every result file parses and says its figures' machine, date and command; every block renders from them;
a block whose result is missing is named with the command that makes it; a benchmark's ``--write`` writes
its result and renders its block; and the Markdown files that hold the blocks (found by their markers in
README.md and docs/*.md, wherever the blocks live) are what ``benchmarks/render.py`` makes of the results.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import load_benchmark

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
RESULTS = BENCHMARKS / "results"
RENDER = BENCHMARKS / "render.py"


render = load_benchmark("render")


def results() -> list[tuple[str, dict[str, object]]]:
    found: list[tuple[str, dict[str, object]]] = []
    for path in sorted(RESULTS.glob("*.json")):
        found.append((path.name, json.loads(path.read_text(encoding="utf-8"))))
    for path in sorted(RESULTS.glob("*.jsonl")):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert lines, f"{path.name} is empty"
        found += [(f"{path.name}:{number}", json.loads(line)) for number, line in enumerate(lines, 1)]
    return found


def files_with_blocks() -> list[Path]:
    """README.md and docs/*.md that hold a benchmark block: wherever the blocks are (the README, or docs/)."""
    return list(render.discover(ROOT))


def test_every_result_says_its_machine_date_and_command() -> None:
    found = results()
    assert found, "benchmarks/results/ holds no result"
    for where, result in found:
        assert result["schema"] == 1, where
        benchmark = result["benchmark"]
        assert isinstance(benchmark, str) and where.startswith(benchmark), where
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(result["date"])), where
        command = result["command"]
        assert isinstance(command, str) and command.startswith("python benchmarks/"), where
        assert "--write" not in command.split() and "--json" not in command.split(), where
        assert "invocation" in result and "time" in result, where
        assert not re.search(r"postgres(ql)?://\S*@", json.dumps(result)), f"{where}: a database URL with a user"
        machine = result["machine"]
        assert isinstance(machine, dict), where
        assert set(machine) >= {"cpu", "cores", "os", "python", "build", "load", "notes"}, where
        assert isinstance(machine["cores"], int) and machine["cores"] >= 1, where
        assert isinstance(result["figures"], dict) and result["figures"], where
        source = result["source"]
        assert isinstance(source, str) and source, where
        if source == "run":  # measured by the script itself: everything about the machine is known
            assert all(machine[key] for key in ("cpu", "os", "python", "build")), where
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", str(result["time"])), where
            assert str(result["invocation"]).startswith("python benchmarks/"), where
        else:  # imported or older: it says from where
            assert re.search(r"\d{4}-\d{2}-\d{2}", source), where


@pytest.mark.parametrize("name", sorted(render.BLOCKS))
def test_every_block_renders_from_its_result(name: str) -> None:
    block = render.BLOCKS[name]
    assert (RESULTS / block.file).exists(), f"no result for {name}: run `{block.command} --save`"
    text = render.block_text(name, RESULTS)
    body, line = text.rsplit("\n\n", 1)
    assert body.strip()
    assert line.startswith(("Result: ", "Results: ")) and f"benchmarks/results/{block.file}" in line
    data = render.read_results(block, RESULTS)
    for result in data if isinstance(data, list) else [data]:
        assert result["command"] in text and result["date"] in text


def test_a_missing_result_is_named_with_the_command_that_makes_it(tmp_path: Path) -> None:
    empty = tmp_path / "results"
    empty.mkdir()
    doc = tmp_path / "PERF.md"
    original = "# Figures\n\n<!-- server-actor:begin -->\nold figures\n<!-- server-actor:end -->\n"
    doc.write_text(original, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(RENDER), "--write", str(doc), "--results", str(empty)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "server-actor" in done.stderr and "server_actor" in done.stderr
    assert "server_actor.json is missing" in done.stderr
    assert f"python benchmarks/server_actor.py --write {doc}" in done.stderr
    assert doc.read_text(encoding="utf-8") == original  # left as it was
    checked = subprocess.run(
        [sys.executable, str(RENDER), "--check", "--write", str(doc), "--results", str(empty)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 1 and "is missing" in checked.stderr


def test_render_then_check_round_trips_and_leaves_other_blocks_alone(tmp_path: Path) -> None:
    doc = tmp_path / "PERF.md"
    names = sorted(render.BLOCKS)
    parts = ["# Figures", "<!-- observation:begin -->\nnot a benchmark's\n<!-- observation:end -->"]
    parts += [f"<!-- {name}:begin -->\nstale\n<!-- {name}:end -->" for name in names]
    doc.write_text("\n\n".join(parts) + "\n", encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(RENDER), *args], check=False, capture_output=True, text=True)

    stale = run("--check", "--write", str(doc))
    assert stale.returncode == 1 and "differs from its result" in stale.stdout
    assert run("--write", str(doc)).returncode == 0
    text = doc.read_text(encoding="utf-8")
    assert "stale" not in text and "not a benchmark's" in text
    for name in names:
        assert render.block_text(name) in text
    assert run("--check", "--write", str(doc)).returncode == 0


def test_a_benchmark_write_saves_its_result_and_renders_its_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "results"
    monkeypatch.setenv(render.RESULTS_VARIABLE, str(folder))
    doc = tmp_path / "PERF.md"
    doc.write_text("intro\n\n<!-- perft-speed:begin -->\nold\n<!-- perft-speed:end -->\n\nafter\n", encoding="utf-8")
    perft = load_benchmark("perft")
    argv = ["--max-nodes", "100", "--runs", "1", "--match", "duo-2-draft", "--write", str(doc)]
    assert perft.main(argv) == 0
    result = json.loads((folder / "perft.json").read_text(encoding="utf-8"))
    assert result["command"] == "python benchmarks/perft.py --max-nodes 100 --runs 1 --match duo-2-draft"
    assert result["invocation"].endswith(f"--write {doc}") and result["source"] == "run"
    assert result["machine"]["cores"] >= 1 and result["figures"]["positions"]
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("intro\n\n<!-- perft-speed:begin -->\nMeasured ") and text.endswith("\n\nafter\n")
    assert "| Duo (1 position) |" in text and "Result: `" in text and result["command"] in text


def test_the_server_actor_write_renders_from_its_result(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    doc = tmp_path / "PERF.md"
    doc.write_text("<!-- server-actor:begin -->\nold\n<!-- server-actor:end -->\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "server_actor.py"), "--tables", "3", "--actions", "60", "--write", str(doc)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, render.RESULTS_VARIABLE: str(folder)},
    )
    assert done.returncode == 0, done.stderr
    result = json.loads((folder / "server_actor.json").read_text(encoding="utf-8"))
    assert result["command"] == "python benchmarks/server_actor.py --tables 3 --actions 60"
    text = doc.read_text(encoding="utf-8")
    assert "ms of CPU an action" in text and "3 tables" in text and "Result: `" in text


def test_the_docs_blocks_are_the_results_rendered() -> None:
    files = files_with_blocks()
    assert files, "no benchmark block in README.md or docs/*.md"
    for path in files:
        done = subprocess.run(
            [sys.executable, str(RENDER), "--check", "--write", str(path)],
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert done.returncode == 0, (
            f"{path.relative_to(ROOT)}'s benchmark blocks are not what benchmarks/results/ gives: run"
            f" `python benchmarks/render.py --write {path.relative_to(ROOT)}`\n{done.stdout}{done.stderr}"
        )


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("engine-speed", "| case | RLCard | RLCard reseeded | ours `apply` | × | ×′ | `apply_unchecked` |"),
        ("engine-calls", "| case | `legal_actions` | `apply` | `apply_unchecked` | `view_for` |"),
        ("engine-pure-speed", "| case | RLCard | RLCard reseeded | ours `apply` |"),
        ("batch-speed", "| case | side | steps/CPU s | × loop | target |"),
        ("perft-speed", "| rule set | positions | nodes | nodes/s | positions/s |"),
    ],
)
def test_the_engine_batch_and_perft_blocks_are_markdown_tables(name: str, head: str) -> None:
    text = render.block_text(name, RESULTS)
    assert head in text and "```" not in text


def test_the_engine_blocks_render_a_run_without_rlcard() -> None:
    result = json.loads((RESULTS / "engine.json").read_text(encoding="utf-8"))
    for case in result["figures"]["cases"]:
        case["sides"]["rlcard"] = case["sides"]["rlcard_reseed"] = None
        case["ratios"], case["ratios_reseeded"] = {}, {}
    result["figures"]["rlcard_version"] = None
    assert "RLCard not measured" in render.render_block("engine-speed", result)
    targets = render.render_block("engine-targets", result)
    assert "steps/s: not measured" in targets and "games/s: not measured" in targets


def test_the_instruction_counts_parse_callgrind_and_the_script_output() -> None:
    counts = load_benchmark("instruction_counts")
    stderr = (
        "==8730== Callgrind, a call-graph generating cache profiler\n"
        "==8730== Events    : Ir\n"
        "==8730== Collected : 727773377\n"
        "==8730== \n"
        "==8730== I   refs:      727,773,377\n"
    )
    assert counts.collected(stderr) == 727_773_377
    assert counts.collected("==12== Collected : 1,234\n") == 1234
    with pytest.raises(ValueError):
        counts.collected("==8730== I   refs:      727,773,377\n")
    assert counts.parse_steps("steps 20412 digest -4242\n") == (20412, -4242)
    assert counts.parse_calls("calls 2000\n") == 2000
    with pytest.raises(ValueError):
        counts.parse_steps("calls 2000\n")


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("instruction-steps", "| a step | games (their seeds) | steps | instructions a step |"),
        ("instruction-calls", "| a call | calls | instructions a call |"),
    ],
)
def test_the_instruction_blocks_are_markdown_tables(name: str, head: str) -> None:
    text = render.block_text(name, RESULTS)
    assert head in text and "PYTHONHASHSEED=0" in text
