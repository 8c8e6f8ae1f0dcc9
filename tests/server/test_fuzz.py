"""Thousands of random and malformed messages against a live table: no crash, and the game still ends and replays."""

from __future__ import annotations

import asyncio
import json
import random
import string
from typing import Any

import websockets

from tests.server.harness import choose, live_server, my_turn, start_two_humans
from unoengine.core.record import replay

CARDS = ["R7", "Y0", "GS", "BR", "G+2", "W", "W+4", "W:r", "W+4:b uno", "R5!", "G2|Y@flex", "FW+2@flex:r>1", "WAF"]
WORDS = ["draw", "pass", "uno", "catch 1", "catch 9", "accept", "challenge", "keep", "reject", "color g", "colour z"]


def junk(rng: random.Random, tokens: list[str], code: str) -> str:
    pick = rng.random()
    if pick < 0.15:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 60)))
    if pick < 0.25:
        return json.dumps(rng.choice([[], 1, "x", None, True, {"type": None}, {"type": ["act"]}]))
    values: list[Any] = [None, True, -1, 0, 1, 2**40, "", "x" * 70, [], {}, rng.random(), "<script>"]
    kind = rng.choice(["act", "act", "act", "hello", "chat", "start", "again", "sync", "ping", "nope"])
    message: dict[str, Any] = {"type": kind}
    if kind == "act":
        message.update(
            seat=rng.choice([0, 1, 2, -1, "0", None]),
            token=rng.choice([*tokens, "bad", 7]),
            game=rng.choice([1, 0, 2, "1"]),
            v=rng.choice([rng.randint(-2, 200), "3", None]),
            action=rng.choice(CARDS + WORDS + ["", "R" * 50, 3, None]),
        )
    for _ in range(rng.randint(0, 2)):
        message[rng.choice(["seat", "token", "v", "text", "table", "extra", "fill", "bot", "since"])] = rng.choice(
            [*values, code]
        )
    return json.dumps(message)


async def test_random_and_malformed_messages_leave_the_table_playable() -> None:
    async with live_server() as live:
        code, token0, token1, p0, p1 = await start_two_humans(live)
        rng = random.Random(99)
        sent = errors = 0
        while sent < 3000:
            ws = await websockets.connect(live.ws_url)
            if rng.random() < 0.7:
                await ws.send(json.dumps({"type": "hello", "table": code, "token": rng.choice([token0, token1])}))
            for _ in range(50):  # within one connection's burst allowance
                await ws.send(junk(rng, [token0, token1], code))
                sent += 1
            try:
                while True:
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
                    errors += reply.get("type") == "error"
            except (TimeoutError, websockets.exceptions.ConnectionClosed):
                pass
            await ws.close()
        assert errors > 1000
        await p0.drain()
        await p1.drain()
        await p0.send({"type": "sync"})
        await p1.send({"type": "sync"})
        await p0.expect("sync")
        await p1.expect("sync")
        for _ in range(5000):
            if p0.view is not None and p0.view["outcome"] is not None:
                break
            for player in (p0, p1):
                if my_turn(player):
                    assert player.view is not None
                    await player.act(choose(player.view, rng))
                    await player.expect("step", "error")
                await player.drain(0.005)
        actor = live.server.actors[code]
        assert actor.table is not None and actor.table.is_over
        assert replay(actor.table.record()).is_over
