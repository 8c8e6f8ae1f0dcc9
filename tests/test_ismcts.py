"""``ismcts``: legal in every decision of every rule set, reproducible, blind to what it cannot see;
and ``Table.play_out`` and ``Table.run_bots`` play the same games."""

from __future__ import annotations

import random

import pytest

from unoengine import apply, determinize, legal_actions, new_game, view_for
from unoengine.bots.base import make_bot
from unoengine.bots.ismcts import own_choices
from unoengine.core.options import parse_options
from unoengine.play.table import Table

GAMES = [
    ("classic", 2, None),
    ("classic", 4, None),
    ("classic", 3, "party"),
    ("classic", 4, "mattel_house"),
    ("duo", 2, None),
    ("flex", 3, None),
    ("flex", 2, "party"),
]


def options(rules: str, preset: str | None) -> object:
    try:
        return parse_options(rules, ["single_round=true"], preset=preset)
    except ValueError:
        pytest.skip(f"{rules} has no preset {preset}")


@pytest.mark.parametrize(("rules", "seats", "preset"), GAMES)
@pytest.mark.parametrize("mode", ["race", "paired", "tree"])
def test_ismcts_plays_only_legal_actions_in_every_rule_set(
    rules: str, seats: int, preset: str | None, mode: str
) -> None:
    resolved = options(rules, preset)
    kinds: set[str] = set()
    for seed in range(2):
        bots = [make_bot(f"ismcts:iterations=4,mode={mode}", random.Random(f"{seed}:{seat}")) for seat in range(seats)]
        table = Table(new_game(rules, seats, seed=seed, options=resolved), bots)  # type: ignore[arg-type]
        while not table.is_over:
            kinds.add(table.state.pending.kind)
            table.bot_step()  # a BotError (an illegal action) fails the test
    assert "turn" in kinds


def test_ismcts_is_reproducible_for_a_seed_and_an_iteration_budget() -> None:
    def game() -> tuple[tuple[int, object], ...]:
        bots = [make_bot("ismcts:iterations=20,seed=7", random.Random(1)), make_bot("heuristic", random.Random(2))]
        table = Table(new_game("classic", 2, seed=9, options={"single_round": True}), bots)
        table.play_out()
        return table.actions

    assert game() == game()


@pytest.mark.parametrize("mode", ["race", "paired", "tree"])
def test_ismcts_decides_the_same_when_the_hidden_cards_are_resampled(mode: str) -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state = new_game("classic", 3, seed=seed, options={"single_round": True})
        for _ in range(seed * 3):  # some way into the round
            seat = state.pending.seat
            assert seat is not None
            state = apply(state, seat, legal_actions(state, seat)[0]).state
        seat = state.pending.seat
        assert seat is not None
        view = view_for(state, seat)
        other = determinize(view, rng)
        assert other.hands != state.hands and view_for(other, seat) == view
        first = make_bot(f"ismcts:iterations=30,seed={seed},mode={mode}", random.Random(0))
        second = make_bot(f"ismcts:iterations=30,seed={seed},mode={mode}", random.Random(0))
        legal = view.legal
        assert first.choose(view, legal) == second.choose(view_for(other, seat), view_for(other, seat).legal)
        checked += 1
    assert checked == 6


@pytest.mark.parametrize(("rules", "seats", "preset"), GAMES)
def test_play_out_and_run_bots_play_the_same_games(rules: str, seats: int, preset: str | None) -> None:
    resolved = options(rules, preset)
    for seed in range(4):
        names = ["heuristic", "random", "heuristic", "uniform"][:seats]

        def bots(names: list[str] = names, seed: int = seed) -> list[object]:
            return [make_bot(name, random.Random(f"{seed}:{seat}")) for seat, name in enumerate(names)]

        fast = Table(new_game(rules, seats, seed=seed, options=resolved), bots())  # type: ignore[arg-type]
        fast.play_out()
        stepped = Table(new_game(rules, seats, seed=seed, options=resolved), bots())  # type: ignore[arg-type]
        stepped.run_bots()
        assert stepped.is_over and fast.actions == stepped.actions and fast.state == stepped.state


