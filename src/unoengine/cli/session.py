"""The game of ``uno play`` without its screen: the person at seat 0, bots, the record file.

No Textual here: tests build a :class:`Session` from a parsed state and drive it
with :meth:`Session.act`, :meth:`Session.bot_turn` and :meth:`Session.bot_reaction`
(the only calls the app makes), reading seat 0's :class:`~unoengine.core.views.PlayerView`
and the narrator's sentences (:mod:`unoengine.play.narrator`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unoengine.bots.base import Bot, make_bot
from unoengine.bots.heuristic import HeuristicBot
from unoengine.cli.files import read_text, write_text
from unoengine.core.actions import Action, format_action, parse_action
from unoengine.core.cards import Seat
from unoengine.core.engine import apply, new_game
from unoengine.core.events import Event
from unoengine.core.record import format_record, parse_record, replay
from unoengine.core.rules import find_rules
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView, view_for
from unoengine.play.narrator import Names, narrate
from unoengine.play.table import Table, TableStep

HUMAN: Seat = 0
"""The person always sits at seat 0."""

FORGET_UNO = 0.15
"""How often the heuristic bots forget to call UNO, so that they can be caught."""


def make_bots(names: Sequence[str], seats: int, seed: int) -> dict[Seat, Bot]:
    """The bots of seats 1..N-1: one name for all, or one name per bot seat.

    ``heuristic`` bots forget UNO now and then (:data:`FORGET_UNO`).

    Raises:
        ValueError: an unknown bot, or a number of names that fits neither.
    """
    wanted = list(names) or ["heuristic"]
    if len(wanted) == 1:
        wanted *= seats - 1
    if len(wanted) != seats - 1:
        raise ValueError(f"{len(wanted)} bots named for {seats - 1} bot seats")
    bots: dict[Seat, Bot] = {}
    for seat, name in enumerate(wanted, start=1):
        rng = random.Random(f"{seed}:bot:{seat}")
        bots[seat] = HeuristicBot(rng, forget_uno=FORGET_UNO) if name == "heuristic" else make_bot(name, rng)
    return bots


class Session:
    """A game between the person at seat 0 and bots, on a :class:`~unoengine.play.table.Table`, with its record."""

    def __init__(
        self,
        start: GameState,
        state: GameState,
        bots: dict[Seat, Bot],
        actions: Sequence[tuple[Seat, str]] = (),
        save: Path | None = None,
        deck: tuple[str, ...] | None = None,
    ) -> None:
        controllers: list[Bot | None] = [bots.get(seat) for seat in range(start.seats)]
        controllers[HUMAN] = None
        parsed = [(seat, parse_action(text)) for seat, text in actions]
        self.table = Table(state, controllers, start=start, actions=parsed)
        self.save = save
        self.deck = deck
        """The first round's deck, when the game was dealt from a given deck (a stacked record)."""
        self.previous: GameState | None = None
        """The state before the last action."""
        self.save_error: str | None = None
        """Why the last save failed (the game goes on), or None when the save file is up to date."""

    @property
    def start(self) -> GameState:
        """The game's first state."""
        return self.table.start

    @property
    def state(self) -> GameState:
        """The current state."""
        return self.table.state

    @property
    def bots(self) -> dict[Seat, Bot]:
        """The bots by seat (a copy: :meth:`seat_bot` changes one)."""
        return {seat: bot for seat, bot in enumerate(self.table.controllers) if bot is not None}

    def seat_bot(self, seat: Seat, bot: Bot) -> None:
        """Give ``seat`` (not the person's) to ``bot`` at the table."""
        if seat == HUMAN:
            raise ValueError("seat 0 is the person's")
        self.table.set_controller(seat, bot)

    @property
    def actions(self) -> list[tuple[Seat, str]]:
        """Every action so far with its seat, in notation."""
        return [(seat, format_action(action)) for seat, action in self.table.actions]

    @classmethod
    def new(
        cls,
        rules: str = "classic",
        seats: int | None = None,
        *,
        bots: Sequence[str] = ("heuristic",),
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        save: Path | None = None,
    ) -> Session:
        """A new game.

        Raises:
            InvalidNotationError: unknown rules or option, or a bad seat count.
            ValueError: unknown bots.
            FileRefusedError: ``save`` cannot be written.
        """
        ruleset = find_rules(rules)
        if seats is None:
            seats = 4 if 4 in ruleset.seats else ruleset.seats.start
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        start = new_game(ruleset, seats, seed=seed, options=options)
        session = cls(start, start, make_bots(bots, seats, seed), save=save)
        session.write()
        return session

    @classmethod
    def resume(cls, path: Path, *, bots: Sequence[str] = ("heuristic",), save: Path | None = None) -> Session:
        """Continue the game of a record; seat 0 is the person.

        Raises:
            FileRefusedError: ``path`` cannot be read (not a regular file, over
                16 MiB, not UTF-8), or ``save`` cannot be written.
            RecordError, ReplayError: the record cannot be replayed.
            ValueError: unknown bots.
        """
        record = parse_record(read_text(path))
        start = record.start()
        state = replay(record)
        session = cls(start, state, make_bots(bots, start.seats, start.seed), list(record.actions), save, record.deck)
        session.write()
        return session

    @property
    def names(self) -> list[str]:
        """The seats' names: "You", "Bot 1", ..."""
        return ["You" if seat == HUMAN else f"Bot {seat}" for seat in range(self.state.seats)]

    def object_name(self, seat: Seat) -> str:
        """A seat's name inside a sentence: "you", "Bot 1", ..."""
        return "you" if seat == HUMAN else f"Bot {seat}"

    @property
    def object_names(self) -> list[str]:
        """The seats' names inside a sentence: "you", "Bot 1", ..."""
        return [self.object_name(seat) for seat in range(self.state.seats)]

    def act(self, seat: Seat, action: Action | str) -> tuple[Event, ...]:
        """Apply an action (or its notation) of ``seat``; record it; return its events.

        Raises:
            InvalidNotationError: the text is not an action.
            IllegalActionError: the rules refuse it (the state is unchanged).
        """
        before = self.state
        step = self.table.submit(seat, action)
        return self._after(before, step)

    def bot_reaction(self) -> tuple[Event, ...] | None:
        """The bots react to an open UNO window (the table's reaction policy), or ``None``."""
        before = self.state
        step = self.table.bot_reaction()
        return None if step is None else self._after(before, step)

    def bot_turn(self) -> tuple[Event, ...] | None:
        """The bot whose turn it is plays, or ``None`` when the seat to act is not a bot."""
        before = self.state
        step = self.table.bot_turn()
        return None if step is None else self._after(before, step)

    def _after(self, before: GameState, step: TableStep) -> tuple[Event, ...]:
        self.previous = before
        self.keep_saved()
        return step.events

    @property
    def narrator_names(self) -> Names:
        """The seats as the person reads them: "You", "Bot 1", ..."""
        return Names.bots(self.state.seats, HUMAN)

    def lines(self, events: Sequence[Event]) -> list[str]:
        """The narrator's sentences for the person about the last step (its events)."""
        before = None if self.previous is None else view_for(self.previous, HUMAN)
        return narrate(before, events, self.view_now(), self.narrator_names, self.state.tables.cards)

    def recent(self, count: int = 5) -> list[str]:
        """The log lines of the last ``count`` actions so far (shown when a game is resumed)."""
        actions = self.table.actions
        split = max(0, len(actions) - count)
        state = self.start
        for seat, action in actions[:split]:
            state = apply(state, seat, action).state
        names, lines = self.narrator_names, []
        for seat, action in actions[split:]:
            transition = apply(state, seat, action)
            before, after = view_for(state, HUMAN), view_for(transition.state, HUMAN)
            lines += narrate(before, transition.events, after, names, state.tables.cards)
            state = transition.state
        return lines

    def write(self) -> None:
        """Write the game record to the save file, if there is one, atomically (the old record or the new).

        Raises:
            FileRefusedError: the file cannot be written; it is left as it was.
        """
        if self.save is not None:
            deck: Sequence[str] | bool = self.deck if self.deck is not None else False
            write_text(self.save, format_record(self.table.record(deck=deck)))

    def keep_saved(self) -> None:
        """Save after an action. A failed save does not stop the game: :attr:`save_error` says why."""
        try:
            self.write()
        except OSError as error:
            self.save_error = f"The game could not be saved: {error}"
        else:
            self.save_error = None

    def view_now(self) -> PlayerView:
        """Seat 0's view of the current state."""
        return view_for(self.state, HUMAN)
