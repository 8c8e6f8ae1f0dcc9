"""One sequential actor per table: every command of a table runs in its own asyncio task, in order.

A command is one of the protocol's messages (:mod:`unoengine.server.protocol`)
from a client, or one of the actor's own (a bot's step is due, a timer ran out,
another worker wrote the table). :meth:`TableActor._handle` matches on its type
and hands it to the collaborator whose job it is:

- :class:`~unoengine.server.pipeline.Pipeline`: the game (an ``act``'s checks,
  commit then broadcast, what other workers wrote, the deal, the records);
- :class:`~unoengine.server.clock.Clock`: the bots' pace, the turn timer, the
  people's reaction window and the wait between rounds;
- :class:`~unoengine.server.seating.Seating`: seats and presence (hellos,
  grace periods, joins, leaving, kicks, replacements, the host);
- :class:`~unoengine.server.outbox.Outbox`: what each connection is sent.

The actor owns the table's state (its row, its game's table, its connections,
whom the round waits for); the collaborators read and change it only from
inside a command, so that one command at a time touches it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from unoengine.bots.base import Bot, make_bot
from unoengine.play.table import Table
from unoengine.server import lobby
from unoengine.server.clock import Clock
from unoengine.server.commands import (
    CHAT_HISTORY,
    MIN_ROUND_WAIT,
    OUTBOX,
    REACT_DELAY,
    REPLAY_LIMIT,
    STAND_IN,
    BotTurn,
    Client,
    Command,
    Disconnect,
    GraceOver,
    Internal,
    Join,
    Message,
    Outlet,
    RecordOf,
    Refresh,
    Refused,
    RoundWaitOver,
    ServerConfig,
    Stats,
    Tap,
    TurnTimeout,
    Wake,
    bot_name,
)
from unoengine.server.metrics import Metrics
from unoengine.server.outbox import Outbox, view_message
from unoengine.server.pipeline import Pipeline
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
)
from unoengine.server.seating import Seating
from unoengine.server.store import GameRow, Store, TableRow

__all__ = [
    "CHAT_HISTORY",
    "MIN_ROUND_WAIT",
    "OUTBOX",
    "REACT_DELAY",
    "REPLAY_LIMIT",
    "STAND_IN",
    "BotTurn",
    "Client",
    "Command",
    "Disconnect",
    "GraceOver",
    "Join",
    "Message",
    "Outlet",
    "RecordOf",
    "Refresh",
    "Refused",
    "RoundWaitOver",
    "ServerConfig",
    "TableActor",
    "Tap",
    "TurnTimeout",
    "Wake",
    "bot_name",
    "view_message",
]


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
        self.metrics = metrics or Metrics()
        self.drives = drives or _always
        """Whether this process runs the table's bots and timers now (with several workers: it holds the lease)."""
        self.publish = publish
        """Tells the other workers this one's connections to a seat (with several workers)."""
        for seat, count in row.elsewhere.items():
            self.presence[seat].elsewhere = count
        self.received = 0.0
        """When the command running now arrived (``Command.received``)."""
        self.table: Table | None = None
        self.stats = Stats()
        self.waiting: set[int] = set()
        """The people the next round waits for (their ``ready``)."""
        self._rng = random.Random(secrets.randbits(64))
        self._task: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()
        self.outbox = Outbox(self)
        self.clock = Clock(self)
        self.seating = Seating(self)
        self.pipeline = Pipeline(self)
        for line in row.chat:
            self.outbox.add_chat(line)
        game = self.game
        if game is not None:
            self.table = self.pipeline.restore(game)  # also a finished game: a late reconnect still gets its last steps
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
            max(self.outbox.chat_seen, default=0),
            self.presence.elsewhere(),
        )

    def human_seats(self) -> list[int]:
        return lobby.people(self.row)

    def open_seats(self) -> list[int]:
        return lobby.open_seats(self.row)

    def bot(self, name: str) -> Bot:
        """A new bot of the table's own random stream."""
        return make_bot(name, random.Random(self._rng.getrandbits(64)))

    def controllers(self) -> list[Bot | None]:
        """Each seat's controller for a table dealt or rebuilt now: its bot, the stand-in of a person away, or none."""
        controllers: list[Bot | None] = []
        for seat in range(self.row.settings.seats):
            row = self.row.seats.get(seat)
            if row is not None and row.bot is not None:
                controllers.append(self.bot(row.bot))
            elif self.presence[seat].away:
                controllers.append(self.bot(STAND_IN))
            else:
                controllers.append(None)
        return controllers

    def lobby(self) -> Message:
        """The table's public description (:meth:`Outbox.lobby`)."""
        return self.outbox.lobby()

    def send(self, client: Client, message: Message) -> None:
        """One message to one client (:meth:`Outbox.send`)."""
        self.outbox.send(client, message)

    def timers(self) -> Message:
        """The timers' milliseconds left now (:meth:`Clock.timers`)."""
        return self.clock.timers()

    # -- the task -------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.code}")
            self.clock.schedule()

    def is_idle(self, now: float, idle: float) -> bool:
        """Nobody is connected, no command waits, and nothing happened for ``idle`` seconds."""
        return not self.clients and self.queue.empty() and now - self.last_active >= idle

    async def stop(self) -> None:
        self.clock.cancel()
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
            self.received = command.received
            try:
                await self._handle(command)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a bug must not take the table down: answer, reload, carry on
                if command.reply is not None and not command.reply.done():
                    command.reply.set_exception(error)
                with contextlib.suppress(Exception):  # the store may be away: the next command tries again
                    await self.pipeline.reload(f"internal error: {type(error).__name__}")
            self.clock.schedule()

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
                    command.reply.set_result(await self.seating.join(name))
                except ProtocolError as error:
                    command.reply.set_exception(error)
            case RecordOf(number):
                assert command.reply is not None
                command.reply.set_result(self.pipeline.record_text(number))
            case BotTurn(stamp):
                await self.clock.bot_turn(stamp)
            case TurnTimeout(stamp):
                await self.clock.turn_timeout(stamp)
            case RoundWaitOver(stamp):
                self.clock.round_wait_over(stamp)
            case GraceOver(seat):
                self.seating.grace_over(seat)
            case Refresh(hint):
                await self.pipeline.refresh(hint)
            case Wake():
                pass  # _run schedules the bots and timers next
            case Hello() as hello if client is not None:
                self.seating.hello(client, hello)
            case Disconnect() if client is not None:
                self.seating.disconnect(client)
            case Sync(since, game) if client is not None and client in self.clients:
                self.outbox.catch_up(client, since, game)
            case Act() | Chat() | Ready() | Leave() | Start() | Again() | Handover() | Kick() | Replace() as message:
                if client is not None and client in self.clients:
                    try:
                        await self._seat_command(client, message)
                    except Refused as refusal:
                        self.outbox.refuse(client, refusal.code, refusal.message, **refusal.extra)

    async def _seat_command(
        self, client: Client, message: Act | Chat | Ready | Leave | Start | Again | Handover | Kick | Replace
    ) -> None:
        """A command of a seat's: authenticate it (step 1), then the command's own checks and work."""
        seating = self.seating
        match message:
            case Act() as act:
                await self.pipeline.act(seating.authenticated(client, act.token), act)
            case Chat(token, text):
                await self.outbox.say(seating.authenticated(client, token), text)
            case Ready(token):
                self.clock.ready(seating.authenticated(client, token))
            case Leave(token):
                await seating.vacate(seating.authenticated(client, token), None)
            case Start() as start:
                seating.host(client, start.token)
                await seating.start(start)
            case Again(token):
                seating.host(client, token)
                await self.pipeline.again()
            case Handover(token, seat):
                seating.host(client, token)
                await seating.handover(seat)
            case Kick(token, seat):
                seating.host(client, token)
                await seating.vacate(seating.absent(seat), None)
            case Replace(token, seat, bot):
                seating.host(client, token)
                await seating.replace(seat, bot)


def _always(code: str) -> bool:
    return True
