"""kill -9 the server mid-game, several times at random points: nothing accepted is lost or doubled."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests.server import harness
from tests.server.harness import Live, Player, choose, free_port, http, my_turn
from unoengine.core.record import parse_record, replay

ROOT = Path(__file__).resolve().parents[2]


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "unoengine.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            "0",
            "--react-delay",
            "0",
            "--round-wait",
            "0",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def wait_up(url: str) -> None:
    for _ in range(300):
        status, _ = await asyncio.to_thread(http, "GET", url + "/api/rules", None)
        if status == 200:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the server did not come up")


async def serve_fresh() -> tuple[str, int, str, Live, subprocess.Popen[bytes]]:
    """``uno serve`` on a free port and the test's database (an SQLite file or PostgreSQL: conftest.py), up."""
    db, port = harness.db_argument, free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(db, port)
    try:
        await wait_up(url)
    except BaseException:
        server.kill()
        server.wait()
        raise
    return db, port, url, Live(url, None), server  # type: ignore[arg-type]


async def kill_and_restart(server: subprocess.Popen[bytes], db: str, port: int) -> subprocess.Popen[bytes]:
    """``kill -9`` the server, start it again on the same port and database, and wait until it answers."""
    os.kill(server.pid, signal.SIGKILL)
    server.wait()
    fresh = start_server(db, port)
    await wait_up(f"http://127.0.0.1:{port}")
    return fresh


async def connect(live: Live, code: str, token: str, seat: int, since: int, game: int) -> Player:
    delay = 0.05
    while True:
        try:
            return await Player.connect(live, code, token, seat=seat, since=since, game=game)
        except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
            await asyncio.sleep(delay)
            delay = min(1.0, delay * 2)


async def test_sigkill_mid_game_loses_and_doubles_nothing(tmp_path: Path) -> None:
    db, port, url, live, server = await serve_fresh()
    try:
        status, body = await asyncio.to_thread(
            http,
            "POST",
            url + "/api/tables",
            {"rules": "classic", "seats": 3, "bots": [None, "heuristic"], "options": {"target_score": 60}},
        )
        assert status == 200, body
        code, token0 = body["code"], body["token"]
        status, joined = await asyncio.to_thread(http, "POST", f"{url}/api/tables/{code}/join", {"name": "B"})
        tokens = {0: token0, 1: joined["token"]}
        players = {seat: await connect(live, code, tokens[seat], seat, -1, 0) for seat in (0, 1)}
        await players[0].send({"type": "start", "token": token0})
        await players[0].expect("sync")
        seen: dict[int, str] = {}
        rng = random.Random(11)
        # Kill points are versions of the table, not actions this test sent: nobody can go out of seven cards
        # before version 13 (seven plays, and another seat acts between two of them), so every kill lands mid-game
        # whatever the deal and however often the bot plays.
        kills = sorted(rng.sample(range(2, 13), 3))
        sent = 0
        killed = 0
        for _ in range(5000):
            if kills and max(player.v for player in players.values()) >= kills[0]:
                kills.pop(0)
                server = await kill_and_restart(server, db, port)
                killed += 1
            for seat, player in list(players.items()):
                try:
                    await player.drain(0.01)
                    if my_turn(player):
                        assert player.view is not None
                        await player.act(choose(player.view, rng))
                        sent += 1
                        await player.expect("step", "error", "sync", timeout=2)
                except (TimeoutError, websockets.exceptions.WebSocketException, OSError):
                    players[seat] = await connect(live, code, tokens[seat], seat, player.v, player.game)
                    players[seat].acked = player.acked
                for game, v, action in players[seat].acked:
                    assert game == 1
                    assert seen.setdefault(v, action) == action, f"version {v} acknowledged as two actions"
            view = players[0].view
            if view is not None and view["outcome"] is not None:
                break
        else:
            raise AssertionError("the game did not end")
        assert killed == 3, f"the game ended after {sent} actions of ours, before every kill"
        await record_is_what_was_acknowledged(url, code, list(players.values()), seen)
    finally:
        server.kill()
        server.wait()


async def record_is_what_was_acknowledged(url: str, code: str, players: list[Player], seen: dict[int, str]) -> Any:
    """The finished game's record holds every version any client saw acknowledged, once, in order; the record."""
    status, record = await asyncio.to_thread(http, "GET", f"{url}/api/tables/{code}/games/1/record", None)
    assert status == 200, record
    recorded = [item["action"] for item in record["actions"]]
    for player in players:
        await player.drain(0.1)
        for _, v, action in player.acked:
            seen.setdefault(v, action)
    assert sorted(seen) == list(range(1, len(recorded) + 1)), "a version is missing"
    assert [seen[v] for v in sorted(seen)] == recorded
    assert replay(parse_record(json.dumps(record))).is_over
    return record


@pytest.mark.parametrize("rules", ["classic", "duo"])
async def test_a_seat_away_for_the_last_action_gets_it_and_the_result_after_a_restart(rules: str) -> None:
    """Defect: after ``kill -9`` and a restart, a ``hello`` with ``since`` = the version before a
    game's last action got ``welcome`` and ``lobby`` only; docs/PROTOCOL.md promises the missed steps.
    Chat and a reloaded page's whole log (``since: 0``) survive the restart too."""
    db, port, url, live, server = await serve_fresh()
    try:
        body = {"rules": rules, "seats": 2, "options": {"single_round": True}}
        status, created = await asyncio.to_thread(http, "POST", url + "/api/tables", body)
        assert status == 200, created
        code, token0 = created["code"], created["token"]
        status, joined = await asyncio.to_thread(http, "POST", f"{url}/api/tables/{code}/join", {"name": "Bob"})
        tokens = {0: token0, 1: joined["token"]}
        players = [await connect(live, code, tokens[seat], seat, -1, 0) for seat in (0, 1)]
        await players[0].send({"type": "start", "token": token0})
        await players[0].expect("sync")
        await players[0].send({"type": "chat", "token": token0, "text": "good luck"})
        await players[1].expect("chat")
        rng = random.Random(7)
        while players[0].view is None or players[0].view["outcome"] is None:
            for player in players:
                await player.drain(0.01)
                if my_turn(player) and player.view is not None:
                    await player.act(choose(player.view, rng))
                    await player.expect("step", "error")
        for player in players:
            await player.drain(0.1)
        final = players[1].v
        lines = [m["lines"] for m in players[1].received if m["type"] == "step"]
        server = await kill_and_restart(server, db, port)
        # seat 1 "was away" for the last action: it comes back knowing the version before it
        back = await connect(live, code, tokens[1], 1, final - 1, 1)
        assert [line["text"] for line in back.received[0]["chat"]] == ["good luck"]
        steps = await back.expect("steps")
        assert [step["v"] for step in steps["steps"]] == [final] and steps["v"] == final
        assert steps["view"]["outcome"] is not None
        assert any(line.startswith("Game over") for line in steps["steps"][0]["lines"])
        assert back.lobby is not None and back.lobby["status"] == "over"
        # a reloaded page (since 0) gets the whole game, told as it was
        reloaded = await connect(live, code, tokens[1], 1, 0, 1)
        whole = await reloaded.expect("steps")
        assert [step["lines"] for step in whole["steps"]] == lines
    finally:
        server.kill()
        server.wait()
