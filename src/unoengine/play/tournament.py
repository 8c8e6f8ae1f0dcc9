"""Tournaments between bots: every seating over the same deals, with honest intervals and ratings.

Two formats. ``table`` (the default) plays deals ``0 … D-1`` (deal ``d`` is the
game of seed ``seed + d``) once for every distinct seating of the bots (every
permutation of the list over the seats; for two seats, each deal twice, seats
swapped), so that the luck of the deal cancels. ``round-robin`` plays every pair
of the bots heads-up over the same deals, each deal twice with the seats swapped.
Game ``(d, s)`` gives every bot its own generator seeded from ``(seed, d, s, seat)``
(in a round robin ``s`` is the seating within its pairing, so a pairing's games are
those of a heads-up ``table`` tournament of the two bots): a tournament is
reproducible, and its games may be played in any order or in other processes
(:func:`play_deals`) and gathered again (:func:`gather`) to the same figures. Only
the timings (``ms_per_decision``, ``decisions_per_s``, ``seconds``) differ between runs.

Per bot: games (seat-games: a bot that holds three seats counts three), wins,
the win rate with its 95% interval from a bootstrap over deals (:func:`bootstrap`:
the games of one deal are resampled together, as they are correlated), the naive
Wilson interval (seat-games taken as independent) beside it, mean points (the
round's score of its seat: the winner's points), mean game length (actions),
decisions, the share of them that were forced (one legal action), ms a decision.
With several distinct bots, a rating fitted on all the games at once
(:func:`fit_strengths`: Luce's choice model of the winner, on an Elo scale,
independent of the order of the games) with its bootstrap interval, and pairwise
results (how often ``a`` finished ahead of ``b`` in the games they shared, a tie
counting a half; heads-up, ``a``'s win rate against ``b``) with their intervals.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from unoengine.bots.base import Bot, make_bot
from unoengine.core.actions import Action
from unoengine.core.engine import new_game
from unoengine.core.options import describe_options
from unoengine.core.rules import Options, find_rules
from unoengine.core.views import PlayerView
from unoengine.play.table import Table

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution (a 95% two-sided interval)."""

TABLE = "table"
"""The format that seats all the bots at one table, in every seating."""

ROUND_ROBIN = "round-robin"
"""The format that plays every pair of bots heads-up."""

FORMATS = (TABLE, ROUND_ROBIN)
"""The tournament formats (``uno tournament --format``)."""

RESAMPLES = 1000
"""Bootstrap resamples of the deals behind every interval (``uno tournament --resamples``)."""

PRIOR = 1.0
"""The ratings' prior: each bot is given this many virtual wins and as many virtual losses
against a reference bot of rating 0 (so that a bot that won or lost every game has a finite rating)."""

