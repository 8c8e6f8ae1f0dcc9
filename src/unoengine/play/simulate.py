"""Complete games between bots: the engine behind ``uno simulate`` and the benchmarks.

The batch path: :func:`play_games` plays many games of any bots (by spec) and
returns each game's winner, scores and length; :func:`rollout` plays one game
from a state to its end; :func:`simulate` plays a batch and gathers the figures
of ``uno simulate``. None of them builds what nobody reads: a bot gets a view
only when it needs one (``needs_view``: ``random`` and ``uniform`` choose from
the legal actions alone), no event is built, and no record is kept unless asked
(:func:`play_game` with ``keep_actions``). Bots see only views and legal
actions. Games run on the headless :class:`~unoengine.play.table.Table`
(:meth:`~unoengine.play.table.Table.play_out`), whose reaction policy offers the
UNO window to the bots that react (catchers first, in turn order from the seat
to act, then the seat that forgot).

Game ``g`` of a batch is the game of its seed: ``new_game(rules, seats,
seed=seed)``, seat ``k``'s bot drawing from ``seat_random(seed, k)`` (a
:class:`~unoengine.bots.rng.BotRandom` keyed by ``f"{seed}:bot:{k}"``); so the
same seeds give the same games whichever entry point plays them.

>>> [(game.seed, game.winner, game.steps) for game in play_games("duo", [1, 2], "random")]
[(1, 1, 72), (2, 1, 115)]
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unoengine.bots.base import Bot, bot_factory
from unoengine.bots.rng import BotRandom, seat_key, seat_random
from unoengine.core.actions import Action
from unoengine.core.cards import Seat
from unoengine.core.engine import new_game
from unoengine.core.options import parse_options
from unoengine.core.record import format_record, record_of
from unoengine.core.rules import Options, RuleSet, find_rules
from unoengine.core.state import GameState
from unoengine.play.table import Table

MAX_STEPS = 100_000
"""A safety cap on one game's actions (uniform play on Classic averages a few thousand)."""

BotSpec = str | Callable[[random.Random], Bot]
"""A seat's bot in a batch: a bot spec (``"random"``, ``"ismcts:iterations=40"``, ``"mypkg:Bot"``)
or a function making a bot from its seeded generator."""


@dataclass(slots=True)
class GameResult:
    """One finished game: its final state, its actions (when kept) and its length."""

    state: GameState
    steps: int
    actions: list[tuple[Seat, Action]] | None


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    *,
    keep_actions: bool = False,
    max_steps: int = MAX_STEPS,
) -> GameResult:
    """Play from ``state`` until the game is over, each seat's bot choosing (on a :class:`Table`).

    Raises:
        GameTooLongError: more than ``max_steps`` actions.
        BotError: a bot raised, chose an illegal action or took too long.
    """
    table = Table(state, bots)
    steps = table.play_out(max_steps, keep_actions=keep_actions)
    return GameResult(table.state, steps, list(table.actions) if keep_actions else None)


