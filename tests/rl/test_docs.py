"""docs/RL.md holds the generated tables of the current action table and encoding."""

from __future__ import annotations

from pathlib import Path

from unoengine.core.action_ids import NUM_ACTIONS, table_notation
from unoengine.rl.tables import fill

DOC = Path(__file__).resolve().parents[2] / "docs" / "RL.md"


def test_rl_md_tables_are_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert fill(text) == text, "docs/RL.md is stale: python -m unoengine.rl.tables --write docs/RL.md"


def test_rl_md_lists_every_action_id() -> None:
    text = DOC.read_text(encoding="utf-8")
    for index, notation in enumerate(table_notation()):
        assert f"| {index} |" in text and f"`{notation}`" in text
    assert f"NUM_ACTIONS = {NUM_ACTIONS}" in text
