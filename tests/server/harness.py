"""A live ``uno serve`` in the test's event loop, and a small WebSocket client for it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.request import Request, urlopen

import uvicorn
import websockets

from unoengine.server.actor import Client, ServerConfig
from unoengine.server.app import UnoServer
from unoengine.server.store import MemoryStore, Store
from unoengine.server.worker import uvicorn_config


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Live:
    """A running server: its base URL, the :class:`UnoServer` and every message it sent, per table and seat."""

    url: str
    server: UnoServer
    sent: list[tuple[str, int | None, dict[str, Any]]] = field(default_factory=list)

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"

    async def post(self, path: str, body: Any) -> tuple[int, Any]:
        return await asyncio.to_thread(http, "POST", self.url + path, body)

    async def get(self, path: str) -> tuple[int, Any]:
        return await asyncio.to_thread(http, "GET", self.url + path, None)


def http(method: str, url: str, body: Any) -> tuple[int, Any]:
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urlopen(request, timeout=10) as response:
            raw = response.read()
            status = response.status
    except Exception as error:  # HTTPError carries the status and body
        status = getattr(error, "code", 0)
        raw = error.read() if hasattr(error, "read") else b""
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode()


default_store: Callable[[], Store] = MemoryStore
"""The store of a ``live_server()`` not given one: tests/server/conftest.py runs each test on SQLite and PostgreSQL."""

db_argument = ""
"""What ``uno serve --db`` gets in a test that starts the server as a process (an SQLite path or a URL)."""

FAST = {"bot_delay": 0.0, "react_delay": 0.0, "round_wait": 0.0, "message_rate": 1e6, "message_burst": 1e6}
"""Test clients act as fast as they can: no bot delay and no rate limit unless a test asks for them."""


@contextlib.asynccontextmanager
async def live_server(store: Store | None = None, **config: Any) -> AsyncIterator[Live]:
    """Serve on a free loopback port for the duration of the block."""
    port = free_port()
    sent: list[tuple[str, int | None, dict[str, Any]]] = []

    def tap(code: str, client: Client, message: dict[str, Any]) -> None:
        sent.append((code, client.seat, message))

    server = UnoServer(
        store or default_store(),
        ServerConfig(**{**FAST, **config}),
        tap=tap,
    )
    uv = uvicorn.Server(uvicorn_config(server, host="127.0.0.1", port=port, log_level="warning"))  # as uno serve
    task = asyncio.create_task(uv.serve())
    while not uv.started:
        await asyncio.sleep(0.01)
        if task.done():
            task.result()
    try:
        yield Live(f"http://127.0.0.1:{port}", server, sent)
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, 10)


class Player:
    """A WebSocket client at one table: keeps the latest view and version, and every message received."""

    def __init__(self, ws: Any, code: str, seat: int | None, token: str | None) -> None:
        self.ws = ws
        self.code = code
        self.seat = seat
        self.token = token
        self.view: dict[str, Any] | None = None
        self.v = 0
        self.game = 0
        self.lobby: dict[str, Any] | None = None
        self.received: list[dict[str, Any]] = []
        self.acked: list[tuple[int, int, str]] = []
        """(game, version, action) of every step seen, in order."""

    @classmethod
    async def connect(
        cls, live: Live, code: str, token: str | None = None, seat: int | None = None, **hello: Any
    ) -> Player:
        ws = await websockets.connect(live.ws_url, max_size=2**22)
        player = cls(ws, code, seat, token)
        await player.send({"type": "hello", "table": code, **({"token": token} if token else {}), **hello})
        await player.expect("welcome")
        return player

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def _absorb(self, message: dict[str, Any]) -> None:
        self.received.append(message)
        kind = message.get("type")
        if kind in ("sync", "step", "steps"):
            self.view = message["view"]
            self.v = message["v"]
            self.game = message["game"]
            if kind == "step":
                self.acked.append((message["game"], message["v"], message["action"]))
            if kind == "steps":
                self.acked += [(message["game"], step["v"], step["action"]) for step in message["steps"]]
        if kind in ("lobby", "welcome"):
            self.lobby = message["table"]

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self._absorb(message)
        return message  # type: ignore[no-any-return]

    async def expect(self, *kinds: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of one of ``kinds`` (others are absorbed on the way)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - loop.time()))
            if message.get("type") in kinds:
                return message

    async def drain(self, quiet: float = 0.05) -> None:
        """Absorb messages until none arrives for ``quiet`` seconds."""
        with contextlib.suppress(asyncio.TimeoutError):
            while True:
                await self.recv(quiet)

    async def act(self, action: str, v: int | None = None, seat: int | None = None) -> None:
        await self.send(
            {
                "type": "act",
                "seat": self.seat if seat is None else seat,
                "token": self.token,
                "game": self.game,
                "v": self.v if v is None else v,
                "action": action,
            }
        )

    async def close(self) -> None:
        await self.ws.close()


async def create(live: Live, **settings: Any) -> tuple[str, str]:
    """Create a table; return its code and the creator's token (seat 0)."""
    status, body = await live.post("/api/tables", settings)
    assert status == 200, body
    return body["code"], body["token"]


async def join(live: Live, code: str, name: str) -> tuple[int, str]:
    status, body = await live.post(f"/api/tables/{code}/join", {"name": name})
    assert status == 200, body
    return body["seat"], body["token"]


async def start_two_humans(
    live: Live, other: Live | None = None, **settings: Any
) -> tuple[str, str, str, Player, Player]:
    """A single-round Classic table of two people, started: its code, both tokens and both players.

    With ``other`` (a second worker on the same database), the second person is connected there.
    """
    code, token0 = await create(live, rules="classic", seats=2, options={"single_round": True}, **settings)
    _seat, token1 = await join(live, code, "Bob")
    p0 = await Player.connect(live, code, token0, seat=0)
    p1 = await Player.connect(other or live, code, token1, seat=1)
    await p0.send({"type": "start", "token": token0})
    await p0.expect("sync")
    await p1.expect("sync")
    return code, token0, token1, p0, p1


def my_turn(player: Player) -> bool:
    view = player.view
    return view is not None and view["outcome"] is None and view["to_act"] == player.seat and bool(view["legal"])


def choose(view: dict[str, Any], rng: Any) -> str:
    """A client-side pick among the view's legal actions (no rule of its own)."""
    legal = [action for action in view["legal"] if not action.startswith("catch")] or view["legal"]
    plays = [action for action in legal if action not in ("draw", "pass")]
    return str(rng.choice(plays or legal))


async def play_out(players: list[Player], rng: Any, turns: int = 3000, quiet: float = 0.01) -> None:
    """Play until the first player's view shows the game's outcome: each person acts on their turn."""
    for _ in range(turns):
        for player in players:
            await player.drain(quiet)
        view = players[0].view
        if view is not None and view["outcome"] is not None:
            return
        for player in players:
            if my_turn(player):
                assert player.view is not None
                await player.act(choose(player.view, rng))
                await player.expect("step", "error")
    raise AssertionError("the game did not end")


async def finish_game(host: Player, token: str, rng: random.Random, *, again: bool = False) -> None:
    """Deal (or deal again) and play the host's decisions until the game is over; the bot plays the rest."""
    await host.send({"type": "again" if again else "start", "token": token})
    await host.expect("sync")
    while host.view is None or host.view["outcome"] is None:
        if my_turn(host):
            assert host.view is not None
            await host.act(choose(host.view, rng))
        await host.expect("step", "error", "sync")
    await host.expect("lobby")
