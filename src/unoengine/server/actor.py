"""One sequential actor per table: every command of a table runs in its own asyncio task, in order.

A command is one of the protocol's messages (:mod:`unoengine.server.protocol`)
from a client, or one of the actor's own (a bot's step is due, a timer ran out,
another worker wrote the table). :meth:`TableActor._handle` matches on its type.

The pipeline of an ``act`` (DESIGN.md, "Server"): authenticate the seat; the
table is live; the seat may act; the version is current and the action legal
(the core's :class:`~unoengine.play.table.Table` decides both); then apply,
persist (committed to the store) and broadcast. Every refused command is
answered with an ``error`` and a ``sync`` to that client only
(:meth:`TableActor.refuse`); nothing changes.

Every message to a client goes through :meth:`TableActor.send`, and every game
message is built from ``table.view(seat)`` or ``TableStep.to_json(seat)`` and the
narrator's sentences for that seat: the server never strips a full state.

Fair to people: bots do not react (catch, call UNO, jump in) before the people's
reaction time (``ServerConfig.react_delay``) has passed while a connected person
could react too, and the next round waits until every connected person is
``ready`` (or ``ServerConfig.round_wait`` seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

from unoengine.bots.base import Bot, game_refusal, make_bot
from unoengine.core.action_words import action_type, past_words
from unoengine.core.actions import format_action
from unoengine.core.engine import apply
from unoengine.core.errors import IllegalActionError, InvalidNotationError, excerpt
from unoengine.core.events import RoundEnded
from unoengine.core.record import Record, format_record
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView, view_for, view_to_json
from unoengine.play.narrator import Names, first_card, narrate
from unoengine.play.table import StaleVersionError, Table, TableStep, window_open
from unoengine.server import auth, lobby
from unoengine.server.metrics import Metrics
from unoengine.server.presence import Attendance
from unoengine.server.protocol import (
    Act,
    Again,
    Chat,
    ClientMessage,
    Handover,
    Hello,
    Kick,
    Leave,
    ProtocolError,
    Ready,
    Replace,
    Start,
    Sync,
    dumps,
)
from unoengine.server.store import ChatRow, GameRow, SeatRow, SeatTaken, Store, TableRow, VersionConflict

Message = dict[str, Any]
Tap = Callable[[str, "Client", Message], None]
"""Sees every message sent, before it is written: (table code, client, message)."""

STAND_IN = "heuristic"
"""The bot that plays a dropped player's seat, a seat given up, or a decision whose turn timer ran out."""
CHAT_HISTORY = 50
OUTBOX = 4096
"""Messages queued for one client before it is dropped as too slow (it resyncs when it comes back)."""
REPLAY_LIMIT = 5000
"""The most steps a catch-up rebuilds from the game's record (beyond the kept history); older asks get a view."""
MIN_ROUND_WAIT = 10.0


class Outlet(Protocol):
    """Where a client's messages go (a WebSocket, or a list in tests)."""

    def push(self, text: str) -> bool:
        """Queue one message; ``False`` when the client cannot keep up."""
        ...

    def drop(self, reason: str) -> None:
        """Close the connection."""
        ...


@dataclass(eq=False)
class Client:
    """One connection to a table: a seat (after a ``hello`` with its token) or a spectator."""

    outlet: Outlet
    seat: int | None = None
    spectator: bool = True
    sent: int = 0


REACT_DELAY: Final = 3.0
"""The default people's reaction time (``uno serve --react-delay``), in seconds.

Nobody here measured people; the figure comes from published ones and the testers' own clicks.
To jump in, a person sees the card (simple visual reaction, about 0.25 s), recognises a card of
the hand that matches it (choice reaction with recognition, 0.5-0.8 s), then moves to its button
and taps it (Fitts's law on a phone, 0.5-1 s): 1.25-2.05 s, before the message's trip to the
server. The testers' clicks came 1.0-1.8 s after the window opened, and 4 of 14 missed the old
2.0 s window. 3.0 s lets the slowest observed click (1.8 s) in with 1.2 s to spare for a slower
hand or network; bots among themselves stay fast (``bot_delay``), and only a window a connected
person could use waits.
"""


def bot_name(seat: int) -> str:
    """A bot's name: the seat as people count it, from 1 ("Bot 2" sits in the page's second seat, seat 1)."""
    return f"Bot {seat + 1}"


