"""benchmarks/batch.py and benchmarks/perft.py keep working: their own code paths for a moment.

No timing is asserted: only that every side plays games (every position counts
right) and that the report has its figures and prints.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers import load_benchmark


def test_the_batch_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("batch")
    assert bench.main(["--slice", "0.01", "--reps", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [case["case"] for case in report["cases"]] == ["classic 2", "classic 4", "duo 2", "flex 4"]
    for case in report["cases"]:
        assert set(case["sides"]) == {"loop", "loop_bots", "simulate", "play_games", "table"}
        assert all(side["games"] > 0 and side["steps_per_game"] > 1 for side in case["sides"].values())
        assert set(case["vs_loop"]) == {"loop_bots", "simulate", "play_games", "table"}
    assert bench.main(["--slice", "0.01", "--reps", "1", "--case", "duo:2"]) == 0
    assert "target: every side at least 0.85x" in capsys.readouterr().out


def test_the_perft_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("perft")
    assert bench.main(["--max-nodes", "200", "--runs", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["positions"]) >= 30
    assert set(report["rule_sets"]) == {"classic", "duo", "flex", "nomercy"}
    assert all(row["nodes"] <= 200 and row["positions"] >= 1 for row in report["positions"])
    assert bench.main(["--max-nodes", "100", "--runs", "1", "--match", "duo-2-draft"]) == 0
    assert "duo-2-draft" in capsys.readouterr().out
