"""Fan-out across workers on one PostgreSQL database: ``LISTEN`` is the fast path, a read the correctness path.

Every write of the PostgreSQL store notifies its channel after commit (payload
``"CODE GAME VERSION"`` for an action, one line per action of a group commit, and
``"CODE"`` for anything else). Each worker
keeps **one dedicated autocommit connection** that only listens (psycopg cannot run
queries on a connection waiting for notifications) and hands each notification to
the table's actor, if this worker has the table in memory; the actor reads what it
lacks from the store, re-validates each action with the core, and broadcasts it.

Notifications sent while the listener is disconnected are lost, so on every
(re)connect and every ``poll_seconds`` the worker compares, for every table it has,
what the database holds (seats, games, last version, chat lines) with what it
has, and refreshes the tables that differ.

:class:`Cluster` also runs the :class:`~unoengine.server.lease.Leases` of the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

import psycopg

from unoengine.server.actor import Refresh, Wake
from unoengine.server.lease import Leases
from unoengine.server.postgres import PostgresStore

if TYPE_CHECKING:
    from unoengine.server.app import UnoServer


def worker_name() -> str:
    """This worker's name in leases: host, process and a random tail (a restarted worker is a new one)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    """One worker's part: the listener, the periodic read and the leases."""

    def __init__(
        self, server: UnoServer, store: PostgresStore, *, poll_seconds: float = 3.0, lease_seconds: float = 10.0
    ) -> None:
        self.server = server
        self.store = store
        self.name = worker_name()
        self.poll_seconds = poll_seconds
        self.leases = Leases(store, self.name, ttl=lease_seconds)
        store.worker = self.name
        store.alive_seconds = 1.5 * lease_seconds
        self._presence: asyncio.Queue[tuple[str, int, int]] = asyncio.Queue()
        self.listener_pid: int | None = None
        """The listener connection's backend process (``pg_terminate_backend`` in the tests)."""
        self.reconnects = 0
        self.notifications = 0
        self._listening = asyncio.Event()
        self._poke = asyncio.Event()
        self._asked: dict[str, float] = {}

    def drives(self, code: str) -> bool:
        """This worker runs ``code``'s bots and timers now; if not, the lease is asked for soon."""
        if self.leases.holds(code):
            return True
        now = time.monotonic()
        if self._asked.get(code, 0.0) < now - self.leases.ttl / 3:  # once a round: another worker may hold it
            self._asked[code] = now
            self._poke.set()
        return False

    async def run(self) -> None:
        """Listen, poll and renew leases until cancelled."""
        jobs = (self._listen(), self._poll(), self._lease(), self._write_presence())
        tasks = [asyncio.create_task(job) for job in jobs]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            with contextlib.suppress(Exception):
                await self.leases.release_all()

    async def listening(self, timeout: float = 10.0) -> None:
        """Wait until the listener is connected (tests, start-up)."""
        await asyncio.wait_for(self._listening.wait(), timeout)

    # -- the fast path ---------------------------------------------------------------

    async def _listen(self) -> None:
        delay = 0.1
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.store.url, autocommit=True) as connection:
                    await connection.execute(f'LISTEN "{self.store.channel}"'.encode())
                    self.listener_pid = connection.info.backend_pid
                    self._listening.set()
                    delay = 0.1
                    await self.catch_up()  # what was sent while nobody listened
                    async for notice in connection.notifies():
                        self.notifications += 1
                        for line in notice.payload.split("\n"):  # a group commit lists its actions
                            self._deliver(line)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped or the database restarts: connect again
                self._listening.clear()
                self.reconnects += 1
                await asyncio.sleep(delay)
                delay = min(5.0, delay * 2)

    def _deliver(self, payload: str) -> None:
        parts = payload.split(" ")
        actor = self.server.actors.get(parts[0])
        if actor is None:
            return
        if len(parts) == 3:
            actor.submit(Refresh((int(parts[1]), int(parts[2]))))
        else:
            actor.submit(Refresh())

    # -- the correctness path --------------------------------------------------------

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            with contextlib.suppress(psycopg.Error, OSError):
                await self.catch_up()

    async def catch_up(self) -> int:
        """Refresh every table in memory that the database holds more of; how many."""
        actors = dict(self.server.actors)
        if not actors:
            return 0
        stale = 0
        summaries = await self.store.summaries(list(actors))
        for code, summary in summaries.items():
            actor = actors[code]
            if actor.summary() != summary:
                actor.submit(Refresh())
                stale += 1
        return stale

    # -- presence --------------------------------------------------------------------

    def publish_presence(self, code: str, seat: int, connections: int) -> None:
        """This worker now has ``connections`` to ``seat`` of ``code``: tell the others (in order, soon)."""
        self._presence.put_nowait((code, seat, connections))

    async def _write_presence(self) -> None:
        while True:
            latest = {}
            item = await self._presence.get()
            latest[item[:2]] = item[2]
            while not self._presence.empty():  # a burst of changes: the last count of each seat
                more = self._presence.get_nowait()
                latest[more[:2]] = more[2]
            for (code, seat), connections in latest.items():
                with contextlib.suppress(Exception):  # the next change or heartbeat puts it right
                    await self.store.set_presence(code, seat, connections)

    # -- leases ----------------------------------------------------------------------

    async def _lease(self) -> None:
        every = self.leases.ttl / 3
        while True:
            self._poke.clear()
            self._asked = {code: at for code, at in self._asked.items() if code in self.server.actors}
            with contextlib.suppress(psycopg.Error, OSError):
                await self.store.heartbeat()
                wanted = [code for code, actor in self.server.actors.items() if actor.status == "playing"]
                for code in await self.leases.renew(wanted):
                    actor = self.server.actors.get(code)
                    if actor is not None:
                        actor.submit(Wake())  # its bots and timers start here
            await asyncio.sleep(0.05)  # a burst of asks is one statement
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), every)

    def stats(self) -> dict[str, Any]:
        return {
            "worker": self.name,
            "leases": len(self.leases.held),
            "notifications": self.notifications,
            "listener_reconnects": self.reconnects,
        }