ELO = 400 / math.log(10)
"""Rating points per unit of log-strength: 400 points are a strength ten times as large."""


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); ``(0, 1)`` for no games.

    The naive interval of a tournament: it takes every seat-game as independent.

    >>> [round(x, 4) for x in wilson(55, 100)]
    [0.4524, 0.6439]
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def seatings(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct permutation of ``bots`` over the seats, in a fixed order.

    >>> seatings(["a", "b"])
    [('a', 'b'), ('b', 'a')]
    >>> len(seatings(["x", "h", "h", "h"]))
    4
    """
    return sorted(set(itertools.permutations(bots)), key=lambda order: [list(bots).index(name) for name in order])


def distinct(bots: Sequence[str]) -> list[str]:
    """The bot specs without repeats, in order of first appearance."""
    return list(dict.fromkeys(bots))


def pairings(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of distinct bots, in the order of the list: a round robin's heads-up pairings.

    >>> pairings(["a", "b", "c"])
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    return list(itertools.combinations(distinct(bots), 2))


class _Timed:
    """A bot that counts its decisions, the forced ones (a single legal action) and the time they took."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_view = bot.needs_view
        self.reacts = bot.reacts
        self.decisions = 0
        self.forced = 0
        self.seconds = 0.0

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        started = time.perf_counter()
        try:
            return self.bot.choose(view, legal)
        finally:
            self.seconds += time.perf_counter() - started
            self.decisions += 1
            self.forced += len(legal) == 1

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        # never forced: letting the window go (None) is always a choice beside ``legal``
        started = time.perf_counter()
        try:
            return self.bot.react(view, legal)
        finally:
            self.seconds += time.perf_counter() - started
            self.decisions += 1


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One tournament game: which deal and seating, who won, the points, length and counts by seat."""

    deal: int
    seating: int
    """The index of the game's seating in :attr:`Plan.orders`."""
    winner: int | None
    points: tuple[int, ...]
    length: int
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    forced: tuple[int, ...] = ()
    """Decisions with a single legal action, by seat (none given: none)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What a tournament plays: everything a worker needs to play its share of the deals."""

    rules: str
    seats: int
    bots: tuple[str, ...]
    """A bot spec per seat (``table``), or the distinct bots of a round robin."""
    options: tuple[tuple[str, Any], ...]
    """The rule options as (name, value) pairs (plain values: a plan travels to other processes)."""
    seed: int
    deals: int
    time_limit: float | None = None
    format: str = TABLE
    """:data:`TABLE` or :data:`ROUND_ROBIN`."""

    def resolved(self) -> Options:
        """The plan's rule options, resolved by its rule set."""
        return find_rules(self.rules).options(dict(self.options))

    @property
    def tables(self) -> list[tuple[str, ...]]:
        """The bots of each table played on every deal: the one table, or a round robin's pairings."""
        return list(pairings(self.bots)) if self.format == ROUND_ROBIN else [self.bots]

    @property
    def orders(self) -> list[tuple[str, ...]]:
        """Every seating played on a deal, each a bot spec per seat (a round robin: each pairing's two in turn)."""
        return [order for bots in self.tables for order in seatings(bots)]

    @property
    def games(self) -> int:
        """Games in all: deals × seatings."""
        return self.deals * len(self.orders)

    def key(self, seating: int) -> int:
        """The seating's number in the bots' seeds: its index within its table (its pairing)."""
        return seating % 2 if self.format == ROUND_ROBIN else seating


def play_game(plan: Plan, deal: int, seating: int, order: Sequence[str]) -> GameOutcome:
    """Play deal ``deal`` with seating ``seating`` (``order``: a bot spec per seat).

    Raises:
        BotError: a bot failed (the message names the bot, the seat and the decision).
    """
    key = plan.key(seating)
    bots = [
        _Timed(make_bot(spec, random.Random(f"{plan.seed}:{deal}:{key}:{seat}"))) for seat, spec in enumerate(order)
    ]
    state = new_game(plan.rules, plan.seats, seed=plan.seed + deal, options=plan.resolved())
    table = Table(state, bots, time_limit=plan.time_limit)
    length = table.play_out(keep_actions=False)
    outcome = table.state.outcome
    assert outcome is not None
    return GameOutcome(
        deal,
        seating,
        outcome.winner,
        tuple(outcome.scores),
        length,
        tuple(bot.decisions for bot in bots),
        tuple(bot.seconds for bot in bots),
        tuple(bot.forced for bot in bots),
    )


def play_deals(plan: Plan, deals: Iterable[int]) -> list[GameOutcome]:
    """Every seating of each of ``deals`` (a worker's share), in order."""
    orders = plan.orders
    return [play_game(plan, deal, index, order) for deal in deals for index, order in enumerate(orders)]


# -- ratings ------------------------------------------------------------------------------------------------


def _cholesky_solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix · x = vector``, ``matrix`` symmetric positive definite (a small one)."""
    size = len(vector)
    lower = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1):
            total = matrix[i][j] - sum(lower[i][k] * lower[j][k] for k in range(j))
            lower[i][j] = math.sqrt(total) if i == j else total / lower[j][j]
    forward = [0.0] * size
    for i in range(size):
        forward[i] = (vector[i] - sum(lower[i][k] * forward[k] for k in range(i))) / lower[i][i]
    solution = [0.0] * size
    for i in reversed(range(size)):
        solution[i] = (forward[i] - sum(lower[k][i] * solution[k] for k in range(i + 1, size))) / lower[i][i]
    return solution


def _log_likelihood(
    theta: Sequence[float],
    wins: Sequence[float],
    tables: Sequence[Sequence[tuple[int, int]]],
    counts: Sequence[float],
    prior: float,
) -> float:
    """The log-posterior of log-strengths ``theta`` (see :func:`fit_strengths`), up to a constant."""
    value = 0.0
    for strength, won in zip(theta, wins, strict=True):
        # prior wins and losses against a reference of strength 1: θ − 2·log(1 + e^θ), stably
        value += (won + prior) * strength - 2 * prior * (max(strength, 0.0) + math.log1p(math.exp(-abs(strength))))
    for table, count in zip(tables, counts, strict=True):
        if count:
            top = max(theta[bot] for bot, _ in table)
            value -= count * (top + math.log(sum(seats * math.exp(theta[bot] - top) for bot, seats in table)))
    return value


def fit_strengths(
    wins: Sequence[float],
    tables: Sequence[Sequence[tuple[int, int]]],
    counts: Sequence[float],
    *,
    prior: float = PRIOR,
    start: Sequence[float] | None = None,
) -> list[float]:
    """The maximum a posteriori log-strengths ``θ`` of bots ``0 … n-1`` from the sufficient statistics of their games.

    The model is Luce's choice axiom for the winner of a game: at a table whose
    seats hold bot ``i`` ``c_i`` times, bot ``i`` wins with probability
    ``c_i·γ_i / Σ_j c_j·γ_j`` (``γ = e^θ``; every seat counts, so one bot among
    three copies of another is at par with a quarter of the wins; heads-up it is
    Bradley–Terry). ``wins[i]`` is bot ``i``'s wins in all; ``tables[t]`` a table's
    ``(bot, seats)`` pairs and ``counts[t]`` its games that had a winner. The
    prior gives each bot ``prior`` wins and as many losses against a reference
    of ``θ = 0``, which makes the maximum unique and finite (``prior=0``: the
    plain maximum likelihood, with the mean of ``θ`` kept at its start; it
    exists only if every bot won and lost a game against the others).
    Newton's method (with step halving), from ``start`` or zeros, to a step under 1e-10.

    The games enter only through these sums, so their order cannot matter.

    >>> [round(x, 6) for x in fit_strengths([30, 10], [[(0, 1), (1, 1)]], [40], prior=0.0)]
    [0.549306, -0.549306]
    """
    size = len(wins)
    theta = list(start) if start is not None else [0.0] * size
    current = _log_likelihood(theta, wins, tables, counts, prior)
    for _ in range(200):
        gradient = [0.0] * size
        curvature = [[0.0] * size for _ in range(size)]
        for i, strength in enumerate(theta):
            share = 1 / (1 + math.exp(-strength))
            gradient[i] = wins[i] + prior - 2 * prior * share
            curvature[i][i] = 2 * prior * share * (1 - share)
        for table, count in zip(tables, counts, strict=True):
            if not count:
                continue
            top = max(theta[bot] for bot, _ in table)
            weights = [(bot, seats * math.exp(theta[bot] - top)) for bot, seats in table]
            total = sum(weight for _, weight in weights)
            shares = [(bot, weight / total) for bot, weight in weights]
            for i, p in shares:
                gradient[i] -= count * p
                curvature[i][i] += count * p
                for j, q in shares:
                    curvature[i][j] -= count * p * q
        if size == 0:
            break
        if prior <= 0:  # no prior: the strengths are known up to a constant, so pin the mean at 0
            for i in range(size):
                for j in range(size):
                    curvature[i][j] += 1.0 / size
        step = _cholesky_solve(curvature, gradient)
        scale = 1.0
        while True:
            candidate = [strength + scale * move for strength, move in zip(theta, step, strict=True)]
            value = _log_likelihood(candidate, wins, tables, counts, prior)
            if value >= current - 1e-12 * (1 + abs(current)) or scale < 1e-6:
                break
            scale /= 2
        theta, current = candidate, value
        if max(abs(move) for move in step) * scale < 1e-10:
            break
    return theta


def to_ratings(theta: Sequence[float]) -> list[float]:
    """Log-strengths on the Elo scale (400 points: ten times the strength), the bots' mean at 0.

    >>> [round(x, 1) for x in to_ratings([math.log(10), 0.0])]
    [200.0, -200.0]
    """
    mean = sum(theta) / len(theta) if theta else 0.0
    return [ELO * (strength - mean) for strength in theta]


def _composition(order: Sequence[str], index: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """A seating's table as sorted ``(bot, seats)`` pairs."""
    seats: dict[int, int] = {}
    for name in order:
        seats[index[name]] = seats.get(index[name], 0) + 1
    return tuple(sorted(seats.items()))


def rate(names: Sequence[str], orders: Sequence[Sequence[str]], games: Iterable[GameOutcome]) -> dict[str, float]:
    """Ratings of ``names`` fitted on all ``games`` at once (:func:`fit_strengths`, :func:`to_ratings`).

    Games without a winner are left out. The same games in any order give the same ratings, to the last digit.
    """
    index = {name: i for i, name in enumerate(names)}
    wins = [0] * len(names)
    tables: dict[tuple[tuple[int, int], ...], int] = {}
    for game in games:
        if game.winner is None:
            continue
        order = orders[game.seating]
        wins[index[order[game.winner]]] += 1
        table = _composition(order, index)
        tables[table] = tables.get(table, 0) + 1
    keys = sorted(tables)
    theta = fit_strengths(wins, keys, [tables[key] for key in keys])
    return dict(zip(names, to_ratings(theta), strict=True))


# -- the figures --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    """A bot's rating (Elo scale, the bots' mean at 0) with its 95% deal-bootstrap interval."""

    value: float
    low: float | None = None
    high: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The rating as ``uno tournament --json`` gives it."""

        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 2)

        return {"value": rounded(self.value), "ci_low": rounded(self.low), "ci_high": rounded(self.high)}


@dataclass(slots=True)
class BotFigures:
    """One bot's figures over a tournament."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    length: int = 0
    decisions: int = 0
    seconds: float = 0.0
    rating: Rating | None = None
    forced: int = 0
    """Decisions with a single legal action."""
    interval: tuple[float, float] = (0.0, 1.0)
    """The win rate's 95% interval from the bootstrap over deals."""

    def to_json(self) -> dict[str, Any]:
        """The figures as ``uno tournament --json`` gives them."""
        naive_low, naive_high = wilson(self.wins, self.games)
        figures: dict[str, Any] = {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 6) if self.games else 0.0,
            "ci_low": round(self.interval[0], 6),
            "ci_high": round(self.interval[1], 6),
            "wilson_low": round(naive_low, 6),
            "wilson_high": round(naive_high, 6),
            "mean_points": round(self.points / self.games, 3) if self.games else 0.0,
            "mean_length": round(self.length / self.games, 2) if self.games else 0.0,
            "decisions": self.decisions,
            "forced": self.forced,
            "forced_share": round(self.forced / self.decisions, 6) if self.decisions else 0.0,
            "ms_per_decision": round(1000 * self.seconds / self.decisions, 4) if self.decisions else 0.0,
            "decisions_per_s": round(self.decisions / self.seconds, 1) if self.seconds else 0.0,
        }
        if self.rating is not None:
            figures["rating"] = self.rating.to_json()
        return figures


