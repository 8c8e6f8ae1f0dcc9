"""The headless table: one game, its seats' controllers, versions and per-seat events.

A :class:`Table` holds a game's current state, its version (the number of
accepted actions), its record, one controller per seat (a bot, or ``None`` for
an external player: a person at a terminal or a remote client) and the
reaction policy of the out-of-turn windows (C-18's UNO catch). Every message
that leaves it for a seat is built by the core's :func:`~unoengine.view_for` and
:func:`~unoengine.redact`: :meth:`Table.view` and :meth:`TableStep.events_for`.

>>> from unoengine.bots import make_bot
>>> import random
>>> table = Table.new("classic", 2, seed=4, options={"single_round": True},
...                   controllers=[None, make_bot("random", random.Random(1))])
>>> table.version, table.waiting_for()   # seat 1 (a bot) plays first
(0, None)
>>> steps = table.run_bots()            # the bot plays until seat 0 must decide
>>> table.waiting_for()
0
>>> step = table.submit(0, table.legal(0)[-1], expected_version=table.version)
>>> step.version == table.version
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

from unoengine.bots.base import Bot, ask, bot_chose_illegal, bot_raised
from unoengine.core.actions import Action, format_action
from unoengine.core.cards import Seat
from unoengine.core.engine import apply_unchecked, checked_action, legal_actions, new_game
from unoengine.core.errors import GameTooLongError, excerpt
from unoengine.core.events import Event, event_to_json, redact
from unoengine.core.record import Record, record_of, replaying
from unoengine.core.rules.windows import Window
from unoengine.core.state import GameState, is_int
from unoengine.core.views import PlayerView, view_for

MAX_STEPS = 100_000
"""A safety cap on one game's actions for :meth:`Table.run_bots` and :meth:`Table.play_out`."""


class StaleVersionError(ValueError):
    """A command made against another version of the table than the current one."""

    def __init__(self, expected: object, current: int) -> None:
        super().__init__(f"stale version {excerpt(expected)}: the table is at version {current}")
        self.expected = expected
        self.current = current


class TableStep(NamedTuple):
    """One accepted action: the version it made, who took it, what happened."""

    version: int
    """The table's version after this step (1 for the game's first action)."""
    seat: Seat
    action: Action
    events: tuple[Event, ...]
    """Unredacted: never send these as they are; use :meth:`events_for`."""
    state: GameState
    """The state after the step."""

    def events_for(self, seat: Seat | None) -> tuple[Event, ...]:
        """The step's events as ``seat`` (``None``: a spectator) may see them (G-2)."""
        return tuple(redact(event, seat) for event in self.events)

    def to_json(self, seat: Seat | None) -> dict[str, Any]:
        """The step as ``seat`` may see it, in JSON form: version, seat, action and redacted events."""
        return {
            "v": self.version,
            "seat": self.seat,
            "action": format_action(self.action),
            "events": [event_to_json(event, self.state) for event in self.events_for(seat)],
        }


_make_step = tuple.__new__
"""Builds a :class:`TableStep` from its fields in C (the NamedTuple's ``__new__`` is Python code)."""


def _found_in(chosen: object, legal: tuple[Action, ...]) -> Action | None:
    """The action of ``legal`` that ``chosen`` is (by identity first: bots return the interned actions they were
    given), or ``None``: what a bot returned is checked as an ``object``, so that a bot returning anything at
    all (``None``, a string) is reported as choosing it, in both builds."""
    for action in legal:
        if action is chosen:
            return action
    for action in legal:
        if action == chosen:
            return action
    return None


def open_window(state: GameState) -> Window | None:
    """The out-of-turn window open now (the game's ``windows``: C-18's UNO window, H-3's jump-in …), or ``None``.

    While one is, seats other than the one to act may have legal actions
    (:func:`~unoengine.legal_actions` lists them: ``uno``, ``catch N``, jump-in plays).
    """
    if state.outcome is not None:
        return None
    for window in state.game.windows:
        if window.is_open(state):
            return window
    return None


def window_open(state: GameState) -> bool:
    """Is an out-of-turn window open (:func:`open_window`)?"""
    return open_window(state) is not None


def reaction_order(state: GameState) -> list[Seat]:
    """Who is offered the open out-of-turn window, in order (the window's own ``order``).

    C-18: the other seats first, in turn order from the seat to act (the seat to act
    itself first: it may catch), then the seat that forgot to call UNO; H-3: the
    other seats in turn order. Empty while no window is open. A seat offered the
    window answers from its own legal actions; the first that acts takes it.
    """
    window = open_window(state)
    return [] if window is None else window.order(state)


