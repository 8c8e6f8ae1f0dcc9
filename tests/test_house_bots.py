"""The bots under the house rules (H-1 … H-11) and the Table's out-of-turn window."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.helpers import deal, run, shrink
from unoengine import Play, apply, legal_actions, view_for
from unoengine.bots import make_bot
from unoengine.bots.heuristic import HeuristicBot
from unoengine.core.options import PRESETS
from unoengine.play import Table
from unoengine.play.simulate import simulate


def heuristic() -> HeuristicBot:
    return HeuristicBot(random.Random(0))


def test_h1_the_heuristic_adds_to_a_stack_rather_than_drawing_the_total() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["G+2", "Y3"]], top="R5", options={"stack_draw": "draw_two"})
    state = run(state, "1 R+2")
    choice = heuristic().choose(view_for(state, 2), legal_actions(state, 2))
    assert str(choice) == "G+2"


def test_h1_c17_the_heuristic_stacks_on_a_wild_draw_four_rather_than_accepting() -> None:
    options = {"stack_draw": "draw_four", "wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["W+4", "R7"], ["W+4", "G3"]], top="R5", options=options)
    state = run(state, "1 W+4:b")
    choice = heuristic().choose(view_for(state, 2), legal_actions(state, 2))
    assert isinstance(choice, Play) and str(choice).startswith("W+4")


def test_h2_the_heuristic_swaps_with_the_seat_holding_the_fewest_cards() -> None:
    state = deal("classic", [["B1"], ["R7", "G3"], ["Y4"]], top="R5", options={"seven_zero": True})
    hands = list(state.hands)
    hands[2], extra = hands[2][:3], hands[2][3:]
    state = state._replace(hands=tuple(hands), draw_pile=extra + state.draw_pile)
    sevens = [a for a in legal_actions(state, 1) if isinstance(a, Play) and a.target is not None]
    best = max(sevens, key=lambda play: heuristic()._score(view_for(state, 1), play))
    assert best.target == 2


def test_h3_the_heuristic_jumps_in_and_the_table_offers_the_window() -> None:
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["R6", "Y2"]], top="R5", options={"jump_in": True})
    state = run(state, "1 R6")
    reaction = heuristic().react(view_for(state, 3), legal_actions(state, 3))
    assert str(reaction) == "R6"
    assert heuristic().react(view_for(state, 0), legal_actions(state, 0)) is None


def test_h4_forced_play_leaves_the_heuristic_no_draw() -> None:
    state = deal("classic", [["B1"], ["R6", "G3"], ["G3"]], top="R5", options={"forced_play": True})
    choice = heuristic().choose(view_for(state, 1), legal_actions(state, 1))
    assert isinstance(choice, Play)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("bot", ["random", "uniform", "heuristic"])
def test_h1_h2_h3_h4_every_bot_takes_only_legal_actions_under_every_preset(bot: str, preset: str) -> None:
    result = simulate("classic", 4, games=6, bot=bot, seed=3, preset=preset)
    assert result.games == 6


def test_h3_table_takes_a_jump_in_from_a_reacting_bot_and_records_it() -> None:
    bots: list[Any] = [make_bot("heuristic", random.Random(seat)) for seat in range(4)]
    table = Table.new("classic", 4, seed=5, options={"jump_in": True, "single_round": True}, controllers=bots)
    table.play_out()
    jumps = 0
    state = table.start
    for seat, action in table.actions:
        if state.pending.kind == "turn" and seat != state.to_act and isinstance(action, Play):
            jumps += 1
        state = apply(state, seat, action).state
    assert state == table.state
    assert jumps > 0


def test_h3_run_bots_offers_the_jump_in_window_once_per_version() -> None:
    bots: list[Any] = [None] + [make_bot("heuristic", random.Random(seat)) for seat in range(1, 4)]
    table = Table.new("classic", 4, seed=5, options={"jump_in": True, "single_round": True}, controllers=bots)
    for _ in range(50):
        table.run_bots()
        if table.is_over:
            break
        seat = table.waiting_for()
        assert seat == 0
        table.submit(0, table.legal(0)[-1], expected_version=table.version)
    assert table.version > 0


def test_h9_the_heuristic_deflects_rather_than_drawing_the_total() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["RS", "Y3"]], top="R5", options={"deflect": "skip"})
    state = run(state, "1 R+2")
    choice = heuristic().choose(view_for(state, 2), legal_actions(state, 2))
    assert str(choice) == "RS"


@pytest.mark.parametrize("deflect", ["skip", "reverse", "both"])
@pytest.mark.parametrize("bot", ["random", "uniform", "heuristic"])
def test_h9_every_bot_takes_only_legal_actions_with_deflect(bot: str, deflect: str) -> None:
    options = {"deflect": deflect, "wild_draw_four": "challenge"}
    result = simulate("classic", 4, games=4, bot=bot, seed=5, options=options)
    assert result.games == 4


def test_h11_the_heuristic_never_swaps_with_its_partner() -> None:
    options = {"seven_zero": True, "teams": "pairs"}
    state = deal("classic", [["B1"], ["R7", "G3"], ["Y4"], ["G5"]], top="R5", options=options)
    hands = list(state.hands)
    hands[3], extra = hands[3][:1], hands[3][1:]  # the partner (seat 3) holds the fewest cards
    state = state._replace(hands=tuple(hands), draw_pile=extra + state.draw_pile)
    sevens = [a for a in legal_actions(state, 1) if isinstance(a, Play) and a.target is not None]
    best = max(sevens, key=lambda play: heuristic()._score(view_for(state, 1), play))
    assert best.target != 3


@pytest.mark.parametrize("seats", [4, 6])
def test_h11_bots_play_out_team_games(seats: int) -> None:
    bots: list[Any] = [make_bot("heuristic", random.Random(seat)) for seat in range(seats)]
    options = {"teams": "pairs", "seven_zero": True, "jump_in": True, "target_score": 200}
    table = Table.new("classic", seats, seed=7, options=options, controllers=bots)
    table.play_out()
    state = table.state
    assert state.outcome is not None and state.outcome.winner is not None
    assert all(state.scores[seat] == state.scores[(seat + seats // 2) % seats] for seat in range(seats))


def test_h10_the_heuristic_sheds_the_number_and_plays_its_main_colour_last() -> None:
    state = deal("classic", [["B1"], ["R6", "G6", "Y6", "Y2", "Y3", "Y4"], ["G3"]], top="R5", options=MULTI)
    state = run(shrink(state, 1, 6), "1 R6")
    bot = heuristic()
    choice = bot.choose(view_for(state, 1), legal_actions(state, 1))
    assert str(choice) == "G6"  # yellow, the colour it holds most, goes last
    state = run(state, "1 G6")
    assert str(bot.choose(view_for(state, 1), legal_actions(state, 1))) == "Y6"


MULTI: dict[str, Any] = {"multi_play": True}


@pytest.mark.parametrize("options", [MULTI, {**MULTI, "seven_zero": True, "jump_in": True}, PRESETS["crazy"]])
@pytest.mark.parametrize("bot", ["random", "uniform", "heuristic"])
def test_h10_every_bot_takes_only_legal_actions_with_multi_play(bot: str, options: dict[str, Any]) -> None:
    result = simulate("classic", 4, games=4, bot=bot, seed=6, options=dict(options))
    assert result.games == 4
