"""``uno serve --workers N``: N server processes on one port, each a worker on the same PostgreSQL database.

Every worker binds the port with ``SO_REUSEPORT``, so the kernel spreads new
connections over them (no front process to pass through); each has its own event
loop, store connections, listener and leases (:mod:`unoengine.server.fanout`). The
parent only supervises: it starts the workers, starts again one that dies (after a
second), and on SIGTERM or SIGINT stops them all. More hosts are more ``uno serve``
processes on the same database behind one load balancer.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import sys
import time
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from unoengine.server.store import MemoryStore, SQLiteStore, Store

if TYPE_CHECKING:
    import uvicorn

    from unoengine.server.actor import ServerConfig
    from unoengine.server.app import UnoServer


@dataclass(frozen=True)
class ServeSpec:
    """What ``uno serve`` was asked for."""

    host: str
    port: int
    db: str
    """An SQLite file, or ``postgresql://…``."""
    memory: bool = False
    bot_delay: float = 0.6
    log_level: str = "warning"
    react_delay: float = 3.0  # actor.REACT_DELAY (its reasons there)
    round_wait: float = 15.0
    review_workers: int = 1

    def server_config(self) -> ServerConfig:
        """The server's knobs: the bots' pace, the people's reaction time, the wait between rounds, the review
        analyses' processes, the cluster's."""
        from unoengine.server.actor import ServerConfig

        return ServerConfig(
            bot_delay=self.bot_delay,
            react_delay=self.react_delay,
            round_wait=self.round_wait,
            review_workers=self.review_workers,
            cluster=cluster_settings(),
        )


def cluster_settings(environ: dict[str, str] | None = None) -> dict[str, float]:
    """``UNO_POLL_SECONDS`` (the periodic read, default 3) and ``UNO_LEASE_SECONDS`` (a lease's life, default 10).

    >>> cluster_settings({"UNO_LEASE_SECONDS": "4"})
    {'lease_seconds': 4.0}
    """
    env = os.environ if environ is None else environ
    settings: dict[str, float] = {}
    for name, key in (("UNO_POLL_SECONDS", "poll_seconds"), ("UNO_LEASE_SECONDS", "lease_seconds")):
        if name in env:
            try:
                value = float(env[name])
            except ValueError:
                value = -1.0
            if not 0.1 <= value <= 3600:
                raise RuntimeError(f"{name} must be a number of seconds from 0.1 to 3600, not {env[name]!r}")
            settings[key] = value
    return settings


def is_postgres(db: str) -> bool:
    """``--db`` names a PostgreSQL database (rather than an SQLite file).

    >>> is_postgres("postgresql://uno@db/uno"), is_postgres("tables.sqlite3")
    (True, False)
    """
    return db.startswith(("postgresql://", "postgres://"))


def open_store(spec: ServeSpec) -> Store:
    """The store ``spec`` names (PostgreSQL needs the optional extra ``postgres``)."""
    if spec.memory:
        return MemoryStore()
    if is_postgres(spec.db):
        try:
            from unoengine.server.postgres import PostgresStore
        except ImportError:
            raise RuntimeError("PostgreSQL needs the optional extra: pip install 'unoengine[postgres]'") from None
        return PostgresStore(spec.db)
    return SQLiteStore(Path(spec.db))


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` that other processes may bind too (``SO_REUSEPORT``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(4096)
    sock.set_inheritable(True)
    return sock


def uvicorn_config(server: UnoServer, **settings: Any) -> uvicorn.Config:
    """uvicorn's settings for the app of ``server``, the same for ``uno serve``, its workers and the load benchmark
    (``settings``: uvicorn's own, such as ``log_level``).

    WebSockets run on uvicorn's sans-I/O implementation, messages are at most
    :data:`~unoengine.server.app.MAX_WS_BYTES`, and no message is compressed
    (``permessage-deflate`` is not offered). Compression took a tenth of the server's
    CPU in the load benchmark's profile (every step's message deflated for every
    seat), to save about 2 KB a step: at a person's pace a few kilobytes a second,
    which no connection notices. Clients see no difference: the extension is
    negotiated, and a client that asks for it gets messages without it.
    """
    import uvicorn

    from unoengine.server.app import MAX_WS_BYTES, create_app

    return uvicorn.Config(
        create_app(server),
        ws="websockets-sansio",
        ws_max_size=MAX_WS_BYTES,
        ws_per_message_deflate=False,
        lifespan="on",
        **settings,
    )


def run_worker(spec: ServeSpec) -> None:
    """One worker: its own store, server and uvicorn loop on a ``SO_REUSEPORT`` socket."""
    import uvicorn

    from unoengine.server.app import UnoServer

    sock = reuse_port_socket(spec.host, spec.port)
    server = UnoServer(open_store(spec), spec.server_config())
    uvicorn.Server(uvicorn_config(server, log_level=spec.log_level, backlog=4096)).run(sockets=[sock])


def supervise(spec: ServeSpec, workers: int) -> None:
    """Run ``workers`` worker processes until SIGTERM or SIGINT; start again any that dies."""
    reuse_port_socket(spec.host, spec.port).close()  # the port is free and ours: fail here, not in every worker
    context = multiprocessing.get_context("spawn")
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start() -> BaseProcess:
        process = context.Process(target=run_worker, args=(spec,), name="uno-worker", daemon=False)
        process.start()
        return process

    processes = [start() for _ in range(workers)]
    while not stopping:
        time.sleep(0.2)
        for index, process in enumerate(processes):
            if not process.is_alive() and not stopping:
                print(f"uno serve: worker {process.pid} stopped ({process.exitcode}): restarting", file=sys.stderr)
                time.sleep(1.0)
                processes[index] = start()
    for process in processes:
        if process.is_alive() and process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()  # uvicorn stops gracefully on SIGTERM
    deadline = time.monotonic() + 15
    for process in processes:
        process.join(max(0.1, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
