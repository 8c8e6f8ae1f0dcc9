"""``uno serve``: the browser game (lobby, tables, bots) on one port, kept in an SQLite file."""

from __future__ import annotations

import os
from pathlib import Path

import click

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def default_db() -> Path:
    """``$XDG_DATA_HOME/unoengine/tables.sqlite3`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "unoengine" / "tables.sqlite3"


@click.command("serve", context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite file of the tables (created on first run). Default: ~/.local/share/unoengine/tables.sqlite3",
)
@click.option("--memory", is_flag=True, help="Keep the tables in memory only (lost when the server stops).")
@click.option(
    "--bot-delay", type=click.FloatRange(min=0), default=0.6, show_default=True, help="Seconds a bot waits to act."
)
def serve(*, host: str, port: int, db: Path | None, memory: bool, bot_delay: float) -> None:
    """Serve UNO in the browser: open the printed address, create a table, send the link to your friends."""
    import uvicorn

    from unoengine.server.actor import ServerConfig
    from unoengine.server.app import MAX_WS_BYTES, UnoServer, create_app
    from unoengine.server.store import MemoryStore, SQLiteStore, Store

    store: Store
    if memory:
        store = MemoryStore()
        where = "memory (nothing is kept)"
    else:
        path = db if db is not None else default_db()
        store = SQLiteStore(path)
        where = str(path)
    server = UnoServer(store, ServerConfig(bot_delay=bot_delay))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"uno serve: open http://{shown}:{port}/ in your browser (tables kept in {where}; Ctrl+C stops)")
    uvicorn.run(
        create_app(server),
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MAX_WS_BYTES,
        log_level="warning",
        lifespan="on",
    )
