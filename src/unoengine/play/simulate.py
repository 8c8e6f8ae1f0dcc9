"""Complete games between bots: the engine behind ``uno simulate`` and the benchmarks.

:func:`play_game` plays one game (or one round) and returns its final state and
actions; :func:`simulate` plays many and gathers figures. Bots see only views and
legal actions. Games run on the headless
:class:`~unoengine.play.table.Table`, whose reaction policy offers the UNO
window to the bots that react (catchers first, in turn order from the seat to
act, then the seat that forgot).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unoengine.bots.base import Bot, make_bot
from unoengine.core.actions import Action
from unoengine.core.cards import Seat
from unoengine.core.engine import new_game
from unoengine.core.options import parse_options
from unoengine.core.record import format_record, record_of
from unoengine.core.rules import Options, find_rules
from unoengine.core.state import GameState
from unoengine.play.table import Table

MAX_STEPS = 100_000
"""A safety cap on one game's actions (uniform play on Classic averages a few thousand)."""


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
        IllegalActionError: a bot chose an action that is not legal.
    """
    table = Table(state, bots)
    steps = table.play_out(max_steps, keep_actions=keep_actions)
    return GameResult(table.state, steps, list(table.actions) if keep_actions else None)


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
    ruleset = find_rules(rules)
    if isinstance(options, Options):
        resolved = options
    else:
        given = dict(options or {})
        given.setdefault("single_round", not match)
        resolved = parse_options(ruleset, given, preset=preset)
    names = [bot] * seats if isinstance(bot, str) else list(bot)
    if len(names) != seats:
        raise ValueError(f"{len(names)} bots for {seats} seats")
    result = SimulationResult(ruleset.name, seats, names, wins=[0] * seats)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for game in range(games):
        game_seed = seed + game
        bots = [make_bot(name, random.Random(f"{game_seed}:bot:{seat}")) for seat, name in enumerate(names)]
        start = new_game(ruleset, seats, seed=game_seed, options=resolved)
        outcome = play_game(start, bots, keep_actions=records is not None)
        result.games += 1
        result.steps += outcome.steps
        result.lengths.append(outcome.steps)
        result.rounds += outcome.state.round
        final = outcome.state.outcome
        assert final is not None
        if final.winner is None:
            result.no_winner += 1
        else:
            result.wins[final.winner] += 1
        if records is not None and outcome.actions is not None:
            record = record_of(start, outcome.actions, deck=True)
            write_record(records / f"{ruleset.name}-{game_seed}.json", format_record(record))
        if progress is not None:
            progress(1)
    result.seconds = time.perf_counter() - started
    return result
