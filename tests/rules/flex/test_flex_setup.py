"""UNO Flex! set-up: F-6, F-7, F-8 (docs/RULES.md)."""

from __future__ import annotations

from tests.helpers import deal, deal_order, hand, legal, run, top
from unoengine import Color, Rank, new_game

# -- F-6: Power Cards green, 7 cards each, the rest is the draw pile ----------------------


def test_f6_deal_seven_each_rest_is_draw_pile() -> None:
    for seats in (2, 4, 8):
        state = new_game("flex", seats, seed=seats * 7)
        assert all(len(h) == 7 for h in state.hands)
        assert state.power == (True,) * seats
        assert len(state.draw_pile) + len(state.discard_pile) == 104 - 7 * seats
        everything = [c for h in state.hands for c in h] + list(state.draw_pile) + list(state.discard_pile)
        assert sorted(everything) == list(range(104))


def test_f6_one_card_at_a_time_from_the_dealers_left() -> None:
    hands = [["R2", "R3"], ["Y2", "Y3"], ["B2", "B3"]]
    order = deal_order("flex", hands, top="G7", dealer=1)
    # dealer 1: seat 2 gets the first card, then seat 0, then seat 1
    assert order[:6] == ["B2", "R2", "Y2", "B3", "R3", "Y3"]
    state = new_game("flex", 3, seed=0, deck=order, dealer=1)
    assert hand(state, 2)[:2] == ["B2", "B3"]
    assert hand(state, 0)[:2] == ["R2", "R3"]
    assert hand(state, 1)[:2] == ["Y2", "Y3"]
    assert top(state) == "G7"
    assert len(state.draw_pile) == 104 - 21 - 1


# -- F-7: action cards turned first are covered until a number card ----------------------


def test_f7_skip_turned_first_is_ignored_and_covered() -> None:
    state = deal("flex", [["R3"], ["Y4"], ["B4"]], top="RS", draw=["B6"])
    assert top(state) == "B6"
    assert len(state.discard_pile) == 2
    assert state.color is Color.BLUE
    assert state.to_act == 1  # seat 1 is not skipped
    assert state.direction == 1


def test_f7_draw_two_and_reverse_turned_first_are_ignored() -> None:
    state = deal("flex", [["R3"], ["Y4"], ["B4"]], top="R+2", draw=["YR", "G6"])
    assert top(state) == "G6"
    assert len(state.discard_pile) == 3
    assert state.to_act == 1
    assert state.direction == 1
    assert all(len(h) == 7 for h in state.hands)  # nobody drew


def test_f7_wilds_are_covered_too_repeatedly() -> None:
    state = deal("flex", [["R3"], ["Y4"]], top="FW+4", draw=["WAF", "FWA", "FW+2", "BS|G", "Y6"])
    assert top(state) == "Y6"
    assert len(state.discard_pile) == 6
    assert state.color is Color.YELLOW
    assert state.pending.kind == "turn" and state.to_act == 1
    assert state.power == (True, True)  # the Wild All Flip did nothing
    assert all(len(h) == 7 for h in state.hands)


def test_f7_flip_card_turned_first_flips_nobody() -> None:
    state = deal("flex", [["R3"], ["Y4"], ["B4"]], top="G5!")
    assert top(state) == "G5!"
    assert state.power == (True, True, True)
    state = deal("flex", [["R3"], ["Y4"]], top="YS", draw=["R9!"])
    assert top(state) == "R9!"
    assert state.power == (True, True)


def test_f7_flex_number_card_first_counts_by_normal_side() -> None:
    state = deal("flex", [["Y8"], ["Y2", "G8", "B3|G"]], top="G2|Y")
    assert state.color is Color.GREEN
    plays = legal(state, 1)
    assert "Y2" in plays  # number 2
    assert "G8" in plays  # colour green
    assert "B3|G@flex" in plays  # flex side green 3 matches green
    assert "B3|G" not in plays


def test_f7_any_seed_starts_on_a_number_card() -> None:
    for seed in range(40):
        state = new_game("flex", 3, seed=seed)
        assert state.tables.cards[state.discard_pile[-1]].rank is Rank.NUMBER
        assert all(state.tables.cards[c].is_action for c in state.discard_pile[:-1])
        assert state.to_act == 1 and state.direction == 1
        assert state.power == (True, True, True)
        assert all(len(h) == 7 for h in state.hands)


# -- F-8: the player to the dealer's left starts; clockwise -----------------------------


def test_f8_dealers_left_starts_clockwise() -> None:
    state = deal("flex", [["R3"], ["R4"], ["R6", "Y8"]], top="R2", dealer=1)
    assert state.dealer == 1
    assert state.to_act == 2
    state = run(state, "2 R6")
    assert state.to_act == 0
    state = run(state, "0 R3")
    assert state.to_act == 1


def test_f8_last_seat_dealer_seat_zero_starts() -> None:
    state = deal("flex", [["R3"], ["R4"], ["R6"], ["R7"]], top="R2", dealer=3)
    assert state.to_act == 0
