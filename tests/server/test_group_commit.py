"""Group commit: many tables share a transaction, and an append is answered only once its commit is durable."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from tests.server import harness
from unoengine.server.postgres import PostgresStore
from unoengine.server.protocol import parse_settings
from unoengine.server.store import GameRow, SQLiteStore, Store

ROOT = Path(__file__).resolve().parents[2]
TABLES = 60
SETTINGS, _host = parse_settings({"rules": "classic", "seats": 2})

CHILD = """
import asyncio, sys
from unoengine.server.protocol import parse_settings
from unoengine.server.store import GameRow

db, prefix, tables = sys.argv[1], sys.argv[2], int(sys.argv[3])
settings, _host = parse_settings({"rules": "classic", "seats": 2})


async def main() -> None:
    if db.startswith("postgresql://"):
        from unoengine.server.postgres import PostgresStore
        store = PostgresStore(db, channel="test_group_commit")
    else:
        from unoengine.server.store import SQLiteStore
        store = SQLiteStore(db)
    codes = [f"{prefix}{n:03d}" for n in range(tables)]
    for code in codes:
        await store.create_table(code, settings, 0.0)
        await store.start_game(code, GameRow(1, 7, "salt"))
    print("ready", flush=True)

    async def table(code: str) -> None:
        version = 0
        while True:
            version += 1
            await store.append_action(code, 1, version, version % 2, f"play {code} {version}")
            sys.stdout.write(f"ack {code} {version}\\n")
            sys.stdout.flush()

    await asyncio.gather(*(table(code) for code in codes))


asyncio.run(main())
"""


def stored_actions(db: str, prefix: str) -> list[tuple[str, int, int, int, str]]:
    """Every (code, game, version, seat, action) of the tables whose code starts with ``prefix``."""
    query = "SELECT code, game, version, seat, action FROM actions WHERE code LIKE {} ORDER BY code, game, version"
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as connection:
            rows = connection.execute(query.format("%s").encode(), (prefix + "%",)).fetchall()
    else:
        with sqlite3.connect(db) as connection:
            rows = connection.execute(query.format("?"), (prefix + "%",)).fetchall()
    return [(str(c), int(g), int(v), int(s), str(a)) for c, g, v, s, a in rows]


def test_sigkill_mid_group_commit_loses_no_acknowledged_append_and_doubles_none() -> None:
    db, prefix = harness.db_argument, f"K{secrets.token_hex(2).upper()}"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, db, prefix, str(TABLES)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    acked: dict[str, int] = {}

    def ack(line: str) -> None:
        words = line.split()
        if words and words[0] == "ack":
            code, version = words[1], int(words[2])
            assert version == acked.get(code, 0) + 1  # each table is answered in order, one version at a time
            acked[code] = version

    try:
        assert child.stdout is not None
        deadline = time.monotonic() + 15
        for line in child.stdout:
            ack(line)
            if sum(acked.values()) >= 600:
                break
            assert time.monotonic() < deadline, "the child acknowledged too few appends"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for line in child.stdout.read().splitlines(keepends=True):  # acknowledged before the kill, not read yet
            if line.endswith("\n"):
                ack(line)
    finally:
        child.kill()
        child.wait()
    assert sum(acked.values()) >= 600

    rows = stored_actions(db, prefix)
    assert len(rows) == len({row[:3] for row in rows})  # no (code, game, version) twice
    versions: dict[str, list[int]] = {}
    for code, game, version, seat, action in rows:
        assert game == 1
        assert (seat, action) == (version % 2, f"play {code} {version}")
        versions.setdefault(code, []).append(version)
    for stored in versions.values():
        assert stored == list(range(1, len(stored) + 1))  # contiguous from 1: nothing missing, nothing doubled
    for code, last in acked.items():
        # every acknowledged append is there; beyond it, at most the one append the table had in flight
        assert last <= len(versions.get(code, [])) <= last + 1, (code, last, versions.get(code))


def open_store(db: str) -> Store:
    if db.startswith("postgresql://"):
        return PostgresStore(db, channel=f"test_{secrets.token_hex(4)}")
    return SQLiteStore(db, window=0.05)


async def test_appends_of_many_tables_arriving_together_share_one_commit() -> None:
    store = open_store(harness.db_argument)
    try:
        codes = [f"W{secrets.token_hex(3).upper()}" for _ in range(20)]
        await asyncio.gather(*(store.create_table(code, SETTINGS, 0.0) for code in codes))
        await asyncio.gather(*(store.start_game(code, GameRow(1, 3, "salt")) for code in codes))
        before = store.commits  # type: ignore[attr-defined]
        await asyncio.gather(*(store.append_action(code, 1, 1, 0, "draw") for code in codes))
        assert 1 <= store.commits - before <= 3  # type: ignore[attr-defined]
        assert all(store.load_table(code).games[0].actions == [(0, "draw")] for code in codes)  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_sqlite_without_a_window_commits_at_once_and_still_answers_every_write(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.sqlite3", window=0)
    try:
        await store.create_table("ZERO", SETTINGS, 0.0)
        await store.start_game("ZERO", GameRow(1, 3, "salt"))
        started = time.monotonic()
        for version in range(1, 11):
            await store.append_action("ZERO", 1, version, 0, "draw")
        assert time.monotonic() - started < 2
        assert store.writes >= 12 and store.commits >= 12
        assert await store.actions_since("ZERO", 1, 8) == [(9, 0, "draw"), (10, 0, "draw")]
    finally:
        await store.close()
