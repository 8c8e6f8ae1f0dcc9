"""Every test of the server runs twice: on the SQLite store and on the PostgreSQL one (one interface, two backends)."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import Cluster, postgres_cluster
from tests.server import harness
from unoengine.server.postgres import PostgresStore
from unoengine.server.store import SQLiteStore, Store

__all__ = ["postgres_cluster"]


@pytest.fixture(params=["sqlite", "postgres"], autouse=True)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The store behind ``live_server()`` (and ``harness.db_argument`` for ``uno serve --db``)."""
    numbers = itertools.count()
    if request.param == "postgres":
        cluster: Cluster = request.getfixturevalue("postgres_cluster")
        channel = f"test_{secrets.token_hex(4)}"

        def make() -> Store:
            return PostgresStore(cluster.url, channel=channel)

        harness.db_argument = cluster.url
    else:

        def make() -> Store:
            return SQLiteStore(tmp_path / f"tables{next(numbers)}.sqlite3")

        harness.db_argument = str(tmp_path / "served.sqlite3")
    harness.default_store = make
    try:
        yield request.param
    finally:
        harness.default_store = harness.MemoryStore
