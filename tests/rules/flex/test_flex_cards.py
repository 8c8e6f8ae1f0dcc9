"""UNO Flex! cards: F-17 … F-25 and Reading R-4 (docs/RULES.md)."""

from __future__ import annotations

import pytest

from tests.helpers import deal, hand, legal, run, top
from unoengine import Color, IllegalActionError, InvalidNotationError, apply, new_game
from unoengine.core.events import CardsDrawn, ChallengeResolved, HandShown

# -- F-17: Draw Two, Reverse, Skip ----------------------------------------------------


def test_f17_draw_two_next_draws_two_and_misses_turn() -> None:
    state = deal("flex", [["R3"], ["Y+2"], ["R6"]], top="Y7", draw=["B2", "B3"])
    state = run(state, "1 Y+2")
    assert hand(state, 2)[-2:] == ["B2", "B3"]
    assert len(state.hands[2]) == 9
    assert state.to_act == 0


def test_f17_normal_side_of_flex_draw_two_is_a_draw_two() -> None:
    state = deal("flex", [["R3"], ["Y+2|R"], ["R6"]], top="Y7")
    state = run(state, "1 Y+2|R")
    assert len(state.hands[2]) == 9
    assert len(state.hands[0]) == 7
    assert state.to_act == 0
    assert state.power == (True, True, True)


def test_f17_reverse_three_players() -> None:
    state = deal("flex", [["R3"], ["YR"], ["R6"]], top="Y7")
    state = run(state, "1 YR")
    assert state.direction == -1
    assert state.to_act == 0


def test_f17_reverse_two_players_works_as_skip() -> None:
    state = deal("flex", [["R3"], ["YR", "Y4"]], top="Y7")
    state = run(state, "1 YR")
    assert state.to_act == 1
    state = run(state, "1 Y4")
    assert state.to_act == 0


def test_f17_skip() -> None:
    state = deal("flex", [["R3"], ["YS"], ["R6"]], top="Y7")
    state = run(state, "1 YS")
    assert state.to_act == 0
    state = deal("flex", [["R3"], ["YS|R"], ["R6"]], top="Y7")
    state = run(state, "1 YS|R")  # normal side of a Flex Skip: a Skip
    assert state.to_act == 0


# -- F-18: Wild All Flip --------------------------------------------------------------


def test_f18_wild_all_flip_flips_then_names_colour() -> None:
    state = deal("flex", [["R3"], ["G2|Y"], ["WAF"], ["R4"]], top="Y7")
    state = run(state, "1 G2|Y@flex")
    state = run(state, "2 WAF:y")
    assert state.power == (False, True, False, False)
    assert state.color is Color.YELLOW
    assert top(state) == "WAF"
    assert state.to_act == 3


def test_f18_wild_all_flip_needs_a_colour() -> None:
    state = deal("flex", [["R3"], ["WAF"]], top="Y7")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "WAF")
    assert e.value.rule == "C-9"


# -- F-19: Flex Draw Two ---------------------------------------------------------------


def test_f19_flex_side_every_other_player_draws_one_in_turn_order() -> None:
    # Y+2|R: flex side red Draw Two; on red 7 it matches by colour
    state = deal("flex", [["R3"], ["Y+2|R"], ["R6"], ["R8"]], top="R7", draw=["B2", "B3", "B4"])
    step = apply(state, 1, "Y+2|R@flex")
    state = step.state
    draws = [(e.seat, len(e.cards or ())) for e in step.events if isinstance(e, CardsDrawn)]
    assert draws == [(2, 1), (3, 1), (0, 1)]
    assert hand(state, 2)[-1] == "B2"
    assert hand(state, 3)[-1] == "B3"
    assert hand(state, 0)[-1] == "B4"
    assert len(state.hands[1]) == 6
    assert state.to_act == 2  # the next player keeps the turn
    assert state.power == (True, False, True, True)
    assert state.color is Color.YELLOW  # the normal side stands (F-15)


