"""The PettingZoo AEC environment: PettingZoo's own checkers, who decides when, rewards, illegal actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from unoengine.core.action_ids import NUM_ACTIONS, PASS_ID, legal_ids
from unoengine.core.engine import legal_actions
from unoengine.core.errors import IllegalActionError
from unoengine.rl import env, raw_env
from unoengine.rl.decisions import offered

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {}),
    ("classic", 10, {}),
    ("classic", 3, {"wild_draw_four": "strict", "draw_until_playable": True}),
    ("classic", 2, {"single_round": False, "target_score": 50}),
    ("duo", 2, {}),
    ("duo", 2, {"duo_deck": "standard108"}),
    ("flex", 2, {}),
    ("flex", 5, {}),
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("rules", "seats", "options"), GAMES)
def test_pettingzoo_api_test_and_seed_test(rules: str, seats: int, options: dict[str, Any]) -> None:
    api_test(env(rules=rules, seats=seats, options=options), num_cycles=300)
    seed_test(lambda: env(rules=rules, seats=seats, options=options), num_cycles=300)


def test_the_registry_knows_every_rule_set() -> None:
    from pettingzoo.env_registry import registration

    for name in ("classic", "duo", "flex"):
        made = registration.make("aec", f"unoengine/{name}-v0", seats=2)
        made.reset(seed=1)
        assert made.unwrapped.match.ruleset.name == name


def test_not_parallelizable_and_spaces_are_cached() -> None:
    e = raw_env("classic", 3)
    assert e.metadata["is_parallelizable"] is False
    assert e.observation_space("seat_1") is e.observation_space("seat_1")
    assert e.observation_space("seat_0") is e.observation_space("seat_2")
    assert e.action_space("seat_0").n == NUM_ACTIONS


def play_random(e: Any, rng: np.random.Generator) -> dict[str, float]:
    """Random masked play to the end; the cumulative rewards."""
    totals: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8
        e.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


@pytest.mark.parametrize("seats", [2, 4])
def test_win_rewards(seats: int) -> None:
    e = env("classic", seats)
    rng = np.random.default_rng(0)
    for seed in range(3):
        e.reset(seed=seed)
        totals = play_random(e, rng)
        assert sorted(totals.values()) == pytest.approx([-1 / (seats - 1)] * (seats - 1) + [1.0])


def test_score_rewards_are_zero_sum() -> None:
    e = env("classic", 3, reward="score")
    e.reset(seed=5)
    totals = play_random(e, np.random.default_rng(1))
    assert sum(totals.values()) == pytest.approx(0.0, abs=1e-6)
    assert max(totals.values()) > 0


def test_an_illegal_action_raises_when_asked_to_and_leaves_the_game() -> None:
    e = raw_env("classic", 2, illegal="raise")
    e.reset(seed=3)
    before = e.match.state
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=r"^[A-Z]-\d+ "):
        e.step(illegal)
    assert e.match.state is before
    with pytest.raises(IllegalActionError, match="action id 100000"):
        e.step(100000)


def test_terminate_ends_the_game_with_minus_one_to_the_offender() -> None:
    e = env("classic", 3)  # the default, as PettingZoo's classic environments
    assert e.illegal == "terminate"
    e.reset(seed=3)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e._cumulative_rewards == {agent: (-1.0 if agent == offender else 0.0) for agent in e.agents}


def test_the_order_contract_is_enforced_without_a_wrapper() -> None:
    """What PettingZoo's OrderEnforcingWrapper checks, checked by the environment itself."""
    e = env("classic", 2)
    assert e.unwrapped is e
    with pytest.raises(AttributeError):
        _ = e.agents
    for call in (lambda: e.step(0), lambda: e.observe("seat_0"), e.agent_iter, e.render):
        with pytest.raises(Exception, match="reset"):
            call()
    e.reset(seed=1)
    agents = e.agent_iter()
    next(agents)
    with pytest.raises(AssertionError, match="step"):
        next(agents)


def test_bad_arguments_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="illegal must be one of"):
        raw_env("classic", 2, illegal="ignore")
    with pytest.raises(ValueError, match="reward must be one of"):
        raw_env("classic", 2, reward="points")
    with pytest.raises(ValueError, match="2-10 seats"):
        raw_env("classic", 11)
    with pytest.raises(ValueError, match="option"):
        raw_env("classic", 2, options={"stacking": True})


def test_out_of_turn_offers_come_first_in_turn_order_and_pass_lets_them_go() -> None:
    """docs/RL.md, "Who decides when": catch / uno offers before the seat to act; ``pass`` declines."""
    e = raw_env("classic", 4)
    rng = np.random.default_rng(2)
    seen = 0
    for seed in range(40):
        e.reset(seed=seed)
        while not e.match.is_over:
            state = e.match.state
            seat = int(e.agent_selection.split("_")[1])
            to_act = state.pending.seat
            mask = e.observe(e.agent_selection)["action_mask"]
            others = [s for s in range(4) if s != seat]
            assert all(not e.observe(f"seat_{s}")["action_mask"].any() for s in others)
            if seat != to_act:
                seen += 1
                # an out-of-turn offer: its legal actions plus pass, nothing else
                assert set(np.flatnonzero(mask)) == {PASS_ID, *legal_ids(state, seat)}
                waiting = [(to_act + k) % 4 for k in range(1, 4)]
                earlier = waiting[: waiting.index(seat)]
                assert all(s in e.match.declined or not legal_actions(state, s) for s in earlier)
                e.step(PASS_ID)
                assert e.match.state is state  # declining changes nothing in the game
                assert seat in e.match.declined
                continue
            assert set(np.flatnonzero(mask)) == set(legal_ids(state, seat))
            e.step(int(rng.choice(np.flatnonzero(mask))))
    assert seen > 10


def test_offered_is_generic_over_out_of_turn_actions() -> None:
    """The offer reads ``legal_actions`` of every seat; it names no action (jump-in etc. come the same way)."""
    from unoengine.core.engine import new_game

    state = new_game("classic", 3, seed=1)
    seat, choices = offered(state, set())
    assert seat == state.to_act and choices == legal_actions(state, seat)


@settings(max_examples=15, deadline=None)
@given(
    game=st.sampled_from([("classic", 2), ("classic", 6), ("duo", 2), ("flex", 3), ("flex", 8)]),
    seed=st.integers(0, 2**32),
)
def test_every_observation_is_in_its_space_and_every_mask_is_the_offer(game: tuple[str, int], seed: int) -> None:
    rules, seats = game
    e = raw_env(rules, seats, max_steps=250)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    space = e.observation_space("seat_0")
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        assert space.contains(observation)
        if terminated or truncated:
            e.step(None)
            continue
        ids = set(np.flatnonzero(observation["action_mask"]))
        seat = e.match.seat
        assert agent == f"seat_{seat}"
        expected = set(legal_ids(e.match.state, seat))
        assert ids == (expected | {PASS_ID} if e.match.is_out_of_turn else expected)
        masked = e.action_space(agent).sample(mask=observation["action_mask"])
        assert masked in ids
        e.step(int(rng.choice(sorted(ids))))
