"""Tournaments between bots: every seating over the same deals, with intervals and ratings.

:func:`run_tournament` plays deals ``0 … D-1`` (deal ``d`` is the game of seed
``seed + d``) once for every distinct seating of the bots (every permutation of
the list over the seats; for two seats, each deal twice, seats swapped), so
that the luck of the deal cancels. Game ``(d, p)`` gives every bot its own
generator seeded from ``(seed, d, p, seat)``: a tournament is reproducible, and
its games may be played in any order or in other processes
(:func:`play_deals`) and gathered again (:func:`gather`) to the same figures.
Only the timings (``ms_per_decision``, ``decisions_per_s``, ``seconds``) differ
between runs.

Per bot: games (seat-games: a bot that holds three seats counts three), wins,
the win rate with its 95% Wilson interval, mean points (the round's score of
its seat: the winner's points), mean game length (actions), decisions, ms a
decision. With several distinct bots, an openskill Plackett–Luce rating (each
game ranks the winning bot first and the others tied) and pairwise results
(how often ``a`` finished ahead of ``b`` in games they shared; a tie counts a half).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from unoengine.bots.base import Bot, make_bot
from unoengine.core.actions import Action
from unoengine.core.engine import new_game
from unoengine.core.rules import Options, find_rules
from unoengine.core.views import PlayerView
from unoengine.play.table import Table

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution (a 95% two-sided interval)."""


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); ``(0, 1)`` for no games.

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


class _Timed:
    """A bot that counts its decisions and the time they took."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_view = bot.needs_view
        self.reacts = bot.reacts
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        started = time.perf_counter()
        try:
            return self.bot.choose(view, legal)
        finally:
            self.seconds += time.perf_counter() - started
            self.decisions += 1

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        started = time.perf_counter()
        try:
            return self.bot.react(view, legal)
        finally:
            self.seconds += time.perf_counter() - started
            self.decisions += 1


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One tournament game: which deal and seating, who won, the points, length and timings by seat."""

    deal: int
    seating: int
    winner: int | None
    points: tuple[int, ...]
    length: int
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """What a tournament plays: everything a worker needs to play its share of the deals."""

    rules: str
    seats: int
    bots: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    """The rule options as (name, value) pairs (plain values: a plan travels to other processes)."""
    seed: int
    deals: int
    time_limit: float | None = None

    def resolved(self) -> Options:
        """The plan's rule options, resolved by its rule set."""
        return find_rules(self.rules).options(dict(self.options))

    @property
    def orders(self) -> list[tuple[str, ...]]:
        """The seatings, each a bot spec per seat."""
        return seatings(self.bots)

    @property
    def games(self) -> int:
        """Games in all: deals × seatings."""
        return self.deals * len(self.orders)


def play_game(plan: Plan, deal: int, seating: int, order: Sequence[str]) -> GameOutcome:
    """Play deal ``deal`` with seating ``seating`` (``order``: a bot spec per seat).

    Raises:
        BotError: a bot failed (the message names the bot, the seat and the decision).
    """
    bots = [
        _Timed(make_bot(spec, random.Random(f"{plan.seed}:{deal}:{seating}:{seat}"))) for seat, spec in enumerate(order)
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
    )


def play_deals(plan: Plan, deals: Iterable[int]) -> list[GameOutcome]:
    """Every seating of each of ``deals`` (a worker's share), in order."""
    orders = plan.orders
    return [play_game(plan, deal, index, order) for deal in deals for index, order in enumerate(orders)]


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
    rating: tuple[float, float] | None = None
    """openskill's (mu, sigma)."""

    def to_json(self) -> dict[str, Any]:
        """The figures as ``uno tournament --json`` gives them."""
        low, high = wilson(self.wins, self.games)
        figures: dict[str, Any] = {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 6) if self.games else 0.0,
            "ci_low": round(low, 6),
            "ci_high": round(high, 6),
            "mean_points": round(self.points / self.games, 3) if self.games else 0.0,
            "mean_length": round(self.length / self.games, 2) if self.games else 0.0,
            "decisions": self.decisions,
            "ms_per_decision": round(1000 * self.seconds / self.decisions, 4) if self.decisions else 0.0,
            "decisions_per_s": round(self.decisions / self.seconds, 1) if self.seconds else 0.0,
        }
        if self.rating is not None:
            mu, sigma = self.rating
            figures["rating"] = {"mu": round(mu, 4), "sigma": round(sigma, 4), "ordinal": round(mu - 3 * sigma, 4)}
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

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """The result as one JSON object; ``timings=False`` leaves out what differs between runs."""
        plan = self.plan
        result: dict[str, Any] = {
            "rules": plan.rules,
            "seats": plan.seats,
            "seed": plan.seed,
            "deals": plan.deals,
            "seatings": len(plan.orders),
            "games": plan.games,
            "no_winner": self.no_winner,
            "bots": [bot.to_json() for bot in self.bots],
            "pairwise": self.pairwise,
        }
        if timings:
            result["seconds"] = round(self.seconds, 3)
        else:
            for bot in result["bots"]:
                del bot["ms_per_decision"], bot["decisions_per_s"]
        return result