def test_f19_reading_turn_order_follows_direction() -> None:
    state = deal("flex", [["R3"], ["YR", "G+2|Y"], ["R6"], ["R8"]], top="Y7", draw=["B2", "B3", "B4"])
    # seat 1 reverses (direction -1); after a round of draws seat 1 plays the flex side
    state = run(state, "1 YR")
    assert state.direction == -1 and state.to_act == 0
    state = run(state, "0 draw", "0 pass")  # seat 0 draws B2
    assert state.to_act == 3
    state = run(state, "3 draw", "3 pass", "2 draw", "2 pass")  # B3, B4
    assert state.to_act == 1
    step = apply(state, 1, "G+2|Y@flex")  # yellow Draw Two on yellow Reverse
    draws = [e.seat for e in step.events if isinstance(e, CardsDrawn)]
    assert draws == [0, 3, 2]
    assert step.state.to_act == 0


# -- F-20: Flex Reverse ----------------------------------------------------------------


def test_f20_flex_side_reverses_and_skips_four_players() -> None:
    state = deal("flex", [["R3"], ["BR|G"], ["R6"], ["R8"]], top="G7")
    state = run(state, "1 BR|G@flex")
    assert state.direction == -1
    assert state.to_act == 3  # seat 0, first in the new direction, is skipped
    assert state.color is Color.BLUE
    assert state.power == (True, False, True, True)


def test_f20_flex_side_three_players() -> None:
    state = deal("flex", [["R3"], ["BR|G"], ["R6"]], top="G7")
    state = run(state, "1 BR|G@flex")
    assert state.direction == -1
    assert state.to_act == 2


def test_f20_reading_two_players_play_again_once() -> None:
    state = deal("flex", [["R3"], ["BR|G", "B4"]], top="G7")
    state = run(state, "1 BR|G@flex")
    assert state.to_act == 1
    state = run(state, "1 B4")
    assert state.to_act == 0


def test_f20_normal_side_is_a_reverse() -> None:
    state = deal("flex", [["R3"], ["GR|Y"], ["R6"], ["R8"]], top="G7")
    state = run(state, "1 GR|Y")
    assert state.direction == -1
    assert state.to_act == 0
    assert state.power == (True, True, True, True)


# -- F-21: Flex Skip -------------------------------------------------------------------


def test_f21_flex_side_skips_everyone_player_plays_again() -> None:
    state = deal("flex", [["R3"], ["BS|G", "B4"], ["R6"], ["R8"]], top="G7")
    state = run(state, "1 BS|G@flex")
    assert state.to_act == 1
    assert state.power == (True, False, True, True)
    state = run(state, "1 B4")
    assert state.to_act == 2


def test_f21_normal_side_is_a_skip() -> None:
    state = deal("flex", [["R3"], ["GS|Y"], ["R6"], ["R8"]], top="G7")
    state = run(state, "1 GS|Y")
    assert state.to_act == 3


# -- F-22: Flex Wild Draw Two (target) -------------------------------------------------


def test_f22_flex_side_target_draws_two_next_plays() -> None:
    state = deal("flex", [["R3"], ["FW+2"], ["R6"], ["R8"]], top="Y7", draw=["B2", "B3"])
    state = run(state, "1 FW+2@flex:r>3")
    assert hand(state, 3)[-2:] == ["B2", "B3"]
    assert len(state.hands[2]) == 7 and len(state.hands[0]) == 7
    assert state.color is Color.RED
    assert state.to_act == 2
    assert state.power == (True, False, True, True)


def test_f22_next_player_plays_even_if_target() -> None:
    state = deal("flex", [["R3"], ["FW+2"], ["R6"]], top="Y7")
    state = run(state, "1 FW+2@flex:b>2")
    assert len(state.hands[2]) == 9
    assert state.to_act == 2
    assert state.pending.kind == "turn"


def test_f22_target_required_even_with_two_players() -> None:
    state = deal("flex", [["R3"], ["FW+2"]], top="Y7")
    assert "FW+2@flex:r" not in legal(state, 1)
    assert "FW+2@flex:r>0" in legal(state, 1)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "FW+2@flex:r")
    assert e.value.rule == "F-22"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "FW+2@flex:r>1")  # not oneself
    assert e.value.rule == "F-22"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "FW+2@flex:r>5")  # no such seat
    assert e.value.rule == "F-22"
    state = run(state, "1 FW+2@flex:r>0")
    assert len(state.hands[0]) == 9
    assert state.to_act == 0


