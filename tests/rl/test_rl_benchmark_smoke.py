"""benchmarks/rl_env.py keeps working: every side of ours for a moment, without RLCard, and the breakdown.

No timing is asserted: only that every side steps, the report has its figures and the parts of a step add up
to about the whole.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_env.py"


def test_the_rl_benchmark_runs_every_side_and_the_breakdown() -> None:
    command = [sys.executable, str(SCRIPT), "--no-rlcard", "--json", "--slice", "0.05", "--repetitions", "1"]
    done = subprocess.run([*command, "--batches", "4,32", "--breakdown"], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    assert set(report["steps_per_s"]) == {
        "aec",
        "aec_textbook",
        "gym",
        "gym_textbook",
        "vector_4",
        "vector_32",
        "vector_bots",
    }
    assert all(value > 0 for value in report["steps_per_s"].values())
    assert report["vs_rlcard_env"] is None and report["rlcard_error"] == "--no-rlcard"
    parts = report["breakdown_us_per_game_step"]
    assert set(parts) == {
        "engine_and_offers",
        "observation",
        "mask",
        "clear",
        "agent",
        "env_step",
        "aec_step",
        "aec_agent",
        "textbook_agent",
    }
    assert parts["env_step"] > 0 and parts["engine_and_offers"] > 0 and parts["observation"] > 0
    assert parts["aec_agent"] > 0 and parts["aec_step"] > 0  # (timed apart: on a busy machine either may be larger)
