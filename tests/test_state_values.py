"""States are values that leave the process: pickle and copy round trips, cheaply, for every rule set."""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from unoengine import GameState, apply_unchecked, legal_actions, new_game, view_for
from unoengine.core.state import Game

CASES = [("classic", 2), ("classic", 4), ("classic", 10), ("duo", 2), ("flex", 3), ("flex", 8)]


def random_state(rules: str, seats: int, seed: int, steps: int) -> GameState:
    options = {"wild_draw_four": "challenge"} if rules == "classic" and seed % 2 else {}
    state = new_game(rules, seats, seed=seed, options={"single_round": False, **options})
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.to_act
        if seat is None:
            break
        legal = legal_actions(state, seat)
        state = apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
    return state


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_pickle_and_copy_round_trips(case: tuple[str, int], seed: int, steps: int) -> None:
    state = random_state(*case, seed, steps)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(state, protocol))
        assert again == state
        assert again.game is state.game  # the static part is shared, not copied
        assert legal_actions(again, 0) == legal_actions(state, 0)
        assert view_for(again, 0) == view_for(state, 0)
    assert copy.copy(state) == state
    assert copy.deepcopy(state) == state


def test_a_game_pickles_by_name() -> None:
    state = new_game("duo", 2, seed=1, options={"duo_deck": "standard108"})
    data = pickle.dumps(state.game)
    assert len(data) < 300
    game = pickle.loads(data)
    assert isinstance(game, Game) and game is state.game
    assert b"standard108" in data


def test_a_state_pickles_small() -> None:
    """Only what changes is written (the round trip's time is a figure of benchmarks/engine.py)."""
    state = random_state("classic", 4, 7, 60)
    assert len(pickle.dumps(state)) < 2_000


def test_a_game_pickles_only_the_options_it_changes() -> None:
    """The defaults are not written (an option given at its default is not written either); the game loads
    as the very same game, and so does a pickle that names every option (the earlier form)."""
    plain = new_game("classic", 3, seed=1)
    assert plain.game.__reduce__()[1] == ("classic", 3, {})
    changed = new_game("classic", 3, seed=1, options={"stack_draw": "same", "target_score": 200, "jump_in": False})
    assert changed.game.__reduce__()[1] == ("classic", 3, {"stack_draw": "same", "target_score": 200})
    for state in (plain, changed):
        again = pickle.loads(pickle.dumps(state))
        assert again.game is state.game and again.options == state.options
    reduce, (rules, seats, _options) = changed.game.__reduce__()
    assert reduce(rules, seats, changed.options.to_dict()) is changed.game


def test_a_state_pickles_its_cards_as_bytes_and_any_card_id_still_round_trips() -> None:
    """Hands and piles pickle as bytes (a card id below 256: every deck's); an id that does not fit a byte is
    written as it is, and every state loads as the same value."""
    state = random_state("classic", 3, 5, 30)
    assert bytes(state.draw_pile) in pickle.dumps(state)
    odd = state._replace(hands=((300, 1), *state.hands[1:]), draw_pile=(256, *state.draw_pile), discard_pile=())
    for value in (state, odd):
        again = pickle.loads(pickle.dumps(value))
        assert again == value and hash(again) == hash(value)
        assert type(again.hands[0]) is tuple and type(again.draw_pile) is tuple
    assert pickle.loads(pickle.dumps(odd)).hands[0] == (300, 1)