def test_f22_normal_side_is_a_wild_without_target() -> None:
    state = deal("flex", [["R3"], ["FW+2"], ["R6"]], top="Y7")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "FW+2:g>2")
    assert e.value.rule == "F-22"
    state = run(state, "1 FW+2:g")
    assert state.color is Color.GREEN
    assert all(len(h) == 7 for h in (state.hands[0], state.hands[2]))
    assert state.to_act == 2
    assert state.power == (True, True, True)


# -- F-23: Flex Wild All Draw ----------------------------------------------------------


def test_f23_flex_side_every_other_player_draws_two() -> None:
    state = deal("flex", [["R3"], ["FWA"], ["R6"], ["R8"]], top="Y7", draw=["B2", "B3", "B4", "G2", "G3", "G4"])
    step = apply(state, 1, "FWA@flex:g")
    state = step.state
    draws = [e.seat for e in step.events if isinstance(e, CardsDrawn)]
    assert draws == [2, 3, 0]
    assert hand(state, 2)[-2:] == ["B2", "B3"]
    assert hand(state, 3)[-2:] == ["B4", "G2"]
    assert hand(state, 0)[-2:] == ["G3", "G4"]
    assert state.to_act == 2
    assert state.color is Color.GREEN
    assert state.power == (True, False, True, True)


def test_f23_normal_side_is_a_wild() -> None:
    state = deal("flex", [["R3"], ["FWA"], ["R6"]], top="Y7")
    state = run(state, "1 FWA:r")
    assert [len(h) for h in state.hands] == [7, 6, 7]
    assert state.to_act == 2


# -- F-24: Flex Wild Draw Four, normal side, with the challenge --------------------------


def test_f24_h6_strict_option_offers_no_bluff_and_no_challenge() -> None:
    # H-6 (no bluff) is wild_draw_four=strict in every rule set: no Wild Draw Four while holding the colour.
    hands = [["R3"], ["FW+4", "Y3"], ["R6"]]
    state = deal("flex", hands, top="Y7", draw=["B2"], options={"wild_draw_four": "strict"})
    assert not [a for a in legal(state, 1) if a.startswith("FW+4:")]
    with pytest.raises(InvalidNotationError):
        new_game("flex", 2, seed=0, options={"wild_draw_four": "never"})


def test_f24_legal_play_accepted_next_draws_four_and_misses_turn() -> None:
    state = deal("flex", [["R3"], ["FW+4", "R7"], ["R6"]], top="Y7", draw=["B2", "B3", "B4", "G2"])
    assert "FW+4:b" in legal(state, 1)
    state = run(state, "1 FW+4:b")
    assert state.pending.kind == "challenge" and state.to_act == 2
    assert legal(state, 2) == ["accept", "challenge"]
    state = run(state, "2 accept")
    assert hand(state, 2)[-4:] == ["B2", "B3", "B4", "G2"]
    assert state.to_act == 0
    assert state.color is Color.BLUE


def test_f24_legal_play_failed_challenge_draws_six() -> None:
    # R7 matches only by number: the play is legal
    state = deal("flex", [["R3"], ["FW+4", "R7"], ["R6"]], top="Y7")
    state = run(state, "1 FW+4:b")
    step = apply(state, 2, "challenge")
    shown = [e for e in step.events if isinstance(e, HandShown)]
    assert shown and shown[0].seat == 1 and shown[0].to == 2
    assert ChallengeResolved(2, 1, False) in step.events
    assert len(step.state.hands[2]) == 13
    assert len(step.state.hands[1]) == 6
    assert step.state.to_act == 0
    assert step.state.color is Color.BLUE


def test_f24_illegal_with_card_of_current_colour() -> None:
    state = deal("flex", [["R3"], ["FW+4", "Y2"], ["R6"]], top="Y7")
    assert "FW+4:r" in legal(state, 1)  # the bluff may always be played
    state = run(state, "1 FW+4:r")
    step = apply(state, 2, "challenge")
    assert ChallengeResolved(2, 1, True) in step.events
    assert len(step.state.hands[1]) == 10  # 6 left + 4
    assert len(step.state.hands[2]) == 7
    assert step.state.to_act == 2  # the challenger takes their turn
    assert step.state.color is Color.RED


