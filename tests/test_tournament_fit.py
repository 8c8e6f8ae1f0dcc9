"""The tournament's statistics: ratings fitted on all the games at once, intervals that resample deals, forced moves."""

from __future__ import annotations

import math
import random

import pytest

from unoengine.core.actions import Action, parse_action
from unoengine.play.tournament import (
    ELO,
    GameOutcome,
    Plan,
    _Timed,
    bootstrap,
    fit_strengths,
    gather,
    rate,
    to_ratings,
    wilson,
)


def game(plan: Plan, deal: int, seating: int, winner: str | None) -> GameOutcome:
    """A made-up game of ``plan`` won by the bot ``winner`` (its first seat in the seating)."""
    order = plan.orders[seating]
    seats = len(order)
    at = order.index(winner) if winner is not None else None
    return GameOutcome(deal, seating, at, (0,) * seats, 10, (2,) * seats, (0.0,) * seats, (1,) * seats)


def three_bots(deals: int = 30, seed: int = 1) -> tuple[Plan, list[GameOutcome]]:
    """A three-seat table of a, b, c where a wins most, then b, then c (and a few games have no winner)."""
    plan = Plan("classic", 3, ("a", "b", "c"), (), 0, deals)
    rng = random.Random(seed)
    games = [
        game(plan, deal, seating, rng.choices(["a", "b", "c", None], [5, 3, 2, 0.2])[0])
        for deal in range(deals)
        for seating in range(len(plan.orders))
    ]
    return plan, games


def test_the_same_games_in_any_order_give_the_same_ratings_and_intervals() -> None:
    plan, games = three_bots()
    first = rate(["a", "b", "c"], plan.orders, games)
    figures = gather(plan, games, resamples=200).to_json(timings=False)
    wins = {bot["name"]: bot["wins"] for bot in figures["bots"]}
    assert wins["a"] > wins["b"] > wins["c"]
    assert first["a"] > first["b"] > first["c"]  # more wins, higher rating, in every order below
    for seed in range(12):
        shuffled = games[:]
        random.Random(seed).shuffle(shuffled)
        assert rate(["a", "b", "c"], plan.orders, shuffled) == first  # to the last digit
        assert gather(plan, shuffled, resamples=200).to_json(timings=False) == figures


def test_heads_up_the_fit_is_bradley_terry_on_the_elo_scale() -> None:
    table = [[(0, 1), (1, 1)]]
    plain = to_ratings(fit_strengths([3000, 1000], table, [4000], prior=0.0))
    assert plain[0] - plain[1] == pytest.approx(400 * math.log10(3), abs=1e-6)  # 75 %: 190.8 points
    weak = to_ratings(fit_strengths([3000, 1000], table, [4000]))
    assert plain[0] - plain[1] - 1 < weak[0] - weak[1] < plain[0] - plain[1]  # the prior barely pulls at 4,000 games
    assert 1 / (1 + 10 ** (-(weak[0] - weak[1]) / 400)) == pytest.approx(0.75, abs=0.001)


def test_every_seat_counts_at_a_table_and_par_is_a_rating_of_zero() -> None:
    four = [[(0, 1), (1, 3)]]  # one x and three h
    assert fit_strengths([250, 750], four, [1000]) == pytest.approx([0.0, 0.0], abs=1e-9)
    stronger = fit_strengths([400, 600], four, [1000])
    assert stronger[0] - stronger[1] == pytest.approx(math.log(2), abs=0.01)  # 40 % against a third each of 60 %


def test_a_bot_that_wins_every_game_has_a_finite_rating() -> None:
    theta = fit_strengths([40, 0], [[(0, 1), (1, 1)]], [40])
    assert all(math.isfinite(value) for value in theta) and theta[0] > 0 > theta[1]
    assert to_ratings(theta)[0] < 1000
    assert pytest.approx(400 / math.log(10)) == ELO


def test_the_intervals_resample_deals_not_seat_games() -> None:
    plan = Plan("classic", 4, ("x", "h", "h", "h"), (), 0, 40)
    # x wins in every seating of one deal in four, and in no seating of the others: the seatings of a deal agree
    together = [game(plan, d, s, "x" if d % 4 == 0 else "h") for d in range(40) for s in range(4)]
    x = gather(plan, together).bots[0]
    assert (x.games, x.wins) == (160, 40)
    naive_low, naive_high = wilson(40, 160)
    low, high = x.interval
    assert low < 0.25 < high
    assert high - low > 1.5 * (naive_high - naive_low)  # 40 deals, not 160 independent games
    # heads-up, the seat decides: each bot wins one of each deal's two games, and nothing is left to chance
    duel = Plan("classic", 2, ("a", "b"), (), 0, 40)
    split = [game(duel, d, s, duel.orders[s][0]) for d in range(40) for s in range(2)]
    a = gather(duel, split).bots[0]
    assert a.interval == (0.5, 0.5) and wilson(40, 80)[1] - wilson(40, 80)[0] > 0.2


def test_the_bootstrap_is_seeded_and_a_single_deal_has_nothing_to_resample() -> None:
    plan, games = three_bots(deals=12)
    one = gather(plan, games, resamples=300)
    assert gather(plan, list(reversed(games)), resamples=300).to_json(timings=False) == one.to_json(timings=False)
    other = gather(Plan("classic", 3, ("a", "b", "c"), (), 1, 12), games, resamples=300)
    assert [bot.interval for bot in other.bots] != [bot.interval for bot in one.bots]  # another seed, other draws
    single = gather(plan, [g for g in games if g.deal == 0])
    assert all(bot.interval == (0.0, 1.0) for bot in single.bots)
    assert all(bot.rating is not None and bot.rating.low is None for bot in single.bots)


def test_bootstrap_sums_columns_over_drawn_clusters() -> None:
    columns = [[1, 0, 1, 0], [2, 2, 2, 2]]
    intervals = bootstrap(columns, lambda sums: [sums[0] / sums[1]], 500, random.Random(0))
    low, high = intervals[0]
    assert 0.0 <= low < 0.25 < high <= 0.5  # one game of two won in half the clusters: a quarter
    fixed = bootstrap([[3, 3, 3]], lambda sums: [float(sums[0])], 50, random.Random(0))
    assert fixed == [(9.0, 9.0)]


def test_forced_decisions_are_choices_among_one_action() -> None:
    class First:
        name = "first"
        needs_view = False
        reacts = True

        def choose(self, view: object, legal: tuple[Action, ...]) -> Action:
            return legal[0]

        def react(self, view: object, legal: tuple[Action, ...]) -> Action | None:
            return None

    timed = _Timed(First())
    one, two = (parse_action("draw"),), (parse_action("draw"), parse_action("R5"))
    timed.choose(None, one)
    timed.choose(None, two)
    timed.react(None, one)  # type: ignore[arg-type]  # letting the window go is always a second choice
    assert (timed.decisions, timed.forced) == (3, 1)
