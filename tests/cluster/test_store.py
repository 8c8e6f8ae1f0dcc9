"""The two stores behind one interface: the version key, the shared migrations, concurrent first starts."""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest

from tests.postgres import Cluster
from unoengine.server.postgres import PostgresStore
from unoengine.server.protocol import parse_settings
from unoengine.server.store import MIGRATIONS, GameRow, SeatRow, SQLiteStore, Store, VersionConflict

SETTINGS, _host = parse_settings({"rules": "classic", "seats": 2})


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        return SQLiteStore(tmp_path / "t.sqlite3")
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    return PostgresStore(cluster.url, channel=f"test_{secrets.token_hex(4)}")


async def test_a_version_is_accepted_once_and_the_table_comes_back_whole(store: Store) -> None:
    code = secrets.token_hex(3).upper()
    await store.create_table(code, SETTINGS, 1.5)
    await store.put_seat(code, 0, SeatRow("Ann", "h0", None))
    await store.put_seat(code, 1, SeatRow("Bot 1", None, "random"))
    await store.start_game(code, GameRow(1, 2**62 + 5, "salt"))
    await store.append_action(code, 1, 1, 0, "draw")
    writes = [store.append_action(code, 1, 2, 0, "pass"), store.append_action(code, 1, 2, 1, "play r5")]
    first, second = await asyncio.gather(*writes, return_exceptions=True)
    assert (first is None) != (second is None)  # exactly one of the two writes of version 2 is kept
    assert isinstance(first if first is not None else second, VersionConflict)
    same = await asyncio.gather(*(store.append_action(code, 1, 3, 0, "draw") for _ in range(2)), return_exceptions=True)
    assert sorted(map(type, same), key=str) == sorted([type(None), VersionConflict], key=str)  # even the same row
    with pytest.raises(VersionConflict):
        await store.append_action(code, 1, 1, 0, "draw")
    line = await store.add_chat(code, 0, "Ann", "hi")
    assert line.number == 1 and (await store.add_chat(code, 0, "Ann", "again")).number == 2
    await store.end_game(code, 1)
    row = store.load_table(code)
    assert row is not None and row.settings == SETTINGS and row.created == 1.5
    assert row.seats == {0: SeatRow("Ann", "h0", None), 1: SeatRow("Bot 1", None, "random")}
    (game,) = row.games
    assert game.seed == 2**62 + 5 and game.over and len(game.actions) == 3 and game.actions[0] == (0, "draw")
    assert [c.text for c in row.chat] == ["hi", "again"]
    assert await store.actions_since(code, 1, 1) == [(2, *game.actions[1]), (3, 0, "draw")]
    assert store.tables_of(["h0"]) == [(code, 0)]
    await store.close()


async def test_seats_change_hands_the_host_moves_and_timed_out_actions_are_kept(store: Store) -> None:
    code = secrets.token_hex(3).upper()
    ann, bob = secrets.token_hex(8), secrets.token_hex(8)  # the database is shared with other tests
    await store.create_table(code, SETTINGS, 1.0)
    await store.put_seat(code, 0, SeatRow("Ann", ann, None))
    await store.put_seat(code, 1, SeatRow("Bob", bob, None))
    row = store.load_table(code)
    assert row is not None and row.host == 0
    await store.set_seat(code, 1, SeatRow("Bot 1", None, "heuristic"))  # Bob left a game: a bot plays on
    await store.set_host(code, 1)
    await store.start_game(code, GameRow(1, 7, "salt"))
    await store.append_action(code, 1, 1, 0, "draw")
    await store.mark_timeout(code, 1, 1)
    await store.mark_timeout(code, 1, 1)  # twice is once
    row = store.load_table(code)
    assert row is not None and row.host == 1 and row.seats[1] == SeatRow("Bot 1", None, "heuristic")
    assert row.games[0].timeouts == {1}
    await store.set_seat(code, 0, None)  # a seat opened (a leave in the lobby)
    row = store.load_table(code)
    assert row is not None and 0 not in row.seats and store.tables_of([ann, bob]) == []
    await store.close()


def test_an_sqlite_file_of_the_first_schema_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:  # as the store made it before there were migrations
        old.executescript(MIGRATIONS[0][2].replace("{WITHOUT_ROWID}", "WITHOUT ROWID"))
        old.execute("INSERT INTO tables VALUES ('ABCDEF', 1.0, ?)", (SETTINGS_JSON,))
    store = SQLiteStore(path)
    versions = [v for (v,) in store._reader.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == [number for number, _what, _sql in MIGRATIONS]
    assert store.load_table("ABCDEF") is not None
    asyncio.run(store.close())


SETTINGS_JSON = json.dumps(SETTINGS.to_json())


def test_workers_starting_at_once_on_an_empty_database_migrate_it_once(postgres_cluster: Cluster) -> None:
    name = f"fresh_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_cluster.url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}".encode())
    url = postgres_cluster.url.rsplit("/", 1)[0] + f"/{name}"
    stores: list[PostgresStore] = []
    failures: list[BaseException] = []

    def start() -> None:
        try:
            stores.append(PostgresStore(url))
        except BaseException as error:  # pragma: no cover - the assertion below shows it
            failures.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and len(stores) == 4
    assert {store.schema_version for store in stores} == {MIGRATIONS[-1][0]}
    with psycopg.connect(url) as connection:
        rows = connection.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert [v for (v,) in rows] == [number for number, _what, _sql in MIGRATIONS]
    for store in stores:
        asyncio.run(store.close())