def test_ismcts_decides_the_same_when_resampled_with_what_its_view_knows() -> None:
    """After a challenge the challenger's view knows the shown hand (``known``): resampling keeps it, and the move."""
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        state = new_game("classic", 3, seed=seed, options={"single_round": True, "wild_draw_four": "challenge"})
        bots = [make_bot("heuristic", random.Random(seat)) for seat in range(3)]
        while not state.is_over and checked < 3:
            seat = state.pending.seat
            assert seat is not None
            view = view_for(state, seat)
            if view.known and len(view.legal) > 1 and state.pending.kind == "turn":
                other = determinize(view, rng)
                assert view_for(other, seat) == view
                first = make_bot(f"ismcts:iterations=30,seed={seed}", random.Random(0))
                second = make_bot(f"ismcts:iterations=30,seed={seed}", random.Random(0))
                assert first.choose(view, view.legal) == second.choose(view_for(other, seat), view.legal)
                checked += 1
                break
            state = apply(state, seat, bots[seat].choose(view, view.legal)).state
        if checked >= 3:
            break
    assert checked == 3


def test_ismcts_plays_a_move_the_short_rollouts_prefer_only_if_whole_rollouts_agree() -> None:
    """An evaluation at the cut that rewards holding cards (``k=-1``) sends the short rollouts the wrong way;
    the check on rollouts to the round's end (scored by the round's winner alone) keeps the heuristic's move."""
    departures = {True: 0, False: 0}
    decisions = 0
    for seed in range(4):
        state = new_game("classic", 2, seed=seed, options={"single_round": True})
        heuristic = make_bot("heuristic", random.Random(seed))
        while not state.is_over and decisions < 15 * (seed + 1):
            seat = state.pending.seat
            assert seat is not None
            view = view_for(state, seat)
            usual = make_bot("heuristic", random.Random(0)).choose(view, view.legal)
            if state.pending.kind == "turn" and len(own_choices(view.legal)) > 1:
                decisions += 1
                for confirm in (True, False):
                    spec = f"ismcts:mode=paired,iterations=30,seed={seed},k=-1,confirm={confirm}"
                    bot = make_bot(spec, random.Random(0))
                    departures[confirm] += bot.choose(view, view.legal) != usual
            state = apply(state, seat, heuristic.choose(view, view.legal)).state
    assert decisions >= 40
    assert departures[False] >= decisions // 4
    assert departures[True] <= departures[False] // 4


def _turns_with_choices(games: int) -> list[tuple[object, tuple[object, ...], object]]:
    """(view, legal, the heuristic's move) of the heads-up Classic turns with more than one own choice."""
    found = []
    for seed in range(games):
        state = new_game("classic", 2, seed=seed, options={"single_round": True})
        heuristic = make_bot("heuristic", random.Random(seed))
        while not state.is_over:
            seat = state.pending.seat
            assert seat is not None
            view = view_for(state, seat)
            move = heuristic.choose(view, view.legal)
            if state.pending.kind == "turn" and len(own_choices(view.legal)) > 2:
                found.append((view, view.legal, move))
            state = apply(state, seat, move).state
    return found


def test_the_race_keeps_the_heuristics_move_unless_the_rollouts_are_confident() -> None:
    """With an unreachable confidence the race plays the heuristic's move; with the default it sometimes
    departs; and it stops early where every other candidate falls behind (fewer rollouts than the budget)."""
    turns = _turns_with_choices(3)
    assert len(turns) >= 10
    departures = 0
    early = 0
    for index, (view, legal, move) in enumerate(turns):
        sure = make_bot(f"ismcts:iterations=24,seed={index},confidence=1000,read=false", random.Random(0))
        assert sure.choose(view, legal) == move  # type: ignore[arg-type]
        bot = make_bot(f"ismcts:iterations=24,seed={index},read=false", random.Random(0))
        departures += bot.choose(view, legal) != move  # type: ignore[arg-type]
        early += bot.last_iterations < 24 * len(own_choices(legal))  # type: ignore[attr-defined, arg-type]
    assert departures >= 1
    assert early >= len(turns) // 4
