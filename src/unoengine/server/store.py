"""Where tables live on disk: the SQLite store and the schema both stores apply.

The store is the event log (DESIGN.md, "Server"): a table is its settings, its
seats (names and token *hashes*), and per game the seed, its salt and one row per
accepted action, plus the table's chat. A game's state is never stored: it is the
replay of its actions. The :class:`Store` protocol, its rows and errors and the
in-memory store live in :mod:`unoengine.server.memory_store` and are re-exported here.

The store is also the sequencer: an action is accepted only by inserting its
version (primary key ``(code, game, version)``); a second write of one version
raises :class:`VersionConflict`, whichever process made it. The schema is a list
of numbered :data:`MIGRATIONS` that this SQLite store and the PostgreSQL one
(:mod:`unoengine.server.postgres`) both apply, each in its own dialect.

:class:`SQLiteStore` runs in WAL mode with ``synchronous=FULL``: a write returns
only once it is committed to disk. Writes go through one writer thread that
commits the writes of all tables that arrive within a short window in one
transaction (group commit), so many tables share each disk sync without any of
them being answered before its own row is durable.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from unoengine.server.memory_store import (
    CHAT_KEPT,
    ChatRow,
    GameRow,
    MemoryStore,
    SeatRow,
    SeatTaken,
    Store,
    StoreError,
    TableRow,
    VersionConflict,
)
from unoengine.server.protocol import TableSettings, settings_from_json

__all__ = [
    "CHAT_KEPT",
    "MIGRATIONS",
    "SCHEMA_VERSION_TABLE",
    "ChatRow",
    "GameRow",
    "MemoryStore",
    "SQLiteStore",
    "SeatRow",
    "SeatTaken",
    "Store",
    "StoreError",
    "TableRow",
    "VersionConflict",
    "describe",
    "migration_sql",
]


MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "tables, seats, games and actions",
        """
CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, settings TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT, bot TEXT,
    PRIMARY KEY (code, seat)) {WITHOUT_ROWID};
CREATE INDEX IF NOT EXISTS seats_by_token ON seats (token_hash);
CREATE TABLE IF NOT EXISTS games (
    code TEXT NOT NULL, game INTEGER NOT NULL, seed BIGINT NOT NULL, salt TEXT NOT NULL, over INTEGER NOT NULL,
    PRIMARY KEY (code, game)) {WITHOUT_ROWID};
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL, game INTEGER NOT NULL, version INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (code, game, version)) {WITHOUT_ROWID};
""",
    ),
    (
        2,
        "chat lines, and the leases of the workers that drive a table's bots and timers",
        """
CREATE TABLE IF NOT EXISTS chat (
    code TEXT NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (code, number)) {WITHOUT_ROWID};
CREATE TABLE IF NOT EXISTS leases (
    code TEXT PRIMARY KEY, owner TEXT NOT NULL, token TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
""",
    ),
    (
        3,
        "presence: each worker's connections per seat, with the time the worker was last seen alive",
        """
CREATE TABLE IF NOT EXISTS presence (
    code TEXT NOT NULL, seat INTEGER NOT NULL, worker TEXT NOT NULL, connections INTEGER NOT NULL,
    seen DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, seat, worker)) {WITHOUT_ROWID};
CREATE INDEX IF NOT EXISTS presence_by_worker ON presence (worker);
""",
    ),
    (
        4,
        "the host's seat (a handover moves it), and the actions a stand-in took when the turn timer ran out",
        """
ALTER TABLE tables ADD COLUMN host INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS timeouts (
    code TEXT NOT NULL, game INTEGER NOT NULL, version INTEGER NOT NULL,
    PRIMARY KEY (code, game, version)) {WITHOUT_ROWID};
""",
    ),
]
"""The schema, as numbered steps: a store applies those above its ``schema_version`` at start-up, in order.

