"""States are values that leave the process: pickle and copy round trips, cheaply, for every rule set."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unoengine import GameState, apply_unchecked, legal_actions, new_game, view_for
from unoengine.core.errors import InvalidNotationError
from unoengine.core.rules import find_rules
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


def test_a_state_holds_and_pickles_its_cards_as_bytes_and_shows_them_as_tuples() -> None:
    """Hands and piles are held and pickled as bytes (a card id is one byte: every deck has fewer than 256
    cards); the fields read as tuples of card ids, as they always did; a state given tuples holds the same
    value, and a card id that is not a byte is refused."""
    state = random_state("classic", 3, 5, 30)
    assert bytes(state.draw_pile) in pickle.dumps(state)
    assert type(state.draw_bytes) is bytes and all(type(hand) is bytes for hand in state.hand_bytes)
    assert type(state.draw_pile) is tuple and type(state.hands[0]) is tuple and type(state.discard_pile) is tuple
    assert state.hands == tuple(tuple(hand) for hand in state.hand_bytes)
    assert state.draw_pile == tuple(state.draw_bytes) and state.discard_pile == tuple(state.discard_bytes)
    given = state._replace(hands=state.hands, draw_pile=state.draw_pile, discard_pile=state.discard_pile)
    assert given == state and hash(given) == hash(state) and given.hand_bytes == state.hand_bytes
    assert GameState(**state._asdict()) == state and tuple(GameState(*state)) == tuple(state)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state) and type(again.draw_bytes) is bytes
    for odd in ({"hands": ((300, 1), *state.hands[1:])}, {"draw_pile": (256,)}, {"discard_pile": (-1,)}):
        with pytest.raises(ValueError, match="card ids are bytes"):
            state._replace(**odd)


def test_a_deck_of_more_than_256_cards_is_refused_by_name() -> None:
    """A card id is one byte of a hand or a pile: a rule set whose deck has more than 256 cards (none here:
    Duo's 112 is the largest of any rule set and option) is refused when a game of it starts."""
    largest = max(
        len(rules.make_deck(rules.options({name: value} if name else {})))
        for rules in (find_rules("classic"), find_rules("duo"), find_rules("flex"))
        for name, values in [("", [None]), *((spec.name, spec.choices) for spec in rules.option_specs if spec.deck)]
        for value in values
    )
    assert largest == 112
    classic = find_rules("classic")
    huge = dataclasses.replace(classic, name="huge", make_deck=lambda options: classic.make_deck(options) * 3)
    with pytest.raises(InvalidNotationError, match="deck of 324 cards: a deck has at most 256"):
        new_game(huge, 2, seed=1)
