"""The vector environment: preallocated arrays, NEXT_STEP auto-reset, agreement with the views."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from unoengine.core.action_ids import DRAW_ID, NUM_ACTIONS
from unoengine.core.views import view_for
from unoengine.rl import VectorEnv, sample_action, sample_actions
from unoengine.rl.aec_env import choice_ids


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:  # type: ignore[type-arg]
    """Random legal ids, plays (and passes) preferred to a draw so that games end soon."""
    weights = rng.random(mask.shape) * mask
    weights[:, DRAW_ID] *= 0.05
    return np.argmax(weights, axis=1)


@pytest.mark.parametrize(
    ("rules", "seats", "opponents"),
    [("classic", 2, None), ("flex", 4, None), ("duo", 2, ["random"]), ("classic", 3, ["heuristic"])],
)
def test_steps_write_the_views_into_the_same_arrays(rules: str, seats: int, opponents: list[str] | None) -> None:
    envs = VectorEnv(5, rules, seats, opponents=opponents, seat=None if opponents else 0)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    observations, infos = envs.reset(seed=3)
    buffer = observations["observation"]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        previous_done = envs.terminations.copy()
        observations, rewards, terminations, _, infos = envs.step(random_actions(observations["action_mask"], rng))
        assert observations["observation"] is buffer
        assert observations["action_mask"].dtype == np.int8
        for index, match in enumerate(envs.matches):
            if previous_done[index]:
                assert rewards[index] == 0 and not terminations[index]  # the reset step
            seat = int(infos["seat"][index])
            view = view_for(match.state, seat)
            np.testing.assert_array_equal(observations["observation"][index], envs.encoding.observe(view))
            mask = np.zeros(observations["action_mask"].shape[1], np.int8)
            mask[choice_ids(match, view)] = 1
            np.testing.assert_array_equal(observations["action_mask"][index], mask)
            if terminations[index]:
                ended += 1
                assert infos["seat_rewards"][index].sum() == pytest.approx(0.0, abs=1e-6)
                if opponents:
                    assert seat == envs.learner[index]
            else:
                assert observations["action_mask"][index].any()
    assert ended > 0


def test_same_seed_same_games() -> None:
    def run() -> list[float]:
        envs = VectorEnv(3, "classic", 2)
        observations, _ = envs.reset(seed=8)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(200):
            observations, rewards, *_ = envs.step(random_actions(observations["action_mask"], rng))
            out += [float(observations["observation"].sum()), *rewards.tolist()]
        return out

    assert run() == run()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)
    with pytest.raises(ValueError, match="opponents for"):
        VectorEnv(2, "classic", 4, opponents=["random", "random"])


def test_an_illegal_batch_is_refused_before_any_game_moves() -> None:
    from unoengine.core.errors import IllegalActionError

    envs = VectorEnv(4, "classic", 2, illegal="raise")
    observations, _ = envs.reset(seed=1)
    states = [match.state for match in envs.matches]
    before = observations["observation"].copy(), observations["action_mask"].copy()
    actions = sample_actions(observations["action_mask"], np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(observations["action_mask"][2] == 0)[0])  # not offered to that game's seat
    with pytest.raises(IllegalActionError):
        envs.step(actions)
    assert [match.state for match in envs.matches] == states
    np.testing.assert_array_equal(observations["observation"], before[0])
    np.testing.assert_array_equal(observations["action_mask"], before[1])
    envs.step(sample_actions(observations["action_mask"], np.random.default_rng(0)))  # and it goes on


def test_same_step_auto_reset_plays_the_same_games_one_step_sooner() -> None:
    """SAME_STEP deals the next game in the step that ends one (its last observation aside); the games are those
    of NEXT_STEP, whose extra reset step is left out (one game each, so that a reset step moves no other game)."""
    next_step = VectorEnv(1, "classic", 2, opponents=["random"], seat=None)
    same_step = VectorEnv(1, "classic", 2, opponents=["random"], seat=None, autoreset_mode=AutoresetMode.SAME_STEP)
    assert same_step.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    rng = np.random.default_rng(4)
    a, _ = next_step.reset(seed=9)
    b, _ = same_step.reset(seed=9)
    ended = 0
    for _ in range(1500):
        np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
        actions = sample_actions(a["action_mask"], rng)
        a, reward_a, done_a, _, _ = next_step.step(actions)
        b, reward_b, done_b, _, infos = same_step.step(actions)
        np.testing.assert_array_equal(done_a, done_b)
        np.testing.assert_array_equal(reward_a, reward_b)
        if done_a.any():
            ended += int(done_a.sum())
            np.testing.assert_array_equal(same_step.final_observations[done_a], a["observation"][done_a])
            assert infos["_final_obs"] is same_step.terminations
            a, *_ = next_step.step(np.zeros(1, np.int64))  # NEXT_STEP's reset step (its action is ignored)
        np.testing.assert_array_equal(a["observation"], b["observation"])
    assert ended > 3


def test_sample_action_draws_every_allowed_id_uniformly_and_nothing_else() -> None:
    """The one-mask random agent: only allowed ids, each about as often (a chi-square bound far from the mean),
    the same ids for the same generator, int8 and bool masks alike, and a clear error for an empty mask."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    allowed = [0, 7, 300, NUM_ACTIONS - 1]
    mask[allowed] = 1
    rng = np.random.default_rng(11)
    draws = [sample_action(mask, rng) for _ in range(8000)]
    counts = np.array([draws.count(index) for index in allowed])
    assert counts.sum() == len(draws)  # nothing outside the mask
    expected = len(draws) / len(allowed)
    assert ((counts - expected) ** 2 / expected).sum() < 25  # chi-square, 3 degrees of freedom: p < 1e-4
    assert all(isinstance(value, int) for value in draws[:10])
    again = np.random.default_rng(11)
    assert [sample_action(mask.astype(np.bool_), again) for _ in range(50)] == draws[:50]
    with pytest.raises(ValueError, match="allows no action"):
        sample_action(np.zeros(NUM_ACTIONS, np.int8), rng)
