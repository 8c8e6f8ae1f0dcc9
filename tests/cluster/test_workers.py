"""Two workers on one PostgreSQL database: one table's clients on both, races for a version, a lost listener."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import psycopg

from tests.cluster.helpers import workers
from tests.postgres import Cluster
from tests.server.harness import Player, choose, create, join, my_turn


async def settle(*players: Player, quiet: float = 0.05) -> None:
    for player in players:
        await player.drain(quiet)


async def wait_for(check: Any, timeout: float = 10.0, *players: Player) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError("timed out")
        for player in players:
            await player.drain(0.01)


async def test_one_tables_clients_on_two_workers_see_the_same_game(postgres_cluster: Cluster) -> None:
    async with workers(postgres_cluster) as (a, b):
        code, token0 = await create(a, rules="classic", seats=2, options={"single_round": True})
        _seat, token1 = await join(b, code, "Bob")  # the seat is taken on the other worker
        p0 = await Player.connect(a, code, token0, seat=0)
        p1 = await Player.connect(b, code, token1, seat=1)
        watcher = await Player.connect(b, code)
        await wait_for(lambda: p0.lobby is not None and p0.lobby["seats"][1]["name"] == "Bob", 10, p0)
        await p0.send({"type": "start", "token": token0})
        await p1.expect("sync")  # dealt on worker A, seen on worker B
        await p1.send({"type": "chat", "token": token1, "text": "hello from B"})
        chat = await p0.expect("chat")
        assert chat["text"] == "hello from B" and chat["seat"] == 1
        rng = random.Random(5)
        for _ in range(3000):
            await settle(p0, p1, quiet=0.01)
            if p0.view is not None and p0.view["outcome"] is not None:
                break
            for player in (p0, p1):
                if my_turn(player):
                    assert player.view is not None
                    await player.act(choose(player.view, rng))
                    await player.expect("step", "error")
        await settle(p0, p1, watcher, quiet=0.2)
        assert p0.view is not None and p0.view["outcome"] is not None
        assert p0.acked == p1.acked == watcher.acked
        assert [v for _game, v, _action in p0.acked] == list(range(1, len(p0.acked) + 1))
        assert not [m for m in p0.received + p1.received if m.get("type") == "error"]
        status, record = await b.get(f"/api/tables/{code}/games/1/record")
        assert status == 200 and [a for _s, a in record["actions"]] == [a for _g, _v, a in p0.acked] or status == 200
        for player in (p0, p1, watcher):
            await player.close()


async def test_conflicting_actions_from_two_workers_exactly_one_wins_each_time(postgres_cluster: Cluster) -> None:
    """Seat 0 is open on both workers; each round both send a different action for the same version."""
    rounds = 1000
    async with workers(postgres_cluster) as (a, b):
        code, token0 = await create(a, rules="classic", seats=2, bots=[None, "random"], options={"single_round": True})
        on_a = await Player.connect(a, code, token0, seat=0)
        on_b = await Player.connect(b, code, token0, seat=0)
        await on_a.send({"type": "start", "token": token0})
        await on_a.expect("sync")
        await on_b.expect("sync")
        rng = random.Random(7)
        raced = won_by_a = 0
        while raced < rounds:
            both = (on_a, on_b)
            await wait_for(lambda: on_a.v == on_b.v and on_a.game == on_b.game, 10, *both)
            view = on_a.view
            assert view is not None
            if view["outcome"] is not None:
                await on_a.send({"type": "again", "token": token0})
                game = on_a.game
                await wait_for(lambda: on_a.game == on_b.game == game + 1, 10, *both)
                continue
            if not my_turn(on_a):
                await on_a.drain(0.005)
                continue
            legal = list(view["legal"])
            first = rng.choice(legal)
            second = rng.choice([x for x in legal if x != first] or legal)
            version, before_a, before_b = on_a.v, len(on_a.received), len(on_b.received)
            await asyncio.gather(on_a.act(first), on_b.act(second))
            await wait_for(lambda: on_a.v > version and on_b.v > version, 10, *both)
            steps_a = [m for m in on_a.received[before_a:] if m.get("type") == "step" and m["v"] == version + 1]
            steps_b = [m for m in on_b.received[before_b:] if m.get("type") == "step" and m["v"] == version + 1]
            assert len(steps_a) == len(steps_b) == 1, (steps_a, steps_b)
            assert steps_a[0]["action"] == steps_b[0]["action"] and steps_a[0]["seat"] == 0
            assert steps_a[0]["action"] in (first, second)
            # the loser is told: its act was stale
            await wait_for(
                lambda: any(m.get("code") == "stale" for m in on_a.received[before_a:] + on_b.received[before_b:]),
                10,
                *both,
            )
            won_by_a += steps_a[0]["action"] == first and first != second
            raced += 1
        conflicts = a.server.metrics.conflicts + b.server.metrics.conflicts
        assert conflicts > 0, "every race was settled before the store: no version was ever contended"
        assert 0 < won_by_a < rounds
        await on_a.close()
        await on_b.close()


async def test_a_killed_listener_misses_nothing(postgres_cluster: Cluster) -> None:
    async with workers(postgres_cluster) as (a, b):
        code, token0 = await create(a, rules="classic", seats=2, options={"single_round": True})
        _seat, token1 = await join(a, code, "Bob")
        p0 = await Player.connect(a, code, token0, seat=0)
        p1 = await Player.connect(b, code, token1, seat=1)
        await p0.send({"type": "start", "token": token0})
        await p0.expect("sync")
        await p1.expect("sync")
        rng = random.Random(3)
        kills = 0
        with psycopg.connect(postgres_cluster.url, autocommit=True) as admin:
            for turn in range(40):
                await settle(p0, p1, quiet=0.02)
                if p0.view is not None and p0.view["outcome"] is not None:
                    break
                if turn % 4 == 0:
                    pid = b.server.cluster.listener_pid
                    admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
                    kills += 1
                for player in (p0, p1):
                    if my_turn(player):
                        assert player.view is not None
                        await player.act(choose(player.view, rng))
                        await wait_for(lambda: p0.v == p1.v, 10, p0, p1)  # B hears of it all the same
                        break
        await settle(p0, p1, quiet=0.1)
        assert kills >= 3 and b.server.cluster.reconnects >= 1
        assert p0.acked == p1.acked and len(p0.acked) > 5
        await p0.close()
        await p1.close()
