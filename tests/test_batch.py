"""The batch path (``play_games``, ``rollout``, ``simulate``, ``Table.play_out``) plays the games of the watched path.

A batch skips views (for bots that need none), events and records; it must
not change a game. Each game of a batch is compared with the same game played
one step at a time on a :class:`Table` by ``run_bots`` (which builds every step
with its events), with the same seeded bots.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unoengine import Action, PlayerView, new_game
from unoengine.bots import make_bot
from unoengine.bots.base import BotError
from unoengine.bots.rng import seat_random
from unoengine.core.actions import parse_action
from unoengine.core.options import parse_options
from unoengine.play import Table
from unoengine.play.simulate import GameSummary, play_game, play_games, rollout, simulate

CONFIGS: list[tuple[str, int, list[str], dict[str, Any]]] = [
    ("classic", 2, ["random"], {}),
    ("classic", 4, ["random", "heuristic", "random", "uniform"], {"wild_draw_four": "challenge"}),
    ("classic", 4, ["heuristic", "random", "random", "random"], {"preset": "party"}),
    ("classic", 3, ["random", "heuristic", "random"], {"preset": "mobile", "match": True}),
    ("duo", 2, ["heuristic", "random"], {}),
    ("flex", 4, ["random", "random", "heuristic", "random"], {}),
]


def watched(rules: str, seats: int, names: list[str], seed: int, options: dict[str, Any]) -> GameSummary:
    """The game of ``seed`` played step by step on a Table (steps and events built), as a summary."""
    given_options = dict(options)
    preset = given_options.pop("preset", None)
    match = given_options.pop("match", False)
    given_options.setdefault("single_round", not match)
    resolved = parse_options(rules, given_options, preset=preset)
    bots = [make_bot(name, seat_random(seed, seat)) for seat, name in enumerate(names * (seats // len(names)))]
    table = Table(new_game(rules, seats, seed=seed, options=resolved), bots)
    table.run_bots()
    outcome = table.state.outcome
    assert outcome is not None
    return GameSummary(seed, outcome.winner, tuple(outcome.scores), table.version, table.state.round)


def batch(rules: str, seats: int, names: list[str], seeds: list[int], options: dict[str, Any]) -> list[GameSummary]:
    given_options = dict(options)
    preset = given_options.pop("preset", None)
    match = given_options.pop("match", False)
    bots: Any = names[0] if len(names) == 1 else names
    return play_games(rules, seeds, bots, seats=seats, options=given_options, preset=preset, match=match)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.sampled_from(CONFIGS), st.integers(0, 10**6))
def test_a_batch_plays_the_games_of_a_watched_table(
    config: tuple[str, int, list[str], dict[str, Any]], seed: int
) -> None:
    rules, seats, names, options = config
    seeds = [seed, seed + 1]
    assert batch(rules, seats, names, seeds, options) == [watched(rules, seats, names, game, options) for game in seeds]


def test_simulate_gathers_the_figures_of_play_games() -> None:
    names = ["heuristic", "random", "random", "random"]
    result = simulate("classic", 4, 30, names, 100, preset="party")
    games = play_games("classic", range(100, 130), names, preset="party")
    assert result.games == len(games) == 30
    assert result.lengths == [game.steps for game in games]
    assert result.steps == sum(game.steps for game in games)
    assert result.wins == [sum(game.winner == seat for game in games) for seat in range(4)]
    assert result.no_winner == sum(game.winner is None for game in games)
    assert result.rounds == sum(game.rounds for game in games) == 30


def test_uno_simulate_figures_are_pinned() -> None:
    """``uno simulate --seed 7 --games 40`` (Classic 4, random), pinned: a change to the games a seed plays (the deal,
    a rule, the bots' generators) shows here."""
    result = simulate("classic", 4, 40, "random", 7).to_json()
    assert (result["steps"], result["wins"], result["no_winner"], result["median_length"]) == PINNED


PINNED = (2352, [8, 8, 15, 9], 0, 53.5)


def test_a_summary_has_the_winner_the_points_and_the_length() -> None:
    (classic,) = play_games("classic", [3], "heuristic", seats=2)
    assert classic.winner is not None and classic.scores[classic.winner] > 0 == classic.scores[1 - classic.winner]
    (duo,) = play_games("duo", [3], "heuristic")  # D-19: the loser scores
    assert duo.winner is not None and duo.scores[duo.winner] == 0 < duo.scores[1 - duo.winner]
    assert classic.rounds == duo.rounds == 1 and classic.steps > 0 and duo.steps > 0


def test_seats_default_to_the_bots_given_or_the_rule_sets_usual_count() -> None:
    assert len(play_games("classic", [1], "random")[0].scores) == 4
    assert len(play_games("duo", [1], "random")[0].scores) == 2
    assert len(play_games("flex", [1], ["random"] * 3)[0].scores) == 3
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        play_games("classic", [1], ["random"] * 3, seats=2)
    with pytest.raises(ValueError, match="unknown bot"):
        play_games("classic", [1], "nobody")


def test_a_bot_may_be_given_as_a_maker() -> None:
    made: list[random.Random] = []

    def maker(rng: random.Random) -> Any:
        made.append(rng)
        return make_bot("random", rng)

    assert play_games("classic", [5, 6], maker, seats=2) == play_games("classic", [5, 6], "random", seats=2)
    assert len(made) == 4


def test_rollout_plays_to_the_end_without_a_record() -> None:
    start = new_game("flex", 3, seed=9, options={"single_round": True})
    bots = [make_bot("random", random.Random(seat)) for seat in range(3)]
    result = rollout(start, bots)
    again = play_game(start, [make_bot("random", random.Random(seat)) for seat in range(3)], keep_actions=True)
    assert result.state == again.state and result.steps == again.steps == result.state.steps
    assert result.actions is None and again.actions is not None and len(again.actions) == again.steps


class Failing:
    """A bot that fails its first decision in one of three ways."""

    name = "failing"
    needs_view = False
    reacts = False

    def __init__(self, how: str) -> None:
        self.how = how

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        if self.how == "raise":
            raise RuntimeError("out of ideas")
        if self.how == "none":
            return None  # type: ignore[return-value]
        return parse_action("challenge")

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return None


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("raise", "raised RuntimeError: out of ideas"),
        ("none", "returned None, which is not an action"),
        ("illegal", "chose challenge, which is not legal (legal: "),
    ],
)
def test_a_failing_bot_on_the_batch_path_is_reported_and_the_game_kept(how: str, message: str) -> None:
    start = new_game("classic", 2, seed=11, options={"single_round": True})
    seat = start.to_act
    assert seat is not None
    bots: list[Any] = [make_bot("random", random.Random(0)), make_bot("random", random.Random(1))]
    bots[seat] = Failing(how)
    table = Table(start, bots)
    with pytest.raises(BotError) as failure:
        table.play_out()
    error = failure.value
    assert (error.bot, error.seat, error.decision, error.step) == ("failing", seat, "turn", 0)
    assert message in str(error)
    assert table.state == start


def test_h11_simulate_counts_a_team_win_for_both_partners() -> None:
    """With teams a game is won by a team: ``wins`` counts it for both partners (and each game once per team)."""
    result = simulate("classic", 4, 40, ["heuristic", "random", "random", "random"], 7, options={"teams": "pairs"})
    assert result.wins[0] == result.wins[2] and result.wins[1] == result.wins[3]
    assert result.wins[0] + result.wins[1] == result.games - result.no_winner
