"""Leases: which worker drives a table's bots and turn timers, exactly one at a time.

A lease is a row ``(code, owner, token, expires)`` in the database. Every few
seconds a worker takes or renews, in one statement, the leases of the tables it has
in play: a row is taken when it is free, expired, or already the worker's own, and
renewed to ``now + ttl`` by the database's clock (no clock of a worker is trusted).
A worker that dies stops renewing; after ``ttl`` another worker that has the table
takes it. A worker drives a table only while its own deadline (renewal time +
``ttl`` − ``margin``, by its monotonic clock) has not passed, so two drivers never
overlap while the clocks agree; and when they do not, the stale owner's step still
loses at the version key (:class:`~unoengine.server.store.VersionConflict`).

No session-level advisory lock is used: a connection pooler (PgBouncer in
transaction mode) would hand the lock's session to someone else.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable

from unoengine.server.postgres import PostgresStore

TAKE = b"""
INSERT INTO leases (code, owner, token, expires)
SELECT code, %(owner)s, %(token)s, extract(epoch FROM clock_timestamp()) + %(ttl)s
FROM unnest(%(codes)s::text[]) AS code
ON CONFLICT (code) DO UPDATE SET
    token = CASE WHEN leases.owner = excluded.owner THEN leases.token ELSE excluded.token END,
    owner = excluded.owner, expires = excluded.expires
WHERE leases.owner = excluded.owner OR leases.expires < extract(epoch FROM clock_timestamp())
RETURNING code, token
"""
RELEASE = b"DELETE FROM leases WHERE owner = %s AND code = ANY(%s)"


class Leases:
    """The leases one worker holds."""

    def __init__(self, store: PostgresStore, owner: str, ttl: float = 10.0, margin: float | None = None) -> None:
        self.store = store
        self.owner = owner
        self.ttl = ttl
        self.margin = ttl / 5 if margin is None else margin
        self.held: dict[str, str] = {}
        """Table code -> the lease's token."""
        self._deadline = 0.0

    def holds(self, code: str) -> bool:
        """This worker may drive ``code``'s bots and timers now."""
        return code in self.held and time.monotonic() < self._deadline

    async def renew(self, wanted: Iterable[str]) -> set[str]:
        """Take or renew the leases of ``wanted``, let go of the others; the codes newly taken."""
        codes = sorted(set(wanted))
        started = time.monotonic()
        pool = await self.store.open()
        async with pool.connection() as connection:
            released = [code for code in self.held if code not in set(codes)]
            if released:
                await connection.execute(RELEASE, (self.owner, released))
            got: dict[str, str] = {}
            if codes:
                cursor = await connection.execute(
                    TAKE, {"owner": self.owner, "token": secrets.token_hex(8), "ttl": self.ttl, "codes": codes}
                )
                got = {str(code): str(token) for code, token in await cursor.fetchall()}
        newly = set(got) - set(self.held)
        self.held = got
        self._deadline = started + self.ttl - self.margin
        return newly

    async def release_all(self) -> None:
        """Let every lease go (a worker stopping cleanly): the others take over at once."""
        if self.held:
            pool = await self.store.open()
            async with pool.connection() as connection:
                await connection.execute(RELEASE, (self.owner, list(self.held)))
        self.held = {}
