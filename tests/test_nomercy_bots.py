"""The bots in UNO Show 'Em No Mercy (docs/RULES.md N-1 … N-28; docs/BOTS.md, "No Mercy").

Scenarios of the ``heuristic``'s No Mercy choices (states built with the No Mercy tests' ``arrange``),
every registered bot finishing games with 2 and 4 seats, and the heuristic beating ``random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tests.helpers import run
from tests.rules.no_mercy.test_no_mercy import arrange
from unoengine import GameState, view_for
from unoengine.bots.base import LEVELS, game_refusal, known_bots, make_bot
from unoengine.bots.evaluation import win_probabilities
from unoengine.bots.heuristic import HeuristicBot, MercyTable, next_in_round
from unoengine.core.actions import format_action
from unoengine.play.simulate import play_games

NUMBERS = [f"{colour}{number}" for number in (1, 2, 4, 6, 8, 5, 9) for colour in "GYB"] * 2
ACTIONS = [f"{colour}{kind}" for kind in ("S", "R", "+2", "SE", "DA") for colour in "GYB"] * 2
"""Cards for long hands that match no red top card but by colour (no 3, no 7 or 0, no red, no wild); the
hand of the seat under test is filled with number cards first."""


def big(size: int, *cards: str) -> list[str]:
    """A hand of ``size`` cards: ``cards``, then fillers (``?``, dealt by :func:`table`)."""
    return [*cards, *["?"] * (size - len(cards))]


def table(
    hands: list[list[str]], top: str, *, to_act: int, under: Sequence[str] = (), out: Sequence[int] = ()
) -> GameState:
    """``arrange`` (tests/rules/no_mercy) with every ``?`` of ``hands`` replaced by a distinct filler card."""
    pool = [*NUMBERS, *ACTIONS]
    for card in [*(card for hand in hands for card in hand), top, *under]:
        if card in pool:
            pool.remove(card)
    filled = [[pool.pop(0) if card == "?" else card for card in hand] for hand in hands]
    return arrange(filled, top, to_act=to_act, under=under, out=out)


def heuristic_choice(state: GameState) -> str:
    """The heuristic's choice for the seat to act, in notation."""
    seat = state.pending.seat
    view = view_for(state, seat)
    return format_action(HeuristicBot(random.Random(0)).choose(view, view.legal))


# -- the heuristic's choices ----------------------------------------------------------------------


def test_discard_all_is_played_for_the_cards_it_sheds() -> None:
    state = table([["R1", "R2", "R5", "RDA", "B3"], ["G1"] * 2, ["Y1"] * 2], top="R3", to_act=0)
    assert heuristic_choice(state) == "RDA uno"  # leaves the B3: calls UNO with it (N-14, N-19)


def test_the_discard_all_that_sheds_most() -> None:
    hands = [["RDA", "BDA", "B1", "B2", "B4", "R5", "G6"], ["G1", "G2", "G4"], ["Y1", "Y2", "Y4"]]
    state = table(hands, top="GDA", to_act=0)
    assert heuristic_choice(state) == "BDA"


def test_stacks_the_smallest_draw_card_that_will_do() -> None:
    hands = [["R+2", "R1", "R4"], ["W+10", "Y+4", "B+2", "G5", "G6"], ["Y1", "Y2", "Y4"]]
    state = run(table(hands, top="R3", to_act=0), "0 R+2")
    assert state.pending.kind == "stack" and state.pending.seat == 1
    assert heuristic_choice(state) == "B+2"


def test_stacks_a_bigger_card_when_it_knocks_the_next_seat_out() -> None:
    hands = [["R+2", "R1", "R4"], ["W+10", "Y+4", "B+2", "G5", "G6"], big(20)]
    state = run(table(hands, top="R3", to_act=0), "0 R+2")
    assert heuristic_choice(state) == "Y+4"  # seat 2: 20 + 2 + 4 = 26 cards (N-21); B+2 would leave 24


def test_stacks_rather_than_draw_with_a_wild() -> None:
    hands = [["R+2", "R1", "R4"], ["W+6", "G5", "G6"], ["Y1", "Y2", "Y4"]]
    state = run(table(hands, top="R3", to_act=0), "0 R+2")
    assert heuristic_choice(state).startswith("W+6:")


def test_never_a_wild_reverse_draw_four_that_comes_back_with_two_in_the_round() -> None:
    # N-24: with two in the round the player of a Wild Reverse Draw Four draws the total.
    state = run(table([["R+2", "R1", "R4"], ["WR+4", "G5", "G6"]], top="R3", to_act=0), "0 R+2")
    assert heuristic_choice(state) == "draw"
    three = run(table([["R+2", "R1", "R4"], ["WR+4", "G5", "G6"], ["Y1", "Y2"]], top="R3", to_act=0), "0 R+2")
    assert heuristic_choice(three).startswith("WR+4:")  # the total goes back to seat 0


