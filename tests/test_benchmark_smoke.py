"""benchmarks/engine.py keeps working: its own code paths for a fraction of a second, without RLCard.

No timing is asserted: only that every side plays games, the report has its figures and the table prints.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers import load_benchmark

TINY = [
    "--no-rlcard",
    "--slice",
    "0.01",
    "--reps",
    "2",
    "--micro-states",
    "30",
    "--live-states",
    "30",
    "--micro-seconds",
    "0.001",
    "--micro-runs",
    "1",
]


def test_the_benchmark_runs_without_rlcard(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("engine")
    assert bench.main([*TINY, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [case["case"] for case in report["cases"]] == ["classic 2", "classic 4", "duo 2", "flex 4"]
    for case in report["cases"]:
        sides = case["sides"]
        for name in ("apply", "unchecked", "simulate", "play_out"):
            assert sides[name] is not None, case["errors"].get(name)
            assert sides[name]["games"] > 0 and sides[name]["steps"] > sides[name]["games"]
        # The Table side plays, or says why it cannot.
        assert sides["table"] is not None or case["errors"]["table"]
        if case["rules"] == "classic":
            for anchor in ("rlcard", "rlcard_reseed"):  # seeded once, and reseeded per game
                assert sides[anchor] is None and case["errors"][anchor] == "--no-rlcard"
        assert not case["ratios"] and not case["ratios_reseeded"]
        assert set(case["simulate_vs_loop"]) == {"apply", "unchecked"}
        assert set(case["play_out_vs_loop"]) == {"apply", "unchecked"}
        micro = case["micro"]
        for key in ("legal_actions_us", "apply_us", "apply_unchecked_us", "view_for_us", "legal_mask_us"):
            assert micro[key] > 0
        assert micro["bytes_per_live_state"] > 0
        assert micro["determinize_us"] is not None or micro["determinize"]
    lines = bench.report_lines(report)
    assert any("n/a (--no-rlcard)" in line for line in lines)
    assert any("simulate steps/s" in line for line in lines)
    assert any("Table.play_out steps/s" in line for line in lines)


def test_the_table_prints_and_one_case_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("engine")
    assert bench.main([*TINY, "--case", "flex:3"]) == 0
    out = capsys.readouterr().out
    assert "flex 3" in out and "micro figures" in out


def test_verdicts_say_missed_plainly() -> None:
    bench = load_benchmark("engine")
    assert bench.verdict(1.1, 5.0).startswith("MISSED")
    assert "4.55x short" in bench.verdict(1.1, 5.0)
    assert bench.verdict(5.5, 5.0).startswith("met")
