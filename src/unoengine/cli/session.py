"""The game of ``uno play`` without its screen: the person at seat 0, bots, the record file.

No Textual here: tests build a :class:`Session` from a parsed state and drive it
with :meth:`Session.act`, :meth:`Session.bot_turn` and :meth:`Session.bot_reaction`,
the only calls the app makes besides :meth:`Session.now`. Each returns a
:class:`Step`: seat 0's :class:`~unoengine.core.views.PlayerView` after it (built
once), the narrator's sentences (:mod:`unoengine.play.narrator`), a round's end
with its cards and points, and the statistics once the game is over. The app
reads nothing else of the game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from unoengine.bots.base import Bot, check_game, make_bot
from unoengine.bots.heuristic import HeuristicBot
from unoengine.bots.rng import seat_random
from unoengine.cli.files import read_text, write_text
from unoengine.cli.stats import StatsUpdate, record_game
from unoengine.core.actions import Action, Play, format_action, parse_action
from unoengine.core.cards import Card, Seat
from unoengine.core.engine import apply, new_game
from unoengine.core.events import RoundEnded
from unoengine.core.record import Record, format_record, parse_record, replay
from unoengine.core.rules import find_rules
from unoengine.core.state import ChallengeWindow, GameState
from unoengine.core.views import PlayerView, view_for
from unoengine.i18n import said, translate
from unoengine.play.narrator import Names, first_card, narrate
from unoengine.play.table import Table, TableStep

HUMAN: Seat = 0
"""The person always sits at seat 0."""

FORGET_UNO = 0.15
"""How often the heuristic bots forget to call UNO, so that they can be caught."""


def make_bots(names: Sequence[str], seats: int, seed: int, rules: str | None = None) -> dict[Seat, Bot]:
    """The bots of seats 1..N-1: one name for all, or one name per bot seat.

    ``heuristic`` bots forget UNO now and then (:data:`FORGET_UNO`). With ``rules``, a bot that cannot play
    that game (``ppo`` outside Classic heads-up) is refused now, not at its first move.

    Raises:
        ValueError: an unknown bot, a bot that cannot play the game, or a number of names that fits neither.
    """
    wanted = list(names) or ["heuristic"]
    if len(wanted) == 1:
        wanted *= seats - 1
    if len(wanted) != seats - 1:
        raise ValueError(f"{len(wanted)} bots named for {seats - 1} bot seats")
    bots: dict[Seat, Bot] = {}
    for seat, name in enumerate(wanted, start=1):
        rng = seat_random(seed, seat)
        bots[seat] = HeuristicBot(rng, forget_uno=FORGET_UNO) if name == "heuristic" else make_bot(name, rng)
        if rules is not None:
            check_game(bots[seat], rules, seats)
    return bots


class RoundEnd(NamedTuple):
    """A round's end as its summary shows it (R-11): the winner, the score changes, the cards left."""

    round: int
    winner: Seat | None
    deltas: tuple[int, ...]
    hands: tuple[tuple[tuple[Card, int], ...], ...]
    """Each seat's cards left, each with its points."""


class Step(NamedTuple):
    """What the person learns from one step of the game (or from :meth:`Session.now`)."""

    view: PlayerView
    """Seat 0's view after the step (G-2): the one thing the screen shows of the game."""
    lines: tuple[str, ...]
    """The log's sentences about the step (the narrator's)."""
    round_end: RoundEnd | None = None
    """The round the step ended, if it ended one."""
    save_error: str | None = None
    """Why the save after the step failed (the game goes on), or ``None``."""
    bluffs: frozenset[Action] = frozenset()
    """The person's legal plays now that would be a bluff if challenged (a Wild Draw Four while
    holding a playable colour: C-17, D-18, F-24), as the rule set judges them."""
    stats: StatsUpdate | None = None
    """The statistics with this game counted, once the step ended the game (and a file keeps them)."""


_EMPTY_ACTIONS = ', "actions": []}\n'
"""How :func:`~unoengine.core.record.format_record` ends a record without actions."""

FIRST = " the first card is "
"""How the narrator's first-card line reads (a resumed game's last lines may already hold it)."""


