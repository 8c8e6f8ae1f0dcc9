"""One WebSocket client of ``uno serve``: its outgoing queue, its rate limits, and the loop that reads its
messages and hands each to its table's actor (docs/PROTOCOL.md, "WebSocket ``/ws``")."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from unoengine.i18n import said
from unoengine.server import auth
from unoengine.server.commands import OUTBOX, Client, Disconnect
from unoengine.server.protocol import Chat, Hello, Ping, ProtocolError, Sync, dumps, localized, parse_message

if TYPE_CHECKING:
    from unoengine.server.actor import TableActor
    from unoengine.server.app import UnoServer


class TokenBucket:
    """``rate`` events per second, bursts of ``burst``; ``clock`` tells the time in seconds.

    >>> now = [0.0]
    >>> bucket = TokenBucket(1, 2, clock=lambda: now[0])
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    >>> now[0] = 1.0
    >>> bucket.take(), bucket.take()
    (True, False)
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class SocketOutlet:
    """A client's outgoing queue and the task that writes it to the WebSocket."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=OUTBOX)
        self.closed = False
        self.task = asyncio.get_running_loop().create_task(self._write())

    def push(self, text: str) -> bool:
        if self.closed:
            return True
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            return False
        return True

    def drop(self, reason: str) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            self.reason = reason

    async def _write(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)
            await self.websocket.close(code=1008, reason=getattr(self, "reason", "")[:100])
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True

    async def finish(self) -> None:
        self.closed = True
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


CHAT_RATE = 1.0
CHAT_BURST = 5.0
"""Chat lines a second per connection, and its burst."""

NOT_A_CODE = ("bad_code", said("that is not a table code ({n} letters and digits)", n=auth.CODE_LENGTH))
"""The error of a code no table could have (``GET /api/tables/{code}``, a ``hello``)."""

FLOOD_LIMIT = 200
"""Refused messages (over the rate) after which a connection is closed."""

RATE_SYNC_SECONDS = 1.0
"""The delay of the ``sync`` that follows messages refused by the rate limit (at most one a second)."""


async def serve_socket(server: UnoServer, websocket: WebSocket) -> None:
    """One client's connection: parse, check, and hand every command to its table's actor."""
    outlet = SocketOutlet(websocket)
    client = Client(outlet)
    actor: TableActor | None = None
    bucket = TokenBucket(server.config.message_rate, server.config.message_burst, server.clock)
    chat_bucket = TokenBucket(CHAT_RATE, CHAT_BURST, server.clock)
    flooded = 0
    last_notice = 0.0
    owed_sync: asyncio.TimerHandle | None = None

    def sync_after_refusal() -> None:
        # A message over the rate is dropped unread (it may have been an act): a sync follows
        # within RATE_SYNC_SECONDS, one for all the messages dropped meanwhile.
        nonlocal owed_sync
        owed_sync = None
        if actor is not None and not outlet.closed:
            actor.submit(Sync(None, None), client)

    def reply(message: dict[str, Any]) -> None:
        if actor is not None:
            actor.send(client, message)
        else:
            outlet.push(dumps(localized(message, client.lang)))

    try:
        while not outlet.closed:
            event = await websocket.receive()
            received = time.perf_counter()
            if event["type"] == "websocket.disconnect":
                break
            text = event.get("text")
            if not bucket.take():
                flooded += 1
                if flooded > FLOOD_LIMIT:
                    reply({"type": "error", "code": "flood", "message": said("too many messages: disconnected")})
                    outlet.drop("flood")
                    break
                now = time.monotonic()
                if now - last_notice > 1:
                    last_notice = now
                    reply({"type": "error", "code": "rate_limited", "message": said("too many messages: slow down")})
                if owed_sync is None:
                    owed_sync = asyncio.get_running_loop().call_later(RATE_SYNC_SECONDS, sync_after_refusal)
                continue
            try:
                if text is None:
                    raise ProtocolError("bad_json", said("messages are JSON text frames"))
                message = parse_message(text)
            except ProtocolError as error:
                reply({"type": "error", "code": error.code, "message": error.message})
                continue
            if isinstance(message, Hello):
                if actor is not None:
                    reply({"type": "error", "code": "bad_type", "message": said("already said hello")})
                    continue
                client.lang = message.lang
                found = server.actor(message.table)
                if found is None:
                    known = auth.is_code(message.table)
                    code, text = ("no_table", said("there is no table with that code")) if known else NOT_A_CODE
                    reply({"type": "error", "code": code, "message": text})
                    continue
                actor = found
                actor.submit(message, client)
                continue
            if isinstance(message, Ping):
                reply({"type": "pong"})
                continue
            if actor is None:
                reply({"type": "error", "code": "hello_first", "message": said("say hello to a table first")})
                continue
            if isinstance(message, Chat) and not chat_bucket.take():
                reply({"type": "error", "code": "rate_limited", "message": said("one chat line a second")})
                continue
            actor.submit(message, client, received)
    except WebSocketDisconnect:
        pass
    finally:
        if owed_sync is not None:
            owed_sync.cancel()
        if actor is not None:
            actor.submit(Disconnect(), client)
        # let queued messages (a last error) go out, then stop the writer
        outlet.drop("bye")
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(outlet.task), 1.0)
        await outlet.finish()
