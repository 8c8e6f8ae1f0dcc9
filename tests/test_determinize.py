"""``determinize``: a full state consistent with one seat's view (G-2)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_state_notation import DECISION_CONFIGS, games, playout
from unoengine import GameState, apply, determinize, legal_actions, new_game, view_for
from unoengine.core.errors import InvalidNotationError
from unoengine.core.events import HandShown
from unoengine.core.notation import format_state
from unoengine.core.rules import RULESETS
from unoengine.core.views import PlayerView
from unoengine.core.work import shuffle_in_words


def check(state: GameState, seat: int | None, rng_seed: int = 0) -> GameState:
    """Determinize the seat's view of ``state`` and check the result against it."""
    view = view_for(state, seat)
    made = determinize(view, random.Random(rng_seed))
    assert view_for(made, seat) == view, (seat, state)
    deck = state.tables.cards
    zones = [*made.hands, made.draw_pile, made.discard_pile]
    ids = sorted(card for zone in zones for card in zone)
    assert ids == list(range(len(deck)))  # every physical card exactly once
    assert Counter(deck[card] for card in ids) == Counter(deck)
    if seat is not None:
        assert legal_actions(made, seat) == legal_actions(state, seat)
    assert made.game == state.game
    return made


def every_seat(state: GameState) -> Iterator[int | None]:
    yield None
    yield from range(state.seats)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(1, 9))
def test_the_view_of_a_determinized_state_is_the_view(game: tuple[str, int, dict[str, Any], int], every: int) -> None:
    rules, seats, options, seed = game
    for index, state in enumerate(playout(rules, seats, options, seed, steps=250)):
        if index % every == 0:
            for seat in every_seat(state):
                check(state, seat, index)


def test_every_kind_of_decision() -> None:
    """Seeded playouts until every decision kind was determinized from every seat."""
    configs = [*DECISION_CONFIGS, ("flex", 4, {"single_round": False, "target_score": 40})]
    seen: set[tuple[str, str]] = set()
    for seed in range(80):
        for rules, seats, options in configs:
            for state in playout(rules, seats, options, seed, steps=300):
                if (rules, state.pending.kind) not in seen:
                    seen.add((rules, state.pending.kind))
                    for seat in every_seat(state):
                        check(state, seat)
    kinds = {kind for _, kind in seen}
    assert kinds >= {kind for rules in RULESETS.values() for kind in rules.decisions}


def find(configs: list[tuple[str, int, dict[str, Any]]], wanted: Callable[[GameState, GameState], bool]) -> GameState:
    """The first state of seeded playouts for which ``wanted(previous, state)`` holds."""
    for seed in range(300):
        for rules, seats, options in configs:
            previous: GameState | None = None
            for state in playout(rules, seats, options, seed, steps=600):
                if previous is not None and wanted(previous, state):
                    return state
                previous = state
    raise AssertionError("no such state in the seeded playouts")


def test_duo_mid_draft() -> None:
    state = new_game("duo", 2, seed=5, dealer=0)
    state = apply(state, 0, "keep").state
    state = apply(state, 1, "reject").state
    assert state.pending.kind == "draft"
    for seat in every_seat(state):
        made = check(state, seat)
        if seat == state.to_act:  # the drafter's card lies on top of the draw pile
            assert made.tables.cards[made.draw_pile[-1]] == state.tables.cards[state.draw_pile[-1]]


def test_duo_after_the_discards_are_turned_over() -> None:
    options = {"draw_until_playable": True, "single_round": True}
    state = find(
        [("duo", 2, options)],
        lambda before, after: (
            before.pending.kind != "draft"
            and after.round == before.round
            and len(after.draw_pile) > len(before.draw_pile)
        ),
    )
    assert state.public_bottom > 0
    for seat in every_seat(state):
        made = check(state, seat)
        known = min(state.public_bottom, len(state.draw_pile))
        cards = state.tables.cards
        assert [cards[c] for c in made.draw_pile[:known]] == [cards[c] for c in state.draw_pile[:known]]


def test_classic_challenge_window() -> None:
    options = {"wild_draw_four": "challenge"}
    state = find([("classic", 3, options), ("classic", 4, options)], lambda _, after: after.pending.kind == "challenge")
    legal = set()
    for seat in every_seat(state):
        for rng_seed in range(12):
            made = check(state, seat, rng_seed)
            assert made.pending._replace(legal=state.pending.legal) == state.pending
            legal.add(made.pending.legal)
    assert legal == {True, False}  # the hidden flag is sampled


def test_flex_with_red_power_cards_and_a_flex_challenge() -> None:
    options = {"single_round": False, "target_score": 60}
    red = find([("flex", 3, options), ("flex", 5, options)], lambda _, after: not all(after.power))
    for seat in every_seat(red):
        check(red, seat)
    window = find([("flex", 2, options), ("flex", 4, options)], lambda _, after: after.pending.kind == "challenge")
    for seat in every_seat(window):
        made = check(window, seat)
        assert made.pending._replace(legal=window.pending.legal) == window.pending