@dataclass(slots=True)
class ServerConfig:
    """Server-wide knobs."""

    bot_delay: float = 0.6
    """Seconds a bot waits before it acts (0 in tests and the load benchmark)."""
    react_delay: float = REACT_DELAY
    """The people's reaction time: while a connected person could act out of turn (catch a seat
    that did not call UNO, call UNO before being caught, jump in), no bot reacts (catches, calls
    UNO, jumps in) until this many seconds after the window opened. Bots among themselves stay fast.
    Why 3 s by default: see :data:`REACT_DELAY`."""
    round_wait: float = 15.0
    """Seconds the next round waits at most for every connected person's ``ready`` (0: it does not
    wait, for tests and benchmarks; else at least 10)."""
    history: int = 256
    """Steps kept per table for reconnects ("events since N"); older ones are rebuilt from the record."""
    message_rate: float = 20.0
    """Messages a second one connection may send (bursts of ``message_burst``); more are refused."""
    message_burst: float = 60.0
    http_rate: float = 5.0
    """Table creations and joins a second from one address (bursts of ``http_burst``)."""
    http_burst: float = 50.0
    idle_seconds: float = 600.0
    """A table nobody is connected to and nothing happened at for this long leaves memory (0: never).

    It stays in the store: the next message for it loads it again, its game where it was.
    """
    cluster: dict[str, float] = field(default_factory=dict)
    """With PostgreSQL: ``poll_seconds`` (the periodic read, 3) and ``lease_seconds`` (a lease's life, 10)."""
    gc_freeze_seconds: float = 10.0
    """How often the server moves what has survived into the collector's permanent generation (0: never).

    A full collection of CPython's cyclic garbage collector walks every tracked
    object; with a thousand tables' states that is a pause of a few hundred
    milliseconds, the whole of the latency's tail. Game states are acyclic values
    freed by reference counting, so the server collects the young generations and
    then freezes what is left at this interval: full collections then walk only
    what came since.
    """

    def __post_init__(self) -> None:
        # A delay of nan or inf would stop every timer of the event loop (the bots, and shutdown itself).
        numbers = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "cluster"}
        for name, value in (*numbers.items(), *((f"cluster[{key!r}]", v) for key, v in self.cluster.items())):
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise ValueError(f"ServerConfig.{name} must be a finite number of at least 0, not {excerpt(value)}")
        if 0 < self.round_wait < MIN_ROUND_WAIT:
            raise ValueError(f"ServerConfig.round_wait is 0 (no wait) or at least {MIN_ROUND_WAIT:g} seconds")


# -- the actor's own commands (the clients' are the protocol's messages) -------------------


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's step is due at ``stamp`` (game, version)."""

    stamp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TurnTimeout:
    """The turn timer of ``stamp`` ran out: the stand-in takes that decision."""

    stamp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundWaitOver:
    """The wait for the people's ``ready`` after the round of ``stamp`` ran out."""

    stamp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GraceOver:
    seat: int


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The client's connection closed."""


@dataclass(frozen=True, slots=True)
class Refresh:
    """Another worker wrote the table: ``hint`` (game, version) of its newest action, or a full re-read."""

    hint: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Wake:
    """This worker now drives the table's bots and timers (it took the lease)."""


@dataclass(frozen=True, slots=True)
class Join:
    """``POST /api/tables/{code}/join``: a person takes the first open seat."""

    name: str


@dataclass(frozen=True, slots=True)
class RecordOf:
    """``GET …/games/{n}/record``: a finished game's record."""

    number: int


Internal = BotTurn | TurnTimeout | RoundWaitOver | GraceOver | Disconnect | Refresh | Wake | Join | RecordOf


@dataclass(eq=False)
class Command:
    message: ClientMessage | Internal
    client: Client | None = None
    reply: asyncio.Future[Any] | None = None
    received: float = 0.0
    """``time.perf_counter()`` when its frame arrived (0: not from a client): the server's own latency."""


@dataclass(slots=True)
class Stats:
    actions: int = 0
    refused: int = 0
    messages: int = 0


