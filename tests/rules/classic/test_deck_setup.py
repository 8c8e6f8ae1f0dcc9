"""Classic UNO: the deck and the set-up (C-1 … C-6, Reading R-2)."""

from __future__ import annotations

from collections import Counter

from tests.helpers import deal, deal_order, hand, rest_of_deck, run, top
from tests.rules.classic._arrange import all_cards
from unoengine import COLORS, Card, Rank, new_game, parse_card
from unoengine.core.rules import CLASSIC

# -- C-1: the deck -------------------------------------------------------------------


def test_c1_deck_has_108_cards() -> None:
    deck = CLASSIC.make_deck(CLASSIC.default_options)
    assert len(deck) == 108
    state = new_game("classic", 2, seed=1)
    assert len(state.tables.cards) == 108


def test_c1_deck_counts_per_colour_and_wilds() -> None:
    counts = Counter(CLASSIC.make_deck(CLASSIC.default_options))
    for color in COLORS:
        assert counts[Card(color, Rank.NUMBER, 0)] == 1
        for number in range(1, 10):
            assert counts[Card(color, Rank.NUMBER, number)] == 2
        for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
            assert counts[Card(color, rank)] == 2
        assert sum(n for card, n in counts.items() if card.color is color) == 25
    assert sum(n for card, n in counts.items() if card.color is not None) == 100
    assert counts[parse_card("W")] == 4
    assert counts[parse_card("W+4")] == 4
    assert sum(counts.values()) == 108


def test_c1_a_dealt_game_holds_the_whole_deck() -> None:
    for seats in (2, 5, 10):
        state = new_game("classic", seats, seed=seats)
        assert all_cards(state) == list(range(108))


# -- C-2: dealing --------------------------------------------------------------------


def _numbered_deck(first: str = "G7", seats: int = 3) -> list[str]:
    """The canonical deck with a number card moved to the first card's position (7 x seats)."""
    order = rest_of_deck("classic", [])
    order.remove(first)
    order.insert(7 * seats, first)
    return order


