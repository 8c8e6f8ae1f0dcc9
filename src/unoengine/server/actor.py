"""One sequential actor per table: every command of a table runs in its own asyncio task, in order.

The pipeline of a command (DESIGN.md, "Server"): authenticate the seat; the
table is live; the seat may act; the version is current; the action is legal
(the core's :class:`~unoengine.play.table.Table` decides); then apply, persist
(committed to the store) and broadcast. A refused command is answered with an
``error`` and a ``sync`` to that client only; nothing changes.

Every message to a client goes through :meth:`TableActor.send`, and every game
message is built from ``table.view(seat)`` or ``TableStep.to_json(seat)``: the
server never strips a full state.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from unoengine.bots.base import Bot, make_bot
from unoengine.core.action_words import past_words
from unoengine.core.actions import format_action
from unoengine.core.errors import IllegalActionError, InvalidNotationError, excerpt
from unoengine.core.record import Record, format_record
from unoengine.core.rules import find_rules
from unoengine.core.views import view_to_json
from unoengine.play.table import StaleVersionError, Table, TableStep
from unoengine.server import auth
from unoengine.server.metrics import Metrics
from unoengine.server.protocol import Act, Again, Chat, ProtocolError, Start, Sync, dumps, table_rules
from unoengine.server.store import ChatRow, GameRow, SeatRow, SeatTaken, Store, TableRow, VersionConflict

Message = dict[str, Any]
Tap = Callable[[str, "Client", Message], None]
"""Sees every message sent, before it is written: (table code, client, message)."""

STAND_IN = "heuristic"
"""The bot that plays a dropped player's seat, or a decision whose turn timer ran out."""
CHAT_HISTORY = 50
OUTBOX = 4096
"""Messages queued for one client before it is dropped as too slow (it resyncs when it comes back)."""


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


@dataclass(slots=True)
class ServerConfig:
    """Server-wide knobs."""

    bot_delay: float = 0.6
    """Seconds a bot waits before it acts (0 in tests and the load benchmark)."""
    react_delay: float = 2.0
    """Seconds a bot waits at least while a connected person may act out of turn (catch, call UNO,
    jump in): the window stays open long enough for a person to use it."""
    history: int = 256
    """Steps kept per table for reconnects ("events since N"); older ones get a full view."""
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


@dataclass(eq=False)
class Command:
    kind: str
    client: Client | None = None
    message: Any = None
    reply: asyncio.Future[Any] | None = None
    stamp: tuple[int, int] = (0, 0)
    received: float = 0.0
    """``time.perf_counter()`` when its frame arrived (0: not from a client): the server's own latency."""


@dataclass(slots=True)
class Presence:
    connections: int = 0
    elsewhere: int = 0
    """Connections to the seat on other workers (PostgreSQL)."""
    grace: asyncio.TimerHandle | None = None
    away: bool = False
    """A stand-in bot plays the seat until its player comes back."""


@dataclass(slots=True)
class Stats:
    actions: int = 0
    refused: int = 0
    messages: int = 0


def view_message(table: Table, game: int, seat: int | None) -> Message:
    """``sync``: the seat's whole view now (``table.view``, the core's ``view_for``)."""
    return {"type": "sync", "game": game, "v": table.version, "view": view_to_json(table.view(seat))}


def step_json(step: TableStep, seat: int | None) -> Message:
    """One step as the seat may see it (``TableStep.to_json``) and, under ``words``, its action in words."""
    return {**step.to_json(seat), "words": past_words(step.state.rules, step.action)}


