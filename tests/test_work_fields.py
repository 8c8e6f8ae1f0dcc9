"""Work's field code is written from GameState's one field list (scripts/work_fields.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from unoengine.core.state import FIELDS, GameState

ROOT = Path(__file__).resolve().parents[1]


def load_script() -> object:
    spec = importlib.util.spec_from_file_location("work_fields", ROOT / "scripts" / "work_fields.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_work_field_code_is_current() -> None:
    script = load_script()
    text = (ROOT / "src" / "unoengine" / "core" / "work.py").read_text(encoding="utf-8")
    assert script.render(text, FIELDS) == text, "run scripts/work_fields.py"  # type: ignore[attr-defined]


def test_fields_are_the_state_s() -> None:
    assert GameState._fields == FIELDS
    assert "game" in FIELDS and "rules" not in FIELDS  # the static part is one shared Game
