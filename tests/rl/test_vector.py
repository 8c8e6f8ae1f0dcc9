"""The vector environment: preallocated arrays, NEXT_STEP auto-reset, agreement with the views."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from unoengine.core.action_ids import DRAW_ID
from unoengine.core.views import view_for
from unoengine.rl import VectorEnv
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
