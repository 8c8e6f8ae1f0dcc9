"""Idle tables leave memory and come back from the store, their game where it was."""

from __future__ import annotations

import asyncio
import random

from tests.server.harness import Player, choose, create, live_server, my_turn, start_two_humans


async def test_an_idle_table_leaves_memory_and_comes_back_where_it_was() -> None:
    async with live_server(idle_seconds=0.3) as live:
        code, token0, _token1, p0, p1 = await start_two_humans(live)
        rng = random.Random(4)
        for _ in range(6):
            for player in (p0, p1):
                await player.drain(0.02)
                if my_turn(player):
                    assert player.view is not None
                    await player.act(choose(player.view, rng))
                    await player.expect("step", "error")
        await p0.drain(0.05)
        version, view = p0.v, p0.view
        assert version > 0
        assert await live.server.evict_idle() == 0  # people are connected: the table stays
        await p0.close()
        await p1.close()
        await asyncio.sleep(0.5)
        await live.server.evict_idle()
        assert code not in live.server.actors
        back = await Player.connect(live, code, token0, seat=0)
        await back.expect("sync", "steps")
        assert code in live.server.actors
        assert back.v == version
        assert back.view is not None and view is not None and back.view["hand"] == view["hand"]
        await back.close()


async def test_with_idle_seconds_0_tables_stay() -> None:
    async with live_server(idle_seconds=0) as live:
        code, _token = await create(live, rules="duo", seats=2)
        assert await live.server.evict_idle() == 0
        assert code in live.server.actors
