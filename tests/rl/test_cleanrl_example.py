"""examples/cleanrl_ppo.py: a tiny run trains, evaluates and exports a policy that ``Policy.load`` reads."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from unoengine.core.engine import new_game
from unoengine.core.views import view_for
from unoengine.rl.policy import Policy, PPOBot

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cleanrl_ppo.py"


def test_a_tiny_run_evaluates_saves_and_exports(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    export, save = tmp_path / "policy.npz", tmp_path / "agent.pt"
    command = [sys.executable, str(EXAMPLE), "--total-timesteps", "2048", "--num-envs", "8", "--eval-games", "40"]
    command += ["--seed", "3", "--cuda", "no", "--export", str(export), "--save", str(save)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    assert re.search(r"^update 4/4 global_step=2048 SPS=\d+ ", done.stdout, re.MULTILINE), done.stdout
    evaluation = r"^eval \(one round\): .* greedy vs random (\d+)/(\d+) = [\d.]+% \[95% Wilson [\d.]+-[\d.]+%\]"
    line = re.search(evaluation, done.stdout, re.MULTILINE)
    assert line is not None, done.stdout
    assert int(line.group(2)) == 40 and 0 <= int(line.group(1)) <= 40
    assert save.stat().st_size > 0

    policy = Policy.load(export)
    assert policy.usable and (policy.rules, policy.seats) == ("classic", 2)
    assert "turn" in policy.decisions and policy.meta["trained"]["steps"] == 2048
    bot = PPOBot(random.Random(0), policy=policy)
    for seed in range(5):
        state = new_game("classic", 2, seed=seed)
        view = view_for(state, state.to_act)
        assert bot.choose(view, view.legal) in view.legal
