"""Every test keeps ``uno play``'s statistics in its own folder, never in the home folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _statistics_in_a_temporary_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
