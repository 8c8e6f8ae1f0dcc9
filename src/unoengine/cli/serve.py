"""``uno serve``: the browser game (lobby, tables, bots) on one port, kept in an SQLite file or PostgreSQL.

SIGTERM (or Ctrl+C) stops the server within a few seconds, whatever its clients
do: open requests get :data:`GRACE_SECONDS` to finish and are then cancelled, and
a server that has still not stopped :data:`FORCE_SECONDS` after the signal exits
at once (every action it acknowledged is already committed to the store).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sqlite3
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import click

from unoengine.cli.arguments import AsciiInt, Seconds
from unoengine.cli.common import CONTEXT
from unoengine.cli.files import problem_of, shown_path
from unoengine.core.errors import excerpt, one_line

if TYPE_CHECKING:
    import uvicorn


def default_db() -> Path:
    """``$XDG_DATA_HOME/unoengine/tables.sqlite3`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "unoengine" / "tables.sqlite3"


@click.command("serve", context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every network).")
@click.option("--port", type=AsciiInt(low=0, high=65535), default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--db",
    default=None,
    envvar="UNO_DB",
    help="The SQLite file of the tables (created on first run), or postgresql://user@host/database "
    "(the extra 'postgres'). Default: ~/.local/share/unoengine/tables.sqlite3  [env UNO_DB]",
)
@click.option(
    "--workers",
    type=AsciiInt(low=1, high=64),
    default=1,
    show_default=True,
    envvar="UNO_WORKERS",
    help="Server processes on the one port (needs --db postgresql://...).  [env UNO_WORKERS]",
)
@click.option("--memory", is_flag=True, help="Keep the tables in memory only (lost when the server stops).")
@click.option(
    "--bot-delay", type=Seconds(), default=0.6, show_default=True, help="Seconds a bot waits to act (0 to 60)."
)
@click.option(
    "--react-delay",
    type=Seconds(),
    default=3.0,  # unoengine.server.actor.REACT_DELAY (its reasons there); not imported: the server loads lazily
    show_default=True,
    help="The people's reaction time: no bot catches, calls UNO or jumps in sooner while a person could (0 to 60).",
)
@click.option(
    "--round-wait",
    type=Seconds(high=600),
    default=15.0,
    show_default=True,
    help="Seconds the next round waits at most for every person's 'Next round' (0: no wait, else 10 to 600).",
)
@click.option(
    "--review-workers",
    type=AsciiInt(low=0, high=16),
    default=1,
    show_default=True,
    envvar="UNO_REVIEW_WORKERS",
    help="Processes that analyse finished games for their review, at a lower priority (0: reviews without "
    "analysis).  [env UNO_REVIEW_WORKERS]",
)
def serve(
    *,
    host: str,
    port: int,
    db: str | None,
    workers: int,
    memory: bool,
    bot_delay: float,
    react_delay: float,
    round_wait: float,
    review_workers: int,
) -> None:
    """Serve UNO in the browser: open the printed address, create a table, send the link to your friends."""

    from unoengine.server.actor import MIN_ROUND_WAIT
    from unoengine.server.app import UnoServer
    from unoengine.server.store import SQLiteStore, StoreError, describe
    from unoengine.server.worker import ServeSpec, cluster_settings, is_postgres, open_store, supervise, uvicorn_config

    if 0 < round_wait < MIN_ROUND_WAIT:
        raise click.BadParameter(f"0 (no wait) or at least {MIN_ROUND_WAIT:g} seconds", param_hint="'--round-wait'")
    spec = ServeSpec(
        host,
        port,
        db or str(default_db()),
        memory,
        bot_delay,
        react_delay=react_delay,
        round_wait=round_wait,
        review_workers=review_workers,
    )
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if workers > 1:
        if memory or not is_postgres(spec.db):
            raise click.UsageError("--workers needs --db postgresql://... (an SQLite file has one writer)")
        _listen(host, port).close()  # the port is free: refuse here (exit 2), not in every worker
        click.echo(
            one_line(f"uno serve: open http://{shown}:{port}/ in your browser ({workers} workers on PostgreSQL)", 1000)
        )
        supervise(spec, workers)
        return
    listener = _listen(host, port)
    port = listener.getsockname()[1]
    try:
        cluster_settings()  # checked here: a bad value is a one-line error
        store = open_store(spec)
    except (StoreError, RuntimeError) as error:
        click.echo(one_line(f"error: {error}"), err=True)
        sys.exit(2)
    except (OSError, sqlite3.Error) as error:
        problem = problem_of(error) if isinstance(error, OSError) else str(error)
        click.echo(one_line(f"error: cannot open the database {shown_path(Path(spec.db))}: {problem}"), err=True)
        sys.exit(2)
    where = f"SQLite {shown_path(store.path)}" if isinstance(store, SQLiteStore) else describe(store)
    server = UnoServer(store, spec.server_config())
    banner = f"uno serve: open http://{shown}:{port}/ in your browser (tables kept in {where}; Ctrl+C stops)"
    click.echo(one_line(banner, 1000))
    config = uvicorn_config(server, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACE_SECONDS)
    _stopping_server(config).run(sockets=[listener])


def _listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound before anything else is done; refused (exit 2) when it cannot be."""
    try:
        family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        return socket.create_server(address, family=family)
    except (OSError, UnicodeError, ValueError) as error:  # an unknown host, a port in use, no permission ...
        problem = problem_of(error) if isinstance(error, OSError) else "not a host name"
        click.echo(one_line(f"error: cannot listen on {excerpt(host)} port {port}: {problem}"), err=True)
        sys.exit(2)


GRACE_SECONDS = 2
"""After SIGTERM or Ctrl+C: how long open requests and connections get before they are cancelled."""

FORCE_SECONDS = 5.0
"""After SIGTERM or Ctrl+C: when a server that has not stopped (a hung shutdown) exits at once."""


def _stopping_server(config: uvicorn.Config) -> uvicorn.Server:
    """A uvicorn server that a signal always stops: gracefully, or after :data:`FORCE_SECONDS` at once."""
    import uvicorn

    class StoppingServer(uvicorn.Server):
        watchdog: threading.Timer | None = None

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            if self.watchdog is None:
                self.watchdog = threading.Timer(FORCE_SECONDS, _force_exit)
                self.watchdog.daemon = True
                self.watchdog.start()

    logging.getLogger("uvicorn.error").addFilter(_not_cancelled)
    return StoppingServer(config)


def _not_cancelled(record: logging.LogRecord) -> bool:
    """Leave out the traceback of a request cancelled at shutdown (one line already says so)."""
    return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


def _force_exit() -> None:
    sys.stderr.write(f"uno serve: not stopped {FORCE_SECONDS:g} s after the signal; stopping at once\n")
    sys.stderr.flush()
    os._exit(1)
