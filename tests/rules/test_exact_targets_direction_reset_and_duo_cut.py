"""Exact target scores, the direction at a new round, the Duo cut (cases mutation testing found untested)."""

from __future__ import annotations

import random

from tests.helpers import deal, run, shrink
from unoengine import GameState, Termination, new_game
from unoengine.core.rules.duo import cut_rank

HANDS = [["B3"], ["R6"], ["G4"]]


def winning_round(rules: str, target: int) -> GameState:
    state = deal(rules, HANDS, top="R2", options={"target_score": target, "single_round": False})
    return run(shrink(state, 1, 1), "1 R6")


def points_of_the_others(rules: str) -> int:
    state = deal(rules, HANDS, top="R2", options={"single_round": False})
    state = run(shrink(state, 1, 1), "1 R6")
    return state.scores[1]


def test_c21_a_round_that_ends_exactly_on_the_target_score_wins_the_game() -> None:
    points = points_of_the_others("classic")
    exact = winning_round("classic", points)
    assert exact.outcome is not None and exact.outcome.winner == 1 and exact.scores[1] == points
    assert exact.outcome.termination is Termination.TARGET_SCORE
    short = winning_round("classic", points + 1)
    assert short.outcome is None and short.round == 2


def test_f28_a_flex_round_that_ends_exactly_on_the_target_score_wins_the_game() -> None:
    points = points_of_the_others("flex")
    exact = winning_round("flex", points)
    assert exact.outcome is not None and exact.outcome.winner == 1 and exact.scores[1] == points
    short = winning_round("flex", points + 1)
    assert short.outcome is None and short.round == 2


def test_c12_c21_the_direction_is_reset_at_a_new_round() -> None:
    state = deal("classic", [["B1"], ["RR", "R6"], ["G3"]], top="R5", options={"single_round": False})
    state = shrink(state, 1, 2)
    state = run(state, "1 RR uno")
    assert state.direction == -1 and state.to_act == 0
    state = run(state, "0 draw", "0 pass", "2 draw", "2 pass", "1 R6")
    assert state.round == 2 and state.outcome is None
    assert state.direction == 1


def test_d2_the_cut_names_player_one_by_the_higher_card_and_ties_cut_again() -> None:
    deck = new_game("duo", 2, seed=0).tables.cards
    for seed in range(40):
        attempt = 0
        while True:
            first, second = random.Random(f"{seed}:cut:{attempt}").sample(range(len(deck)), 2)
            a, b = cut_rank(deck[first]), cut_rank(deck[second])
            attempt += 1
            if a != b:
                break
        expected = 0 if a > b else 1
        assert new_game("duo", 2, seed=seed).dealer == expected, seed
    assert cut_rank(deck[0].__class__.parse("R7")) == 7 and cut_rank(deck[0].__class__.parse("RS")) == 10