@pytest.mark.parametrize("other", ["WAF", "FW+2", "FWA", "FW+4"])
def test_f24_illegal_with_any_other_wild(other: str) -> None:
    state = deal("flex", [["R3"], ["FW+4", other], ["R6"]], top="Y7")
    state = run(state, "1 FW+4:g")
    step = apply(state, 2, "challenge")
    assert ChallengeResolved(2, 1, True) in step.events
    assert len(step.state.hands[1]) == 10
    assert step.state.to_act == 2


def test_f24_reading_flex_side_of_current_colour_while_green_is_illegal() -> None:
    # B3|G: flex side green, current colour green, Power Card green
    state = deal("flex", [["R3"], ["FW+4", "B3|G"], ["R6"]], top="G7")
    state = run(state, "1 FW+4:r")
    step = apply(state, 2, "challenge")
    assert ChallengeResolved(2, 1, True) in step.events
    assert len(step.state.hands[1]) == 10


def test_f24_reading_flex_side_of_current_colour_while_red_is_legal() -> None:
    # seat 1 turns red, then plays FW+4 on red holding Y4|R (flex side red)
    state = deal("flex", [["R6"], ["Y3|R", "FW+4", "Y4|R"], ["R3"]], top="R7")
    state = run(state, "1 Y3|R@flex", "2 R3", "0 R6")
    assert state.power == (True, False, True) and state.color is Color.RED
    state = run(state, "1 FW+4:y")
    step = apply(state, 2, "challenge")
    assert ChallengeResolved(2, 1, False) in step.events
    assert len(step.state.hands[2]) == 12  # 6 + 6
    assert step.state.to_act == 0


def test_f24_normal_side_of_flex_card_of_current_colour_is_illegal() -> None:
    state = deal("flex", [["R3"], ["FW+4", "Y3|R"], ["R6"]], top="Y7")
    state = run(state, "1 FW+4:b")
    step = apply(state, 2, "challenge")
    assert ChallengeResolved(2, 1, True) in step.events


def test_f24_normal_side_does_not_change_power() -> None:
    state = deal("flex", [["R3"], ["FW+4"], ["R6"]], top="Y7")
    state = run(state, "1 FW+4:b", "2 accept")
    assert state.power == (True, True, True)


def test_f24_only_accept_or_challenge() -> None:
    state = deal("flex", [["R3"], ["FW+4"], ["R6", "B6"]], top="Y7")
    state = run(state, "1 FW+4:b")
    for action in ("draw", "B6"):
        with pytest.raises(IllegalActionError) as e:
            apply(state, 2, action)
        assert e.value.rule == "F-24"


# -- F-25: Flex Wild Draw Four, flex side: a chosen target ------------------------------


def test_f25_target_accepts_draws_four_next_player_plays() -> None:
    state = deal("flex", [["R3"], ["FW+4"], ["R6"], ["R8"]], top="Y7", draw=["B2", "B3", "B4", "G2"])
    state = run(state, "1 FW+4@flex:g>3")
    assert state.pending.kind == "challenge" and state.to_act == 3
    assert state.power == (True, False, True, True)
    state = run(state, "3 accept")
    assert hand(state, 3)[-4:] == ["B2", "B3", "B4", "G2"]
    assert state.to_act == 2
    assert state.color is Color.GREEN


def test_f25_target_required() -> None:
    state = deal("flex", [["R3"], ["FW+4"]], top="Y7")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "FW+4@flex:g")
    assert e.value.rule == "F-22"
    assert "FW+4@flex:g>0" in legal(state, 1)


def test_f25_failed_challenge_target_draws_six_and_keeps_turn() -> None:
    state = deal("flex", [["R3"], ["FW+4", "R7"], ["R6"], ["R8"]], top="Y7")
    state = run(state, "1 FW+4@flex:r>2")
    step = apply(state, 2, "challenge")
    assert ChallengeResolved(2, 1, False) in step.events
    assert len(step.state.hands[2]) == 13
    assert step.state.to_act == 2  # the target was the next player and still plays


