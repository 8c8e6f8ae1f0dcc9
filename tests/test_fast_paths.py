"""The engine's fast transitions give exactly the states of the general path."""

from __future__ import annotations

import random

import pytest

from unoengine import GameState, legal_actions, new_game
from unoengine.core import engine
from unoengine.core.engine import apply_unchecked

CASES = [("classic", 2), ("classic", 4), ("classic", 7), ("duo", 2), ("flex", 3), ("flex", 6)]


def _playout(rules: str, seats: int, seed: int, fast: bool, options: dict[str, object]) -> list[GameState]:
    engine.FAST_PATHS = fast
    try:
        rng = random.Random(seed)
        state = new_game(rules, seats, seed=seed, options=options)
        states = [state]
        while not state.is_over and len(states) < 3000:
            seat = state.to_act
            assert seat is not None
            legal = legal_actions(state, seat)
            state = apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
            states.append(state)
        return states
    finally:
        engine.FAST_PATHS = True


@pytest.mark.parametrize(("rules", "seats"), CASES)
@pytest.mark.parametrize("options", [{"single_round": True}, {"single_round": True, "draw_until_playable": True}])
def test_fast_paths_equal_general_path(rules: str, seats: int, options: dict[str, object]) -> None:
    for seed in range(12):
        fast = _playout(rules, seats, seed, True, options)
        slow = _playout(rules, seats, seed, False, options)
        assert len(fast) == len(slow)
        for index, (a, b) in enumerate(zip(fast, slow, strict=True)):
            assert a == b, f"{rules}/{seats} seed {seed} step {index}"
            assert type(a) is GameState