def test_c2_seven_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    order = _numbered_deck()
    state = new_game("classic", 3, seed=0, deck=order, dealer=1)
    # One card at a time: deck[0] to seat 2 (the dealer's left), deck[1] to seat 0, deck[2] to seat 1, ...
    for position in range(21):
        seat = (1 + 1 + position) % 3
        assert hand(state, seat)[position // 3] == order[position]
    assert [len(h) for h in state.hands] == [7, 7, 7]


def test_c2_ten_players_seven_cards_each() -> None:
    state = new_game("classic", 10, seed=4)
    dealt = sorted(len(h) for h in state.hands)
    # A first Draw Two (C-4) gives one player 9 cards; everyone else holds 7.
    assert dealt[:9] == [7] * 9
    assert dealt[9] in (7, 9)


# -- C-3: draw pile and first discard --------------------------------------------------


def test_c3_remaining_cards_form_the_draw_pile_and_its_top_starts_the_discard_pile() -> None:
    order = _numbered_deck()
    state = new_game("classic", 3, seed=0, deck=order, dealer=0)
    assert len(state.discard_pile) == 1
    assert top(state) == order[21] == "G7"
    assert len(state.draw_pile) == 108 - 21 - 1
    # The draw pile keeps the deck's order: the next card drawn is deck[22].
    seat = state.to_act
    assert seat == 1
    after = run(state, "1 draw")
    assert hand(after, 1)[-1] == order[22]


# -- C-4: first card is an action card ------------------------------------------------


def test_c4_first_card_skip_skips_the_first_player() -> None:
    state = deal("classic", [[], [], []], top="RS", dealer=0)
    assert state.to_act == 2
    assert state.direction == 1
    state = deal("classic", [[], [], [], []], top="BS", dealer=2)
    assert state.to_act == 0  # seat 3, the dealer's left, is skipped


def test_c4_first_card_reverse_dealer_plays_first_and_direction_is_minus_one() -> None:
    state = deal("classic", [["G3"], ["B2"], ["B1"]], top="GR", dealer=0)
    assert state.direction == -1
    assert state.to_act == 0
    state = run(state, "0 G3")
    assert state.to_act == 2  # counter-clockwise from the dealer


def test_c4_first_card_draw_two_first_player_draws_two_and_is_skipped() -> None:
    state = deal("classic", [[], [], []], top="Y+2", draw=["B1", "G9"], dealer=0)
    assert len(state.hands[1]) == 9
    assert hand(state, 1)[-2:] == ["B1", "G9"]
    assert state.to_act == 2
    assert [len(h) for h in (state.hands[0], state.hands[2])] == [7, 7]


def test_c4_first_card_draw_two_with_dealer_at_the_last_seat() -> None:
    state = deal("classic", [[], [], [], []], top="R+2", draw=["B1", "G9"], dealer=3)
    assert len(state.hands[0]) == 9
    assert state.to_act == 1


def test_r2_two_players_first_reverse_the_dealer_plays_first() -> None:
    state = deal("classic", [["B1"], ["B2"]], top="BR", dealer=0)
    assert state.to_act == 0
    state = run(state, "0 B1")
    assert state.to_act == 1
    state = deal("classic", [["B1"], ["B2"]], top="YR", dealer=1)
    assert state.to_act == 1


def test_c4_first_number_card_has_no_action() -> None:
    state = deal("classic", [[], [], []], top="R5", dealer=0)
    assert state.to_act == 1
    assert state.direction == 1
    assert [len(h) for h in state.hands] == [7, 7, 7]


# -- C-5: a wild first card ------------------------------------------------------------


def test_c5_wild_first_card_is_returned_and_the_pile_reshuffled_hands_as_dealt() -> None:
    for first in ("W", "W+4"):
        order = deal_order("classic", [["R1"], ["G2"], ["B3"]], top=first)
        state = new_game("classic", 3, seed=11, deck=order, dealer=0)
        # Reading (C-5): the hands stay as they were dealt.
        for position in range(21):
            assert hand(state, (1 + position) % 3)[position // 3] == order[position]
        assert not parse_card(top(state)).is_wild
        assert state.shuffles >= 2  # the given deck, then at least one reshuffle
        assert all_cards(state) == list(range(108))
        # The wild went back into the draw pile.
        assert len(state.draw_pile) == 108 - 21 - 1


def test_c5_reshuffled_as_many_times_as_needed() -> None:
    order = deal_order("classic", [[], []], top="W", draw=["W", "W+4", "W+4"])
    for seed in range(40):
        state = new_game("classic", 2, seed=seed, deck=order)
        assert not parse_card(top(state)).is_wild
        assert state.color is parse_card(top(state)).color
        assert all_cards(state) == list(range(108))


def test_c5_reshuffle_is_reproducible() -> None:
    order = deal_order("classic", [[], []], top="W+4")
    assert new_game("classic", 2, seed=3, deck=order) == new_game("classic", 2, seed=3, deck=order)


# -- C-6: who plays first ---------------------------------------------------------------


def test_c6_dealers_left_plays_first_then_clockwise() -> None:
    state = deal("classic", [["R1"], ["R2"], ["R3"], ["R4"]], top="R5", dealer=2)
    assert state.direction == 1
    assert state.to_act == 3
    state = run(state, "3 R4")
    assert state.to_act == 0
    state = run(state, "0 R1")
    assert state.to_act == 1
    state = run(state, "1 R2")
    assert state.to_act == 2


def test_c6_default_dealer_is_seat_zero() -> None:
    state = new_game("classic", 4, seed=0, deck=_numbered_deck("B6", 4))
    assert state.dealer == 0
    assert state.to_act == 1


def test_c4_two_players_first_skip_or_draw_two_the_dealer_plays_first() -> None:
    state = deal("classic", [[], []], top="GS", dealer=0)
    assert state.to_act == 0
    state = deal("classic", [[], []], top="G+2", draw=["B1", "Y2"], dealer=1)
    assert hand(state, 0)[-2:] == ["B1", "Y2"]
    assert state.to_act == 1