class Indented(str):
    """A log line of a resumed game, indented by two spaces, that is translated with its line."""

    line: str

    def __new__(cls, line: str) -> Indented:
        self = super().__new__(cls, f"  {line}")
        self.line = line
        return self

    def translated(self, lang: str) -> str:
        """The indented line in ``lang``."""
        return "  " + translate(self.line, lang)


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
        stats: Path | None = None,
    ) -> None:
        controllers: list[Bot | None] = [bots.get(seat) for seat in range(start.seats)]
        controllers[HUMAN] = None
        parsed = [(seat, parse_action(text)) for seat, text in actions]
        self.table = Table(state, controllers, start=start, actions=parsed)
        self.save = save
        self.deck = deck
        """The first round's deck, when the game was dealt from a given deck (a stacked record)."""
        self.stats = stats
        """The statistics file that counts this game once it ends (``None``: none kept)."""
        self.save_error: str | None = None
        """Why the last save failed (the game goes on), or None when the save file is up to date."""
        self.names = Names.bots(start.seats, HUMAN)
        """The seats as the person reads them: "You", "Bot 1", ..."""
        self._view = view_for(state, HUMAN)
        self._saved: list[str] = []
        """The record file's action lines written so far (each action is formatted once)."""

    def speak(self, lang: str) -> None:
        """Say the log's sentences in ``lang``: the bots' names in its words ("Bot 1" in English).

        The statistics keep the English names (:attr:`player_names`), whatever the language."""
        seats = len(self.names.seats)
        # TRANSLATORS: a bot's name in the terminal game ("Bot 1"); {number} is its seat number
        bots = (translate(said("Bot {number}", number=seat), lang) for seat in range(seats))
        self.names = Names(tuple(bots), HUMAN)

    @property
    def player_names(self) -> list[str]:
        """The seats' names in the statistics file: "You", "Bot 1", ... (in English in every language)."""
        english = Names.bots(len(self.names.seats), HUMAN)
        return [english.subject(seat) for seat in range(len(english.seats))]

    @property
    def start(self) -> GameState:
        """The game's first state."""
        return self.table.start

    @property
    def state(self) -> GameState:
        """The current state (for tests and the command; the app reads :class:`Step` views only)."""
        return self.table.state

    @property
    def seed(self) -> int:
        """The game's seed."""
        return self.table.start.seed

    @property
    def title(self) -> str:
        """The rule set's title (``UNO Duo``)."""
        return self.table.start.rules.title

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
        stats: Path | None = None,
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
        session = cls(start, start, make_bots(bots, seats, seed, ruleset.name), save=save, stats=stats)
        session.write()
        return session

    @classmethod
    def resume(
        cls, path: Path, *, bots: Sequence[str] = ("heuristic",), save: Path | None = None, stats: Path | None = None
    ) -> Session:
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
        bots_by_seat = make_bots(bots, start.seats, start.seed, start.rules.name)
        session = cls(start, state, bots_by_seat, list(record.actions), save, record.deck, stats)
        session.write()
        return session

    # -- the app's calls -----------------------------------------------------------------

    def now(self, recent: int = 0) -> Step:
        """The person's view now, with the log lines of the last ``recent`` actions (a resumed game's, indented)
        and the round's first card when no card has been played on it yet."""
        lines: list[str] = [Indented(line) for line in self.recent(recent)] if recent else []
        if not self.table.actions or (len(self._view.discard_pile) == 1 and not any(FIRST in line for line in lines)):
            # A new game's first card, or a resumed one's when no card has been played on it yet.
            line = first_card(self._view, self.names)
            lines += [line] if line is not None else []
        return Step(self._view, tuple(lines), bluffs=self._bluffs())

    def act(self, seat: Seat, action: Action | str) -> Step:
        """Apply an action (or its notation) of ``seat``; record it; say what it did.

        Raises:
            InvalidNotationError: the text is not an action.
            IllegalActionError: the rules refuse it (the state is unchanged).
        """
        return self._after(self.table.submit(seat, action))

    def bot_reaction(self) -> Step | None:
        """The bots react to an open UNO window (the table's reaction policy), or ``None``."""
        step = self.table.bot_reaction()
        return None if step is None else self._after(step)

    def bot_turn(self) -> Step | None:
        """The bot whose turn it is plays, or ``None`` when the seat to act is not a bot."""
        step = self.table.bot_turn()
        return None if step is None else self._after(step)

    # -- what a step says ----------------------------------------------------------------

    def _after(self, step: TableStep) -> Step:
        before, after = self._view, view_for(step.state, HUMAN)
        self._view = after
        self.keep_saved()
        lines = narrate(before, step.events, after, self.names, step.state.tables.cards)
        ended = [event for event in step.events if isinstance(event, RoundEnded)]
        stats = None
        if after.outcome is not None and before.outcome is None and self.stats is not None:
            stats = record_game(self.stats, after.rules, self.player_names, after.outcome)
        round_end = self._round_end(ended[-1]) if ended else None
        return Step(after, tuple(lines), round_end, self.save_error, self._bluffs(), stats)

    def _round_end(self, ended: RoundEnded) -> RoundEnd:
        tables = self.table.start.tables
        hands = tuple(tuple((tables.cards[card], tables.points[card]) for card in hand) for hand in ended.hands)
        return RoundEnd(ended.round, ended.winner, ended.deltas, hands)

    def _bluffs(self) -> frozenset[Action]:
        """The person's wild plays that would open a challenge they lose (the rule set's own test, C-17)."""
        view = self._view
        if view.to_act != HUMAN:
            return frozenset()
        state = self.table.state
        bluffs: set[Action] = set()
        for action in view.legal:
            if isinstance(action, Play) and action.card.is_wild:
                pending = apply(state, HUMAN, action).state.pending
                if isinstance(pending, ChallengeWindow) and pending.player == HUMAN and not pending.legal:
                    bluffs.add(action)
        return frozenset(bluffs)

    def recent(self, count: int = 5) -> list[str]:
        """The log lines of the last ``count`` actions so far (shown when a game is resumed)."""
        actions = self.table.actions
        split = max(0, len(actions) - count)
        state = self.start
        for seat, action in actions[:split]:
            state = apply(state, seat, action).state
        lines: list[str] = []
        for seat, action in actions[split:]:
            transition = apply(state, seat, action)
            before, after = view_for(state, HUMAN), view_for(transition.state, HUMAN)
            lines += narrate(before, transition.events, after, self.names, state.tables.cards)
            state = transition.state
        return lines

    # -- the record file -----------------------------------------------------------------

    def record(self) -> Record:
        """The game so far as a record (with its deck when it was dealt from a given one)."""
        return self.table.record(deck=self.deck if self.deck is not None else False)

    def record_text(self) -> str:
        """The record's text, as :func:`~unoengine.core.record.format_record` writes it.

        Each action is formatted once (the table keeps its notation, this its JSON
        line), so that a save after a move costs the new action plus one write.
        """
        record = self.record()
        empty = format_record(
            Record(record.rules, record.seats, record.seed, record.options, record.dealer, record.deck)
        )
        saved = self._saved
        saved += (json.dumps({"seat": seat, "action": text}) for seat, text in record.actions[len(saved) :])
        if not saved:
            return empty
        head = empty[: -len(_EMPTY_ACTIONS)]
        return head + ', "actions": [\n  ' + ",\n  ".join(saved) + "\n]}\n"

    def write(self) -> None:
        """Write the game record to the save file, if there is one, atomically (the old record or the new).

        Raises:
            FileRefusedError: the file cannot be written; it is left as it was.
        """
        if self.save is not None:
            write_text(self.save, self.record_text())

    def keep_saved(self) -> None:
        """Save after an action. A failed save does not stop the game: :attr:`save_error` says why."""
        try:
            self.write()
        except OSError as error:
            # TRANSLATORS: the record file could not be written; {error} is the system's reason (English)
            self.save_error = said("The game could not be saved: {error}", error=str(error))
        else:
            self.save_error = None

    def view_now(self) -> PlayerView:
        """Seat 0's view of the current state."""
        return self._view
