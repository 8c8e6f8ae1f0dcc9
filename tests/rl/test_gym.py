"""The Gymnasium single-agent environment and sb3-contrib's MaskablePPO on it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from unoengine.bots.base import Bot
from unoengine.bots.random_bot import UniformBot
from unoengine.core.errors import IllegalActionError
from unoengine.rl import SingleAgentEnv


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("rules", "seats", "opponents"),
    [
        ("classic", 2, ["random"]),
        ("classic", 4, ["heuristic", "random", "heuristic"]),
        ("classic", 10, ["heuristic"]),
        ("duo", 2, ["heuristic"]),
        ("flex", 3, ["heuristic"]),
    ],
)
def test_gymnasium_check_env(rules: str, seats: int, opponents: list[str]) -> None:
    check_env(SingleAgentEnv(rules, seats, opponents), skip_render_check=True)  # the defaults: illegal="terminate"


def trajectory(env: SingleAgentEnv, seed: int) -> list[tuple[int, float]]:
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    out = []
    done = False
    while not done:
        mask = observation["action_mask"]
        assert (mask == env.action_masks()).all()
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, reward, done, _, _ = env.step(action)
        out.append((action, reward))
    return out


def test_opponents_generators_derive_from_the_reset_seed() -> None:
    env = SingleAgentEnv("classic", 3, ["heuristic", "uniform"])
    first = trajectory(env, 4)
    trajectory(env, 5)
    assert trajectory(env, 4) == first
    assert first[-1][1] in (1.0, -0.5)


def test_user_bots_and_seat() -> None:
    def mine(rng: random.Random) -> Bot:
        return UniformBot(rng)

    env = SingleAgentEnv("flex", 2, [mine], seat=1)
    _, info = env.reset(seed=1)
    assert info["seat"] == 1 == env.seat
    assert trajectory(env, 2)


def test_the_learners_seat_is_drawn_per_episode_by_default() -> None:
    """seat=None (the default): a seat per episode from the episode's seed; heads-up, first to move half the time."""
    from unoengine.core.engine import new_game

    env = SingleAgentEnv("classic", 2, ["random"])
    assert env.fixed_seat is None
    seats = []
    first = 0
    for seed in range(400):
        _, info = env.reset(seed=seed)
        seats.append(info["seat"])
        assert env.seat == info["seat"]
        first += new_game("classic", 2, seed=seed).pending.seat == info["seat"]
    assert 170 <= seats.count(0) <= 230
    assert 170 <= first <= 230
    again = [SingleAgentEnv("classic", 2, ["random"]).reset(seed=seed)[1]["seat"] for seed in range(20)]
    assert again == seats[:20]  # reproducible from the seed
    env.reset(seed=5)
    follow = [env.reset()[1]["seat"] for _ in range(10)]
    env.reset(seed=5)
    assert [env.reset()[1]["seat"] for _ in range(10)] == follow  # and from the first seed of a run


def test_a_fixed_seat_moves_second_in_most_heads_up_deals() -> None:
    """The dealer is seat 0; the seat at its left starts (C-6) unless the first card is a Skip, Reverse or Draw Two."""
    from unoengine.core.engine import new_game

    deals = 1000
    first = sum(new_game("classic", 2, seed=seed).pending.seat == 0 for seed in range(deals))
    assert 0.2 < first / deals < 0.3


def test_illegal_actions_end_the_game_by_default() -> None:
    env = SingleAgentEnv("classic", 2, ["random"])
    observation, _ = env.reset(seed=0)
    observation, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert not observation["action_mask"].any()


def test_illegal_actions_raise_when_asked() -> None:
    env = SingleAgentEnv("classic", 2, ["random"], illegal="raise")
    observation, _ = env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="2 opponents for 3 other seats"):
        SingleAgentEnv("classic", 4, ["random", "random"])
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        SingleAgentEnv("classic", 2, ["nobody"])
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv("classic", 2, ["random"], seat=2)
    with pytest.raises(ValueError, match="ppo was trained for classic with 2 seats; it cannot play flex with 4 seats"):
        SingleAgentEnv("flex", 4, ["ppo"])


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_maskable_ppo_learns_a_few_thousand_steps() -> None:
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv("classic", 2, ["heuristic"])
    model = MaskablePPO("MultiInputPolicy", env, n_steps=512, batch_size=128, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=2048)
    observation, _ = env.reset(seed=9)
    action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)] == 1