class Refused(Exception):
    """A command refused (its ``error``): raised inside a handler, answered by :meth:`TableActor.refuse`."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def view_message(table: Table, game: int, seat: int | None) -> Message:
    """``sync``: the seat's whole view now (``table.view``, the core's ``view_for``)."""
    return {"type": "sync", "game": game, "v": table.version, "view": view_to_json(table.view(seat))}


class TableActor:
    """The one task that owns a table: its seats, its current game and its connections."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        config: ServerConfig,
        tap: Tap | None = None,
        *,
        metrics: Metrics | None = None,
        drives: Callable[[str], bool] | None = None,
        publish: Callable[[str, int, int], None] | None = None,
    ) -> None:
        self.row = row
        self.code = row.code
        self.store = store
        self.config = config
        self.tap = tap
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.clients: set[Client] = set()
        self.presence = Attendance(row.settings.seats, lambda seat: self.submit(GraceOver(seat)))
        self.chat: deque[Message] = deque(maxlen=CHAT_HISTORY)
        self._chat_seen: deque[int] = deque(maxlen=CHAT_HISTORY)
        for line in row.chat:
            self._add_chat(line)
        self.metrics = metrics or Metrics()
        self.drives = drives or _always
        """Whether this process runs the table's bots and timers now (with several workers: it holds the lease)."""
        self.publish = publish
        """Tells the other workers this one's connections to a seat (with several workers)."""
        for seat, count in row.elsewhere.items():
            self.presence[seat].elsewhere = count
        self._received = 0.0
        self.table: Table | None = None
        self.stats = Stats()
        self._records: dict[int, Record] = {}
        """The records of the games finished since the table was loaded (``Table.record()``)."""
        self._bot_timer: asyncio.TimerHandle | None = None
        self._bot_stamp: tuple[int, int] | None = None
        self._bots_idle_at: tuple[int, int] | None = None
        self._turn_timer: asyncio.TimerHandle | None = None
        self._turn_stamp: tuple[int, int] | None = None
        self._turn_deadline = 0.0
        self._opened: tuple[tuple[int, int], float] = ((0, 0), time.monotonic())
        """When the current version was reached: the people's reaction window runs from there."""
        self.waiting: set[int] = set()
        """The people the next round waits for (their ``ready``)."""
        self._round_timer: asyncio.TimerHandle | None = None
        self._round_deadline = 0.0
        self._rng = random.Random(secrets.randbits(64))
        self._task: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()
        game = self.game
        if game is not None:
            self.table = self._restore(game)  # also a finished game: a late reconnect still gets its last steps
            if not game.over:
                for seat in self.human_seats():  # nobody is connected after a restart: their grace starts now
                    if self.presence[seat].elsewhere == 0:
                        self.presence.start_grace(seat, row.settings.grace)

    # -- state ----------------------------------------------------------------------

    @property
    def game(self) -> GameRow | None:
        return self.row.games[-1] if self.row.games else None

    @property
    def status(self) -> str:
        return lobby.status_of(self.row)

    def summary(self) -> tuple[int, int, int, int, int]:
        """(seats, games, the last game's version, last chat line, connections elsewhere), as the store sums up."""
        game = self.game
        return (
            len(self.row.seats),
            game.number if game is not None else 0,
            self.table.version if self.table is not None else 0,
            max(self._chat_seen, default=0),
            self.presence.elsewhere(),
        )

    def human_seats(self) -> list[int]:
        return lobby.people(self.row)

    def open_seats(self) -> list[int]:
        return lobby.open_seats(self.row)

    def _stored_record(self, game: GameRow) -> Record:
        settings = self.row.settings
        return Record(settings.rules, settings.seats, game.seed, settings.options, actions=tuple(game.actions))

    def _restore(self, game: GameRow) -> Table:
        """The game's table from its stored record; its last steps are kept, so that reconnects still get them."""
        return self._from_record(self._stored_record(game))

    def _from_record(self, record: Record) -> Table:
        return Table.from_record(record, self._controllers(), history=self.config.history)

    def _bot(self, name: str) -> Bot:
        return make_bot(name, random.Random(self._rng.getrandbits(64)))

    def _controllers(self) -> list[Bot | None]:
        controllers: list[Bot | None] = []
        for seat in range(self.row.settings.seats):
            row = self.row.seats.get(seat)
            if row is not None and row.bot is not None:
                controllers.append(self._bot(row.bot))
            elif self.presence[seat].away:
                controllers.append(self._bot(STAND_IN))
            else:
                controllers.append(None)
        return controllers

    def seat_of(self, token: str | None) -> int | None:
        if token is None:
            return None
        for seat, row in self.row.seats.items():
            if auth.token_matches(token, row.token_hash):
                return seat
        return None

    # -- the task -------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.code}")
            self._schedule()

    def is_idle(self, now: float, idle: float) -> bool:
        """Nobody is connected, no command waits, and nothing happened for ``idle`` seconds."""
        return not self.clients and self.queue.empty() and now - self.last_active >= idle

    async def stop(self) -> None:
        self._cancel_timers()
        self.presence.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            command = await self.queue.get()
            self.last_active = time.monotonic()
            self._received = command.received
            try:
                await self._handle(command)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a bug must not take the table down: answer, reload, carry on
                if command.reply is not None and not command.reply.done():
                    command.reply.set_exception(error)
                with contextlib.suppress(Exception):  # the store may be away: the next command tries again
                    await self._reload(f"internal error: {type(error).__name__}")
            self._schedule()

    def submit(self, message: ClientMessage | Internal, client: Client | None = None, received: float = 0.0) -> None:
        """Queue a command (a client's message, or one of the actor's own)."""
        self.queue.put_nowait(Command(message, client, received=received))

    async def call(self, message: Internal) -> Any:
        """Queue a command and wait for its answer (``Join``, ``RecordOf``)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(Command(message, None, future))
        return await future

    async def _handle(self, command: Command) -> None:
        client = command.client
        match command.message:
            case Join(name):
                assert command.reply is not None
                try:
                    command.reply.set_result(await self._join(name))
                except ProtocolError as error:
                    command.reply.set_exception(error)
            case RecordOf(number):
                assert command.reply is not None
                command.reply.set_result(self._record_text(number))
            case BotTurn(stamp):
                await self._bot_turn(stamp)
            case TurnTimeout(stamp):
                await self._turn_timeout(stamp)
            case RoundWaitOver(stamp):
                self._round_wait_over(stamp)
            case GraceOver(seat):
                self._grace_over(seat)
            case Refresh(hint):
                await self._refresh(hint)
            case Wake():
                pass  # _run schedules the bots and timers next
            case Hello() as hello if client is not None:
                self._hello(client, hello)
            case Disconnect() if client is not None:
                self._disconnect(client)
            case Sync(since, game) if client is not None and client in self.clients:
                self._catch_up(client, since, game)
            case Act() | Chat() | Ready() | Leave() | Start() | Again() | Handover() | Kick() | Replace() as message:
                if client is not None and client in self.clients:
                    try:
                        await self._seat_command(client, message)
                    except Refused as refusal:
                        self.refuse(client, refusal.code, refusal.message, **refusal.extra)

    async def _seat_command(
        self, client: Client, message: Act | Chat | Ready | Leave | Start | Again | Handover | Kick | Replace
    ) -> None:
        """A command of a seat's: authenticate it (step 1), then the command's own checks and work."""
        match message:
            case Act() as act:
                await self._act(self._authenticated(client, act.token), act)
            case Chat(token, text):
                await self._chat(self._authenticated(client, token), text)
            case Ready(token):
                self._ready(self._authenticated(client, token))
            case Leave(token):
                await self._vacate(self._authenticated(client, token), None)
            case Start() as start:
                self._host(client, start.token)
                await self._start_game(client, start)
            case Again(token):
                self._host(client, token)
                await self._again()
            case Handover(token, seat):
                self._host(client, token)
                await self._handover(seat)
            case Kick(token, seat):
                self._host(client, token)
                await self._vacate(self._absent(seat), None)
            case Replace(token, seat, bot):
                self._host(client, token)
                await self._replace(seat, bot)

    # -- sending -----------------------------------------------------------------------

    def send(self, client: Client, message: Message) -> None:
        """The one way out: every message to every client passes here (and past the tap)."""
        if self.tap is not None:
            self.tap(self.code, client, message)
        client.sent += 1
        self.stats.messages += 1
        if not client.outlet.push(dumps(message)):
            self.clients.discard(client)
            client.outlet.drop("too slow")

    def error(self, client: Client, code: str, message: str, **extra: Any) -> None:
        self.send(client, {"type": "error", "code": code, "message": message, **extra})

    def refuse(self, client: Client, code: str, message: str, **extra: Any) -> None:
        """A refused command: its ``error``, then a ``sync`` so that the client shows the table as it is."""
        self.stats.refused += 1
        self.error(client, code, message, **extra)
        self.sync(client)

    def lobby(self) -> Message:
        """The table's public description: settings, seats, presence, host, watchers, fairness commitments."""
        spectators = sum(1 for client in self.clients if client.seat is None)
        return lobby.describe(self.row, self.presence, spectators=spectators, waiting=self.waiting)

    def timers(self) -> Message:
        """Milliseconds left now of the turn timer, the people's reaction window and the wait for the next round."""
        now = time.monotonic()

        def left(deadline: float | None) -> int | None:
            return None if deadline is None else max(0, round((deadline - now) * 1000))

        turn = self._turn_deadline if self._turn_timer is not None else None
        round_ = self._round_deadline if self._round_timer is not None else None
        return {"turn": left(turn), "react": left(self._react_deadline()), "round": left(round_)}

    def _names(self, reader: int | None) -> Names:
        seats = tuple(
            row.name if (row := self.row.seats.get(seat)) is not None else f"Seat {seat + 1}"
            for seat in range(self.row.settings.seats)
        )
        return Names(seats, reader)

    def _step_json(
        self, step: TableStep, before: GameState, seat: int | None, after: PlayerView | None = None
    ) -> Message:
        """One step as the seat may see it: ``TableStep.to_json``, its words, and the narrator's sentences.

        ``after`` is the seat's view after the step, when the caller has it already.
        """
        game = self.game
        timed_out = game is not None and step.version in game.timeouts
        lines = narrate(
            view_for(before, seat),
            step.events,
            after if after is not None else view_for(step.state, seat),
            self._names(seat),
            step.state.tables.cards,
            timed_out=timed_out,
        )
        words = past_words(step.state.rules, step.action)
        return {**step.to_json(seat), "words": words, "lines": lines, "timeout": timed_out}

    def _opening(self, seat: int | None) -> list[str]:
        """The sentences that open the game's log for the seat, before any step: the first card turned at the deal
        (Classic, Flex); none while a Duo draft runs (its last step names the first card)."""
        assert self.table is not None
        line = first_card(view_for(self.table.start, seat), self._names(seat))
        return [] if line is None else [line]

    def _view_message(self, seat: int | None) -> Message:
        assert self.table is not None and self.game is not None
        message = view_message(self.table, self.game.number, seat)
        return {**message, "lines": self._opening(seat), "timers": self.timers()}

    def sync(self, client: Client) -> None:
        if self.table is not None:
            self.send(client, self._view_message(client.seat))

    def broadcast_lobby(self) -> None:
        message = {"type": "lobby", "table": self.lobby()}
        for client in list(self.clients):
            self.send(client, message)

    def broadcast_step(self, step: TableStep, before: GameState) -> None:
        assert self.table is not None and self.game is not None
        messages: dict[int | None, Message] = {}
        timers = self.timers()
        for client in list(self.clients):
            message = messages.get(client.seat)
            if message is None:
                view = self.table.view(client.seat)
                message = messages[client.seat] = {
                    "type": "step",
                    "game": self.game.number,
                    **self._step_json(step, before, client.seat, view),
                    "view": view_to_json(view),
                    "timers": timers,
                }
            self.send(client, message)

    # -- connections -------------------------------------------------------------------

    def _hello(self, client: Client, message: Hello) -> None:
        seat = self.seat_of(message.token)
        if message.token is not None and seat is None:
            self.error(client, "auth", "that seat token is not valid at this table")
            client.outlet.drop("auth")
            return
        self.clients.add(client)
        self._seat_client(client, seat)
        self._welcome(client)
        self._catch_up(client, message.since, message.game)
        self.broadcast_lobby()

    def _seat_client(self, client: Client, seat: int | None) -> None:
        client.seat = seat
        client.spectator = seat is None
        if seat is None:
            return
        connections = self.presence.connect(seat)
        if self.publish is not None:
            self.publish(self.code, seat, connections)
        self._present(seat)

    def _welcome(self, client: Client) -> None:
        seat = client.seat
        self.send(
            client,
            {
                "type": "welcome",
                "seat": seat,
                "spectator": seat is None,
                "host": seat is not None and seat == self.row.host,
                "table": self.lobby(),
                "chat": list(self.chat),
            },
        )

    def _catch_up(self, client: Client, since: int | None, game: int | None) -> None:
        """The steps after ``since`` of the current game (kept, or rebuilt from its record), or a ``sync``."""
        table, row = self.table, self.game
        if table is None or row is None:
            return
        steps = None
        if since is not None and game == row.number and 0 <= since <= table.version:
            steps = self._steps_since(table, since)
        if steps is None:
            self.sync(client)
            return
        seat = client.seat
        message: Message = {
            "type": "steps",
            "game": row.number,
            "steps": [self._step_json(step, before, seat) for step, before in steps],
            "v": table.version,
            "view": view_to_json(table.view(seat)),
            "timers": self.timers(),
        }
        if since == 0:  # the whole game: its log starts with the opening lines
            message["lines"] = self._opening(seat)
        self.send(client, message)

    def _steps_since(self, table: Table, since: int) -> list[tuple[TableStep, GameState]] | None:
        """The steps after ``since`` with the state before each, from the history or else the record."""
        if since == 0:
            kept = table.steps_since(0)
            if kept is not None:
                return list(zip(kept, [table.start, *(step.state for step in kept)], strict=False))
        else:
            kept = table.steps_since(since - 1)
            if kept is not None:
                return list(zip(kept[1:], (step.state for step in kept[:-1]), strict=True))
        if table.version - since > REPLAY_LIMIT:
            return None
        return [(step, before) for step, before in _replay(table) if step.version > since]

    def _disconnect(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        seat = client.seat
        if seat is not None:
            self._unseat_client(seat)
        self.broadcast_lobby()

    def _unseat_client(self, seat: int) -> None:
        connections = self.presence.disconnect(seat)
        if self.publish is not None:
            self.publish(self.code, seat, connections)
        if not self.presence[seat].connected:
            self.waiting.discard(seat)
            if seat in self.row.seats:
                self.presence.start_grace(seat, self.row.settings.grace)
            self._end_round_wait_if_done()

    def _present(self, seat: int) -> None:
        """Someone holds the seat (here or on another worker): no grace period runs, no stand-in plays."""
        if self.presence.present(seat):
            self._set_controller(seat, None)

    def _grace_over(self, seat: int) -> None:
        if seat not in self.row.seats or not self.presence.grace_over(seat):
            return
        self._set_controller(seat, self._bot(STAND_IN))
        self.broadcast_lobby()

    def _set_controller(self, seat: int, bot: Bot | None) -> None:
        """The seat is played by ``bot`` from now on (``None``: its person); the bots look again."""
        if self.table is not None:
            self.table.set_controller(seat, bot)
        self._bots_idle_at = None

    # -- commands: checks ----------------------------------------------------------------

    def _authenticated(self, client: Client, token: str) -> int:
        """The client's seat when ``token`` is that seat's token (step 1 of the pipeline).

        Raises:
            Refused: a spectator, or not the token of the client's seat.
        """
        seat = client.seat
        if seat is None:
            raise Refused("auth", "spectators cannot act: join the table to get a seat")
        row = self.row.seats.get(seat)
        if row is None or not auth.token_matches(token, row.token_hash):
            raise Refused("auth", "that seat token is not valid for your seat")
        return seat

    def _host(self, client: Client, token: str) -> int:
        """The host's seat, when the client is the host (authenticated).

        Raises:
            Refused: not authenticated, or not the host.
        """
        seat = self._authenticated(client, token)
        if seat != self.row.host:
            raise Refused("not_host", f"only the host (seat {self.row.host}) can do that")
        return seat

    def _person(self, seat: int) -> SeatRow:
        """Raises Refused: ``seat`` is no person's seat at this table, or it is the host's."""
        row = self.row.seats.get(seat)
        if row is None or row.bot is not None or not 0 <= seat < self.row.settings.seats:
            raise Refused("bad_seat", f"seat {seat} is not a person's seat")
        if seat == self.row.host:
            raise Refused("bad_seat", "that is the host's own seat")
        return row

    def _absent(self, seat: int) -> int:
        """A person's seat whose player is away or disconnected.

        Raises:
            Refused: no person's seat, the host's, or its player is here.
        """
        self._person(seat)
        presence = self.presence[seat]
        if presence.connected and not presence.away:
            raise Refused("present", f"seat {seat}'s player is connected")
        return seat

    # -- commands: the game ------------------------------------------------------------------

    async def _act(self, seat: int, message: Act) -> None:
        """Steps 2–6 of the pipeline (step 1 is :meth:`_authenticated`)."""
        if message.seat != seat:
            raise Refused("wrong_seat", f"you hold seat {seat}, not seat {message.seat}")
        table, game = self.table, self.game
        if table is None or game is None:
            raise Refused("not_started", "the game has not started")
        if table.is_over:
            raise Refused("over", "the game is over")
        if message.game != game.number:
            raise Refused("stale", f"stale game {message.game}: the table plays game {game.number}", v=table.version)
        before = table.state
        try:
            step = table.submit(seat, message.action, expected_version=message.v)
        except StaleVersionError as error:
            raise Refused("stale", str(error), v=table.version) from None
        except InvalidNotationError as error:
            raise Refused("notation", str(error)) from None
        except IllegalActionError as error:
            raise Refused("illegal", f"Refused ({error.rule}): {error.reason}", rule=error.rule) from None
        if seat in self.waiting:  # acting in the new round says "ready"
            self.waiting.discard(seat)
            self._end_round_wait_if_done()
        if not await self._commit(step, before):
            version = self.table.version if self.table is not None else 0
            raise Refused("stale", f"stale version {message.v}: the table is at version {version}", v=version)

    async def _commit(self, step: TableStep, before: GameState, *, timeout: bool = False) -> bool:
        """Persist the step (committed) and only then broadcast it; ``False`` when its version was taken.

        The store is the sequencer: when another worker accepted an action for this
        version first, the table goes back to what is committed, takes the versions
        it missed from the store (each re-validated by the core) and broadcasts them.
        """
        assert self.game is not None and self.table is not None
        game, table = self.game, self.table
        started = time.perf_counter()
        try:
            await self.store.append_action(self.code, game.number, step.version, step.seat, format_action(step.action))
            if timeout:
                game.timeouts.add(step.version)
                await self.store.mark_timeout(self.code, game.number, step.version)
        except VersionConflict:
            self.metrics.conflicts += 1
            record = table.record()
            self.table = self._from_record(replace(record, actions=record.actions[:-1]))
            await self._pull()
            return False
        except Exception:
            await self._reload("the store refused a write")
            return False
        self.metrics.commit.add(time.perf_counter() - started)
        self.stats.actions += 1
        waits = self._stepped(step)
        self.broadcast_step(step, before)
        if waits:
            self.broadcast_lobby()  # its ``waiting``: whom the next round waits for
        if self._received:
            self.metrics.step.add(time.perf_counter() - self._received)
        if table.is_over:  # over is already durable (its last action is): say so, then mark the game
            game.over = True
            self.broadcast_lobby()
            await self.store.end_game(self.code, game.number)
        return True

    def _stepped(self, step: TableStep) -> bool:
        """After a step is accepted, before it is sent: a round that ended waits for the people; timers move on.

        Whether the next round now waits.
        """
        waits = False
        if self.config.round_wait > 0 and not step.state.outcome and any(type(e) is RoundEnded for e in step.events):
            waiting = {seat for seat in self.human_seats() if self.presence[seat].here}
            if waiting:
                self.waiting = waiting
                self._round_deadline = time.monotonic() + self.config.round_wait
                if self._round_timer is not None:
                    self._round_timer.cancel()
                stamp = (self.game.number if self.game is not None else 0, step.version)
                self._round_timer = asyncio.get_event_loop().call_later(
                    self.config.round_wait, self.submit, RoundWaitOver(stamp)
                )
                waits = True
        self._schedule()
        return waits

    async def _refresh(self, hint: tuple[int, int] | None) -> None:
        """Another worker wrote this table (its notification, or the periodic read): take what is new."""
        game, table = self.game, self.table
        if hint is not None and game is not None and table is not None and hint[0] == game.number:
            if hint[1] > table.version:
                await self._pull()
            return
        fresh = self.store.load_table(self.code)
        if fresh is not None:
            self._adopt(fresh)

    async def _pull(self) -> None:
        """Apply the current game's actions that the store has beyond ours, one step each."""
        game, table = self.game, self.table
        if game is None or table is None:
            return
        rows = await self.store.actions_since(self.code, game.number, table.version)
        self._apply_stored(game, table, [(seat, action) for _version, seat, action in rows])

    def _apply_stored(self, game: GameRow, table: Table, actions: list[tuple[int, str]]) -> None:
        for seat, action in actions:
            before = table.state
            # the core re-validates; a refusal raises, and the table is reloaded from the store (_run)
            step = table.submit(seat, action, expected_version=table.version)
            self.metrics.remote_steps += 1
            self.broadcast_step(step, before)
        if actions and table.is_over and not game.over:
            game.over = True
            self.broadcast_lobby()

    def _adopt(self, fresh: TableRow) -> None:
        """Bring the table up to ``fresh`` (a reload from the store): seats, host, a new game, actions, chat."""
        changed = fresh.seats != self.row.seats or fresh.host != self.row.host
        self.row.seats, self.row.host = fresh.seats, fresh.host
        seen, back = self.presence.seen_elsewhere(fresh.elsewhere, self.human_seats(), self.row.settings.grace)
        changed = seen or changed
        for seat in back:
            self._set_controller(seat, None)
        for line in fresh.chat:
            if line.number not in self._chat_seen:
                self._broadcast_chat(self._add_chat(line))
        game = self.game
        if fresh.games and (game is None or fresh.games[-1].number != game.number):
            self._finish_table()
            self.row.games = fresh.games
            self.table = self._restore(fresh.games[-1])
            self._bots_idle_at = None
            self.broadcast_lobby()
            for client in list(self.clients):
                self.sync(client)
            return
        if game is not None and self.table is not None and fresh.games:
            stored = fresh.games[-1]
            game.timeouts |= stored.timeouts
            self._apply_stored(game, self.table, stored.actions[self.table.version :])
            if stored.over and not game.over:
                game.over = True
                changed = True
        if changed:
            self.broadcast_lobby()

    async def _reload(self, reason: str) -> None:
        """Rebuild the table from the store (its durable truth) and resync everyone."""
        fresh = self.store.load_table(self.code)
        if fresh is not None:
            self.row = fresh
        game = self.game
        self.table = None
        if game is not None:
            self.table = self._restore(game)
        for client in list(self.clients):
            self.error(client, "server", f"the table was reloaded ({reason})")
            self.sync(client)

    # -- bots and timers ---------------------------------------------------------------------

    async def _bot_turn(self, stamp: tuple[int, int]) -> None:
        self._bot_timer = None
        table, game = self.table, self.game
        if table is None or game is None or table.is_over or (game.number, table.version) != stamp or self.waiting:
            return
        before = table.state
        step = table.bot_step()
        if step is None:
            self._bots_idle_at = stamp
            return
        await self._commit(step, before)

    async def _turn_timeout(self, stamp: tuple[int, int]) -> None:
        self._turn_timer = None
        table, game = self.table, self.game
        if table is None or game is None or (game.number, table.version) != stamp:
            return
        seat = table.waiting_for()
        if seat is None:
            return
        action = self._bot(STAND_IN).choose(table.view(seat), table.legal(seat))
        before = table.state
        step = table.submit(seat, action, expected_version=table.version)
        await self._commit(step, before, timeout=True)

    def _cancel_timers(self) -> None:
        for handle in (self._bot_timer, self._turn_timer, self._round_timer):
            if handle is not None:
                handle.cancel()
        self._bot_timer = self._turn_timer = self._round_timer = None

    def _schedule(self) -> None:
        """After every command: a bot's step, or the turn timer of the person to act (not while a round waits)."""
        table, game = self.table, self.game
        if table is None or game is None or table.is_over or not self.drives(self.code):
            self._cancel_timers()  # over, or another worker runs this table's bots and timers
            self.waiting.clear()
            return
        stamp = (game.number, table.version)
        loop = asyncio.get_event_loop()
        if self._opened[0] != stamp:
            self._opened = (stamp, time.monotonic())
        if self.waiting:
            for handle in (self._bot_timer, self._turn_timer):
                if handle is not None:
                    handle.cancel()
            self._bot_timer = self._turn_timer = None
            return
        if self._turn_timer is not None and self._turn_stamp != stamp:
            self._turn_timer.cancel()
            self._turn_timer = None
        if self._bot_timer is not None and self._bot_stamp != stamp:
            self._bot_timer.cancel()  # made for an earlier version: the delays start again
            self._bot_timer = None
        seat = table.waiting_for()
        if seat is None:
            if self._bot_timer is not None or self._bots_idle_at == stamp:
                return
            delay = self.config.bot_delay
            react = self._react_deadline()
            if react is not None:
                delay = max(delay, react - time.monotonic())
            self._bot_stamp = stamp
            self._bot_timer = loop.call_later(delay, self.submit, BotTurn(stamp))
            return
        if self.row.settings.turn_seconds > 0 and self._turn_timer is None:
            self._turn_stamp = stamp
            self._turn_deadline = time.monotonic() + self.row.settings.turn_seconds
            self._turn_timer = loop.call_later(self.row.settings.turn_seconds, self.submit, TurnTimeout(stamp))

    def _react_deadline(self) -> float | None:
        """When the people's reaction window ends, while a bot may react and a connected person could too."""
        table, game = self.table, self.game
        if table is None or game is None or self.config.react_delay <= 0 or not table.bot_due():
            return None
        if not window_open(table.state) or not self._person_may_react(table):
            return None
        stamp, opened = self._opened
        if stamp != (game.number, table.version):
            opened = time.monotonic()
        deadline = opened + self.config.react_delay
        return deadline if deadline > time.monotonic() else None

    def _person_may_react(self, table: Table) -> bool:
        """A connected person has an out-of-turn action (catch, call UNO, jump in) in the open window."""
        to_act = table.state.to_act
        for seat in self.human_seats():
            if not self.presence[seat].here:
                continue
            legal = table.legal(seat)
            if seat != to_act and legal:
                return True
            if any(action_type(action) in ("catch", "uno") for action in legal):
                return True
        return False

    def _round_wait_over(self, stamp: tuple[int, int]) -> None:
        self._round_timer = None
        if self.waiting:
            self.waiting.clear()
            self.broadcast_lobby()

    def _ready(self, seat: int) -> None:
        if seat in self.waiting:
            self.waiting.discard(seat)
            if not self._end_round_wait_if_done():
                self.broadcast_lobby()

    def _end_round_wait_if_done(self) -> bool:
        """Everyone the round waited for is ready (or gone): the game goes on. Whether it ended now."""
        if self.waiting or self._round_timer is None:
            return False
        self._round_timer.cancel()
        self._round_timer = None
        self.broadcast_lobby()
        self._schedule()
        return True

    # -- commands: chat and seats -------------------------------------------------------------

    async def _chat(self, seat: int, text: str) -> None:
        line = await self.store.add_chat(self.code, seat, self.row.seats[seat].name, text)
        if line.number not in self._chat_seen:
            self._broadcast_chat(self._add_chat(line))

    def _add_chat(self, line: ChatRow) -> Message:
        message = {"type": "chat", "seat": line.seat, "name": line.name, "text": line.text}
        self.chat.append(message)
        self._chat_seen.append(line.number)
        return message

    def _broadcast_chat(self, message: Message) -> None:
        for other in list(self.clients):
            self.send(other, message)

    async def _join(self, name: str) -> tuple[int, str]:
        if self.status != "lobby":
            raise ProtocolError("started", "this table's game has started: watch it with the spectator link")
        token = auth.new_token()
        row = SeatRow(name, auth.hash_token(token), None)
        while True:
            open_seats = self.open_seats()
            if not open_seats:
                raise ProtocolError("full", "every seat is taken")
            seat = open_seats[0]
            try:
                await self.store.put_seat(self.code, seat, row)
                break
            except SeatTaken:  # someone joined on another worker meanwhile: look again
                self._catch_up_seats()
        self.row.seats[seat] = row
        self.broadcast_lobby()
        return seat, token

    def _catch_up_seats(self) -> None:
        """Take what the store has (a join on another worker may not have reached this one yet)."""
        fresh = self.store.load_table(self.code)
        if fresh is None or set(fresh.seats) == set(self.row.seats):
            raise ProtocolError("full", "every seat is taken")  # nothing new: the store will not take it either
        self._adopt(fresh)

    async def _vacate(self, seat: int, bot: str | None) -> None:
        """The seat's person goes (``leave``, ``kick``) or a bot takes the seat (``replace``).

        In the lobby a person's seat opens (unless ``bot`` is given); once a game is dealt a bot
        plays it (``bot``, or the stand-in). The seat's token stops working, and its connections
        go on as spectators.
        """
        dealt = self.status != "lobby"
        row = SeatRow(bot_name(seat), None, bot or STAND_IN) if dealt or bot is not None else None
        await self.store.set_seat(self.code, seat, row)
        if row is None:
            self.row.seats.pop(seat, None)
        else:
            self.row.seats[seat] = row
        self.presence.reset(seat)
        self.waiting.discard(seat)
        self._set_controller(seat, None if row is None or row.bot is None else self._bot(row.bot))
        if seat == self.row.host:
            host = lobby.next_host(self.row, self.presence, seat)
            if host is not None:
                await self.store.set_host(self.code, host)
                self.row.host = host
        for client in list(self.clients):
            if client.seat == seat:
                client.seat, client.spectator = None, True
                self._welcome(client)
                self.sync(client)
        self._end_round_wait_if_done()
        self.broadcast_lobby()

    def _check_bot(self, bot: str) -> None:
        """Refuse a bot that cannot play this table's game (the ``ppo`` bot outside Classic heads-up)."""
        settings = self.row.settings
        refused = game_refusal(bot, settings.rules, settings.seats)
        if refused is not None:
            raise Refused("bad_field", refused)

    async def _replace(self, seat: int, bot: str) -> None:
        if not 0 <= seat < self.row.settings.seats or seat == self.row.host:
            raise Refused("bad_seat", f"seat {seat} is not a seat the host can give to a bot")
        self._check_bot(bot)
        row = self.row.seats.get(seat)
        if row is not None and row.bot is None:
            self._absent(seat)
        await self._vacate(seat, bot)

    async def _handover(self, seat: int) -> None:
        self._person(seat)
        await self.store.set_host(self.code, seat)
        self.row.host = seat
        self.broadcast_lobby()  # its host and seats[].host say who hosts now

    async def _start_game(self, client: Client, message: Start) -> None:
        if self.status != "lobby":
            raise Refused("started", "the game has already started")
        if self.open_seats() and self.store.shared:  # a join on another worker may not have reached this one yet
            with contextlib.suppress(ProtocolError):
                self._catch_up_seats()
        open_seats = self.open_seats()
        if open_seats and not message.fill:
            raise Refused("seats_open", f"{len(open_seats)} seat(s) still open: wait, or fill them with bots")
        if open_seats:
            self._check_bot(message.bot)
        for seat in open_seats:
            row = SeatRow(bot_name(seat), None, message.bot)
            try:
                await self.store.put_seat(self.code, seat, row)
            except SeatTaken:  # a person took it on another worker: they play
                with contextlib.suppress(ProtocolError):
                    self._catch_up_seats()
                continue
            self.row.seats[seat] = row
        await self._deal()

    async def _again(self) -> None:
        if self.status != "over":
            raise Refused("not_over", "the game is not over yet")
        await self._deal()

    async def _deal(self) -> None:
        settings = self.row.settings
        seed, salt = auth.new_seed()
        game = GameRow(len(self.row.games) + 1, seed, salt)
        table = Table.new(
            settings.rules,
            settings.seats,
            seed=seed,
            options=dict(settings.options),
            controllers=self._controllers(),
            history=self.config.history,
        )
        await self.store.start_game(self.code, game)
        self._finish_table()
        self.row.games.append(game)
        self.table = table
        self._bots_idle_at = None
        self.waiting.clear()
        self._schedule()  # the syncs carry the new game's timers
        self.broadcast_lobby()
        for client in list(self.clients):
            self.sync(client)

    def _finish_table(self) -> None:
        """The current game's table leaves memory: keep its record (for ``GET …/record``)."""
        game, table = self.game, self.table
        if game is not None and table is not None:
            self._records[game.number] = table.record()

    def _record_text(self, number: int) -> str | None:
        for game in self.row.games:
            if game.number == number and game.over:
                if game is self.game and self.table is not None:
                    return format_record(self.table.record())
                record = self._records.get(number)
                return format_record(record if record is not None else self._stored_record(game))
        return None


def _replay(table: Table) -> Iterator[tuple[TableStep, GameState]]:
    """Every step of the table's game again (from its first state and actions), with the state before each."""
    state = table.start
    for version, (seat, action) in enumerate(table.actions, 1):
        transition = apply(state, seat, action)
        yield TableStep(version, seat, action, transition.events, transition.state), state
        state = transition.state


def _always(code: str) -> bool:
    return True