def step_message(step: TableStep, table: Table, game: int, seat: int | None) -> Message:
    """``step``: one accepted action as the seat may see it, with the seat's view after it."""
    return {"type": "step", "game": game, **step_json(step, seat), "view": view_to_json(table.view(seat))}


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
        self.presence: dict[int, Presence] = {seat: Presence() for seat in range(row.settings.seats)}
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
        self._bot_timer: asyncio.Handle | None = None
        self._turn_timer: asyncio.TimerHandle | None = None
        self._bots_idle_at: tuple[int, int] | None = None
        self._rng = random.Random(secrets.randbits(64))
        self._task: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()
        game = self.game
        if game is not None and not game.over:
            self.table = self._restore(game)
            for seat in self.human_seats():  # nobody is connected after a restart: their grace starts now
                if self.presence[seat].elsewhere == 0:
                    self._start_grace(seat)

    # -- state ----------------------------------------------------------------------

    @property
    def game(self) -> GameRow | None:
        return self.row.games[-1] if self.row.games else None

    @property
    def status(self) -> str:
        game = self.game
        if game is None:
            return "lobby"
        return "over" if game.over else "playing"

    def summary(self) -> tuple[int, int, int, int, int]:
        """(seats, games, the last game's version, last chat line, connections elsewhere), as the store sums up."""
        game = self.game
        return (
            len(self.row.seats),
            game.number if game is not None else 0,
            len(game.actions) if game is not None else 0,
            max(self._chat_seen, default=0),
            sum(presence.elsewhere for presence in self.presence.values()),
        )

    def human_seats(self) -> list[int]:
        return [seat for seat, row in self.row.seats.items() if row.bot is None]

    def open_seats(self) -> list[int]:
        return [seat for seat in range(self.row.settings.seats) if seat not in self.row.seats]

    def _record(self, game: GameRow) -> Record:
        settings = self.row.settings
        return Record(settings.rules, settings.seats, game.seed, settings.options, actions=tuple(game.actions))

    def _restore(self, game: GameRow) -> Table:
        """The game's table from its record; its last steps are kept, so that reconnects still get them."""
        return Table.from_record(self._record(game), self._controllers(), history=self.config.history)

    def _controllers(self) -> list[Bot | None]:
        controllers: list[Bot | None] = []
        for seat in range(self.row.settings.seats):
            row = self.row.seats.get(seat)
            if row is not None and row.bot is not None:
                controllers.append(make_bot(row.bot, random.Random(self._rng.getrandbits(64))))
            elif self.presence[seat].away:
                controllers.append(make_bot(STAND_IN, random.Random(self._rng.getrandbits(64))))
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
        for handle in (self._bot_timer, self._turn_timer, *(p.grace for p in self.presence.values())):
            if handle is not None:
                handle.cancel()
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

    def submit(self, kind: str, client: Client | None = None, message: Any = None, received: float = 0.0) -> None:
        self.queue.put_nowait(Command(kind, client, message, received=received))

    async def call(self, kind: str, message: Any = None) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(Command(kind, None, message, future))
        return await future

    async def _handle(self, command: Command) -> None:
        kind = command.kind
        if kind == "act":
            await self._act(command.client, command.message)
        elif kind == "bot":
            await self._bot()
        elif kind == "timeout":
            await self._timeout(command.stamp)
        elif kind == "hello" and command.client is not None:
            self._hello(command.client, command.message)
        elif kind == "leave" and command.client is not None:
            self._leave(command.client)
        elif kind == "grace":
            self._grace_over(command.message)
        elif kind == "sync" and command.client is not None:
            self._sync_request(command.client, command.message)
        elif kind == "chat":
            await self._chat(command.client, command.message)
        elif kind == "refresh":
            await self._refresh(command.message)
        elif kind == "start":
            await self._start_game(command.client, command.message)
        elif kind == "again":
            await self._again(command.client, command.message)
        elif kind == "join":
            assert command.reply is not None
            try:
                command.reply.set_result(await self._join(command.message))
            except ProtocolError as error:
                command.reply.set_exception(error)
        elif kind == "record":
            assert command.reply is not None
            command.reply.set_result(self._record_text(command.message))

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

    def lobby(self) -> Message:
        """The table's public description: settings, seats, presence, fairness commitments."""
        settings = self.row.settings
        seats = []
        for seat in range(settings.seats):
            row = self.row.seats.get(seat)
            presence = self.presence[seat]
            seats.append(
                {
                    "seat": seat,
                    "name": row.name if row is not None else None,
                    "bot": row.bot if row is not None else None,
                    "open": row is None,
                    "connected": presence.connections + presence.elsewhere > 0
                    if row is not None and row.bot is None
                    else None,
                    "away": presence.away,
                }
            )
        games = []
        for game in self.row.games:
            item: Message = {
                "game": game.number,
                "over": game.over,
                "commitment": auth.seed_commitment(game.seed, game.salt),
            }
            if game.over:
                record = f"/api/tables/{self.code}/games/{game.number}/record"
                item.update(seed=str(game.seed), salt=game.salt, record=record)  # text: JS numbers stop at 2**53
            games.append(item)
        return {
            "code": self.code,
            "title": find_rules(settings.rules).title,
            "settings": settings.to_json(),
            "rules": table_rules(settings.rules, dict(settings.options)),
            "status": self.status,
            "game": self.game.number if self.game is not None else 0,
            "seats": seats,
            "games": games,
        }

    def _view_message(self, seat: int | None) -> Message:
        assert self.table is not None and self.game is not None
        return view_message(self.table, self.game.number, seat)

    def sync(self, client: Client) -> None:
        if self.table is not None:
            self.send(client, self._view_message(client.seat))

    def broadcast_lobby(self) -> None:
        message = {"type": "lobby", "table": self.lobby()}
        for client in list(self.clients):
            self.send(client, message)

    def broadcast_step(self, step: TableStep) -> None:
        assert self.table is not None and self.game is not None
        views: dict[int | None, Message] = {}
        for client in list(self.clients):
            message = views.get(client.seat)
            if message is None:
                message = views[client.seat] = step_message(step, self.table, self.game.number, client.seat)
            self.send(client, message)

    # -- connections -------------------------------------------------------------------

    def _hello(self, client: Client, message: Any) -> None:
        token, since, game = message
        seat = self.seat_of(token)
        if token is not None and seat is None:
            self.error(client, "auth", "that seat token is not valid at this table")
            client.outlet.drop("auth")
            return
        client.seat = seat
        client.spectator = seat is None
        self.clients.add(client)
        if seat is not None:
            presence = self.presence[seat]
            presence.connections += 1
            if self.publish is not None:
                self.publish(self.code, seat, presence.connections)
            self._present(seat)
        self.send(
            client,
            {
                "type": "welcome",
                "seat": seat,
                "spectator": seat is None,
                "host": seat == 0,
                "table": self.lobby(),
                "chat": list(self.chat),
            },
        )
        self._catch_up(client, since, game)
        self.broadcast_lobby()

    def _catch_up(self, client: Client, since: int | None, game: int | None) -> None:
        if self.table is None or self.game is None:
            return
        steps = None
        if since is not None and game == self.game.number:
            steps = self.table.steps_since(since)
        if steps is None:
            self.sync(client)
            return
        self.send(
            client,
            {
                "type": "steps",
                "game": self.game.number,
                "steps": [step_json(step, client.seat) for step in steps],
                "v": self.table.version,
                "view": view_to_json(self.table.view(client.seat)),
            },
        )

    def _sync_request(self, client: Client, message: Sync) -> None:
        if client in self.clients:
            self._catch_up(client, message.since, message.game)

    def _leave(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        seat = client.seat
        if seat is not None:
            presence = self.presence[seat]
            presence.connections -= 1
            if self.publish is not None:
                self.publish(self.code, seat, presence.connections)
            if presence.connections == 0 and presence.elsewhere == 0:
                self._start_grace(seat)
        self.broadcast_lobby()

    def _present(self, seat: int) -> None:
        """Someone holds the seat (here or on another worker): no grace period runs, no stand-in plays."""
        presence = self.presence[seat]
        if presence.grace is not None:
            presence.grace.cancel()
            presence.grace = None
        if presence.away:
            presence.away = False
            if self.table is not None:
                self.table.set_controller(seat, None)

    def _seen_elsewhere(self, counts: dict[int, int]) -> bool:
        """Take the other workers' connections per seat; whether the lobby changed."""
        changed = False
        for seat in self.human_seats():
            presence = self.presence[seat]
            count = counts.get(seat, 0)
            if count == presence.elsewhere:
                continue
            before = presence.connections + presence.elsewhere > 0
            presence.elsewhere = count
            if count > 0:
                self._present(seat)
            elif presence.connections == 0:
                self._start_grace(seat)
            changed = changed or before != (presence.connections + count > 0)
        return changed

    def _start_grace(self, seat: int) -> None:
        presence = self.presence[seat]
        if presence.grace is not None or presence.away:
            return
        loop = asyncio.get_event_loop()
        presence.grace = loop.call_later(
            self.row.settings.grace, lambda: self.queue.put_nowait(Command("grace", message=seat))
        )

    def _grace_over(self, seat: int) -> None:
        presence = self.presence[seat]
        presence.grace = None
        if presence.connections > 0 or presence.elsewhere > 0 or presence.away:
            return
        presence.away = True
        if self.table is not None:
            self.table.set_controller(seat, make_bot(STAND_IN, random.Random(self._rng.getrandbits(64))))
        self.broadcast_lobby()

    # -- commands ----------------------------------------------------------------------

    def _authenticated(self, client: Client | None, token: str) -> int | None:
        """The client's seat when ``token`` is that seat's token (step 1 of the pipeline)."""
        if client is None or client not in self.clients:
            return None
        if client.seat is None:
            self.error(client, "auth", "spectators cannot act: join the table to get a seat")
            return None
        if not auth.token_matches(token, self.row.seats[client.seat].token_hash):
            self.error(client, "auth", "that seat token is not valid for your seat")
            return None
        return client.seat

    async def _act(self, client: Client | None, message: Act) -> None:
        seat = self._authenticated(client, message.token)
        if seat is None or client is None:
            self.stats.refused += 1
            return
        refusal = self._refusal(seat, message)
        if refusal is not None:
            self.stats.refused += 1
            code, text, extra = refusal
            self.error(client, code, text, **extra)
            self.sync(client)
            return
        table = self.table
        assert table is not None
        try:
            step = table.submit(seat, message.action, expected_version=message.v)
        except StaleVersionError as error:
            self.stats.refused += 1
            self.error(client, "stale", str(error), v=table.version)
            self.sync(client)
            return
        except InvalidNotationError as error:
            self.stats.refused += 1
            self.error(client, "notation", str(error))
            self.sync(client)
            return
        except IllegalActionError as error:
            self.stats.refused += 1
            self.error(client, "illegal", f"Refused ({error.rule}): {error.reason}", rule=error.rule)
            self.sync(client)
            return
        if not await self._commit(step):
            self.stats.refused += 1
            version = self.table.version if self.table is not None else 0
            self.error(client, "stale", f"stale version {message.v}: the table is at version {version}", v=version)
            self.sync(client)

    def _refusal(self, seat: int, message: Act) -> tuple[str, str, Message] | None:
        """Steps 2–4 of the pipeline: the table is live, the seat may act, the version is current."""
        if message.seat != seat:
            return "wrong_seat", f"you hold seat {seat}, not seat {message.seat}", {}
        table, game = self.table, self.game
        if table is None or game is None:
            return "not_started", "the game has not started", {}
        if table.is_over:
            return "over", "the game is over", {}
        if message.game != game.number or message.v != table.version:
            return "stale", f"stale version {message.v}: the table is at version {table.version}", {"v": table.version}
        if self.presence[seat].away:  # cannot happen while connected; kept for the order's sake
            return "away", "a stand-in plays your seat", {}
        return None

    async def _commit(self, step: TableStep) -> bool:
        """Persist the step (committed) and only then broadcast it; ``False`` when its version was taken.

        The store is the sequencer: when another worker accepted an action for this
        version first, the table goes back to what is committed, takes the versions
        it missed from the store (each re-validated by the core) and broadcasts them.
        """
        assert self.game is not None and self.table is not None
        game = self.game
        action = format_action(step.action)
        started = time.perf_counter()
        try:
            await self.store.append_action(self.code, game.number, step.version, step.seat, action)
        except VersionConflict:
            self.metrics.conflicts += 1
            self.table = self._restore(game)
            await self._pull()
            return False
        except Exception:
            await self._reload("the store refused a write")
            return False
        done = time.perf_counter()
        self.metrics.commit.add(done - started)
        game.actions.append((step.seat, action))
        self.stats.actions += 1
        self.broadcast_step(step)
        if self._received:
            self.metrics.step.add(time.perf_counter() - self._received)
        if self.table.is_over:  # over is already durable (its last action is): say so, then mark the game
            game.over = True
            self.broadcast_lobby()
            await self.store.end_game(self.code, game.number)
        return True

    async def _refresh(self, hint: tuple[int, int] | None) -> None:
        """Another worker wrote this table (its notification, or the periodic read): take what is new."""
        game, table = self.game, self.table
        if hint is not None and game is not None and table is not None and hint[0] == game.number:
            if hint[1] > len(game.actions):
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
        rows = await self.store.actions_since(self.code, game.number, len(game.actions))
        self._apply_stored(game, table, [(seat, action) for _version, seat, action in rows])

    def _apply_stored(self, game: GameRow, table: Table, actions: list[tuple[int, str]]) -> None:
        for seat, action in actions:
            # the core re-validates; a refusal raises, and the table is reloaded from the store (_run)
            step = table.submit(seat, action, expected_version=table.version)
            game.actions.append((seat, action))
            self.metrics.remote_steps += 1
            self.broadcast_step(step)
        if actions and table.is_over and not game.over:
            game.over = True
            self.broadcast_lobby()

    def _adopt(self, fresh: TableRow) -> None:
        """Bring the table up to ``fresh`` (a reload from the store): seats, a new game, actions, chat."""
        changed = fresh.seats != self.row.seats
        self.row.seats = fresh.seats
        changed = self._seen_elsewhere(fresh.elsewhere) or changed
        for line in fresh.chat:
            if line.number not in self._chat_seen:
                self._broadcast_chat(self._add_chat(line))
        game = self.game
        if fresh.games and (game is None or fresh.games[-1].number != game.number):
            self.row.games = fresh.games
            self.table = self._restore(fresh.games[-1])
            self._bots_idle_at = None
            self.broadcast_lobby()
            for client in list(self.clients):
                self.sync(client)
            return
        if game is not None and self.table is not None and fresh.games:
            stored = fresh.games[-1]
            self._apply_stored(game, self.table, stored.actions[len(game.actions) :])
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

    async def _bot(self) -> None:
        self._bot_timer = None
        table = self.table
        if table is None or table.is_over:
            return
        before = table.version
        step = table.bot_step()
        if step is None:
            self._bots_idle_at = (self.game.number if self.game else 0, before)
            return
        await self._commit(step)

    async def _timeout(self, stamp: tuple[int, int]) -> None:
        self._turn_timer = None
        table, game = self.table, self.game
        if table is None or game is None or (game.number, table.version) != stamp:
            return
        seat = table.waiting_for()
        if seat is None:
            return
        legal = table.legal(seat)
        bot = make_bot(STAND_IN, random.Random(self._rng.getrandbits(64)))
        action = bot.choose(table.view(seat), legal)
        step = table.submit(seat, action, expected_version=table.version)
        await self._commit(step)

    def _schedule(self) -> None:
        """After every command: a bot's step, or the turn timer of the person to act."""
        table, game = self.table, self.game
        if table is None or game is None or table.is_over:
            return
        if not self.drives(self.code):  # another worker runs this table's bots and timers
            for handle in (self._bot_timer, self._turn_timer):
                if handle is not None:
                    handle.cancel()
            self._bot_timer = self._turn_timer = None
            return
        stamp = (game.number, table.version)
        if self._turn_timer is not None and self._turn_timer_stamp != stamp:
            self._turn_timer.cancel()
            self._turn_timer = None
        seat = table.waiting_for()
        loop = asyncio.get_event_loop()
        if seat is None:
            if self._bot_timer is not None or self._bots_idle_at == stamp:
                return
            delay = self.config.bot_delay
            if self.config.react_delay > delay and self._person_may_react(table):
                delay = self.config.react_delay
            if delay <= 0:
                self._bot_timer = loop.call_soon(self.queue.put_nowait, Command("bot"))
            else:
                self._bot_timer = loop.call_later(delay, self.queue.put_nowait, Command("bot"))
            return
        if self.row.settings.turn_seconds > 0 and self._turn_timer is None:
            self._turn_timer_stamp = stamp
            self._turn_timer = loop.call_later(
                self.row.settings.turn_seconds, self.queue.put_nowait, Command("timeout", stamp=stamp)
            )

    _turn_timer_stamp: tuple[int, int] = (0, 0)

    def _person_may_react(self, table: Table) -> bool:
        """A connected person, not the one to act, has a legal action: an out-of-turn window is open."""
        to_act = table.state.to_act
        return any(
            seat != to_act
            and self.presence[seat].connections > 0
            and not self.presence[seat].away
            and table.legal(seat)
            for seat in self.human_seats()
        )

    async def _chat(self, client: Client | None, message: Chat) -> None:
        if client is None or client not in self.clients:
            return
        seat = self._authenticated(client, message.token)
        if seat is None:
            return
        line = await self.store.add_chat(self.code, seat, self.row.seats[seat].name, message.text)
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

    def _is_host(self, client: Client | None, token: str) -> bool:
        seat = self._authenticated(client, token)
        if seat is None:
            return False
        if seat != 0:
            assert client is not None
            self.error(client, "not_host", "only the table's creator (seat 0) can do that")
            return False
        return True

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

    async def _start_game(self, client: Client | None, message: Start) -> None:
        if not self._is_host(client, message.token):
            return
        assert client is not None
        if self.status != "lobby":
            self.error(client, "started", "the game has already started")
            return
        if self.open_seats() and self.store.shared:  # a join on another worker may not have reached this one yet
            with contextlib.suppress(ProtocolError):
                self._catch_up_seats()
        open_seats = self.open_seats()
        if open_seats and not message.fill:
            self.error(client, "seats_open", f"{len(open_seats)} seat(s) still open: wait, or fill them with bots")
            return
        for seat in open_seats:
            row = SeatRow(f"Bot {seat}", None, message.bot)
            try:
                await self.store.put_seat(self.code, seat, row)
            except SeatTaken:  # a person took it on another worker: they play
                with contextlib.suppress(ProtocolError):
                    self._catch_up_seats()
                continue
            self.row.seats[seat] = row
        await self._deal()

    async def _again(self, client: Client | None, message: Again) -> None:
        if not self._is_host(client, message.token):
            return
        assert client is not None
        if self.status != "over":
            self.error(client, "not_over", "the game is not over yet")
            return
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
        self.row.games.append(game)
        self.table = table
        self._bots_idle_at = None
        self.broadcast_lobby()
        for client in list(self.clients):
            self.sync(client)

    def _record_text(self, number: int) -> str | None:
        for game in self.row.games:
            if game.number == number and game.over:
                return format_record(self._record(game))
        return None


def _always(code: str) -> bool:
    return True
