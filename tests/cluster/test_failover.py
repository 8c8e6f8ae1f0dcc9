"""SIGKILL the worker that drives a table mid-game: the other takes over its bots, timers and clients.

Two ``uno serve`` processes on one database (as on two hosts, or ``--workers 2``):
one person on each, a bot in the third seat, a turn timer. The worker holding the
table's lease is killed; its client reconnects to the survivor, which takes the lease
when it expires and runs the bot and the timer from then on. No action that any
client saw acknowledged is lost or doubled: the survivor's record is exactly them.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import websockets

from tests.postgres import Cluster
from tests.server.harness import Live, Player, choose, free_port, http, my_turn
from tests.server.test_restart import connect, record_is_what_was_acknowledged, wait_up

ROOT = Path(__file__).resolve().parents[2]
LEASE = 1.5


def start_worker(url: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "UNO_LEASE_SECONDS": str(LEASE), "UNO_POLL_SECONDS": "0.5"}
    command = [sys.executable, "-m", "unoengine.cli", "serve", "--port", str(port), "--db", url, "--bot-delay", "0"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def lease_owner_pid(url: str, code: str) -> int | None:
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute("SELECT owner FROM leases WHERE code = %s", (code,)).fetchone()
    return int(row[0].split(":")[1]) if row else None


async def test_sigkill_of_the_driving_worker_loses_and_doubles_nothing(postgres_cluster: Cluster) -> None:
    db = postgres_cluster.url
    ports = [free_port(), free_port()]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    lives = [Live(url, None) for url in urls]  # type: ignore[arg-type]
    servers = [start_worker(db, port) for port in ports]
    try:
        for url in urls:
            await wait_up(url)
        settings = {"rules": "classic", "seats": 3, "bots": [None, "heuristic"], "turn_seconds": 1.5}
        status, body = await asyncio.to_thread(
            http, "POST", urls[0] + "/api/tables", {**settings, "options": {"target_score": 60}}
        )
        assert status == 200, body
        code, token0 = body["code"], body["token"]
        status, joined = await asyncio.to_thread(http, "POST", f"{urls[1]}/api/tables/{code}/join", {"name": "B"})
        assert status == 200, joined
        tokens = {0: token0, 1: joined["token"]}
        where = {0: 0, 1: 1}  # seat -> the worker its client is on
        players = {seat: await connect(lives[where[seat]], code, tokens[seat], seat, -1, 0) for seat in (0, 1)}
        await players[0].send({"type": "start", "token": token0})
        await players[0].expect("sync")
        seen: dict[int, str] = {}
        mine: dict[int, set[int]] = {0: set(), 1: set()}  # versions each person's own act made
        rng = random.Random(12)
        sent = 0
        killed: int | None = None  # the index of the killed worker
        killed_at = 0  # the last version acknowledged before the kill
        timed_out_after_kill = False
        paused = False
        for _ in range(5000):
            if killed is None and sent >= 6:
                pid = None
                for _ in range(50):
                    pid = lease_owner_pid(db, code)
                    if pid is not None:
                        break
                    await asyncio.sleep(0.1)
                killed = [server.pid for server in servers].index(pid)
                killed_at = max(seen, default=0)
                os.kill(servers[killed].pid, signal.SIGKILL)
                servers[killed].wait()
                for seat in (0, 1):
                    where[seat] = 1 - killed
            for seat, player in list(players.items()):
                try:
                    await player.drain(0.01)
                    if killed is not None and not paused and seat == 0 and my_turn(player):
                        paused = True  # let seat 0's timer run out: the survivor's stand-in acts
                        before = player.v
                        await asyncio.sleep(LEASE + 2.5)
                        await player.drain(0.2)
                        timed_out_after_kill = any(
                            s == 0 and v > before and v not in mine[0] for s, v in _seats_of(player)
                        )
                        continue
                    if my_turn(player):
                        assert player.view is not None
                        await player.act(choose(player.view, rng))
                        sent += 1
                        reply = await player.expect("step", "error", "sync", timeout=2)
                        if reply["type"] == "step" and reply["seat"] == seat:
                            mine[seat].add(reply["v"])
                except (TimeoutError, websockets.exceptions.WebSocketException, OSError):
                    players[seat] = await connect(lives[where[seat]], code, tokens[seat], seat, player.v, player.game)
                    players[seat].acked = player.acked
                for game, v, action in players[seat].acked:
                    assert game == 1
                    assert seen.setdefault(v, action) == action, f"version {v} acknowledged as two actions"
            view = players[1].view
            if view is not None and view["outcome"] is not None:
                break
        else:
            raise AssertionError("the game did not end")
        assert killed is not None, "the game ended before the kill"
        assert timed_out_after_kill, "no turn timer ran on the surviving worker"
        record = await record_is_what_was_acknowledged(urls[1 - killed], code, list(players.values()), seen)
        assert any(item["seat"] == 2 for item in record["actions"][killed_at + 1 :]), "the bot stopped playing"
    finally:
        for server in servers:
            server.kill()
            server.wait()


def _seats_of(player: Player) -> list[tuple[int, int]]:
    """(seat, version) of every step the player received."""
    return [(m["seat"], m["v"]) for m in player.received if m.get("type") == "step"] + [
        (step["seat"], step["v"]) for m in player.received if m.get("type") == "steps" for step in m["steps"]
    ]