class Table:
    """One game at a table: state, version, record, controllers and per-seat fan-out.

    ``controllers[seat]`` is a bot or ``None`` (an external player who acts with
    :meth:`submit`). Bots act only when asked (:meth:`bot_step`,
    :meth:`run_bots`), so that the caller decides the pace.
    """

    def __init__(
        self,
        state: GameState,
        controllers: Sequence[Bot | None] | None = None,
        *,
        start: GameState | None = None,
        actions: Sequence[tuple[Seat, Action]] = (),
        history: int = 256,
        time_limit: float | None = None,
    ) -> None:
        if controllers is not None and len(controllers) != state.seats:
            raise ValueError(f"{len(controllers)} controllers for {state.seats} seats")
        self._state = state
        self._start = state if start is None else start
        self._actions: list[tuple[Seat, Action]] = list(actions)
        self._controllers: list[Bot | None] = list(controllers) if controllers is not None else [None] * state.seats
        self._history: deque[TableStep] = deque(maxlen=history)
        self._offered = -1
        """The version at which the open UNO window was last offered to the bots."""
        self._notation: list[tuple[Seat, str]] = []
        """The notation of the first actions, formatted once each, as :meth:`record` needs it."""
        self._heads: dict[object, Record] = {}
        """The record's set-up by ``deck`` argument, made (the game dealt again and checked) once."""
        self.time_limit = time_limit
        """Seconds a bot may take for one decision (``None``: no limit); past it a :class:`BotError`."""

    # -- construction ----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: object,
        seats: object,
        *,
        seed: object,
        options: Mapping[str, Any] | None = None,
        controllers: Sequence[Bot | None] | None = None,
        dealer: object = None,
        history: int = 256,
    ) -> Table:
        """A table at the start of a new game.

        Raises:
            InvalidNotationError: unknown rules or option, a bad seat count or dealer.
            ValueError: not one controller per seat.
        """
        state = new_game(rules, seats, seed=seed, options=options, dealer=dealer)
        return cls(state, controllers, history=history)

    @classmethod
    def from_record(
        cls, record: Record, controllers: Sequence[Bot | None] | None = None, *, history: int = 256
    ) -> Table:
        """A table that continues the game of a record (replayed and checked).

        The last ``history`` actions are replayed as steps with their events, so that
        :meth:`steps_since` can answer a client that reconnects after a restart.

        Raises:
            RecordError: the record's set-up is refused.
            ReplayError: one of its actions is refused.
        """
        table = cls(record.start(), controllers, history=history)
        for index, (seat, text) in enumerate(record.actions):
            with replaying(index, text):
                table.submit(seat, text)  # the history keeps the last ``history`` steps by itself
        return table

    # -- reading ----------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._state

    @property
    def start(self) -> GameState:
        """The game's first state."""
        return self._start

    @property
    def version(self) -> int:
        """The number of accepted actions (0 at the start)."""
        return len(self._actions)

    @property
    def actions(self) -> tuple[tuple[Seat, Action], ...]:
        """Every accepted action with its seat, oldest first."""
        return tuple(self._actions)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._state.outcome is not None

    @property
    def controllers(self) -> tuple[Bot | None, ...]:
        """Each seat's controller: a bot, or ``None`` for an external player."""
        return tuple(self._controllers)

    def set_controller(self, seat: object, controller: Bot | None) -> None:
        """Give ``seat`` to a bot (a dropped player's stand-in) or back to an external player.

        Raises:
            ValueError: no such seat.
        """
        if not is_int(seat) or not 0 <= seat < self._state.seats:
            raise ValueError(f"there is no seat {excerpt(seat)}")
        self._controllers[seat] = controller
        self._offered = -1

    def record(self, *, deck: bool | Sequence[str] = False) -> Record:
        """The game so far as a record (``unoengine-record/1``); ``deck``: write the first deck, or this given one.

        The set-up is made once (the check that the game was dealt from its seed deals
        it again) and each action is formatted once, so that a record after every move
        costs only the new actions.

        Raises:
            ValueError: the game was not dealt from its seed and no deck is given.
        """
        key: object = deck if isinstance(deck, bool) else tuple(deck)
        head = self._heads.get(key)
        if head is None:
            head = record_of(self._start, (), deck=deck)
            self._heads[key] = head
        notation = self._notation
        actions = self._actions
        for index in range(len(notation), len(actions)):
            seat, action = actions[index]
            notation.append((seat, format_action(action)))
        return Record(head.rules, head.seats, head.seed, head.options, head.dealer, head.deck, tuple(notation))

    def legal(self, seat: object) -> tuple[Action, ...]:
        """The seat's legal actions now (out-of-turn ones included)."""
        return legal_actions(self._state, seat)

    def view(self, seat: object) -> PlayerView:
        """What ``seat`` (``None``: a spectator) may see now: the core's view (G-2)."""
        return view_for(self._state, seat)

    def waiting_for(self) -> Seat | None:
        """The external seat whose decision the game waits for, or ``None``.

        ``None`` when the game is over, when a bot's step is due (:meth:`bot_step`
        would act), or when the seat to act is a bot.
        """
        state = self._state
        if state.outcome is not None or self._reaction_due() is not None:
            return None
        seat = state.to_act
        if seat is None or self._controllers[seat] is not None:
            return None
        return seat

    def bot_due(self) -> bool:
        """True when :meth:`bot_step` would act now (a bot's reaction or a bot's turn)."""
        state = self._state
        if state.outcome is not None:
            return False
        reaction = self._reaction_due()
        if reaction is not None:
            return True  # offered (a bot may still decline: then the turn follows)
        seat = state.to_act
        return seat is not None and self._controllers[seat] is not None

    def steps_since(self, version: object) -> list[TableStep] | None:
        """The steps after ``version``, oldest first; ``None`` when older than the kept history.

        Raises:
            ValueError: ``version`` is not an integer.
        """
        if not is_int(version):
            raise ValueError(f"a version is an integer, not {excerpt(version)}")
        if version >= self.version:
            return []
        missing = self.version - version
        if missing > len(self._history):
            return None
        return list(self._history)[-missing:]

    # -- acting -------------------------------------------------------------------------

    def submit(self, seat: object, action: object, expected_version: object = None) -> TableStep:
        """Apply an external player's action (checked like :func:`~unoengine.apply`).

        ``seat`` and ``action`` may be anything a client sent: whatever is not a seat
        and a legal action of it is refused with the errors below.

        Raises:
            InvalidNotationError: the text is not an action.
            StaleVersionError: ``expected_version`` is not the current version.
            IllegalActionError: not the seat's to take, or illegal (``.rule``, ``.reason``).
        """
        if expected_version is not None and expected_version != self.version:
            raise StaleVersionError(expected_version, self.version)
        # one parse, one check and one pass of the rules that also records the events
        legal = checked_action(self._state, seat, action)
        return self._bot_apply(self._state, cast(Seat, seat), legal)  # checked: the seat is a seat

    def bot_step(self) -> TableStep | None:
        """One action by a bot, or ``None`` when no bot has anything to do now.

        While a seat can be caught for UNO (C-18), the reacting bots are offered
        the window once (:meth:`bot_reaction`); then the seat to act plays if its
        controller is a bot (:meth:`bot_turn`).

        Raises:
            IllegalActionError: a bot chose an action that is not legal.
        """
        if not window_open(self._state):  # no out-of-turn window: only a bot's turn can be due
            return self.bot_turn()
        step = self.bot_reaction()
        return step if step is not None else self.bot_turn()

    def bot_reaction(self) -> TableStep | None:
        """Offer the open UNO window (C-18) to the reacting bots, once per version, in
        :func:`reaction_order`; the first that acts (``catch N`` or ``uno``) takes it.

        Raises:
            IllegalActionError: a bot chose an action that is not legal.
        """
        state = self._state
        reaction = self._reaction_due() if state.outcome is None else None
        if reaction is None:
            return None
        self._offered = self.version
        for reactor in reaction:
            bot = self._controllers[reactor]
            assert bot is not None
            legal = legal_actions(state, reactor)
            chosen = ask(
                bot,
                reactor,
                "react",
                state.steps,
                view_for(state, reactor),
                legal,
                react=True,
                time_limit=self.time_limit,
            )
            if chosen is not None:
                return self._bot_apply(state, reactor, chosen)
        return None

    def bot_turn(self) -> TableStep | None:
        """The seat to act plays, if its controller is a bot (else ``None``).

        Raises:
            IllegalActionError: the bot chose an action that is not legal.
        """
        state = self._state
        seat = state.to_act
        if seat is None:
            return None
        bot = self._controllers[seat]
        if bot is None:
            return None
        legal = legal_actions(state, seat)
        view = view_for(state, seat) if bot.needs_view else None
        chosen = ask(bot, seat, state.pending.kind, state.steps, view, legal, time_limit=self.time_limit)
        assert chosen is not None
        return self._bot_apply(state, seat, chosen)

    def run_bots(self, max_steps: int = MAX_STEPS) -> list[TableStep]:
        """Let the bots act until an external seat must decide or the game ends.

        Raises:
            GameTooLongError: more than ``max_steps`` bot actions.
        """
        steps: list[TableStep] = []
        while (step := self.bot_step()) is not None:
            steps.append(step)
            if len(steps) > max_steps:
                raise GameTooLongError(f"game of seed {self._state.seed} passed {max_steps} bot actions")
        return steps

    def play_out(self, max_steps: int = MAX_STEPS, *, keep_actions: bool = True) -> int:
        """Play a game whose every seat is a bot to its end; return the actions taken.

        The same policy as :meth:`run_bots` (the same game from the same bots),
        without building steps or events (a simulation's loop).
        ``keep_actions=False`` keeps no record either.

        Raises:
            ValueError: a seat has no bot.
            BotError: a bot raised, chose an illegal action or took too long; the
                table keeps the state before that decision.
            GameTooLongError: more than ``max_steps`` actions.
        """
        bots: list[Bot] = []
        for index, bot in enumerate(self._controllers):
            if bot is None:
                raise ValueError(f"seat {index} has no bot: play_out needs a bot in every seat")
            bots.append(bot)
        viewers = [bot.needs_view for bot in bots]
        reactive = [bot.reacts for bot in bots]
        any_reactive = any(reactive)
        limit = self.time_limit
        actions = self._actions
        state = self._state
        offered = self._offered == self.version
        taken = 0
        try:
            while state.outcome is None:
                if any_reactive and not offered and window_open(state):
                    offered = True
                    reaction: Action | None = None
                    for other in reaction_order(state):
                        if not reactive[other]:
                            continue
                        legal = legal_actions(state, other)
                        view = view_for(state, other)
                        reaction = ask(
                            bots[other], other, "react", state.steps, view, legal, react=True, time_limit=limit
                        )
                        if reaction is not None:
                            if keep_actions:
                                actions.append((other, reaction))
                            state = apply_unchecked(state, other, reaction)
                            taken += 1
                            offered = False
                            break
                    if reaction is not None:
                        continue
                seat = state.pending.seat
                assert seat is not None
                legal = legal_actions(state, seat)
                own = view_for(state, seat) if viewers[seat] else None
                chosen: Action | None
                if limit is None:  # ask's checks, without its call (the hot path of every simulation)
                    bot = bots[seat]
                    choose: Callable[[PlayerView | None, tuple[Action, ...]], object] = bot.choose
                    try:
                        returned = choose(own, legal)
                    except Exception as error:
                        raise bot_raised(bot, seat, state.pending.kind, state.steps, error) from error
                    chosen = _found_in(returned, legal)
                    if chosen is None:
                        raise bot_chose_illegal(bot, seat, state.pending.kind, state.steps, returned, legal)
                else:
                    chosen = ask(bots[seat], seat, state.pending.kind, state.steps, own, legal, time_limit=limit)
                assert chosen is not None
                if keep_actions:
                    actions.append((seat, chosen))
                state = apply_unchecked(state, seat, chosen)
                taken += 1
                offered = False
                if taken > max_steps:
                    raise GameTooLongError(f"game of seed {state.seed} passed {max_steps} actions")
        finally:
            self._state = state
            self._offered = self.version if offered else -1
        return taken

    # -- internals ---------------------------------------------------------------------

    def _reaction_due(self) -> list[Seat] | None:
        """The reacting bots to offer the open UNO window to, or ``None``."""
        if self._offered == self.version or not window_open(self._state):
            return None
        controllers = self._controllers
        seats = [seat for seat in reaction_order(self._state) if (bot := controllers[seat]) is not None and bot.reacts]
        return seats or None

    def _bot_apply(self, state: GameState, seat: Seat, action: Action) -> TableStep:
        """Apply a legal action in one pass of the rules that also records its events."""
        events: list[Event] = []
        after = apply_unchecked(state, seat, action, events)
        return self._accept(seat, action, after, tuple(events))

    def _accept(self, seat: Seat, action: Action, state: GameState, events: tuple[Event, ...]) -> TableStep:
        self._state = state
        self._actions.append((seat, action))
        step: TableStep = _make_step(TableStep, (len(self._actions), seat, action, events, state))
        self._history.append(step)
        return step
