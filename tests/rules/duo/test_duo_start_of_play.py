"""UNO Duo: the first card (D-6). Player 1 is seat 0 unless said otherwise, so
Player 2 (seat 1) plays first."""

from __future__ import annotations

import pytest

from tests.helpers import duo_deal, hand, legal, run, top
from unoengine import Color, IllegalActionError, apply, view_for


def test_d6_number_card_first_player2_plays() -> None:
    state = duo_deal([[], ["R7"]], top="R5")
    assert top(state) == "R5"
    assert state.color is Color.RED
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "draw")
    assert error.value.rule == "G-4"
    state = run(state, "1 R7")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d6_number_card_first_with_player1_on_seat_1() -> None:
    state = duo_deal([["R7"], []], top="R5", player1=1)
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d6_skip_first_player1_plays_first() -> None:
    state = duo_deal([["R7"], []], top="RS")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert len(state.hands[1]) == 7
    state = run(state, "0 R7")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d6_skip_first_with_player1_on_seat_1() -> None:
    state = duo_deal([[], []], top="YS", player1=1)
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d6_draw_two_first_player2_draws_2_then_player1_plays() -> None:
    # Reading: no volley, even when Player 2 holds a Draw Two.
    state = duo_deal([["R7"], ["G+2"]], top="R+2", draw=["B9", "B8", "Y3"])
    assert hand(state, 1)[-2:] == ["B9", "B8"]
    assert len(state.hands[1]) == 9
    assert len(state.hands[0]) == 7
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert view_for(state, 0).volley == 0
    state = run(state, "0 R7")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d6_reverse_first_player2_may_dump_that_colour() -> None:
    state = duo_deal([[], ["R1", "R3", "G4"]], top="RR")
    assert (state.pending.kind, state.pending.seat) == ("dump", 1)
    assert view_for(state, 1).dump_color is Color.RED
    assert sorted(legal(state, 1)) == ["R1", "R3", "pass"]
    state = run(state, "1 R3", "1 R1")
    assert len(state.hands[1]) == 5
    assert top(state) == "R1"
    # The dump was Player 2's turn: Player 1 plays next.
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d6_reverse_first_dump_ending_with_a_reverse_offers_player1_the_dump() -> None:
    # As in D-15: the last card of the dump is a Reverse, so Player 1 may dump red.
    state = duo_deal([["R2", "G6"], ["R1", "RR"]], top="RR")
    state = run(state, "1 R1", "1 RR")
    assert (state.pending.kind, state.pending.seat) == ("dump", 0)
    assert sorted(legal(state, 0)) == ["R2", "pass"]
    state = run(state, "0 pass")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d6_reverse_first_dump_ending_with_a_skip_player2_plays_again() -> None:
    state = duo_deal([[], ["R1", "RS", "G4"]], top="RR")
    state = run(state, "1 R1", "1 RS")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d6_reverse_first_declined_player2_takes_a_normal_turn() -> None:
    state = duo_deal([[], ["R1", "R3", "G4"]], top="RR")
    state = run(state, "1 pass")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert len(state.hands[1]) == 7
    # A normal turn: any one matching card, or draw.
    assert "R1" in legal(state, 1) and "draw" in legal(state, 1)
    state = run(state, "1 R1")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert len(state.hands[1]) == 6


def test_d6_reverse_first_player2_without_that_colour_takes_a_normal_turn() -> None:
    state = duo_deal([[], ["G4", "Y6"]], top="BR")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d6_reverse_first_wilds_take_no_part_in_the_dump() -> None:
    state = duo_deal([[], ["W", "W+4", "G4", "R2"]], top="RR")
    assert (state.pending.kind, state.pending.seat) == ("dump", 1)
    assert sorted(legal(state, 1)) == ["R2", "pass"]
    state = duo_deal([[], ["W", "W+4", "G4", "Y2"]], top="RR")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d6_wild_first_player1_names_the_colour_then_player2_plays() -> None:
    state = duo_deal([[], ["G3", "R3"]], top="W")
    assert (state.pending.kind, state.pending.seat) == ("color", 0)
    assert legal(state, 0) == ["color r", "color y", "color g", "color b"]
    assert legal(state, 1) == []
    state = run(state, "0 color g")
    assert state.color is Color.GREEN
    assert top(state) == "W"
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert len(state.hands[1]) == 7
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "R3")
    assert error.value.rule == "D-8"
    state = run(state, "1 G3")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d6_wild_first_only_player1_names_the_colour() -> None:
    state = duo_deal([[], []], top="W")
    for action in ("draw", "pass", "keep", "W:g"):
        with pytest.raises(IllegalActionError) as error:
            apply(state, 0, action)
        assert error.value.rule in ("D-6", "G-4")
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "draw")
    assert error.value.rule == "D-6"
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "color g")
    assert error.value.rule == "G-4"


def test_d6_wild_draw_four_first_player1_names_colour_player2_draws_4_player1_plays() -> None:
    state = duo_deal([["B1"], []], top="W+4", draw=["Y1", "Y2", "Y3", "Y4", "G8"])
    assert (state.pending.kind, state.pending.seat) == ("color", 0)
    state = run(state, "0 color b")
    assert state.color is Color.BLUE
    # Reading: no challenge for a first Wild Draw Four.
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert len(state.hands[1]) == 11
    assert hand(state, 1)[-4:] == ["Y1", "Y2", "Y3", "Y4"]
    assert len(state.hands[0]) == 7
    state = run(state, "0 B1")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d6_wild_draw_four_first_with_player1_on_seat_1() -> None:
    state = duo_deal([[], []], top="W+4", draw=["Y1", "Y2", "Y3", "Y4"], player1=1)
    assert (state.pending.kind, state.pending.seat) == ("color", 1)
    state = run(state, "1 color r")
    assert state.color is Color.RED
    assert len(state.hands[0]) == 11
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
