"""Two workers on one PostgreSQL database: one table's clients on both, races for a version, a lost listener."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import psycopg

from tests.cluster.helpers import workers
from tests.postgres import Cluster
from tests.server.harness import Player, choose, create, join, my_turn, play_out, start_two_humans


async def settle(*players: Player, quiet: float = 0.05) -> None:
    for player in players:
        await player.drain(quiet)


class Pump:
    """Receives for some players in the background; :meth:`until` waits for a condition on what they got."""

    def __init__(self, *players: Player) -> None:
        self.changed = asyncio.Event()
        self.tasks = [asyncio.create_task(self._run(player)) for player in players]

    async def _run(self, player: Player) -> None:
        while True:
            await player.recv(timeout=120)
            self.changed.set()

    async def until(self, check: Any, timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not check():
            self.changed.clear()
            if loop.time() > deadline:
                raise AssertionError("timed out")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - loop.time()))

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


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
        await play_out([p0, p1], random.Random(5))
        await settle(p0, p1, watcher, quiet=0.2)
        assert p0.view is not None and p0.view["outcome"] is not None
        assert p0.acked == p1.acked == watcher.acked
        assert [v for _game, v, _action in p0.acked] == list(range(1, len(p0.acked) + 1))
        assert not [m for m in p0.received + p1.received if m.get("type") == "error"]
        status, record = await b.get(f"/api/tables/{code}/games/1/record")
        assert status == 200, record
        assert [item["action"] for item in record["actions"]] == [action for _g, _v, action in p0.acked]
        for player in (p0, p1, watcher):
            await player.close()


async def test_conflicting_actions_from_two_workers_exactly_one_wins_each_time(postgres_cluster: Cluster) -> None:
    """Each seat is open on both workers; at every turn both connections of the seat to act send a different
    action for the same version: exactly one is accepted, both workers broadcast it, the other is refused."""
    rounds = 2000
    async with workers(postgres_cluster) as (a, b):
        code, token0 = await create(a, rules="classic", seats=2, options={"single_round": True})
        _seat, token1 = await join(b, code, "Bob")
        pairs = {
            0: (await Player.connect(a, code, token0, seat=0), await Player.connect(b, code, token0, seat=0)),
            1: (await Player.connect(a, code, token1, seat=1), await Player.connect(b, code, token1, seat=1)),
        }
        everyone = [player for pair in pairs.values() for player in pair]
        host = pairs[0][0]
        await host.send({"type": "start", "token": token0})
        for player in everyone:
            await player.expect("sync")
        rng = random.Random(7)
        raced = won_on_a = 0
        pump = Pump(*everyone)
        while raced < rounds:
            await pump.until(lambda: len({(p.game, p.v) for p in everyone}) == 1)
            view = host.view
            assert view is not None
            if view["outcome"] is not None:
                game = host.game
                await host.send({"type": "again", "token": token0})
                await pump.until(lambda game=game: all(p.game == game + 1 for p in everyone))  # type: ignore[misc]
                continue
            on_a, on_b = pairs[view["to_act"]]
            legal = list(on_a.view["legal"]) if on_a.view is not None else []
            assert legal and my_turn(on_a) and my_turn(on_b)
            first = rng.choice(legal)
            second = rng.choice([x for x in legal if x != first] or legal)
            version = host.v
            marks = {id(p): len(p.received) for p in everyone}

            def later(player: Player, marks: dict[int, int] = marks) -> list[dict[str, Any]]:
                return player.received[marks[id(player)] :]

            def told(pair: tuple[Player, Player] = (on_a, on_b), version: int = version) -> bool:
                stale = [m for m in later(pair[0]) + later(pair[1]) if m.get("code") == "stale"]
                return all(p.v > version for p in everyone) and len(stale) >= 1

            await asyncio.gather(on_a.act(first), on_b.act(second))
            await pump.until(told)  # everyone moved on, and the loser was told its act was stale
            steps = [[m for m in later(p) if m.get("type") == "step" and m["v"] == version + 1] for p in everyone]
            assert all(len(seen) == 1 for seen in steps), steps
            assert len({seen[0]["action"] for seen in steps}) == 1
            assert steps[0][0]["action"] in (first, second)
            errors = [m for m in later(on_a) + later(on_b) if m.get("type") == "error"]
            assert [m["code"] for m in errors] == ["stale"], errors
            won_on_a += steps[0][0]["action"] == first and first != second
            raced += 1
        pump.stop()
        conflicts = a.server.metrics.conflicts + b.server.metrics.conflicts
        assert conflicts > 0, "every race was settled before the store: no version was ever contended"
        assert 0 < won_on_a < rounds
        for player in everyone:
            await player.close()


async def test_a_killed_listener_misses_nothing(postgres_cluster: Cluster) -> None:
    async with workers(postgres_cluster) as (a, b):
        _code, _token0, _token1, p0, p1 = await start_two_humans(a, b)
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


async def test_a_person_on_the_other_worker_is_present_here(postgres_cluster: Cluster) -> None:
    """Presence is shared: no grace period runs out, and no stand-in plays, for a seat held on another worker."""
    async with workers(postgres_cluster) as (a, b):
        _code, _token0, _token1, p0, p1 = await start_two_humans(a, b, grace=0.5)

        def seat1() -> dict[str, Any]:
            assert p0.lobby is not None
            return dict(p0.lobby["seats"][1])

        await wait_for(lambda: seat1()["connected"] is True, 10, p0)
        await asyncio.sleep(2.0)  # four grace periods
        await settle(p0, p1, quiet=0.1)
        assert seat1()["connected"] is True and seat1()["away"] is False
        assert all(seat != 1 for _game, _v, seat in _steps_by_seat(p0))  # nobody played for Bob
        await p1.close()
        await wait_for(lambda: seat1()["away"] is True, 15, p0)  # gone from B: after its grace, a stand-in
        await p0.close()


def _steps_by_seat(player: Player) -> list[tuple[int, int, int]]:
    return [(m["game"], m["v"], m["seat"]) for m in player.received if m.get("type") == "step"]


async def test_two_joins_on_two_workers_never_get_one_seat(postgres_cluster: Cluster) -> None:
    """The last open seat, asked for on both workers at once: one person gets it, the other is told it is full."""
    async with workers(postgres_cluster) as (a, b):
        for _ in range(10):
            code, _token0 = await create(a, rules="classic", seats=2)
            assert b.server.actor(code) is not None  # both workers have the table in memory
            answers = await asyncio.gather(
                a.post(f"/api/tables/{code}/join", {"name": "A"}), b.post(f"/api/tables/{code}/join", {"name": "B"})
            )
            statuses = sorted(status for status, _body in answers)
            assert statuses == [200, 409], answers
            winner = next(body for status, body in answers if status == 200)
            loser = next(body for status, body in answers if status == 409)
            assert winner["seat"] == 1 and loser["error"] == "full"
            status, table = await b.get(f"/api/tables/{code}")
            await asyncio.sleep(0.1)
            for live in (a, b):
                status, table = await live.get(f"/api/tables/{code}")
                assert status == 200 and table["seats"][1]["name"] in ("A", "B")