def rollout(state: GameState, bots: Sequence[Bot], *, max_steps: int = MAX_STEPS) -> GameResult:
    """Play one game from ``state`` to its end on the batch path: no record, no events, views only where needed.

    What a search rollout or a simulation needs: the result's ``state`` is the
    final state (``state.outcome``), ``steps`` the actions taken.

    Raises:
        GameTooLongError: more than ``max_steps`` actions.
        BotError: a bot raised, chose an illegal action or took too long.
    """
    return play_game(state, bots, max_steps=max_steps)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game of :func:`play_games`: its seed, winner, scores and length."""

    seed: int
    winner: Seat | None
    """The winner (``None``: a blocked game without one, G-6)."""
    scores: tuple[int, ...]
    """The points: each seat's score at the end (:attr:`Outcome.scores <unoengine.Outcome>`; in Duo
    the loser scores the cards left in their hand, D-19)."""
    steps: int
    """Actions applied."""
    rounds: int
    """Rounds played (1 unless ``match``)."""


@dataclass(frozen=True, slots=True)
class _Batch:
    """A batch's set-up, resolved once: the rule set, seats, options and a bot maker per seat."""

    ruleset: RuleSet
    seats: int
    options: Options
    names: list[str]
    makers: list[Callable[[random.Random], Bot]]

    def games(
        self, seeds: Iterable[int], *, keep_actions: bool = False, max_steps: int = MAX_STEPS
    ) -> Iterator[tuple[int, GameState, GameResult]]:
        """Play the game of every seed: ``(seed, first state, result)``.

        Each seat's generator is made once for the batch and keyed anew for every
        game (``rng.seed(key)`` leaves it as ``seat_random(seed, seat)`` makes it):
        a fresh bot per game draws the same numbers as with a fresh generator,
        without a ``random.Random`` made and freed per seat and game.
        """
        rngs: list[BotRandom] = []
        for seed in seeds:
            if rngs:
                for seat, rng in enumerate(rngs):
                    rng.seed(seat_key(seed, seat))
            else:
                rngs = [seat_random(seed, seat) for seat in range(self.seats)]
            bots = [make(rng) for make, rng in zip(self.makers, rngs, strict=True)]
            start = new_game(self.ruleset, self.seats, seed=seed, options=self.options)
            yield seed, start, play_game(start, bots, keep_actions=keep_actions, max_steps=max_steps)


@functools.lru_cache(maxsize=64)
def _options(ruleset: RuleSet, given: tuple[tuple[str, Any], ...], preset: str | None) -> Options:
    """``parse_options`` kept per rule set, options given and preset: a batch of a few games (a search's rollouts,
    a benchmark's slices) resolved them again on every call."""
    return parse_options(ruleset, dict(given), preset=preset)


def _batch(
    rules: str | RuleSet,
    seats: int | None,
    bots: BotSpec | Sequence[BotSpec],
    options: Mapping[str, Any] | Options | None,
    preset: str | None,
    match: bool,
) -> _Batch:
    ruleset = rules if isinstance(rules, RuleSet) else find_rules(rules)
    specs: list[BotSpec] = [bots] if isinstance(bots, str) or callable(bots) else list(bots)
    if seats is None:
        seats = len(specs) if len(specs) > 1 else 4 if 4 in ruleset.seats else ruleset.seats.start
    if len(specs) == 1:
        specs = specs * seats
    if len(specs) != seats:
        raise ValueError(f"{len(specs)} bots for {seats} seats")
    if isinstance(options, Options):
        resolved = options
    else:
        given = dict(options or {})
        given.setdefault("single_round", not match)
        try:
            resolved = _options(ruleset, tuple(given.items()), preset)
        except TypeError:  # a value that is not hashable: resolved without the cache (and refused, if it is bad)
            resolved = parse_options(ruleset, given, preset=preset)
    makers = [bot_factory(spec) if isinstance(spec, str) else spec for spec in specs]
    names = [spec if isinstance(spec, str) else getattr(spec, "__name__", "bot") for spec in specs]
    return _Batch(ruleset, seats, resolved, names, makers)


def play_games(
    rules: str | RuleSet,
    seeds: Iterable[int],
    bots: BotSpec | Sequence[BotSpec],
    *,
    seats: int | None = None,
    options: Mapping[str, Any] | Options | None = None,
    preset: str | None = None,
    match: bool = False,
    max_steps: int = MAX_STEPS,
) -> list[GameSummary]:
    """Play the game of every seed between bots, on the batch path; one :class:`GameSummary` each.

    ``bots``: one bot for every seat or one per seat, each a spec or a maker
    (:data:`BotSpec`). ``seats``: by default the number of bots given, or (one
    bot) 4 where the rule set allows 4, else its smallest count. ``options`` and
    ``preset`` as for :func:`simulate`; without ``match`` each game is one round.
    The games are those of :func:`simulate` for the same seeds (and of a
    :class:`Table` given the same bots).

    Raises:
        ValueError: unknown rules, bot or option, or a bad seat count.
        GameTooLongError: a game passed ``max_steps`` actions.
        BotError: a bot raised, chose an illegal action or took too long.
    """
    batch = _batch(rules, seats, bots, options, preset, match)
    out: list[GameSummary] = []
    for seed, _, result in batch.games(seeds, max_steps=max_steps):
        final = result.state.outcome
        assert final is not None
        out.append(GameSummary(seed, final.winner, tuple(final.scores), result.steps, result.state.round))
    return out