def test_the_roulette_victim_names_the_colour_most_left_unseen() -> None:
    # Seat 1 saw four reds and three yellows on the discard pile and holds four blues and a green: green
    # (35 unseen) is the colour most likely to show soon; its most-held colour is blue (32).
    hands = [["WCR", "R1", "R2"], ["B1", "B2", "B4", "B6", "G1"], ["Y1", "Y2"]]
    state = table(hands, top="R3", under=["R5", "R6", "R9", "Y5", "Y6", "Y9"], to_act=0)
    state = run(state, "0 WCR")
    assert state.pending.kind == "roulette" and state.pending.seat == 1
    assert heuristic_choice(state) == "color g"


def test_a_seven_swaps_a_big_hand_with_the_smallest() -> None:
    hands = [big(12, "R7", "R1"), big(9), ["Y1", "Y2", "Y4"], big(6)]
    state = table(hands, top="R3", to_act=0)
    assert heuristic_choice(state) == "R7>2"


def test_a_small_hand_keeps_its_seven() -> None:
    hands = [["R7", "R1", "G2"], big(9), big(8), big(6)]
    state = table(hands, top="R3", to_act=0)
    assert heuristic_choice(state) == "R1"


def test_draws_rather_than_take_a_big_hand() -> None:
    # The only playable card is a 7, and every other hand is big: drawing (N-9) costs less than a swap.
    hands = [["R7", "G2"], big(16), big(17), big(18)]
    state = table(hands, top="R3", to_act=0)
    assert heuristic_choice(state) == "draw"


def test_the_next_seat_skips_the_seats_knocked_out() -> None:
    table = MercyTable((), (5, 0, 0, 5), 0, 1, (True, False, False, True), None)
    assert next_in_round(table, 0, 1) == 3
    assert next_in_round(table, 0, -1) == 3
    assert next_in_round(table, 3, 1) == 0


def test_a_zero_counts_the_hand_of_the_seat_before_it_in_the_round() -> None:
    # Seat 3 is out (N-22): a 0 passes seat 2's 20 cards to seat 0, whatever seat 3 held.
    hands = [big(7, "R0", "R1"), big(9), big(20), []]
    state = table(hands, top="R3", to_act=0, out=[3])
    assert heuristic_choice(state) == "R1"
    hands = [big(12, "R0", "R1"), big(9), ["Y1", "Y2"], []]
    state = table(hands, top="R3", to_act=0, out=[3])
    assert heuristic_choice(state) == "R0"


def test_hits_a_next_seat_close_to_twenty_five() -> None:
    hands = [["R+4", "R9", "R8"], big(22), big(8)]
    state = table(hands, top="R3", to_act=0)
    assert heuristic_choice(state) == "R+4"


def test_keeps_a_wild_draw_card_while_the_hand_is_large() -> None:
    hands = [big(10, "W+6", "B7"), big(9), big(8)]
    state = table(hands, top="R3", to_act=0)
    assert heuristic_choice(state) == "draw"  # no red card: draws rather than spend the W+6 (or swap)
    hands = [big(10, "W+6", "R7"), big(9), big(8)]
    assert heuristic_choice(table(hands, top="R3", to_act=0)) == "R7>2"


# -- every bot finishes No Mercy games ------------------------------------------------------------


def cheap(name: str) -> str:
    """The bot of ``name``, with a small search budget for the search bots (the test is about finishing)."""
    spec = LEVELS.get(name, name)
    return "ismcts:iterations=6" if spec.startswith("ismcts") else spec


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("name", known_bots())
def test_every_bot_finishes_no_mercy_games(name: str, seats: int) -> None:
    spec = cheap(name)
    refusal = game_refusal(spec, "nomercy", seats)
    if refusal is not None:  # a bot that cannot play No Mercy says so by name (ppo: trained for Classic only)
        assert name in refusal and "nomercy" in refusal, refusal
        return
    make_bot(spec, random.Random(0))
    games = play_games("nomercy", range(2), [spec, *["heuristic"] * (seats - 1)], seats=seats)
    assert len(games) == 2
    assert all(game.winner is not None and 0 <= game.winner < seats for game in games)


# -- strength ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "floor"), [(2, 0.62), (4, 0.40)])
def test_the_heuristic_beats_random(seats: int, floor: float) -> None:
    """Measured over 5,000 games (docs/BOTS.md): 74% with 2 seats, 53% with 4 (random: 50% and 25%, and the
    heuristic before its No Mercy play 56% and 35%). Over 600 games the floors are 6 standard errors below."""
    games = play_games("nomercy", range(600), ["heuristic", *["random"] * (seats - 1)], seats=seats)
    wins = sum(1 for game in games if game.winner == 0)
    assert wins / len(games) > floor


def test_the_fitted_evaluation_gives_a_knocked_out_seat_no_chance() -> None:
    """win_probabilities (ismcts's evaluation, and any other caller's) counts only the seats in the round (N-22)."""
    state = arrange([["R5", "B1"], [], ["Y1", "Y2", "Y3"], ["G1"]], top="R3", to_act=0, out=[1])
    chances = win_probabilities(state)
    assert chances[1] == 0.0
    assert abs(sum(chances) - 1.0) < 1e-9
    assert chances[3] > chances[2]  # one card left against three
