"""Where tables live: a :class:`Store` protocol, an SQLite store and an in-memory one.

The store is the event log (DESIGN.md, "Server"): a table is its settings, its
seats (names and token *hashes*), and per game the seed, its salt and one row per
accepted action, plus the table's chat. A game's state is never stored: it is the
replay of its actions.

The store is also the sequencer: an action is accepted only by inserting its
version (primary key ``(code, game, version)``); a second write of one version
raises :class:`VersionConflict`, whichever process made it. The schema is a list
of numbered :data:`MIGRATIONS` that this SQLite store and the PostgreSQL one
(:mod:`unoengine.server.postgres`) both apply, each in its own dialect.

:class:`SQLiteStore` runs in WAL mode with ``synchronous=FULL``: a write returns
only once it is committed to disk. Writes go through one writer thread that
commits whatever has queued up in one transaction (group commit), so many tables
share each disk sync without any of them being answered before its own row is
durable.
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from unoengine.server.protocol import TableSettings, settings_from_json


@dataclass(slots=True)
class SeatRow:
    """A seat of a table: a person's name and token hash, or a bot's name."""

    name: str
    token_hash: str | None
    bot: str | None


@dataclass(slots=True)
class GameRow:
    """One game played at a table."""

    number: int
    seed: int
    salt: str
    actions: list[tuple[int, str]] = field(default_factory=list)
    """The actions as stored when the table was loaded (afterwards the table's ``Table`` keeps the game)."""
    over: bool = False
    timeouts: set[int] = field(default_factory=set)
    """The versions whose action a stand-in took because the turn timer ran out."""


@dataclass(slots=True)
class TableRow:
    """A table as stored."""

    code: str
    created: float
    settings: TableSettings
    seats: dict[int, SeatRow] = field(default_factory=dict)
    games: list[GameRow] = field(default_factory=list)
    chat: list[ChatRow] = field(default_factory=list)
    """The last :data:`CHAT_KEPT` lines, oldest first."""
    elsewhere: dict[int, int] = field(default_factory=dict)
    """Per seat, the connections to the table on other live workers (PostgreSQL; empty otherwise)."""
    host: int = 0
    """The host's seat (the creator's, 0, until a handover)."""


@dataclass(slots=True, frozen=True)
class ChatRow:
    """One chat line: its number at the table (1, 2, ...), the seat, its name then, the text."""

    number: int
    seat: int
    name: str
    text: str


CHAT_KEPT = 50
"""Chat lines loaded with a table (and shown to a newcomer)."""


class StoreError(RuntimeError):
    """A write was refused (for example an action version written twice)."""


class VersionConflict(StoreError):
    """The version of an action is taken: another writer accepted an action for it first."""


class SeatTaken(StoreError):
    """The seat is taken: another writer (a join on another worker) gave it to someone first."""


class Store(Protocol):
    """What the server needs from storage. Every write is durable when its ``await`` returns."""

    async def create_table(self, code: str, settings: TableSettings, created: float) -> None: ...
    async def put_seat(self, code: str, seat: int, row: SeatRow) -> None:
        """Give an open seat to a person or a bot; :class:`SeatTaken` when it is not open."""
        ...

    async def set_seat(self, code: str, seat: int, row: SeatRow | None) -> None:
        """Give a seat to someone else whoever held it (a leave, a kick, a bot put in), or open it (``None``)."""
        ...

    async def set_host(self, code: str, seat: int) -> None: ...
    async def mark_timeout(self, code: str, game: int, version: int) -> None:
        """The action of ``version`` was the stand-in's because the turn timer ran out (for the log)."""
        ...

    async def start_game(self, code: str, game: GameRow) -> None: ...
    async def append_action(self, code: str, game: int, version: int, seat: int, action: str) -> None: ...
    async def end_game(self, code: str, game: int) -> None: ...
    async def add_chat(self, code: str, seat: int, name: str, text: str) -> ChatRow: ...
    async def actions_since(self, code: str, game: int, version: int) -> list[tuple[int, int, str]]:
        """The actions of ``game`` after ``version``: (version, seat, action), in order."""
        ...

    def load_table(self, code: str) -> TableRow | None: ...
    def tables_of(self, token_hashes: Iterable[str]) -> list[tuple[str, int]]: ...
    async def close(self) -> None: ...

    @property
    def shared(self) -> bool:
        """Other processes write the same tables (PostgreSQL): the server fans out, leases and re-reads."""
        ...


class MemoryStore:
    """A store in a dict, for tests: same rules as the SQLite one (no version twice)."""

    shared = False

    def __init__(self) -> None:
        self.tables: dict[str, TableRow] = {}

    async def create_table(self, code: str, settings: TableSettings, created: float) -> None:
        if code in self.tables:
            raise StoreError(f"table {code} exists")
        self.tables[code] = TableRow(code, created, settings)

    async def put_seat(self, code: str, seat: int, row: SeatRow) -> None:
        if seat in self.tables[code].seats:
            raise SeatTaken(f"table {code}: seat {seat} is taken")
        self.tables[code].seats[seat] = SeatRow(row.name, row.token_hash, row.bot)

    async def set_seat(self, code: str, seat: int, row: SeatRow | None) -> None:
        seats = self.tables[code].seats
        if row is None:
            seats.pop(seat, None)
        else:
            seats[seat] = SeatRow(row.name, row.token_hash, row.bot)

    async def set_host(self, code: str, seat: int) -> None:
        self.tables[code].host = seat

    async def mark_timeout(self, code: str, game: int, version: int) -> None:
        self._game(code, game).timeouts.add(version)

    async def start_game(self, code: str, game: GameRow) -> None:
        self.tables[code].games.append(GameRow(game.number, game.seed, game.salt))

    async def append_action(self, code: str, game: int, version: int, seat: int, action: str) -> None:
        row = self._game(code, game)
        if version != len(row.actions) + 1:
            raise VersionConflict(f"table {code} game {game}: version {version} after {len(row.actions)}")
        row.actions.append((seat, action))

    async def add_chat(self, code: str, seat: int, name: str, text: str) -> ChatRow:
        chat = self.tables[code].chat
        line = ChatRow(chat[-1].number + 1 if chat else 1, seat, name, text)
        chat.append(line)
        del chat[:-CHAT_KEPT]
        return line

    async def end_game(self, code: str, game: int) -> None:
        self._game(code, game).over = True

    async def actions_since(self, code: str, game: int, version: int) -> list[tuple[int, int, str]]:
        actions = self._game(code, game).actions
        return [(number, seat, action) for number, (seat, action) in enumerate(actions, 1) if number > version]

    def _game(self, code: str, game: int) -> GameRow:
        for row in self.tables[code].games:
            if row.number == game:
                return row
        raise StoreError(f"table {code} has no game {game}")

    def load_table(self, code: str) -> TableRow | None:
        row = self.tables.get(code)
        if row is None:
            return None
        return TableRow(
            row.code,
            row.created,
            row.settings,
            {seat: SeatRow(s.name, s.token_hash, s.bot) for seat, s in row.seats.items()},
            [GameRow(g.number, g.seed, g.salt, list(g.actions), g.over, set(g.timeouts)) for g in row.games],
            list(row.chat),
            host=row.host,
        )

    def tables_of(self, token_hashes: Iterable[str]) -> list[tuple[str, int]]:
        wanted = set(token_hashes)
        return [
            (code, seat)
            for code, row in self.tables.items()
            for seat, s in row.seats.items()
            if s.token_hash is not None and s.token_hash in wanted
        ]

    async def close(self) -> None:
        return None


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
_BATCH = 1000


class SQLiteStore:
    """The default store: one SQLite file, WAL, ``synchronous=FULL``, group commit in a writer thread."""

    shared = False

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._reader = self._connect()
        self._migrate(self._reader)
        self._queue: queue.SimpleQueue[tuple[Write, asyncio.Future[None]] | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, name="uno-store-writer", daemon=True)
        self._writer.start()
        self.commits = 0
        """Transactions committed (each one disk sync): for the load benchmark's report."""
        self.writes = 0

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

    def _write_loop(self) -> None:
        connection = self._connect()
        while True:
            item = self._queue.get()
            if item is None:
                break
            batch = [item]
            stop = False
            while len(batch) < _BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            results: list[BaseException | None] = []
            try:
                connection.execute("BEGIN IMMEDIATE")
                for write, _ in batch:
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
            for (_, future), result in zip(batch, results, strict=True):
                future.get_loop().call_soon_threadsafe(_settle, future, result)
            if stop:
                break
        connection.close()

    async def _write(self, write: Write) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put((write, future))
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


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
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
