"""UNO Flex! UNO, winning and scoring: F-26, F-27, F-28 (docs/RULES.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import deal, hand, legal, run
from unoengine import GameState, IllegalActionError, Termination, apply, find_rules, parse_card

# Two players, seat 1 first: each Skip or Reverse lets seat 1 play again (F-17),
# so seat 1 empties its hand alone.
CHAIN = ["RS", "YS", "YR", "GR", "GS"]
CHAIN_STEPS = tuple(f"1 {card}" for card in CHAIN)


def chain_game(last_two: list[str], other: list[str] | None = None, options: dict[str, Any] | None = None) -> GameState:
    """After seat 1's five Skips and Reverses on R3, seat 1 holds ``last_two``; top GS."""
    state = deal("flex", [other or ["B4"], [*CHAIN, *last_two]], top="R3", options=options)
    state = run(state, *CHAIN_STEPS)
    assert state.to_act == 1
    assert hand(state, 1) == last_two
    return state


# -- F-26: UNO call and catch ------------------------------------------------------------


def test_f26_caught_without_uno_draws_two() -> None:
    state = chain_game(["G4", "B8"])
    state = run(state, "1 G4")
    assert state.unsafe == 1
    assert "catch 1" in legal(state, 0)
    state = run(state, "0 catch 1")
    assert len(state.hands[1]) == 3
    assert state.unsafe is None
    assert state.to_act == 0


def test_f26_call_with_the_play_cannot_be_caught() -> None:
    state = chain_game(["G4", "B8"])
    state = run(state, "1 G4 uno")
    assert state.unsafe is None
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 1")
    assert e.value.rule == "F-26"


def test_f26_call_just_after_the_play() -> None:
    state = chain_game(["G4", "B8"])
    state = run(state, "1 G4", "1 uno")
    assert state.unsafe is None
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 1")
    assert e.value.rule == "F-26"


def test_f26_flex_side_play_with_uno() -> None:
    # B2|G: flex side green 2 on the green Skip
    state = chain_game(["B2|G", "B8"])
    assert "B2|G@flex uno" in legal(state, 1)
    state = run(state, "1 B2|G@flex uno")
    assert state.unsafe is None
    assert state.power == (True, False)


def test_f26_uno_refused_with_more_than_one_card() -> None:
    state = deal("flex", [["R3"], ["R4"]], top="R7")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "uno")
    assert e.value.rule == "F-26"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "R4 uno")
    assert e.value.rule == "F-26"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 1")
    assert e.value.rule == "F-26"


def test_f26_window_closes_at_next_action() -> None:
    state = chain_game(["G4", "B8"], other=["B4", "G6"])
    state = run(state, "1 G4", "0 G6")
    assert state.unsafe is None
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 1")
    assert e.value.rule == "F-26"


# -- F-27: the first player out wins (single_round by default) --------------------------


def test_f27_single_round_default_first_out_wins_game() -> None:
    assert find_rules("flex").options().single_round is True
    state = chain_game(["BS", "B4|G"], other=["B6"])
    state = run(state, "1 BS uno", "1 B4|G")
    assert state.is_over
    assert state.outcome is not None
    assert state.outcome.winner == 1
    assert state.outcome.termination is Termination.ROUND_WON
    assert state.round_winner == 1
    assert state.pending.kind == "game_over"
    assert legal(state, 0) == [] and legal(state, 1) == []


def test_f27_last_card_flex_side_wins() -> None:
    state = chain_game(["BS", "R2|B"], other=["B6"])
    state = run(state, "1 BS uno", "1 R2|B@flex")  # flex side blue 2 on the blue Skip
    assert state.outcome is not None and state.outcome.winner == 1


def test_f27_last_card_flex_draw_two_flex_side_still_draws() -> None:
    # C-20 Reading: the draw a last card imposes is made before the end
    state = chain_game(["BS", "R+2|B"], other=["B6"])
    state = run(state, "1 BS uno", "1 R+2|B@flex")  # flex side blue Draw Two on the blue Skip
    assert state.outcome is not None and state.outcome.winner == 1
    assert len(state.hands[0]) == 8


# -- F-28: the scoring variant ----------------------------------------------------------


def test_f28_card_values() -> None:
    rules = find_rules("flex")
    points = rules.points
    for number in range(1, 10):
        assert points(parse_card(f"R{number}|B")) == number
        assert points(parse_card(f"Y{number}|R")) == number
    assert points(parse_card("R5!")) == 5
    for text in ("RS", "RR", "R+2", "RS|B", "RR|B", "R+2|B"):
        assert points(parse_card(text)) == 20
    for text in ("FW+2", "FWA", "FW+4", "WAF"):
        assert points(parse_card(text)) == 50


def test_f28_winner_scores_other_hands_game_to_target() -> None:
    # seat 0 keeps: R+2|B 20, FW+2 50, WAF 50, FWA 50, Y9! 9, G3|Y 3, BR 20 = 202
    other = ["R+2|B", "FW+2", "WAF", "FWA", "Y9!", "G3|Y", "BR"]
    state = chain_game(["BS", "B4|G"], other=other, options={"single_round": False, "target_score": 150})
    state = run(state, "1 BS uno", "1 B4|G")
    assert state.is_over
    assert state.outcome is not None
    assert state.outcome.winner == 1
    assert state.outcome.termination is Termination.TARGET_SCORE
    assert state.scores == (0, 202)
    assert state.round_scores == ((0, 202),)


def test_f28_below_target_next_round_is_dealt() -> None:
    other = ["R+2|B", "FW+2", "WAF", "FWA", "Y9!", "G3|Y", "BR"]
    state = chain_game(["BS", "B4|G"], other=other, options={"single_round": False})
    state = run(state, "1 BS uno", "1 B4|G")
    assert not state.is_over
    assert state.scores == (0, 202)
    assert state.round == 2
    assert state.dealer == 1
    assert state.to_act == 0  # the new dealer's left
    assert state.power == (True, True)  # Power Cards green at each deal
    assert all(len(h) == 7 for h in state.hands)
    assert state.pending.kind == "turn"


def test_f28_default_target_is_500() -> None:
    assert find_rules("flex").options({"single_round": False}).target_score == 500


def test_f27_last_card_wild_draw_four_draws_without_challenge() -> None:
    state = chain_game(["BS", "FW+4"], other=["B6"])
    state = run(state, "1 BS uno", "1 FW+4:r")
    assert state.outcome is not None and state.outcome.winner == 1
    assert len(state.hands[0]) == 11
    state = chain_game(["BS", "FW+4"], other=["B6"])
    state = run(state, "1 BS uno", "1 FW+4@flex:r>0")
    assert state.outcome is not None and state.outcome.winner == 1
    assert len(state.hands[0]) == 11
