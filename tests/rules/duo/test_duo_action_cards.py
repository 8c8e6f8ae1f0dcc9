"""UNO Duo action cards: the Draw Two volley (D-13), Skip (D-14), Reverse and its
colour dump (D-15), Wild (D-16), Wild Draw Four (D-17) and its challenge (D-18).
Player 1 is seat 0, so seat 1 (Player 2) plays first."""

from __future__ import annotations

import pytest

from tests.helpers import duo_deal, hand, legal, run, top
from unoengine import Color, IllegalActionError, apply, view_for
from unoengine.core.events import ChallengeResolved, HandShown

# -- D-13 the Draw Two volley ----------------------------------------------------------


def test_d13_volley_rulebook_example() -> None:
    # D-13: "P1 plays a Draw Two, P2 a Draw Two (4), P1 a Draw Two (6); P2 has none and
    # draws 6, and P2's turn ends." Player 1 is seat 0; Player 2 (seat 1) opens with R7.
    state = duo_deal(
        [["R+2", "B+2"], ["R7", "G+2", "W+4"]],
        top="R5",
        draw=["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"],
    )
    state = run(state, "1 R7", "0 R+2")
    assert (state.pending.kind, state.pending.seat) == ("volley", 1)
    assert view_for(state, 0).volley == 2
    state = run(state, "1 G+2")  # a Draw Two of any colour continues the volley
    assert (state.pending.kind, state.pending.seat) == ("volley", 0)
    assert view_for(state, 1).volley == 4
    state = run(state, "0 B+2")
    assert (state.pending.kind, state.pending.seat) == ("volley", 1)
    assert view_for(state, 1).volley == 6
    # P2 has no Draw Two left (a Wild Draw Four does not continue a volley).
    assert legal(state, 1) == ["draw"]
    state = run(state, "1 draw")
    assert len(state.hands[1]) == 7 - 2 + 6
    assert hand(state, 1)[-6:] == ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
    assert len(state.hands[0]) == 5
    # The draw ends P2's turn: no drawn-card decision, P1 plays.
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert view_for(state, 0).volley == 0


def test_d13_wild_draw_four_cannot_continue_a_volley() -> None:
    state = duo_deal([["R+2"], ["R7", "W+4", "W", "R3"]], top="R5", draw=["Y1", "Y2"])
    state = run(state, "1 R7", "0 R+2")
    for action in ("W+4:r", "W:r", "R3"):
        with pytest.raises(IllegalActionError) as error:
            apply(state, 1, action)
        assert error.value.rule == "D-13"
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "pass")
    assert error.value.rule == "D-13"
    state = run(state, "1 draw")
    assert hand(state, 1)[-2:] == ["Y1", "Y2"]
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d13_a_player_may_decline_to_continue_the_volley() -> None:
    state = duo_deal([["R+2"], ["R7", "G+2"]], top="R5", draw=["Y1", "Y2"])
    state = run(state, "1 R7", "0 R+2")
    assert sorted(legal(state, 1)) == ["G+2", "draw"]
    state = run(state, "1 draw")
    assert len(state.hands[1]) == 8
    assert "G+2" in hand(state, 1)
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d13_a_draw_two_with_no_answer_draws_2() -> None:
    state = duo_deal([[], ["R+2"]], top="R5", draw=["Y1", "Y2"])
    state = run(state, "1 R+2")
    assert (state.pending.kind, state.pending.seat) == ("volley", 0)
    state = run(state, "0 draw")
    assert hand(state, 0)[-2:] == ["Y1", "Y2"]
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


# -- D-14 Skip -------------------------------------------------------------------------


def test_d14_skip_the_player_plays_again() -> None:
    state = duo_deal([[], ["RS", "R7", "GS"]], top="R5")
    state = run(state, "1 RS")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert len(state.hands[0]) == 7
    state = run(state, "1 GS")  # a Skip on a Skip: again
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.color is Color.GREEN
    state = run(state, "1 draw", "1 pass")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


# -- D-15 Reverse and the colour dump --------------------------------------------------


def test_d15_dump_is_all_or_nothing() -> None:
    state = duo_deal([[], ["RR", "R1", "R2", "W", "G3"]], top="R5")
    state = run(state, "1 RR")
    assert (state.pending.kind, state.pending.seat) == ("dump", 1)
    assert view_for(state, 0).dump_color is Color.RED
    # Wilds take no part; other colours are not offered; 'pass' before the first card.
    assert sorted(legal(state, 1)) == ["R1", "R2", "pass"]
    for action in ("W:r", "G3", "draw"):
        with pytest.raises(IllegalActionError) as error:
            apply(state, 1, action)
        assert error.value.rule == "D-15"
    state = run(state, "1 R2")
    assert (state.pending.kind, state.pending.seat) == ("dump", 1)
    # Once started, every card of the colour must be played.
    assert legal(state, 1) == ["R1"]
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "pass")
    assert error.value.rule == "D-15"
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "W:r")
    assert error.value.rule == "D-15"
    state = run(state, "1 R1")
    assert top(state) == "R1"
    assert "R1" not in hand(state, 1) and "R2" not in hand(state, 1)
    assert "W" in hand(state, 1)
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d15_pass_before_the_first_card_declines_the_dump() -> None:
    state = duo_deal([[], ["RR", "R1", "R2"]], top="R5")
    state = run(state, "1 RR", "1 pass")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert len(state.hands[1]) == 6
    assert top(state) == "RR"


