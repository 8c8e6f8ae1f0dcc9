"""Golden playthroughs: whole bot games compared, step by step, with tests/golden/.

scripts/regen_golden.py plays each golden game (fixed seed, options and seeded
bots) and writes its transcript and record. These tests play them again in
memory and report the first line that differs, with context; they also replay
each record with :func:`unoengine.replay` and check the final state against the
transcript's final JSON. After an intended rule change, run
``.venv/bin/python scripts/regen_golden.py`` and review the diff.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from unoengine import parse_record, replay, state_to_json

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGEN = "scripts/regen_golden.py"
HINT = f"if the change is intended, run `.venv/bin/python {REGEN}` and review `git diff tests/golden/`"


def _load_regen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / REGEN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regen_golden", module)  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


regen = _load_regen()
NAMES = [golden.name for golden in regen.GOLDENS]


def first_difference(expected: str, got: str, context: int = 4) -> str | None:
    """``None`` when the texts are equal, else the first differing line with the lines before it."""
    want = expected.splitlines()
    have = got.splitlines()
    for index in range(max(len(want), len(have))):
        left = want[index] if index < len(want) else "<end of file>"
        right = have[index] if index < len(have) else "<end of output>"
        if left != right:
            before = "\n".join(f"  {number + 1:5d}  {want[number]}" for number in range(max(0, index - context), index))
            return (
                f"first difference at line {index + 1}:\n{before}\n"
                f"- golden {index + 1:5d}  {left}\n"
                f"+ now    {index + 1:5d}  {right}"
            )
    if expected != got:
        return "the texts differ only in their line endings"
    return None


def golden_text(name: str) -> str:
    path = GOLDEN_DIR / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `.venv/bin/python {REGEN}`")
    return path.read_text(encoding="utf-8")


def final_of(transcript: str) -> dict[str, Any]:
    """The final state's JSON at the end of a transcript."""
    _head, marker, tail = transcript.partition("\nfinal:\n")
    assert marker, "the transcript has no 'final:' line"
    data: dict[str, Any] = json.loads(tail)
    return data


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    files: dict[str, str] = regen.render_all()
    return files


@pytest.mark.parametrize("name", NAMES)
def test_playthrough_matches_its_golden_transcript(name: str, rendered: dict[str, str]) -> None:
    file = f"{name}.txt"
    difference = first_difference(golden_text(file), rendered[file])
    assert difference is None, f"tests/golden/{file}: {difference}\n{HINT}"


@pytest.mark.parametrize("name", NAMES)
def test_playthrough_matches_its_golden_record(name: str, rendered: dict[str, str]) -> None:
    file = f"{name}.record.json"
    difference = first_difference(golden_text(file), rendered[file])
    assert difference is None, f"tests/golden/{file}: {difference}\n{HINT}"


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_the_golden_final_state(name: str) -> None:
    record = parse_record(golden_text(f"{name}.record.json"))
    final = replay(record)
    assert final.is_over
    assert state_to_json(final) == final_of(golden_text(f"{name}.txt"))


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_names_its_game_and_holds_the_transcripts_actions(name: str) -> None:
    record = parse_record(golden_text(f"{name}.record.json"))
    assert record.deck is not None
    golden = next(item for item in regen.GOLDENS if item.name == name)
    assert (record.rules, record.seats, record.seed) == (golden.rules, golden.seats, golden.seed)
    lines = golden_text(f"{name}.txt").splitlines()
    seats = [int(line.split()[3]) for line in lines if line.startswith("step ")]
    actions = [line.removeprefix("  action: ") for line in lines if line.startswith("  action: ")]
    assert list(record.actions) == list(zip(seats, actions, strict=True))


def test_golden_folder_holds_exactly_the_goldens(rendered: dict[str, str]) -> None:
    on_disk = {path.name for path in GOLDEN_DIR.iterdir() if path.is_file()}
    assert on_disk == set(rendered), f"stale or missing golden files; {HINT}"


def test_goldens_cover_every_rule_set_and_a_match() -> None:
    kinds = {(golden.rules, golden.seats) for golden in regen.GOLDENS}
    assert {
        ("classic", 2),
        ("classic", 4),
        ("duo", 2),
        ("flex", 2),
        ("flex", 5),
        ("nomercy", 2),
        ("nomercy", 4),
    } <= kinds
    finals = {name: final_of(golden_text(f"{name}.txt")) for name in NAMES}
    assert any(final["round"] > 1 for final in finals.values()), "no golden spans several rounds"
    assert all(final["pending"] == "game_over" for final in finals.values())


def test_first_difference_reports_the_line_and_its_context() -> None:
    assert first_difference("a\nb\n", "a\nb\n") is None
    report = first_difference("a\nb\nc\n", "a\nb\nX\n")
    assert report is not None
    assert "line 3" in report and "- golden     3  c" in report and "+ now        3  X" in report
    assert "      2  b" in report
    shorter = first_difference("a\nb\n", "a\n")
    assert shorter is not None and "<end of output>" in shorter