@dataclass(slots=True)
class TournamentResult:
    """A tournament's figures: per bot, pairwise, and the set-up."""

    plan: Plan
    bots: list[BotFigures]
    pairwise: dict[str, dict[str, float]]
    no_winner: int = 0
    seconds: float = 0.0
    outcomes: list[GameOutcome] = field(default_factory=list, repr=False)
    pairwise_intervals: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    """The 95% deal-bootstrap interval of each :attr:`pairwise` figure."""
    resamples: int = RESAMPLES

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """The result as one JSON object; ``timings=False`` leaves out what differs between runs."""
        plan = self.plan
        result: dict[str, Any] = {
            "format": plan.format,
            "rules": plan.rules,
            "seats": plan.seats,
            "seed": plan.seed,
            "deals": plan.deals,
            "seatings": len(plan.orders) // len(plan.tables),
            "games": plan.games,
            "resamples": self.resamples,
            "no_winner": self.no_winner,
            "bots": [bot.to_json() for bot in self.bots],
            "pairwise": self.pairwise,
            "pairwise_ci": {
                a: {b: [round(low, 6), round(high, 6)] for b, (low, high) in row.items()}
                for a, row in self.pairwise_intervals.items()
            },
        }
        if plan.format == ROUND_ROBIN:
            result["pairings"] = [list(pair) for pair in plan.tables]
        if timings:
            result["seconds"] = round(self.seconds, 3)
        else:
            for bot in result["bots"]:
                del bot["ms_per_decision"], bot["decisions_per_s"]
        return result


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (linear between the order statistics: NumPy's default).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5)
    2.5
    """
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (position - below) * (ordered[above] - ordered[below])


def bootstrap(
    columns: Sequence[Sequence[int]], statistic: Callable[[list[int]], list[float]], resamples: int, rng: random.Random
) -> list[tuple[float, float]]:
    """95% percentile intervals of ``statistic`` by a bootstrap over clusters (the deals).

    ``columns[k][d]`` is the ``k``-th sum of cluster ``d``'s games; each resample
    draws as many clusters as there are, with replacement, and hands the ``k``
    sums over the drawn clusters to ``statistic``, which gives the figures to
    bound. Everything a cluster holds moves together: the games of a deal,
    correlated through its cards, are never split.
    """
    clusters = len(columns[0]) if columns else 0
    varying = [k for k, column in enumerate(columns) if any(value != column[0] for value in column)]
    # clusters alike in every varying sum are drawn as one pattern (few patterns: sum by pattern, not by cluster)
    patterns: dict[tuple[int, ...], int] = {}
    pattern_of = [patterns.setdefault(tuple(columns[k][d] for k in varying), len(patterns)) for d in range(clusters)]
    by_pattern = list(patterns)
    samples: list[list[float]] = []
    for _ in range(resamples):
        sums = [column[0] * clusters if column else 0 for column in columns]
        if 4 * len(by_pattern) <= clusters:
            drawn = Counter(rng.choices(pattern_of, k=clusters))
            for position, k in enumerate(varying):
                sums[k] = sum(count * by_pattern[pattern][position] for pattern, count in drawn.items())
        else:
            picked = rng.choices(range(clusters), k=clusters)
            for k in varying:
                sums[k] = sum(map(columns[k].__getitem__, picked))
        samples.append(statistic(sums))
    figures = len(samples[0]) if samples else 0
    return [
        (percentile([sample[k] for sample in samples], 0.025), percentile([sample[k] for sample in samples], 0.975))
        for k in range(figures)
    ]


def gather(
    plan: Plan, outcomes: Iterable[GameOutcome], seconds: float = 0.0, *, resamples: int = RESAMPLES
) -> TournamentResult:
    """The figures of a tournament's games, in (deal, seating) order whatever order they came in.

    The intervals come from ``resamples`` resamples of the deals (:func:`bootstrap`),
    drawn from a generator seeded by the plan's seed: the same games give the same
    intervals. With fewer than two deals there is nothing to resample: the win
    rates' intervals are ``(0, 1)`` and the ratings have none.
    """
    ordered = sorted(outcomes, key=lambda game: (game.deal, game.seating))
    orders = plan.orders
    names = distinct(plan.bots)
    index = {name: i for i, name in enumerate(names)}
    size = len(names)
    figures = {name: BotFigures(name) for name in names}
    pairs = sorted(
        {pair for order in orders for pair in itertools.combinations(sorted(index[name] for name in set(order)), 2)}
    )
    pair_at = {pair: k for k, pair in enumerate(pairs)}
    tables = sorted({_composition(order, index) for order in orders})
    table_at = {table: k for k, table in enumerate(tables)}
    compositions = [_composition(order, index) for order in orders]
    # the sums of each deal: wins and games by bot, 2 × (a ahead of b) and shared games by pair, games won by table
    width = 2 * size + 2 * len(pairs) + len(tables)
    by_deal: dict[int, list[int]] = {}
    no_winner = 0
    for game in ordered:
        order = orders[game.seating]
        sums = by_deal.setdefault(game.deal, [0] * width)
        if game.winner is None:
            no_winner += 1
        else:
            sums[2 * size + 2 * len(pairs) + table_at[compositions[game.seating]]] += 1
        for seat, name in enumerate(order):
            bot = figures[name]
            bot.games += 1
            bot.wins += game.winner == seat
            bot.points += game.points[seat]
            bot.length += game.length
            bot.decisions += game.decisions[seat]
            bot.forced += game.forced[seat] if game.forced else 0
            bot.seconds += game.seconds[seat]
            sums[index[name]] += game.winner == seat
            sums[size + index[name]] += 1
        winner = order[game.winner] if game.winner is not None else None
        for a, b in itertools.combinations(sorted(index[name] for name in distinct(order)), 2):
            k = pair_at[(a, b)]
            sums[2 * size + 2 * k] += 2 if winner == names[a] else 0 if winner == names[b] else 1
            sums[2 * size + 2 * k + 1] += 1
    totals = [sum(column) for column in zip(*by_deal.values(), strict=True)] if by_deal else [0] * width
    rated = size > 1

    def fit(sums: Sequence[int], start: Sequence[float] | None = None) -> list[float]:
        base = 2 * size + 2 * len(pairs)
        return fit_strengths(sums[:size], tables, sums[base : base + len(tables)], start=start)

    def rates(sums: Sequence[int]) -> list[float]:
        wins = [sums[i] / sums[size + i] if sums[size + i] else 0.0 for i in range(size)]
        ahead = [
            sums[2 * size + 2 * k] / (2 * sums[2 * size + 2 * k + 1]) if sums[2 * size + 2 * k + 1] else 0.5
            for k in range(len(pairs))
        ]
        return wins + ahead

    theta = fit(totals) if rated else []
    ratings = to_ratings(theta)

    def statistic(sums: list[int]) -> list[float]:
        return rates(sums) + (to_ratings(fit(sums, theta)) if rated else [])

    point = rates(totals)
    if len(by_deal) >= 2 and resamples > 0:
        columns = list(zip(*by_deal.values(), strict=True))
        rng = random.Random(f"{plan.seed}:bootstrap")
        intervals = bootstrap(columns, statistic, resamples, rng)
    else:
        intervals = [(0.0, 1.0)] * len(point)
    for i, name in enumerate(names):
        figures[name].interval = intervals[i]
        if rated:
            low, high = intervals[len(point) + i] if len(intervals) > len(point) else (None, None)
            figures[name].rating = Rating(ratings[i], low, high)
    pairwise: dict[str, dict[str, float]] = {name: {} for name in names}
    pairwise_intervals: dict[str, dict[str, tuple[float, float]]] = {name: {} for name in names}
    for k, (a, b) in enumerate(pairs):
        if not totals[2 * size + 2 * k + 1]:
            continue
        ahead, shared = totals[2 * size + 2 * k], totals[2 * size + 2 * k + 1]
        low, high = intervals[size + k]
        pairwise[names[a]][names[b]] = round(ahead / (2 * shared), 6)
        pairwise[names[b]][names[a]] = round((2 * shared - ahead) / (2 * shared), 6)
        pairwise_intervals[names[a]][names[b]] = (low, high)
        pairwise_intervals[names[b]][names[a]] = (1 - high, 1 - low)
    for name in names:  # rows and columns in the order of the bots
        pairwise[name] = {other: pairwise[name][other] for other in names if other in pairwise[name]}
        row = pairwise_intervals[name]
        pairwise_intervals[name] = {other: row[other] for other in names if other in row}
    return TournamentResult(
        plan, list(figures.values()), pairwise, no_winner, seconds, ordered, pairwise_intervals, resamples
    )


# -- planning and playing -----------------------------------------------------------------------------------


def make_plan(
    rules: str,
    seats: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Options,
    time_limit: float | None = None,
    format: str = TABLE,
) -> Plan:
    """A tournament's plan: ``games`` rounded up to whole deals (each deal played in every seating).

    ``table``: fewer bots than seats, the last one fills the remaining seats
    (``ismcts,heuristic`` in four seats is one ``ismcts`` and three ``heuristic``).
    ``round-robin``: two seats, and every pair of the (distinct) bots heads-up.

    Raises:
        ValueError: unknown rules, format or bot; more bots than seats, fewer than one;
            a round robin of fewer than two bots, with a bot twice, or with other than two seats.
    """
    ruleset = find_rules(rules)
    names = list(bots)
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}: one of {', '.join(FORMATS)}")
    if not names:
        raise ValueError("a tournament needs at least one bot")
    if format == ROUND_ROBIN:
        if seats != 2:
            raise ValueError(f"a round robin is played heads-up, in 2 seats, not {seats}")
        if 2 not in ruleset.seats:
            raise ValueError(f"{ruleset.title} is not played heads-up: no round robin")
        twice = [name for name in distinct(names) if names.count(name) > 1]
        if twice:
            raise ValueError(f"bot {twice[0]!r} is given twice: a round robin pairs distinct bots")
        if len(names) < 2:
            raise ValueError("a round robin needs at least two bots")
    elif len(names) > seats:
        raise ValueError(f"{len(names)} bots for {seats} seats: give at most one bot a seat")
    for name in names:
        make_bot(name, random.Random(0))  # refuse an unknown bot or bad parameter before any game
    if format == TABLE:
        names += [names[-1]] * (seats - len(names))
    items = tuple(options.to_dict().items())
    plan = Plan(ruleset.name, seats, tuple(names), items, seed, 0, time_limit, format)
    per_deal = len(plan.orders)
    deals = -(-games // per_deal) if games > 0 else 0
    return Plan(ruleset.name, seats, tuple(names), items, seed, deals, time_limit, format)


def chunks(deals: int, parts: int) -> list[range]:
    """``range(deals)`` cut into about ``parts × 4`` consecutive pieces (for workers and progress)."""
    if deals <= 0:
        return []
    size = max(1, math.ceil(deals / max(1, parts * 4)))
    return [range(start, min(start + size, deals)) for start in range(0, deals, size)]


Runner = Callable[[Plan, list[range], Callable[[list[GameOutcome]], None]], None]
"""Plays a plan's pieces of deals somewhere and hands each piece's games to the callback."""


def run_tournament(
    plan: Plan,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    runner: Runner | None = None,
    resamples: int = RESAMPLES,
) -> TournamentResult:
    """Play a tournament: in this process (``jobs=1``), in ``jobs`` processes, or through ``runner``.

    ``progress(n)`` is told of every ``n`` games finished. The figures are the same
    whatever ``jobs`` or ``runner`` (only the timings differ). ``resamples``: of the
    deals, for the intervals (:func:`gather`).

    Raises:
        BotError: a bot failed in one of the games.
    """
    started = time.perf_counter()
    outcomes: list[GameOutcome] = []

    def collect(part: list[GameOutcome]) -> None:
        outcomes.extend(part)
        if progress is not None:
            progress(len(part))

    pieces = chunks(plan.deals, jobs)
    if runner is not None:
        runner(plan, pieces, collect)
    elif jobs <= 1:
        for piece in pieces:
            collect(play_deals(plan, piece))
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = [pool.submit(play_deals, plan, piece) for piece in pieces]
            try:
                for future in as_completed(futures):
                    collect(future.result())
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    return gather(plan, outcomes, time.perf_counter() - started, resamples=resamples)


def ray_runner(address: str | None = None, **init: Any) -> Runner:
    """A runner that plays the pieces as Ray tasks (the ``cluster`` extra): on the cluster at
    ``address``, or on a local Ray instance started for the tournament (``None``, ``"local"``).

    The games and so the figures are those of ``jobs=1``: each game's seeds come from its deal
    and seating, not from where it runs. Workers need ``unoengine`` (and any bot module) importable.
    """

    def run(plan: Plan, pieces: list[range], collect: Callable[[list[GameOutcome]], None]) -> None:
        import ray

        started = not ray.is_initialized()
        if started:
            where = None if address in (None, "local") else address
            ray.init(address=where, include_dashboard=False, log_to_driver=False, **init)
        try:
            task = ray.remote(play_deals)
            waiting = [task.remote(plan, list(piece)) for piece in pieces]
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1)
                collect(ray.get(done[0]))
        finally:
            if started:
                ray.shutdown()

    return run


PLOT_NEEDS = 'a plot needs matplotlib, which playing does not: pip install "unoengine[plot]"'
"""What :func:`plot` says when matplotlib is not installed (the ``plot`` extra)."""


def plot(result: TournamentResult, path: str, played: str | None = None) -> None:
    """Save a bar chart of the bots' win rates with their 95% deal-bootstrap intervals (matplotlib) at ``path``.

    The title names the rule set, the seats, the games and ``played``: the preset and options
    (:func:`~unoengine.core.options.describe_options`; by default, the plan's options that differ
    from the rule set's defaults, or ``official rules``).
    """
    try:
        import matplotlib
    except ImportError as error:
        raise ModuleNotFoundError(PLOT_NEEDS, name="matplotlib") from error

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = [bot.to_json() for bot in result.bots]
    names = [bot["name"] for bot in bots]
    rates = [100 * bot["win_rate"] for bot in bots]
    errors = [
        [100 * max(0.0, bot["win_rate"] - bot["ci_low"]) for bot in bots],
        [100 * max(0.0, bot["ci_high"] - bot["win_rate"]) for bot in bots],
    ]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.4 * len(names) + 2), 3.6), dpi=120)
    axes.bar(names, rates, yerr=errors, capsize=6, color="#c0392b")
    axes.axhline(100 / result.plan.seats, color="#555555", linestyle="--", linewidth=1, label="par")
    axes.set_ylabel("win rate, % (95%, deals resampled)")
    plan = result.plan
    shape = "heads-up round robin" if plan.format == ROUND_ROBIN else f"{plan.seats} seats"
    if played is None:
        played = describe_options(plan.rules, dict(plan.options), leave_out=("single_round",))
    axes.set_title(f"{plan.rules}, {shape}, {plan.games} games\n{played}", fontsize="medium", wrap=True)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
