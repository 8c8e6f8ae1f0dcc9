"""Presence: a dropped player's seat is played by a bot after the grace period, until they come back;
the optional turn timer plays for a person who does not act in time."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from tests.server.harness import Player, choose, live_server, my_turn, start_two_humans


def seats_of_steps(player: Player) -> list[int]:
    return [message["seat"] for message in player.received if message.get("type") == "step"]


async def play_until(player: Player, seconds: float, rng: random.Random, done: Callable[[], bool]) -> None:
    """Act whenever it is the player's turn, until ``done()``, the game's end or the time is up."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline and not done():
        await player.drain(0.02)
        if player.view is not None and player.view["outcome"] is not None:
            return
        if my_turn(player):
            assert player.view is not None
            await player.act(choose(player.view, rng))


async def test_a_dropped_player_is_played_by_a_bot_after_the_grace_period_until_they_return() -> None:
    async with live_server() as live:
        code, _token0, token1, p0, p1 = await start_two_humans(live, grace=0.3)
        await p1.close()
        before = len(seats_of_steps(p0))
        await play_until(p0, 5, random.Random(2), lambda: seats_of_steps(p0)[before:].count(1) >= 2)
        assert p0.view is not None
        played = seats_of_steps(p0)[before:]
        assert 1 in played or p0.view["outcome"] is not None, "nobody played the dropped seat"
        if p0.view["outcome"] is not None:
            return
        # Back: the seat is the person's again; the game waits for them on their turn.
        p1 = await Player.connect(live, code, token1, seat=1)
        await p1.expect("sync", "steps")
        for _ in range(200):
            await p0.drain(0.02)
            await p1.drain(0.02)
            if p1.view is not None and (p1.view["outcome"] is not None or p1.view["to_act"] == 1):
                break
            if my_turn(p0):
                assert p0.view is not None
                await p0.act(choose(p0.view, random.Random(3)))
        assert p1.view is not None
        if p1.view["outcome"] is None:
            waiting = p1.v
            await p1.drain(0.6)  # longer than any bot delay: nobody plays for the person who is back
            assert p1.v == waiting and p1.view["to_act"] == 1
        await p0.close()
        await p1.close()


async def test_the_turn_timer_plays_for_a_person_who_does_not_act() -> None:
    async with live_server() as live:
        _code, _token0, _token1, p0, p1 = await start_two_humans(live, turn_seconds=0.3, grace=60)
        assert p0.view is not None
        to_act = p0.view["to_act"]
        version = p0.v
        waiter = p0 if to_act == 0 else p1
        step = await waiter.expect("step", timeout=5)  # nobody acts: the timer does
        assert step["seat"] == to_act and step["v"] == version + 1
        await p0.close()
        await p1.close()


async def test_without_a_turn_timer_the_game_waits() -> None:
    async with live_server() as live:
        _code, _token0, _token1, p0, p1 = await start_two_humans(live, grace=60)
        version = p0.v
        await p0.drain(0.6)
        await p1.drain(0.1)
        assert p0.v == version
        await p0.close()
        await p1.close()
