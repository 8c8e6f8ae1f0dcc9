"""UNO Duo scoring (D-19) and the end of the game (D-20). Player 1 is seat 0, so
seat 1 (Player 2) plays first; it goes out with six Skips and a number card."""

from __future__ import annotations

from typing import Any

from tests.helpers import duo_deal, first_play, legal, run
from unoengine import GameState, Termination, apply, new_game, parse_card
from unoengine.core.rules.duo import duo_points

GO_OUT = ("1 RS", "1 RS", "1 YS", "1 YS", "1 GS", "1 GS uno", "1 G1")
OUT_HAND = ["RS", "RS", "YS", "YS", "GS", "GS", "G1"]
# Seat 0 keeps: 3 + 10 + 10 + 10 + 15 + 20 + 0 = 68 points.
LOSER_HAND = ["B3", "BS", "BR", "Y+2", "W", "W+4", "R0"]


def _round(options: dict[str, Any] | None = None) -> GameState:
    state = duo_deal([LOSER_HAND, OUT_HAND], top="R5", options=options)
    return run(state, *GO_OUT)


def test_d19_card_values() -> None:
    for number in range(10):
        assert duo_points(parse_card(f"Y{number}")) == number
    for text in ("RS", "GR", "B+2"):
        assert duo_points(parse_card(text)) == 10
    assert duo_points(parse_card("W")) == 15
    assert duo_points(parse_card("W+4")) == 20
    # D-1: the four extra wilds score as Wild.
    state = new_game("duo", 2, seed=0)
    assert sum(state.tables.points) == sum(duo_points(card) for card in state.tables.cards)
    wild_points = [p for p, c in zip(state.tables.points, state.tables.cards, strict=True) if c.is_wild]
    assert sorted(wild_points) == [15] * 8 + [20] * 4


def test_d19_the_winner_scores_0_the_loser_scores_their_own_hand() -> None:
    state = _round({"single_round": True})
    assert state.round_winner == 1
    assert state.round_scores == ((68, 0),)
    assert state.scores == (68, 0)


def test_d19_scores_add_up_over_rounds() -> None:
    state = _round()
    assert not state.is_over
    assert state.scores == (68, 0)
    assert state.round_scores == ((68, 0),)
    assert state.round == 2


def test_d20_reaching_the_target_loses_and_the_lower_score_wins() -> None:
    state = _round({"target_score": 50})
    assert state.is_over
    assert state.pending.kind == "game_over"
    assert state.outcome is not None
    assert state.outcome.termination is Termination.TARGET_SCORE
    assert state.outcome.winner == 1  # seat 0 reached 50 and loses
    assert state.outcome.scores == (68, 0)
    assert legal(state, 0) == [] and legal(state, 1) == []


def test_d20_exactly_the_target_loses() -> None:
    state = _round({"target_score": 68})
    assert state.is_over and state.outcome is not None and state.outcome.winner == 1
    state = _round({"target_score": 69})
    assert not state.is_over


def test_d20_below_the_target_the_game_goes_on() -> None:
    state = _round()  # default target 200
    assert state.options.target_score == 200
    assert not state.is_over and state.outcome is None
    assert (state.pending.kind, state.pending.seat) == ("draft", 1)


def test_d20_single_round_the_player_who_went_out_wins() -> None:
    state = _round({"single_round": True})
    assert state.is_over and state.outcome is not None
    assert state.outcome.termination is Termination.ROUND_WON
    assert state.outcome.winner == 1
    # Even with a tiny target, single_round names the player who went out.
    state = _round({"single_round": True, "target_score": 10})
    assert state.outcome is not None and state.outcome.winner == 1


def test_d20_a_whole_game_the_seat_reaching_the_target_loses() -> None:
    for seed in (1, 2, 3):
        state = new_game("duo", 2, seed=seed, options={"target_score": 100})
        steps = 0
        while not state.is_over:
            steps += 1
            assert steps < 30000
            state = apply(state, state.to_act, first_play(state, challenge=True)).state  # type: ignore[arg-type]
        assert state.outcome is not None
        winner = state.outcome.winner
        assert winner is not None
        loser = 1 - winner
        assert state.scores[loser] >= 100
        assert state.scores[winner] < state.scores[loser]
        # D-19: only one player scores in each round.
        assert all(0 in deltas for deltas in state.round_scores)
        assert tuple(map(sum, zip(*state.round_scores, strict=True))) == state.scores
