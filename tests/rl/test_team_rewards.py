"""H-11 in the RL environments: a round won by a seat rewards its whole team, zero-sum."""

from __future__ import annotations

import random

from unoengine.rl.match import Match


def test_h11_the_win_reward_goes_to_both_partners_and_sums_to_zero() -> None:
    for seats in (4, 6):
        match = Match("classic", seats, {"teams": "pairs"})
        rng = random.Random(seats)
        for seed in range(5):
            match.reset(seed)
            while not match.is_over:
                match.take_id(rng.choice(match.choice_ids), "raise")
            winner = match.state.outcome.winner if match.state.outcome is not None else None
            rewards = match.rewards()
            assert abs(sum(rewards)) < 1e-9
            if winner is None:
                continue
            partner = (winner + seats // 2) % seats
            assert rewards[winner] == rewards[partner] == 1.0
            losses = [rewards[seat] for seat in range(seats) if seat not in (winner, partner)]
            assert losses == [-2.0 / (seats - 2)] * (seats - 2)


def test_the_win_reward_without_teams_is_unchanged() -> None:
    match = Match("classic", 4)
    rng = random.Random(1)
    match.reset(3)
    while not match.is_over:
        match.take_id(rng.choice(match.choice_ids), "raise")
    assert match.state.outcome is not None and match.state.outcome.winner is not None
    rewards = match.rewards()
    assert sorted(rewards) == [-1 / 3, -1 / 3, -1 / 3, 1.0]
