"""The server's modules stay small enough to read: one job each, none over 500 lines."""

from __future__ import annotations

from pathlib import Path

import pytest

import unoengine.server

SERVER = Path(unoengine.server.__file__).parent
MAX_LINES = 500


@pytest.fixture(autouse=True)
def backend() -> str:
    """No store: a file's length is the same on both (this replaces the package's two-store fixture)."""
    return "none"


@pytest.mark.parametrize("path", sorted(SERVER.glob("*.py")), ids=lambda path: path.name)
def test_a_server_module_has_at_most_500_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines (at most {MAX_LINES})"
