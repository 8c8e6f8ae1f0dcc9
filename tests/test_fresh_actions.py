"""Actions are compared by value wherever they are dispatched (issue: Duo's Keep() acted as a reject).

Every legal action is rebuilt as a fresh value (a new object, equal to the
interned one) and applied: the result must be exactly that of the interned action.
"""

from __future__ import annotations

import copy
import random

import pytest

from unoengine import Keep, Reject, apply, legal_actions, new_game
from unoengine.core.actions import Action

CASES = [("classic", 3, {"wild_draw_four": "challenge"}), ("classic", 2, {}), ("duo", 2, {}), ("flex", 4, {})]


def fresh(action: Action) -> Action:
    """An equal action that is not the same object."""
    rebuilt = copy.copy(action)  # (its class called with its fields: pickle's way)
    assert rebuilt == action and rebuilt is not action
    return rebuilt


@pytest.mark.parametrize(("rules", "seats", "options"), CASES)
def test_every_legal_action_as_a_fresh_value_does_what_the_interned_one_does(
    rules: str, seats: int, options: dict[str, object]
) -> None:
    checked = 0
    for seed in range(12):
        state = new_game(rules, seats, seed=seed, options={"single_round": True, **options})
        rng = random.Random(seed)
        while state.outcome is None and checked < 4000:
            for seat in range(seats):
                for action in legal_actions(state, seat):
                    assert apply(state, seat, fresh(action)) == apply(state, seat, action)
                    checked += 1
            seat = state.to_act
            assert seat is not None
            legal = legal_actions(state, seat)
            state = apply(state, seat, legal[rng.randrange(len(legal))]).state
    assert checked > 500


def test_a_fresh_keep_keeps_and_a_fresh_reject_rejects() -> None:
    """D-3: ``Keep()`` built by hand keeps the card looked at (it performed a reject)."""
    state = new_game("duo", 2, seed=3, dealer=0)
    looked = state.draw_pile[-1]
    kept = apply(state, 0, Keep()).state
    assert kept.hands[0] == (looked,)
    rejected = apply(state, 0, Reject()).state
    assert rejected.hands[0] != (looked,)
    assert rejected.discard_pile[-1] == looked
