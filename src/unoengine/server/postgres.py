"""The PostgreSQL store (``uno serve --db postgresql://…``, the optional extra ``postgres``): psycopg 3.

The same :class:`~unoengine.server.store.Store` as the SQLite one, over the same
numbered migrations, for several workers (processes, hosts) on one database:

- **the database is the sequencer**: an action is its row's insert, primary key
  ``(code, game, version)``, in its own transaction; a second writer of one version
  gets :class:`~unoengine.server.store.VersionConflict` and nothing of its write is kept;
- **fan-out**: each write's transaction also runs ``pg_notify`` on :attr:`channel` with a
  tiny payload, ``"CODE GAME VERSION"`` for an action and ``"CODE"`` for anything else,
  delivered to every listening worker after the commit (:mod:`unoengine.server.fanout`);
- **group commit**: the actions that wait while a transaction commits go together in the
  next one: one ``INSERT … ON CONFLICT DO NOTHING RETURNING`` for all of them (a row not
  returned is a version taken: :class:`~unoengine.server.store.VersionConflict` for that
  action only) and one notification listing the accepted ones, one per line. PostgreSQL
  serialises notifying commits (benchmarks/notify_commit.py), so this is what lets one
  database accept more actions a second than it can commit notifying transactions
  (``benchmarks/notify_commit.py --store-tables N`` measures it). The committer is a task
  on the worker's event loop, so answering a batch wakes no other thread: each append's
  future is settled in place, after its transaction committed;
- reads of a whole table (``load_table``, ``tables_of``) run on one synchronous
  connection, writes and the hot reads on an asynchronous pool.

The schema is created on first start; concurrent first starts wait for each other on a
transaction-level advisory lock (released at commit: a connection pooler keeps working).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import AsyncConnectionPool

from unoengine.server.protocol import TableSettings, settings_from_json
from unoengine.server.store import (
    CHAT_KEPT,
    MIGRATIONS,
    SCHEMA_VERSION_TABLE,
    ChatRow,
    GameRow,
    SeatRow,
    SeatTaken,
    StoreError,
    TableRow,
    VersionConflict,
    migration_sql,
)

BATCH = 400
"""Actions in one transaction at most (their notification lines stay under PostgreSQL's 8000 bytes)."""
MIGRATION_LOCK = 0x756E6F  # "uno": pg_advisory_xact_lock's key while the schema is brought up to date
Statement = tuple[str, tuple[Any, ...]]
ActionRow = tuple[str, int, int, int, str]
"""(code, game, version, seat, action)"""
Pending = tuple[ActionRow, "asyncio.Future[None]"]


def migrate(connection: psycopg.Connection[Any]) -> int:
    """Apply the :data:`~unoengine.server.store.MIGRATIONS` above the database's version; the version now."""
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        connection.execute(SCHEMA_VERSION_TABLE)
        row = connection.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        done = int(row[0]) if row is not None else 0
        for version, _what, text in MIGRATIONS:
            if version > done:
                for statement in migration_sql(text, "postgresql"):
                    connection.execute(statement.encode())
                connection.execute("INSERT INTO schema_version VALUES (%s, now()::text)", (version,))
                done = version
    return done


class PostgresStore:
    """Tables in PostgreSQL, shared by every worker connected to the database."""

    shared = True

    def __init__(self, url: str, *, channel: str = "uno", pool_size: int = 8) -> None:
        self.url = url
        self.channel = channel
        """The ``LISTEN``/``NOTIFY`` channel (one database can hold several servers' tables under other names)."""
        try:
            self._reader: psycopg.Connection[Any] = psycopg.connect(url, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"cannot connect to PostgreSQL: {str(error).strip().splitlines()[0]}") from None
        self.schema_version = migrate(self._reader)
        self.worker = ""
        """This worker's name (set by its :class:`~unoengine.server.fanout.Cluster`): its presence rows."""
        self.alive_seconds = 15.0
        """A worker's presence counts while it was seen within this many seconds (its heartbeat)."""
        self.pool = AsyncConnectionPool(url, min_size=1, max_size=pool_size, open=False, kwargs={"autocommit": True})
        self._opened = False
        self._opening = asyncio.Lock()
        self._actions: asyncio.Queue[Pending] | None = None
        self._committer: asyncio.Task[None] | None = None
        self._busy = False
        self.commits = 0
        """Transactions that committed actions (each is one notifying commit)."""

    def describe(self) -> str:
        info = self._reader.info
        return f"PostgreSQL {info.dbname} on {info.host}:{info.port} (schema version {self.schema_version})"

    async def open(self) -> AsyncConnectionPool:
        """The pool, opened on first use (it needs the running event loop)."""
        if not self._opened:
            async with self._opening:
                if not self._opened:
                    await self.pool.open(wait=True, timeout=30)
                    self._opened = True
        return self.pool

    async def _transaction(self, statements: list[Statement], notify: str) -> list[Any]:
        """Run ``statements`` and the notification in one transaction; the first row of each statement."""
        pool = await self.open()
        results: list[Any] = []
        async with pool.connection() as connection, connection.transaction():
            for sql, values in statements:
                cursor = await connection.execute(sql.encode(), values)
                results.append(await cursor.fetchone() if cursor.description else None)
            await connection.execute(b"SELECT pg_notify(%s, %s)", (self.channel, notify))
        return results

    async def _write(self, statements: list[Statement], notify: str) -> list[Any]:
        try:
            return await self._transaction(statements, notify)
        except errors.UniqueViolation as error:
            raise StoreError(str(error).strip().splitlines()[0]) from None
        except psycopg.Error as error:
            raise StoreError(f"PostgreSQL: {str(error).strip().splitlines()[0]}") from None

    async def create_table(self, code: str, settings: TableSettings, created: float) -> None:
        text = json.dumps(settings.to_json())
        await self._write(
            [("INSERT INTO tables (code, created, settings) VALUES (%s, %s, %s)", (code, created, text))], code
        )

    async def put_seat(self, code: str, seat: int, row: SeatRow) -> None:
        sql = "INSERT INTO seats VALUES (%s, %s, %s, %s, %s) ON CONFLICT (code, seat) DO NOTHING RETURNING seat"
        (inserted,) = await self._write([(sql, (code, seat, row.name, row.token_hash, row.bot))], code)
        if inserted is None:
            raise SeatTaken(f"table {code}: seat {seat} is taken")

    async def set_seat(self, code: str, seat: int, row: SeatRow | None) -> None:
        if row is None:
            await self._write([("DELETE FROM seats WHERE code = %s AND seat = %s", (code, seat))], code)
            return
        sql = (
            "INSERT INTO seats VALUES (%s, %s, %s, %s, %s) ON CONFLICT (code, seat)"
            " DO UPDATE SET name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot"
        )
        await self._write([(sql, (code, seat, row.name, row.token_hash, row.bot))], code)

    async def set_host(self, code: str, seat: int) -> None:
        await self._write([("UPDATE tables SET host = %s WHERE code = %s", (seat, code))], code)

    async def mark_timeout(self, code: str, game: int, version: int) -> None:
        sql = "INSERT INTO timeouts VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
        await self._write([(sql, (code, game, version))], code)

    async def start_game(self, code: str, game: GameRow) -> None:
        values = (code, game.number, game.seed, game.salt)
        await self._write([("INSERT INTO games VALUES (%s, %s, %s, %s, 0)", values)], code)

    async def append_action(self, code: str, game: int, version: int, seat: int, action: str) -> None:
        if self._actions is None:
            self._actions = asyncio.Queue()
            self._committer = asyncio.get_running_loop().create_task(self._commit_actions(self._actions))
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._actions.put_nowait(((code, game, version, seat, action), future))
        await future

    async def _commit_actions(self, queue: asyncio.Queue[Pending]) -> None:
        """Commit what has queued up, all in one transaction, until cancelled (group commit)."""
        while True:
            self._busy = False
            batch = [await queue.get()]
            self._busy = True
            while len(batch) < BATCH and not queue.empty():
                batch.append(queue.get_nowait())
            rows = [row for row, _ in batch]
            try:
                accepted = await self._insert_actions(rows)
            except Exception as error:  # nothing of the transaction is kept
                failure = StoreError(f"PostgreSQL: {str(error).strip().splitlines()[0] if str(error) else error!r}")
                for _, future in batch:
                    if not future.done():
                        future.set_exception(failure)
                continue
            for row, future in batch:
                if row in accepted:
                    accepted.discard(row)  # one writer only, even of two same rows in one batch
                    if not future.done():
                        future.set_result(None)
                elif not future.done():
                    code, game, version = row[:3]
                    future.set_exception(VersionConflict(f"table {code} game {game}: version {version} is taken"))

    async def _insert_actions(self, rows: list[ActionRow]) -> set[ActionRow]:
        """Insert what it can of ``rows`` in one transaction with its notification; the rows inserted."""
        pool = await self.open()
        columns = [list(column) for column in zip(*rows, strict=True)]
        async with pool.connection() as connection, connection.transaction():
            cursor = await connection.execute(
                b"INSERT INTO actions SELECT * FROM unnest(%s::text[], %s::int[], %s::int[], %s::int[], %s::text[])"
                b" ON CONFLICT DO NOTHING RETURNING code, game, version, seat, action",
                columns,
            )
            accepted = {(str(c), int(g), int(v), int(s), str(a)) for c, g, v, s, a in await cursor.fetchall()}
            if accepted:
                payload = "\n".join(f"{c} {g} {v}" for c, g, v, _s, _a in sorted(accepted))
                await connection.execute(b"SELECT pg_notify(%s, %s)", (self.channel, payload))
        self.commits += 1
        return accepted

    async def end_game(self, code: str, game: int) -> None:
        await self._write([("UPDATE games SET over = 1 WHERE code = %s AND game = %s", (code, game))], code)

    async def add_chat(self, code: str, seat: int, name: str, text: str) -> ChatRow:
        sql = (
            "INSERT INTO chat SELECT %s, coalesce(max(number), 0) + 1, %s, %s, %s FROM chat WHERE code = %s"
            " RETURNING number"
        )
        for attempt in range(5):  # two workers numbering a line at once: one of them tries again
            try:
                (row,) = await self._transaction([(sql, (code, seat, name, text, code))], code)
                return ChatRow(int(row[0]), seat, name, text)
            except errors.UniqueViolation:
                if attempt == 4:
                    raise StoreError(f"table {code}: chat line not numbered") from None
            except psycopg.Error as error:
                raise StoreError(f"PostgreSQL: {str(error).strip().splitlines()[0]}") from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def actions_since(self, code: str, game: int, version: int) -> list[tuple[int, int, str]]:
        """The actions of ``game`` after ``version``: (version, seat, action), in order."""
        pool = await self.open()
        async with pool.connection() as connection:
            cursor = await connection.execute(
                b"SELECT version, seat, action FROM actions WHERE code = %s AND game = %s AND version > %s"
                b" ORDER BY version",
                (code, game, version),
            )
            return [(int(v), int(s), str(a)) for v, s, a in await cursor.fetchall()]

    async def summaries(self, codes: list[str]) -> dict[str, tuple[int, int, int, int, int]]:
        """Per table: (seats taken, games dealt, the last game's version, chat lines, connections elsewhere)."""
        pool = await self.open()
        async with pool.connection() as connection:
            cursor = await connection.execute(
                b"SELECT t.code, (SELECT count(*) FROM seats s WHERE s.code = t.code), g.game,"
                b" (SELECT coalesce(max(a.version), 0) FROM actions a WHERE a.code = t.code AND a.game = g.game),"
                b" (SELECT coalesce(max(c.number), 0) FROM chat c WHERE c.code = t.code),"
                b" (SELECT coalesce(sum(p.connections), 0) FROM presence p WHERE p.code = t.code AND p.worker <> %s"
                b"  AND p.seen > extract(epoch FROM clock_timestamp()) - %s)"
                b" FROM tables t CROSS JOIN LATERAL"
                b" (SELECT coalesce(max(game), 0) AS game FROM games WHERE code = t.code) g"
                b" WHERE t.code = ANY(%s)",
                (self.worker, self.alive_seconds, codes),
            )
            rows = await cursor.fetchall()
            return {str(c): (int(s), int(g), int(v), int(n), int(p)) for c, s, g, v, n, p in rows}

    async def set_presence(self, code: str, seat: int, connections: int) -> None:
        """This worker's connections to ``seat`` (0: none), for the others' lobbies and grace periods."""
        if connections > 0:
            sql = (
                "INSERT INTO presence VALUES (%s, %s, %s, %s, extract(epoch FROM clock_timestamp()))"
                " ON CONFLICT (code, seat, worker)"
                " DO UPDATE SET connections = excluded.connections, seen = excluded.seen"
            )
            statement: Statement = (sql, (code, seat, self.worker, connections))
        else:
            sql = "DELETE FROM presence WHERE code = %s AND seat = %s AND worker = %s"
            statement = (sql, (code, seat, self.worker))
        await self._write([statement], code)

    async def heartbeat(self) -> None:
        """This worker is alive: its presence rows stay counted."""
        pool = await self.open()
        async with pool.connection() as connection:
            await connection.execute(
                b"UPDATE presence SET seen = extract(epoch FROM clock_timestamp()) WHERE worker = %s", (self.worker,)
            )
            await connection.execute(  # the rows of workers gone for an hour
                b"DELETE FROM presence WHERE seen < extract(epoch FROM clock_timestamp()) - 3600"
            )

    def _read(self) -> psycopg.Connection[Any]:
        """The reading connection, connected again when it was lost (the database restarted)."""
        if self._reader.closed or self._reader.broken:
            self._reader = psycopg.connect(self.url, autocommit=True)
        return self._reader

    def load_table(self, code: str) -> TableRow | None:
        connection = self._read()
        found = connection.execute(b"SELECT created, settings, host FROM tables WHERE code = %s", (code,)).fetchone()
        if found is None:
            return None
        row = TableRow(code, float(found[0]), settings_from_json(json.loads(found[1])), host=int(found[2]))
        for seat, name, token_hash, bot in connection.execute(
            b"SELECT seat, name, token_hash, bot FROM seats WHERE code = %s ORDER BY seat", (code,)
        ):
            row.seats[int(seat)] = SeatRow(name, token_hash, bot)
        games = {
            int(number): GameRow(int(number), int(seed), salt, over=bool(over))
            for number, seed, salt, over in connection.execute(
                b"SELECT game, seed, salt, over FROM games WHERE code = %s ORDER BY game", (code,)
            )
        }
        for number, seat, action in connection.execute(
            b"SELECT game, seat, action FROM actions WHERE code = %s ORDER BY game, version", (code,)
        ):
            games[int(number)].actions.append((int(seat), action))
        for number, version in connection.execute(b"SELECT game, version FROM timeouts WHERE code = %s", (code,)):
            games[int(number)].timeouts.add(int(version))
        row.games = list(games.values())
        lines = connection.execute(
            b"SELECT number, seat, name, text FROM chat WHERE code = %s ORDER BY number DESC LIMIT %s",
            (code, CHAT_KEPT),
        ).fetchall()
        row.chat = [ChatRow(int(n), int(s), name, text) for n, s, name, text in reversed(lines)]
        for seat, count in connection.execute(
            b"SELECT seat, sum(connections) FROM presence WHERE code = %s AND worker <> %s"
            b" AND seen > extract(epoch FROM clock_timestamp()) - %s GROUP BY seat",
            (code, self.worker, self.alive_seconds),
        ):
            row.elsewhere[int(seat)] = int(count)
        return row

    def tables_of(self, token_hashes: Iterable[str]) -> list[tuple[str, int]]:
        hashes = list(token_hashes)[:200]
        if not hashes:
            return []
        rows = (
            self._read()
            .execute(b"SELECT code, seat FROM seats WHERE token_hash = ANY(%s) ORDER BY code", (hashes,))
            .fetchall()
        )
        return [(str(code), int(seat)) for code, seat in rows]

    def ping(self) -> None:
        """Raise when the database does not answer (the health endpoint)."""
        try:
            self._read().execute(b"SELECT 1").fetchone()
        except psycopg.Error as error:
            raise StoreError(f"PostgreSQL: {str(error).strip().splitlines()[0]}") from None

    async def close(self) -> None:
        if self._committer is not None:
            for _ in range(500):  # let what is being committed finish (a clean stop loses no write)
                if not self._busy and (self._actions is None or self._actions.empty()):
                    break
                await asyncio.sleep(0.01)
            self._committer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._committer
        if self._opened:
            await self.pool.close()
        self._reader.close()