def test_d15_reverse_with_no_card_of_its_colour_passes_the_turn() -> None:
    state = duo_deal([[], ["RR", "W", "G3"]], top="R5")
    state = run(state, "1 RR")
    # Wilds have no colour: no dump; the turn passes to the opponent.
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d15_last_card_skip_the_player_plays_again() -> None:
    state = duo_deal([[], ["RR", "R1", "RS"]], top="R5")
    state = run(state, "1 RR", "1 R1", "1 RS")
    assert top(state) == "RS"
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_d15_the_order_is_the_players_choice() -> None:
    # The same cards in the other order: the last card is a number, the opponent plays.
    state = duo_deal([[], ["RR", "R1", "RS"]], top="R5")
    state = run(state, "1 RR", "1 RS")
    assert (state.pending.kind, state.pending.seat) == ("dump", 1)
    state = run(state, "1 R1")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d15_last_card_draw_two_starts_a_volley() -> None:
    state = duo_deal([["G+2"], ["RR", "R1", "R+2"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4"])
    state = run(state, "1 RR", "1 R1", "1 R+2")
    assert (state.pending.kind, state.pending.seat) == ("volley", 0)
    assert view_for(state, 0).volley == 2
    state = run(state, "0 G+2")
    assert (state.pending.kind, state.pending.seat) == ("volley", 1)
    assert view_for(state, 1).volley == 4
    state = run(state, "1 draw")
    assert hand(state, 1)[-4:] == ["Y1", "Y2", "Y3", "Y4"]
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d15_last_card_reverse_the_opponent_may_dump_that_colour() -> None:
    state = duo_deal([["R3", "R4"], ["RR", "R1", "RR"]], top="R5")
    state = run(state, "1 RR", "1 R1", "1 RR")
    assert (state.pending.kind, state.pending.seat) == ("dump", 0)
    assert sorted(legal(state, 0)) == ["R3", "R4", "pass"]
    dumped = run(state, "0 R4", "0 R3")
    assert (dumped.pending.kind, dumped.pending.seat) == ("turn", 1)
    declined = run(state, "0 pass")
    assert (declined.pending.kind, declined.pending.seat) == ("turn", 0)  # a normal turn
    assert "R3" in legal(declined, 0) and "draw" in legal(declined, 0)


def test_d15_last_card_reverse_the_opponent_without_that_colour_takes_a_normal_turn() -> None:
    state = duo_deal([["G3", "Y4"], ["RR", "R1", "RR"]], top="R5")
    state = run(state, "1 RR", "1 R1", "1 RR")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d15_uno_and_going_out_during_a_dump() -> None:
    state = duo_deal([[], ["GS", "GS", "RS", "RS", "RR", "R1", "R2"]], top="G5", options={"single_round": True})
    state = run(state, "1 GS", "1 GS", "1 RS", "1 RS", "1 RR")
    assert (state.pending.kind, state.pending.seat) == ("dump", 1)
    assert sorted(legal(state, 1)) == ["R1", "R1 uno", "R2", "R2 uno", "pass"]
    unsafe = run(state, "1 R1")
    assert unsafe.unsafe == 1 and "catch 1" in legal(unsafe, 0)
    state = run(state, "1 R1 uno")
    assert state.unsafe is None
    assert legal(state, 1) == ["R2"]
    state = run(state, "1 R2")
    assert state.is_over and state.outcome is not None and state.outcome.winner == 1


# -- D-16 Wild -------------------------------------------------------------------------


def test_d16_wild_names_the_colour_the_opponent_must_play() -> None:
    state = duo_deal([["R3", "G3"], ["W"]], top="R5")
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "W")
    assert error.value.rule == "D-16"
    state = run(state, "1 W:g")
    assert state.color is Color.GREEN
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "R3")
    assert error.value.rule == "D-8"
    assert "G3" in legal(state, 0)
    state = run(state, "0 G3")
    assert state.color is Color.GREEN


def test_d16_only_a_wild_names_a_colour() -> None:
    state = duo_deal([[], ["R7"]], top="R5")
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "R7:g")
    assert error.value.rule == "D-16"


# -- D-17 Wild Draw Four ---------------------------------------------------------------


