"""``unoengine.rl.sb3.vec_env``: Stable-Baselines3's ``VecEnv`` over the fast batch, and MaskablePPO on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from unoengine.core.action_ids import NUM_ACTIONS
from unoengine.rl import VectorEnv, policy_bot
from unoengine.rl.sb3 import UnoVecEnv, vec_env


@pytest.fixture(autouse=True)
def one_torch_thread() -> Iterator[None]:
    """PyTorch's threads fight over a few cores: one is faster for these tiny networks."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def first_legal(masks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The smallest legal id of every game (a deterministic policy of the mask alone)."""
    return np.argmax(masks, axis=1)


def test_a_vec_env_with_masks_for_maskable_ppo() -> None:
    env = vec_env(4, "classic", 2, opponents=["heuristic"])
    assert isinstance(env, VecMonitor) and isinstance(env.unwrapped, UnoVecEnv)
    assert env.num_envs == 4
    assert env.observation_space.shape == (env.unwrapped.venv.encoding.size,)
    assert env.action_space.n == NUM_ACTIONS
    assert is_masking_supported(env)
    env.seed(1)
    observations = env.reset()
    masks = get_action_masks(env)
    assert observations.shape == (4, env.observation_space.shape[0]) and observations.dtype == np.float32
    assert masks.shape == (4, NUM_ACTIONS) and masks.dtype == np.bool_
    assert masks.any(axis=1).all()
    ended = 0
    for _ in range(300):
        observations, rewards, dones, infos = env.step(first_legal(get_action_masks(env)))
        for index in np.flatnonzero(dones):
            ended += 1
            info = infos[index]
            assert info["terminal_observation"].shape == observations[index].shape
            assert rewards[index] in (1.0, 0.0, -1.0)
            assert "episode" in info  # VecMonitor's
        assert get_action_masks(env).any(axis=1).all()  # every game has a decision: the ended ones anew
        assert {info["seat"] for info in infos} <= {0, 1}
    assert ended > 4


def test_games_and_observations_are_the_vector_envs() -> None:
    """Each game runs as in VectorEnv (NEXT_STEP); the new game's observation comes in the step that ends one."""
    seats, count, steps = 3, 3, 200
    plain = VectorEnv(count, "classic", seats, opponents=["heuristic", "random"], seat=None)
    adapted = vec_env(count, "classic", seats, opponents=["heuristic", "random"], monitor=False)
    observations, _ = plain.reset(seed=7)
    adapted.seed(7)
    first = adapted.reset()
    np.testing.assert_array_equal(first, observations["observation"])
    # per game: the plain env's (observation, mask, reward, done) after each of the learner's steps
    plain_runs: list[list[tuple[Any, ...]]] = [[] for _ in range(count)]
    restarting = np.zeros(count, dtype=bool)
    for _ in range(steps):
        actions = first_legal(observations["action_mask"])
        observations, rewards, terminations, _, _ = plain.step(actions)
        for index in range(count):
            entry = (observations["observation"][index].copy(), observations["action_mask"][index].astype(bool))
            if restarting[index]:  # the NEXT_STEP reset: the new game's first observation, no reward
                plain_runs[index][-1] = (*plain_runs[index][-1], *entry)
            else:
                plain_runs[index].append((*entry, float(rewards[index]), bool(terminations[index])))
        restarting = terminations.copy()
    adapted_runs: list[list[tuple[Any, ...]]] = [[] for _ in range(count)]
    masks = get_action_masks(adapted)
    for _ in range(steps):
        new, rewards, dones, infos = adapted.step(first_legal(masks))
        masks = get_action_masks(adapted)
        for index in range(count):
            if dones[index]:
                final = infos[index]["terminal_observation"]
                adapted_runs[index].append((final, float(rewards[index]), True, new[index].copy(), masks[index].copy()))
            else:
                adapted_runs[index].append((new[index].copy(), masks[index].copy(), float(rewards[index]), False))
    for index in range(count):
        plain_run, adapted_run = plain_runs[index], adapted_runs[index]
        length = min(len(plain_run), len(adapted_run)) - 1
        assert length > 50
        for mine, theirs in zip(adapted_run[:length], plain_run[:length], strict=True):
            if mine[2] is True:  # an end: final observation, reward, then the new game's observation and mask
                final, reward, _, new_observation, new_mask = mine
                observation, _, plain_reward, done, next_observation, next_mask = theirs
                assert done
                np.testing.assert_array_equal(final, observation)
                assert reward == plain_reward
                np.testing.assert_array_equal(new_observation, next_observation)
                np.testing.assert_array_equal(new_mask, next_mask)
            else:
                np.testing.assert_array_equal(mine[0], theirs[0])
                np.testing.assert_array_equal(mine[1], theirs[1])
                assert mine[2:] == theirs[2:4]


def test_refuses_self_play_batches_and_bots_that_cannot_play() -> None:
    with pytest.raises(ValueError, match="mixes every seat's decisions"):
        UnoVecEnv(VectorEnv(2, "classic", 2))
    with pytest.raises(ValueError, match="ppo was trained for classic with 2 seats; it cannot play classic with 4"):
        vec_env(2, "classic", 4, opponents=["ppo"])
    with pytest.raises(ValueError, match="2 opponents for 3 other seats"):
        vec_env(2, "classic", 4, opponents=["random", "random"])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_maskable_ppo_trains_on_it_and_its_model_plays_as_a_bot(tmp_path: Path) -> None:
    from unoengine.play.simulate import simulate

    env = vec_env(8, "classic", 2, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    assert isinstance(model.get_env(), VecEnv)
    # self-play: a frozen copy of the model (saved, loaded once) as the opponent
    model.save(tmp_path / "frozen.zip")
    frozen = policy_bot(tmp_path / "frozen.zip", rules="classic", seats=2, name="frozen")
    again = vec_env(8, "classic", 2, opponents=[frozen])
    model.set_env(again)
    model.learn(total_timesteps=256, reset_num_timesteps=False)
    result = simulate("classic", 2, games=3, bot=[policy_bot(model, rules="classic", seats=2), "heuristic"], seed=0)
    assert result.games == 3
