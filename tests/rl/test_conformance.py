"""Gymnasium's and PettingZoo's checkers pass with the environments' defaults; the documented registry call works.

As in PettingZoo's classic environments, an illegal action ends the game with -1
to the offender unless ``illegal="raise"`` is asked for (for debugging).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import unoengine.rl
from unoengine.core.rules import RULESETS
from unoengine.rl import SingleAgentEnv, env

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "docs" / "RL_INTRO.md", ROOT / "docs" / "RL.md"]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_with_the_defaults() -> None:
    check_env(SingleAgentEnv(), skip_render_check=True)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_with_the_defaults() -> None:
    api_test(env(), num_cycles=200)
    seed_test(env, num_cycles=200)


def test_an_illegal_action_ends_the_game_with_minus_one_by_default() -> None:
    aec = env(seats=3)
    aec.reset(seed=2)
    offender = aec.agent_selection
    observation, *_ = aec.last()
    aec.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(aec.terminations.values())
    assert aec.rewards[offender] == -1.0
    assert sorted(aec.rewards.values()) == [-1.0, 0.0, 0.0]


def test_pettingzoo_make_after_importing_unoengine_rl() -> None:
    import pettingzoo

    # One id per rule set: the registry lists every one of RULESETS.
    assert set(unoengine.rl.REGISTERED) == {
        "unoengine/classic-v0",
        "unoengine/duo-v0",
        "unoengine/flex-v0",
        "unoengine/nomercy-v0",
    }
    assert {f"unoengine/{name}-v0" for name in RULESETS} == set(unoengine.rl.REGISTERED)
    made = pettingzoo.make("aec", "unoengine/flex-v0", seats=4)
    made.reset(seed=1)
    assert made.unwrapped.match.ruleset.name == "flex"
    assert made.num_agents == 4


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("seats", [2, 4])
def test_nomercy_made_from_the_registry_passes_pettingzoo_api_test(seats: int) -> None:
    import pettingzoo

    made = pettingzoo.make("aec", "unoengine/nomercy-v0", seats=seats)
    made.reset(seed=3)
    assert made.unwrapped.match.ruleset.name == "nomercy"
    assert made.num_agents == seats
    api_test(pettingzoo.make("aec", "unoengine/nomercy-v0", seats=seats), num_cycles=200)
    seed_test(lambda: env(rules="nomercy", seats=seats), num_cycles=200)


def test_the_documented_registry_calls_run_as_written() -> None:
    """Every ``pettingzoo.make(...)`` of docs/RL_INTRO.md and docs/RL.md runs; no page names a call that is not."""
    import pettingzoo

    calls = []
    for page in DOCS:
        text = page.read_text(encoding="utf-8")
        assert "env_registry.make" not in text, page
        calls += re.findall(r"pettingzoo\.make\(\"[^)]*\)", text.replace("\n", " "))
    assert len(calls) >= 2
    for call in calls:
        made = eval(call, {"pettingzoo": pettingzoo})
        made.reset(seed=0)
        assert made.unwrapped.match.ruleset.name in ("classic", "duo", "flex")


def test_stable_baselines3_check_env_with_the_defaults() -> None:
    pytest.importorskip("stable_baselines3")
    import warnings

    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # SB3 warns of what its algorithms cannot use
        sb3_check_env(SingleAgentEnv(), warn=True)