def test_a_drawn_card_decision_keeps_the_drawn_card() -> None:
    state = find([("classic", 3, {})], lambda _, after: after.pending.kind == "drawn")
    drawer = state.to_act
    assert drawer is not None
    for seat in every_seat(state):
        made = check(state, seat)
        assert made.pending.card == made.hands[drawer][-1]
        if seat == drawer:
            assert made.tables.cards[made.pending.card] == state.tables.cards[state.pending.card]


def test_different_seeds_deal_different_hidden_hands() -> None:
    state = new_game("classic", 4, seed=3)
    view = view_for(state, 0)
    deals = {determinize(view, random.Random(seed)).hands[1:] for seed in range(10)}
    assert len(deals) == 10
    again = determinize(view, random.Random(4), seed=99)
    assert again == determinize(view, random.Random(4), seed=99)
    assert again.seed == 99


def test_a_hand_shown_in_a_challenge_stays_known() -> None:
    options = {"wild_draw_four": "challenge"}
    state = find([("classic", 3, options)], lambda _, after: after.pending.kind == "challenge")
    challenger = state.to_act
    assert challenger is not None
    step = apply(state, challenger, "challenge")
    shown = next(event for event in step.events if type(event) is HandShown)
    assert shown.cards is not None
    cards = state.tables.cards
    seen = [cards[card] for card in shown.cards]
    after = step.state
    # The player of the card drew 4 only if the challenge succeeded; the shown cards are still held.
    view = view_for(after, challenger)
    for rng_seed in range(5):
        made = determinize(view, random.Random(rng_seed), known={shown.seat: seen})
        assert view_for(made, challenger) == view
        assert [cards[card] for card in made.hands[shown.seat][: len(seen)]] == seen


def test_a_view_that_does_not_fit_the_deck_is_refused() -> None:
    view = view_for(new_game("classic", 2, seed=1), 0)
    bad: PlayerView = view._replace(hand=view.hand + (view.hand[0],) * 9)
    with pytest.raises(ValueError, match="does not fit"):
        determinize(bad, random.Random(0))


def test_g2_the_challenger_knows_the_shown_hand_and_determinize_deals_it_there() -> None:
    """The view carries the hand shown in a challenge (C-17) while its cards stay; every sample keeps them there."""
    options = {"wild_draw_four": "challenge"}
    state = find([("classic", 3, options)], lambda _, after: after.pending.kind == "challenge")
    challenger, player = state.to_act, state.pending.player
    assert challenger is not None
    cards = state.tables.cards
    shown = Counter(cards[card] for card in state.hands[player])
    after = apply(state, challenger, "challenge").state
    view = view_for(after, challenger)
    assert Counter(dict(view.known)[player]) == shown
    for seat in range(after.seats):
        if seat != challenger:
            assert view_for(after, seat).known == ()  # shown to the challenger only
    for rng_seed in range(8):
        made = determinize(view, random.Random(rng_seed))  # the view's own knowledge, no argument
        assert view_for(made, challenger) == view
        assert Counter(cards[card] for card in made.hands[player]) >= shown
    # A known card the holder plays is no longer known.
    for _ in range(40):
        seat = after.to_act
        if after.is_over or seat is None or after.round != state.round:
            break
        after = apply(after, seat, legal_actions(after, seat)[0]).state
        left = Counter(dict(view_for(after, challenger).known).get(player, ()))
        assert left <= Counter(cards[card] for card in after.hands[player]) and left <= shown
        for rng_seed in range(2):
            check(after, challenger, rng_seed)


def test_g2_what_is_known_round_trips_through_the_state_notation() -> None:
    options = {"wild_draw_four": "challenge"}
    state = find([("classic", 3, options)], lambda _, after: after.pending.kind == "challenge")
    challenger = state.to_act
    assert challenger is not None
    after = apply(state, challenger, "challenge").state
    assert after.known
    text = after.__repr__()
    assert " known=" in text and GameState.parse(format_state(after)) == after
    assert " known=" not in format_state(new_game("classic", 2, seed=1))
    bad = format_state(after).replace(f"known={challenger}>", f"known={state.pending.player}>")
    with pytest.raises(InvalidNotationError, match="known"):
        GameState.parse(bad)


class _OwnRandom(random.Random):
    def random(self) -> float:
        return super().random()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 80, 108, 254, 255, 256, 257, 300, 1000])
def test_the_unseen_cards_are_shuffled_as_random_shuffle_shuffles_them(size: int) -> None:
    """``shuffle_in_words`` draws its words two at a time: the same order as ``Random.shuffle``, the generator
    left in the same state (so that a seeded search makes the same samples as before)."""
    for seed in range(20):
        # A generator whose random() is its own, or 256 cards or more, take the other way (shuffle_with).
        maker = random.Random if seed % 2 else _OwnRandom
        mine, theirs = maker(seed), random.Random(seed)
        cards = list(range(size))
        expected = list(range(size))
        theirs.shuffle(expected)
        assert shuffle_in_words(mine, cards) is cards
        assert cards == expected
        assert mine.getrandbits(64) == theirs.getrandbits(64)