def distinct(bots: Sequence[str]) -> list[str]:
    """The bot specs without repeats, in order of first appearance."""
    return list(dict.fromkeys(bots))


def gather(plan: Plan, outcomes: Iterable[GameOutcome], seconds: float = 0.0) -> TournamentResult:
    """The figures of a tournament's games, in (deal, seating) order whatever order they came in."""
    ordered = sorted(outcomes, key=lambda game: (game.deal, game.seating))
    orders = plan.orders
    names = distinct(plan.bots)
    figures = {name: BotFigures(name) for name in names}
    ahead = {a: {b: 0.0 for b in names if b != a} for a in names}
    shared = {a: {b: 0 for b in names if b != a} for a in names}
    no_winner = 0
    for game in ordered:
        order = orders[game.seating]
        if game.winner is None:
            no_winner += 1
        for seat, name in enumerate(order):
            bot = figures[name]
            bot.games += 1
            bot.wins += game.winner == seat
            bot.points += game.points[seat]
            bot.length += game.length
            bot.decisions += game.decisions[seat]
            bot.seconds += game.seconds[seat]
        present = distinct(order)
        winner = order[game.winner] if game.winner is not None else None
        for a, b in itertools.permutations(present, 2):
            shared[a][b] += 1
            ahead[a][b] += 1.0 if winner == a else 0.5 if winner != b else 0.0
    pairwise = {a: {b: round(ahead[a][b] / shared[a][b], 6) for b in ahead[a] if shared[a][b]} for a in names}
    if len(names) > 1:
        for name, rating in rate(names, orders, ordered).items():
            figures[name].rating = rating
    return TournamentResult(plan, list(figures.values()), pairwise, no_winner, seconds, ordered)


def rate(
    names: Sequence[str], orders: Sequence[Sequence[str]], games: Iterable[GameOutcome]
) -> dict[str, tuple[float, float]]:
    """openskill Plackett–Luce ratings: each game ranks the winner's bot first, the other bots tied after it."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for game in games:
        present = distinct(orders[game.seating])
        winner = orders[game.seating][game.winner] if game.winner is not None else None
        ranks = [0.0 if name == winner else 1.0 for name in present]
        if winner is None:
            continue
        teams = model.rate([[ratings[name]] for name in present], ranks=ranks)
        for name, team in zip(present, teams, strict=True):
            ratings[name] = team[0]
    return {name: (rating.mu, rating.sigma) for name, rating in ratings.items()}


def make_plan(
    rules: str,
    seats: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Options,
    time_limit: float | None = None,
) -> Plan:
    """A tournament's plan: ``games`` rounded up to whole deals (each deal played in every seating).

    Fewer bots than seats: the last one fills the remaining seats (``ismcts,heuristic``
    in four seats is one ``ismcts`` and three ``heuristic``).

    Raises:
        ValueError: unknown rules or bot, more bots than seats, fewer than one.
    """
    ruleset = find_rules(rules)
    names = list(bots)
    if not names:
        raise ValueError("a tournament needs at least one bot")
    if len(names) > seats:
        raise ValueError(f"{len(names)} bots for {seats} seats: give at most one bot a seat")
    for name in names:
        make_bot(name, random.Random(0))  # refuse an unknown bot or bad parameter before any game
    names += [names[-1]] * (seats - len(names))
    items = tuple(options.to_dict().items())
    plan = Plan(ruleset.name, seats, tuple(names), items, seed, 0, time_limit)
    per_deal = len(plan.orders)
    deals = -(-games // per_deal) if games > 0 else 0
    return Plan(ruleset.name, seats, tuple(names), items, seed, deals, time_limit)


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
) -> TournamentResult:
    """Play a tournament: in this process (``jobs=1``), in ``jobs`` processes, or through ``runner``.

    ``progress(n)`` is told of every ``n`` games finished. The figures are the same
    whatever ``jobs`` or ``runner`` (only the timings differ).

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
    return gather(plan, outcomes, time.perf_counter() - started)


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


def plot(result: TournamentResult, path: str) -> None:
    """Save a bar chart of the bots' win rates with their 95% intervals (matplotlib) at ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = [bot.to_json() for bot in result.bots]
    names = [bot["name"] for bot in bots]
    rates = [100 * bot["win_rate"] for bot in bots]
    errors = [
        [100 * (bot["win_rate"] - bot["ci_low"]) for bot in bots],
        [100 * (bot["ci_high"] - bot["win_rate"]) for bot in bots],
    ]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.4 * len(names) + 2), 3.6), dpi=120)
    axes.bar(names, rates, yerr=errors, capsize=6, color="#c0392b")
    axes.axhline(100 / result.plan.seats, color="#555555", linestyle="--", linewidth=1, label="par")
    axes.set_ylabel("win rate, % (95% Wilson)")
    plan = result.plan
    axes.set_title(f"{plan.rules}, {plan.seats} seats, {plan.games} games")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