def test_d17_wild_draw_four_opponent_draws_4_and_the_player_plays_again() -> None:
    state = duo_deal([[], ["W+4", "B1"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4"])
    state = run(state, "1 W+4:b")
    assert state.color is Color.BLUE
    assert (state.pending.kind, state.pending.seat) == ("challenge", 0)
    assert legal(state, 0) == ["accept", "challenge"]
    assert view_for(state, 0).challenger_of == 1
    state = run(state, "0 accept")
    assert hand(state, 0)[-4:] == ["Y1", "Y2", "Y3", "Y4"]
    assert len(state.hands[0]) == 11
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.color is Color.BLUE
    state = run(state, "1 B1")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d17_only_accept_or_challenge() -> None:
    state = duo_deal([[], ["W+4"]], top="R5")
    state = run(state, "1 W+4:b")
    for action in ("draw", "pass", "B1"):
        with pytest.raises(IllegalActionError) as error:
            apply(state, 0, action)
        assert error.value.rule == "D-18"


# -- D-18 the challenge ----------------------------------------------------------------


def test_d18_wild_draw_four_may_always_be_played() -> None:
    # Reading: the challenge is the check; holding a red card does not forbid the play.
    state = duo_deal([[], ["W+4", "R3", "W"]], top="R5")
    assert "W+4:b" in legal(state, 1)


def test_d18_successful_challenge_player_draws_4_and_challenger_plays_next() -> None:
    state = duo_deal([[], ["W+4", "R3"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4"])
    state = run(state, "1 W+4:b")
    transition = apply(state, 0, "challenge")
    state = transition.state
    assert hand(state, 1)[-4:] == ["Y1", "Y2", "Y3", "Y4"]
    assert len(state.hands[1]) == 6 + 4
    assert len(state.hands[0]) == 7
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert state.color is Color.BLUE  # the colour stands
    assert top(state) == "W+4"
    shown = [e for e in transition.events if type(e) is HandShown]
    assert len(shown) == 1 and shown[0].seat == 1 and shown[0].to == 0
    resolved = [e for e in transition.events if type(e) is ChallengeResolved]
    assert resolved and resolved[0].success


def test_d18_a_plain_wild_held_makes_the_challenge_succeed() -> None:
    state = duo_deal([[], ["W+4", "W"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4"])
    state = run(state, "1 W+4:y", "0 challenge")
    assert len(state.hands[1]) == 10
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert state.color is Color.YELLOW


def test_d18_a_card_matching_by_number_makes_the_challenge_succeed() -> None:
    # "A card they could have played": G5 was legal on R5 (Classic's C-16 counts colour only).
    state = duo_deal([[], ["W+4", "G5"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4"])
    state = run(state, "1 W+4:g", "0 challenge")
    assert len(state.hands[1]) == 10
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d18_failed_challenge_challenger_draws_6_and_the_player_plays_again() -> None:
    state = duo_deal(
        [[], ["W+4", "B1", "B2", "Y1", "Y2", "G1", "G2"]],
        top="R5",
        draw=["Y3", "Y4", "Y6", "Y7", "Y8", "Y9"],
    )
    state = run(state, "1 W+4:b")
    transition = apply(state, 0, "challenge")
    state = transition.state
    assert hand(state, 0)[-6:] == ["Y3", "Y4", "Y6", "Y7", "Y8", "Y9"]
    assert len(state.hands[0]) == 13
    assert len(state.hands[1]) == 6
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.color is Color.BLUE  # the colour stands
    resolved = [e for e in transition.events if type(e) is ChallengeResolved]
    assert resolved and not resolved[0].success
    state = run(state, "1 B1")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d18_another_wild_draw_four_held_does_not_count() -> None:
    state = duo_deal([[], ["W+4", "W+4", "B1", "B2", "Y1", "Y2", "G1"]], top="R5")
    state = run(state, "1 W+4:g", "0 challenge")
    assert len(state.hands[0]) == 13
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.color is Color.GREEN


def test_d18_legality_is_judged_on_the_previous_top_card_and_colour() -> None:
    # After W:g the current colour is green: a red card was not playable, a green one was.
    base = [["W+4", "R3", "B1", "B2", "Y1", "Y2", "Y4"], ["W"]]
    state = duo_deal(base, top="R5")
    state = run(state, "1 W:g", "0 W+4:y", "1 challenge")
    assert len(state.hands[1]) == 6 + 6  # failed: the challenger draws 6
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert state.color is Color.YELLOW
    base = [["W+4", "G3", "B1", "B2", "Y1", "Y2", "Y4"], ["W"]]
    state = duo_deal(base, top="R5")
    state = run(state, "1 W:g", "0 W+4:y", "1 challenge")
    assert len(state.hands[0]) == 6 + 4  # succeeded: the player draws 4
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.color is Color.YELLOW


def test_r8_a_volley_draw_leaves_no_drawn_decision() -> None:
    # the volley's draw takes the whole total and ends the turn at once, even when
    # a drawn card would be playable.
    state = duo_deal([["R+2"], ["R7"]], top="R5", draw=["R1", "R2"])
    state = run(state, "1 R7", "0 R+2", "1 draw")
    assert state.pending.kind == "turn" and state.pending.seat == 0
    assert view_for(state, 1).drawn_card is None
    with pytest.raises(IllegalActionError):
        apply(state, 1, "R2")
