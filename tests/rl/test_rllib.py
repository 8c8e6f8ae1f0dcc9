"""Slow: the AEC env under RLlib's PettingZoo wrapper (the ``rllib`` extra, ``ray[rllib]``).

ray 2.60 pins gymnasium 1.2.2 while the ``rl`` extra pins 1.4.0, so the test
builds its own virtual environment (``.venv-cluster``, first run only) with
unoengine, ``ray[rllib]`` and PettingZoo, and drives the wrapped env there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv-cluster"

SCRIPT = """
import numpy as np
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from unoengine.rl import env

wrapped = PettingZooEnv(env("classic", 3))
observations, infos = wrapped.reset(seed=3)
rng = np.random.default_rng(0)
steps = 0
done = False
while not done:
    (agent, observation), = observations.items()
    action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
    observations, rewards, terminated, truncated, infos = wrapped.step({agent: action})
    steps += 1
    done = terminated["__all__"] or truncated["__all__"]
print("rllib ok", steps)
"""


@pytest.mark.slow
def test_rllib_pettingzoo_wrapper_plays_a_game() -> None:
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[rllib]", "pettingzoo==1.27.0"],
            check=True,
            env={**os.environ, "UNOENGINE_PURE": "1"},
        )
    done = subprocess.run([str(python), "-c", SCRIPT], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "rllib ok" in done.stdout
