"""The WebSocket protocol over a live server: auth, seats, versions, reconnect, spectators, play again."""

from __future__ import annotations

import random

from tests.server.harness import Player, choose, create, join, live_server, my_turn


async def test_create_join_start_and_play_a_round_with_a_bot() -> None:
    async with live_server() as live:
        code, token = await create(live, rules="classic", seats=3, bots=["random"], options={"single_round": True})
        seat, token1 = await join(live, code, "Ann")
        assert seat == 2
        host = await Player.connect(live, code, token, seat=0)
        guest = await Player.connect(live, code, token1, seat=2)
        await host.send({"type": "start", "token": token})
        await host.expect("sync")
        await guest.expect("sync")
        assert host.view is not None and len(host.view["hand"]) == 7
        rng = random.Random(1)
        for _ in range(2000):
            for player in (host, guest):
                await player.drain(0.01)
            if host.view and host.view["outcome"] is not None:
                break
            for player in (host, guest):
                if my_turn(player):
                    assert player.view is not None
                    await player.act(choose(player.view, rng))
                    await player.expect("step", "error")
        assert host.view is not None and host.view["outcome"] is not None
        lobby = host.lobby
        assert lobby is not None and lobby["status"] == "over" and lobby["games"][0]["seed"] is not None
        await host.close()
        await guest.close()
