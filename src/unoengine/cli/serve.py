"""``uno serve``: the browser game (lobby, tables, bots) on one port, kept in an SQLite file or PostgreSQL."""

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
    default=None,
    envvar="UNO_DB",
    help="The SQLite file of the tables (created on first run), or postgresql://user@host/database "
    "(the extra 'postgres'). Default: ~/.local/share/unoengine/tables.sqlite3  [env UNO_DB]",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    envvar="UNO_WORKERS",
    help="Server processes on the one port (needs --db postgresql://...).  [env UNO_WORKERS]",
)
@click.option("--memory", is_flag=True, help="Keep the tables in memory only (lost when the server stops).")
@click.option(
    "--bot-delay", type=click.FloatRange(min=0), default=0.6, show_default=True, help="Seconds a bot waits to act."
)
def serve(*, host: str, port: int, db: str | None, workers: int, memory: bool, bot_delay: float) -> None:
    """Serve UNO in the browser: open the printed address, create a table, send the link to your friends."""
    import uvicorn

    from unoengine.server.actor import ServerConfig
    from unoengine.server.app import MAX_WS_BYTES, UnoServer, create_app
    from unoengine.server.store import StoreError, describe
    from unoengine.server.worker import ServeSpec, cluster_settings, is_postgres, open_store, supervise

    spec = ServeSpec(host, port, db or str(default_db()), memory, bot_delay)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if workers > 1:
        if memory or not is_postgres(spec.db):
            raise click.UsageError("--workers needs --db postgresql://... (an SQLite file has one writer)")
        click.echo(f"uno serve: open http://{shown}:{port}/ in your browser ({workers} workers on PostgreSQL)")
        supervise(spec, workers)
        return
    try:
        cluster = cluster_settings()
        store = open_store(spec)
    except (StoreError, RuntimeError) as error:
        raise click.ClickException(str(error)) from None
    where = describe(store)
    server = UnoServer(store, ServerConfig(bot_delay=bot_delay, cluster=cluster))
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
