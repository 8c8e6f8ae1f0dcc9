"""How much ``NOTIFY`` costs a commit: action-sized transactions with and without ``pg_notify``.

PostgreSQL serialises the commits of transactions that sent a notification (they
take one lock to append to the notification queue in commit order), so the fan-out
of ``uno serve --db postgresql://…`` bounds how many actions a second one database
can accept, however many workers there are. This measures that bound on a real
database: ``--connections`` writers each commit one row (the size of an action row)
per transaction for ``--seconds``, first without, then with ``pg_notify`` in the
transaction, and a listener connected as in ``uno serve``.

With ``--store-tables N`` it then measures what the server gets past that bound:
``N`` tables each append their actions one version after another, as fast as
they are answered, through :meth:`PostgresStore.append_action`, whose group commit
puts the actions waiting while a transaction commits into the next one (one
``INSERT`` and one ``NOTIFY`` per transaction). It reports actions/s,
transactions/s, actions per transaction and the append p50/p99 (the store's
tables are created in that database if missing; the benchmark's rows are deleted
afterwards).

  python benchmarks/notify_commit.py --db postgresql://postgres@127.0.0.1/uno --connections 1 4 16 --json
  python benchmarks/notify_commit.py --db postgresql://postgres@127.0.0.1/uno --connections 16 --store-tables 1000

``--save`` writes the run's result (figures, machine, date, command) to
``benchmarks/results/notify_commit.json``; ``--write FILE`` writes it too, then rewrites the block between
``<!-- notify-commit:begin -->`` and ``<!-- notify-commit:end -->`` of FILE from it (``benchmarks/render.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import add_result_options, machine, publish


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


async def writer(url: str, table: str, notify: bool, stop: float, latencies: list[float], number: int) -> None:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        version = 0
        code = f"{number:06d}"
        insert = f"INSERT INTO {table} VALUES (%s, 1, %s, 0, 'play r5')".encode()
        while time.monotonic() < stop:
            version += 1
            started = time.perf_counter()
            async with connection.transaction():
                await connection.execute(insert, (code, version))
                if notify:
                    await connection.execute(b"SELECT pg_notify('uno_bench', %s)", (f"{code} 1 {version}",))
            latencies.append(time.perf_counter() - started)


async def listen(url: str, stop: float) -> int:
    received = 0
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        await connection.execute(b"LISTEN uno_bench")
        gen = connection.notifies(timeout=max(0.1, stop - time.monotonic() + 1))
        async for _notice in gen:
            received += 1
    return received


async def measure(url: str, connections: int, seconds: float, notify: bool) -> dict[str, Any]:
    table = f"bench_{secrets.token_hex(4)}"
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
        await admin.execute(
            f"CREATE TABLE {table} (code TEXT, game INTEGER, version INTEGER, seat INTEGER, action TEXT,"
            f" PRIMARY KEY (code, game, version))".encode()
        )
        try:
            stop = time.monotonic() + seconds
            latencies: list[float] = []
            listener = asyncio.create_task(listen(url, stop)) if notify else None
            await asyncio.sleep(0.2 if notify else 0)
            stop = time.monotonic() + seconds
            started = time.monotonic()
            await asyncio.gather(*(writer(url, table, notify, stop, latencies, n) for n in range(connections)))
            wall = time.monotonic() - started
            heard = await listener if listener is not None else None
            usage = await (await admin.execute(b"SELECT pg_notification_queue_usage()")).fetchone()
        finally:
            await admin.execute(f"DROP TABLE {table}".encode())
    return {
        "connections": connections,
        "notify": notify,
        "commits_per_s": round(len(latencies) / wall, 1),
        "commit_p50_ms": percentile(latencies, 0.5),
        "commit_p99_ms": percentile(latencies, 0.99),
        "heard": heard,
        "queue_usage": float(usage[0]) if usage else None,
    }


async def measure_store(url: str, tables: int, seconds: float) -> dict[str, Any]:
    """Actions a second through ``PostgresStore.append_action`` (group commit) with ``tables`` tables at once."""
    from unoengine.server.postgres import PostgresStore
    from unoengine.server.protocol import parse_settings
    from unoengine.server.store import GameRow

    settings, _host = parse_settings({"rules": "classic", "seats": 2})
    prefix = f"B{secrets.token_hex(3).upper()}"
    codes = [f"{prefix}{n:05d}" for n in range(tables)]
    store = PostgresStore(url, channel=f"bench_{secrets.token_hex(4)}")
    try:
        for start in range(0, tables, 50):
            await asyncio.gather(*(store.create_table(code, settings, 0.0) for code in codes[start : start + 50]))
            await asyncio.gather(*(store.start_game(code, GameRow(1, 1, "salt")) for code in codes[start : start + 50]))
        latencies: list[float] = []
        stop = time.monotonic() + seconds

        async def table(code: str) -> None:
            version = 0
            while time.monotonic() < stop:
                version += 1
                started = time.perf_counter()
                await store.append_action(code, 1, version, 0, "play r5")
                latencies.append(time.perf_counter() - started)

        commits = store.commits
        started = time.monotonic()
        await asyncio.gather(*(table(code) for code in codes))
        wall = time.monotonic() - started
        commits = store.commits - commits
    finally:
        pool = await store.open()
        async with pool.connection() as connection:
            for name in ("actions", "games", "tables"):
                await connection.execute(f"DELETE FROM {name} WHERE code LIKE %s".encode(), (prefix + "%",))
        await store.close()
    return {
        "store_tables": tables,
        "actions_per_s": round(len(latencies) / wall, 1),
        "transactions_per_s": round(commits / wall, 1),
        "actions_per_transaction": round(len(latencies) / max(1, commits), 2),
        "append_p50_ms": percentile(latencies, 0.5),
        "append_p99_ms": percentile(latencies, 0.99),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True, help="postgresql://... (a scratch table is made and dropped)")
    parser.add_argument("--connections", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--store-tables", type=int, nargs="*", default=[], metavar="N")
    parser.add_argument("--json", action="store_true")
    add_result_options(parser, "notify-commit")
    args = parser.parse_args()
    measured_on = machine()
    load = [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    rows = []
    for connections in args.connections:
        for notify in (False, True):
            rows.append(asyncio.run(measure(args.db, connections, args.seconds, notify)))
    stored = [asyncio.run(measure_store(args.db, tables, args.seconds)) for tables in args.store_tables]
    report = {
        "cores": os.cpu_count(),
        "load_before": load,
        "cases": rows,
        "store": stored,
        "load_after": [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]],
    }
    if args.save or args.write is not None:
        publish("notify_commit", sys.argv[1:], report, measured_on, args.write)
    if args.json:
        print(json.dumps(report))
        return
    print(f"cores {report['cores']}, load {load} -> {report['load_after']}")
    for row in rows:
        print(
            f"{row['connections']:>3} connections, notify {'yes' if row['notify'] else 'no ':<3}:"
            f" {row['commits_per_s']:>8} commits/s, p50 {row['commit_p50_ms']} ms, p99 {row['commit_p99_ms']} ms"
        )

    for row in stored:
        print(
            f"{row['store_tables']:>5} tables through PostgresStore: {row['actions_per_s']:>8} actions/s,"
            f" {row['transactions_per_s']} transactions/s, {row['actions_per_transaction']} actions/transaction,"
            f" append p50 {row['append_p50_ms']} ms, p99 {row['append_p99_ms']} ms"
        )


if __name__ == "__main__":
    main()