def test_f25_successful_challenge_player_draws_four() -> None:
    state = deal("flex", [["R3"], ["FW+4", "Y2"], ["R6"], ["R8"]], top="Y7")
    state = run(state, "1 FW+4@flex:r>3")
    step = apply(state, 3, "challenge")
    assert ChallengeResolved(3, 1, True) in step.events
    assert len(step.state.hands[1]) == 10
    assert len(step.state.hands[3]) == 7
    assert step.state.to_act == 2
    assert step.state.color is Color.RED


def test_f25_flex_side_counts_while_green_for_legality() -> None:
    # the player was green when playing the flex side: a held flex side of the colour counts
    state = deal("flex", [["R3"], ["FW+4", "G3|Y"], ["R6"]], top="Y7")
    state = run(state, "1 FW+4@flex:b>0")
    step = apply(state, 0, "challenge")
    assert ChallengeResolved(0, 1, True) in step.events


def test_r4_target_never_loses_a_turn_two_players() -> None:
    # two players: the target is the next player; whatever the outcome they play next
    for answer, sizes in (("accept", (11, 6)), ("challenge", (13, 6))):
        state = deal("flex", [["R3"], ["FW+4", "R7"]], top="Y7")
        state = run(state, "1 FW+4@flex:b>0", f"0 {answer}")
        assert (len(state.hands[0]), len(state.hands[1])) == sizes
        assert state.to_act == 0
        assert state.pending.kind == "turn"
    state = deal("flex", [["R3"], ["FW+4", "B7"]], top="Y7")
    state = run(state, "1 FW+4@flex:b>0", "0 challenge")  # B7 is not yellow: legal
    assert state.to_act == 0
    state = deal("flex", [["R3"], ["FW+4", "FWA"]], top="Y7")
    state = run(state, "1 FW+4@flex:b>0", "0 challenge")  # another wild: illegal
    assert (len(state.hands[0]), len(state.hands[1])) == (7, 10)
    assert state.to_act == 0


def test_r4_after_any_challenge_next_after_player_plays() -> None:
    for holding, challenger_cards, player_cards in (("R7", 13, 6), ("Y2", 7, 10)):
        state = deal("flex", [["R3"], ["FW+4", holding], ["R6"], ["R8"]], top="Y7")
        state = run(state, "1 FW+4@flex:g>0", "0 challenge")
        assert len(state.hands[0]) == challenger_cards
        assert len(state.hands[1]) == player_cards
        assert state.to_act == 2


# -- two players ------------------------------------------------------------------------


def test_f19_two_players_other_draws_one_and_plays() -> None:
    state = deal("flex", [["R3"], ["Y+2|R"]], top="R7")
    state = run(state, "1 Y+2|R@flex")
    assert len(state.hands[0]) == 8
    assert state.to_act == 0


def test_f21_two_players_flex_skip_plays_again() -> None:
    state = deal("flex", [["R3"], ["BS|G", "B4"]], top="G7")
    state = run(state, "1 BS|G@flex")
    assert state.to_act == 1
    state = run(state, "1 B4")
    assert state.to_act == 0


def test_f23_two_players_other_draws_two_and_plays() -> None:
    state = deal("flex", [["R3"], ["FWA"]], top="Y7")
    state = run(state, "1 FWA@flex:r")
    assert len(state.hands[0]) == 9
    assert state.to_act == 0


def test_f14_flex_wild_flex_side_refused_while_red() -> None:
    state = deal("flex", [["G6"], ["G2|Y", "FWA", "FW+2"], ["G4"]], top="Y7")
    state = run(state, "1 G2|Y@flex", "2 G4", "0 G6")
    assert state.power == (True, False, True)
    plays = legal(state, 1)
    assert "FWA:r" in plays and "FWA@flex:r" not in plays
    assert not [p for p in plays if p.startswith("FW+2@flex")]
    for action in ("FWA@flex:r", "FW+2@flex:r>2"):
        with pytest.raises(IllegalActionError) as e:
            apply(state, 1, action)
        assert e.value.rule == "F-14"