@dataclass(slots=True)
class SimulationResult:
    """Figures of a batch of games."""

    rules: str
    seats: int
    bots: list[str]
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    wins: list[int] = field(default_factory=list)
    """Games won by each seat: with teams (H-11) a game counts for both partners of the winner's team."""
    no_winner: int = 0
    lengths: list[int] = field(default_factory=list)
    rounds: int = 0

    @property
    def games_per_s(self) -> float:
        """Games per second of wall time."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def steps_per_s(self) -> float:
        """Actions applied per second of wall time."""
        return self.steps / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as one JSON-ready object (``uno simulate --json``)."""
        return {
            "rules": self.rules,
            "seats": self.seats,
            "bots": self.bots,
            "games": self.games,
            "rounds": self.rounds,
            "steps": self.steps,
            "seconds": round(self.seconds, 4),
            "games_per_s": round(self.games_per_s, 2),
            "steps_per_s": round(self.steps_per_s, 1),
            "wins": self.wins,
            "no_winner": self.no_winner,
            "mean_length": round(statistics.fmean(self.lengths), 2) if self.lengths else 0.0,
            "median_length": statistics.median(self.lengths) if self.lengths else 0,
        }


def simulate(
    rules: str = "classic",
    seats: int = 4,
    games: int = 1000,
    bot: str | Sequence[str] = "random",
    seed: int = 0,
    *,
    options: Mapping[str, Any] | Options | None = None,
    preset: str | None = None,
    match: bool = False,
    records: Path | None = None,
    progress: Callable[[int], None] | None = None,
    write_record: Callable[[Path, str], object] = Path.write_text,
) -> SimulationResult:
    """Play ``games`` games between bots and measure them.

    Game ``g`` uses seed ``seed + g``; its bots draw from their own seeded
    generators, so a batch is reproducible. Without ``match`` each game is one
    round (``single_round``); with it, whole games to the target score.
    ``options``: typed values or text (``{"stack_draw": "mixed"}``), after the
    ``preset`` (:data:`unoengine.PRESETS`); resolved ``Options`` are used as they are.
    ``records``: a folder where every game is saved as a record (with its deck),
    through ``write_record(path, text)`` (the CLI passes its atomic writer).

    Raises:
        ValueError: unknown rules, bot or option, or a bad seat count.
    """
    batch = _batch(rules, seats, bot, options, preset, match)
    ruleset = batch.ruleset
    result = SimulationResult(ruleset.name, seats, batch.names, wins=[0] * seats)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for game_seed, start, outcome in batch.games(range(seed, seed + games), keep_actions=records is not None):
        result.games += 1
        result.steps += outcome.steps
        result.lengths.append(outcome.steps)
        result.rounds += outcome.state.round
        final = outcome.state.outcome
        assert final is not None
        if final.winner is None:
            result.no_winner += 1
        else:
            for seat in outcome.state.game.allies[final.winner]:  # the winner's team wins (H-11), or it alone
                result.wins[seat] += 1
        if records is not None and outcome.actions is not None:
            record = record_of(start, outcome.actions, deck=True)
            write_record(records / f"{ruleset.name}-{game_seed}.json", format_record(record))
        if progress is not None:
            progress(1)
    result.seconds = time.perf_counter() - started
    return result