Both stores read the same list; ``{WITHOUT_ROWID}`` is SQLite's clustered table
(empty on PostgreSQL). A new step is appended, never edited once released.
"""

SCHEMA_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)"


def migration_sql(text: str, dialect: str) -> list[str]:
    """The statements of one migration step in ``dialect`` (``sqlite`` or ``postgresql``).

    >>> migration_sql("CREATE TABLE t (a INTEGER) {WITHOUT_ROWID};", "postgresql")
    ['CREATE TABLE t (a INTEGER)']
    """
    filled = text.replace("{WITHOUT_ROWID}", "WITHOUT ROWID" if dialect == "sqlite" else "")
    return [statement.strip() for statement in filled.split(";") if statement.strip()]


Write = Callable[[sqlite3.Connection], None]
Queued = tuple[Write, "asyncio.Future[None]", float]
"""A write, the future its caller awaits, and when it was queued (``time.monotonic()``)."""
_BATCH = 1000
WINDOW = 0.002
"""Seconds :class:`SQLiteStore` waits after a write arrives for more to share its commit (see the class)."""


class SQLiteStore:
    """The default store: one SQLite file, WAL, ``synchronous=FULL``, group commit in a writer thread.

    The writer thread takes the first queued write, then gathers what arrives until
    ``window`` seconds after that write was queued (at once when the window is 0, or
    when the write already waited that long behind the previous commit), at most
    1,000 writes, and commits them in one transaction: one disk sync for all the
    tables in it. Each write is its own savepoint, so a refused one (a version taken)
    fails alone. Only after the ``COMMIT`` returned are the callers answered: one
    ``call_soon_threadsafe`` per event loop and batch, not one per write.

    The window, measured with 1,000 tables appending about 1,230 actions a second
    in all (Poisson arrivals) for 10 s on a temporary file, two runs each, on this
    project's 2 shared cores at load average 3–7::

        window         commits/s   actions/commit   append p50   p99          CPU/action
        0              595–727     1.7–2.1          0.3–0.5 ms   3.2–77 ms    136–153 µs
        0.002 (kept)   327–359     3.4–3.8          2.4 ms       3.5–13 ms    115–119 µs
        (one wake-up per write, as before: 612 commits/s, p99 25–67 ms, 141–146 µs)

    Two milliseconds more at the median buy half the disk syncs and a fifth less CPU
    per action, and keep the p99 under 20 ms at this rate, so :data:`WINDOW` is 0.002.
    """

    shared = False

    def __init__(self, path: str | Path, *, window: float = WINDOW) -> None:
        if window < 0:
            raise ValueError("window must be >= 0 seconds")
        self.path = str(path)
        self.window = window
        """Seconds a batch waits after its first write for more (0: commit at once)."""
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._reader = self._connect()
        self._migrate(self._reader)
        self._queue: queue.SimpleQueue[Queued | None] = queue.SimpleQueue()
        self.commits = 0
        """Transactions committed (each one disk sync): for the load benchmark's report."""
        self.writes = 0
        self._writer = threading.Thread(target=self._write_loop, name="uno-store-writer", daemon=True)
        self._writer.start()

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        return connection

    @staticmethod
    def _migrate(connection: sqlite3.Connection) -> None:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute(SCHEMA_VERSION_TABLE)
        (done,) = connection.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        for version, _what, text in MIGRATIONS:
            if version > done:
                for statement in migration_sql(text, "sqlite"):
                    connection.execute(statement)
                connection.execute("INSERT INTO schema_version VALUES (?, datetime('now'))", (version,))
        connection.execute("COMMIT")

    def _gather(self, first: Queued) -> tuple[list[Queued], bool]:
        """``first`` and what queues up until its window closes: the batch, and whether ``close`` was asked."""
        batch = [first]
        deadline = first[2] + self.window
        while len(batch) < _BATCH:
            try:
                left = deadline - time.monotonic()
                more = self._queue.get(timeout=left) if left > 0 else self._queue.get_nowait()
            except queue.Empty:
                break
            if more is None:
                return batch, True
            batch.append(more)
        return batch, False

    def _write_loop(self) -> None:
        connection = self._connect()
        while True:
            item = self._queue.get()
            if item is None:
                break
            batch, stop = self._gather(item)
            results: list[BaseException | None] = []
            try:
                connection.execute("BEGIN IMMEDIATE")
                for write, _, _ in batch:
                    connection.execute("SAVEPOINT one")
                    try:
                        write(connection)
                        connection.execute("RELEASE one")
                        results.append(None)
                    except (sqlite3.Error, StoreError) as error:
                        connection.execute("ROLLBACK TO one")
                        connection.execute("RELEASE one")
                        results.append(error if isinstance(error, StoreError) else StoreError(str(error)))
                connection.execute("COMMIT")
                self.commits += 1
                self.writes += len(batch)
            except sqlite3.Error as error:  # the whole transaction failed: nothing of it is durable
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                results = [StoreError(str(error))] * len(batch)
            answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
            for (_, future, _), result in zip(batch, results, strict=True):
                answers.setdefault(future.get_loop(), []).append((future, result))
            for loop, settled in answers.items():
                with contextlib.suppress(RuntimeError):  # a closed event loop: nobody waits for these any more
                    loop.call_soon_threadsafe(_settle, settled)
            if stop:
                break
        connection.close()

    async def _write(self, write: Write) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put((write, future, time.monotonic()))
        await future

    async def create_table(self, code: str, settings: TableSettings, created: float) -> None:
        text = json.dumps(settings.to_json())
        await self._write(
            _statement("INSERT INTO tables (code, created, settings) VALUES (?, ?, ?)", (code, created, text))
        )

    async def put_seat(self, code: str, seat: int, row: SeatRow) -> None:
        values = (code, seat, row.name, row.token_hash, row.bot)

        def write(connection: sqlite3.Connection) -> None:
            try:
                connection.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?)", values)
            except sqlite3.IntegrityError:
                raise SeatTaken(f"table {code}: seat {seat} is taken") from None

        await self._write(write)

    async def set_seat(self, code: str, seat: int, row: SeatRow | None) -> None:
        if row is None:
            await self._write(_statement("DELETE FROM seats WHERE code = ? AND seat = ?", (code, seat)))
            return
        values = (code, seat, row.name, row.token_hash, row.bot)
        await self._write(_statement("INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?)", values))

    async def set_host(self, code: str, seat: int) -> None:
        await self._write(_statement("UPDATE tables SET host = ? WHERE code = ?", (seat, code)))

    async def mark_timeout(self, code: str, game: int, version: int) -> None:
        values = (code, game, version)
        await self._write(_statement("INSERT OR IGNORE INTO timeouts VALUES (?, ?, ?)", values))

    async def start_game(self, code: str, game: GameRow) -> None:
        values = (code, game.number, game.seed, game.salt)
        await self._write(_statement("INSERT INTO games VALUES (?, ?, ?, ?, 0)", values))

    async def append_action(self, code: str, game: int, version: int, seat: int, action: str) -> None:
        values = (code, game, version, seat, action)

        def write(connection: sqlite3.Connection) -> None:
            try:
                connection.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", values)
            except sqlite3.IntegrityError:
                raise VersionConflict(f"table {code} game {game}: version {version} is taken") from None

        await self._write(write)

    async def add_chat(self, code: str, seat: int, name: str, text: str) -> ChatRow:
        numbers: list[int] = []

        def write(connection: sqlite3.Connection) -> None:
            query = "SELECT coalesce(max(number), 0) + 1 FROM chat WHERE code = ?"
            (number,) = connection.execute(query, (code,)).fetchone()
            connection.execute("INSERT INTO chat VALUES (?, ?, ?, ?, ?)", (code, number, seat, name, text))
            numbers.append(number)

        await self._write(write)
        return ChatRow(numbers[0], seat, name, text)

    async def end_game(self, code: str, game: int) -> None:
        values = (code, game)
        await self._write(_statement("UPDATE games SET over = 1 WHERE code = ? AND game = ?", values))

    def load_table(self, code: str) -> TableRow | None:
        connection = self._reader
        found = connection.execute("SELECT created, settings, host FROM tables WHERE code = ?", (code,)).fetchone()
        if found is None:
            return None
        row = TableRow(code, found[0], settings_from_json(json.loads(found[1])), host=int(found[2]))
        for seat, name, token_hash, bot in connection.execute(
            "SELECT seat, name, token_hash, bot FROM seats WHERE code = ? ORDER BY seat", (code,)
        ):
            row.seats[seat] = SeatRow(name, token_hash, bot)
        for number, seed, salt, over in connection.execute(
            "SELECT game, seed, salt, over FROM games WHERE code = ? ORDER BY game", (code,)
        ):
            game = GameRow(number, seed, salt, over=bool(over))
            game.actions = [
                (seat, action)
                for seat, action in connection.execute(
                    "SELECT seat, action FROM actions WHERE code = ? AND game = ? ORDER BY version", (code, number)
                )
            ]
            query = "SELECT version FROM timeouts WHERE code = ? AND game = ?"
            game.timeouts = {version for (version,) in connection.execute(query, (code, number))}
            row.games.append(game)
        row.chat = [
            ChatRow(*line)
            for line in connection.execute(
                "SELECT number, seat, name, text FROM chat WHERE code = ? ORDER BY number DESC LIMIT ?",
                (code, CHAT_KEPT),
            )
        ][::-1]
        return row

    async def actions_since(self, code: str, game: int, version: int) -> list[tuple[int, int, str]]:
        query = "SELECT version, seat, action FROM actions WHERE code = ? AND game = ? AND version > ? ORDER BY version"
        return list(self._reader.execute(query, (code, game, version)))

    def tables_of(self, token_hashes: Iterable[str]) -> list[tuple[str, int]]:
        hashes = list(token_hashes)[:200]
        if not hashes:
            return []
        marks = ",".join("?" * len(hashes))
        query = f"SELECT code, seat FROM seats WHERE token_hash IN ({marks}) ORDER BY code"
        return [(code, seat) for code, seat in self._reader.execute(query, hashes)]

    async def close(self) -> None:
        self._queue.put(None)
        await asyncio.to_thread(self._writer.join)
        self._reader.close()


def _statement(sql: str, values: tuple[Any, ...]) -> Write:
    def write(connection: sqlite3.Connection) -> None:
        connection.execute(sql, values)

    return write


def _settle(answers: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """Answer the writes of one committed batch (on their event loop): a result, or the write's error."""
    for future, error in answers:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


def describe(store: Any) -> str:
    """A short name of a store for the start-up line."""
    if isinstance(store, SQLiteStore):
        return f"SQLite {store.path}"
    if isinstance(store, MemoryStore):
        return "memory (nothing is kept)"
    return str(store.describe())
