"""``uno bot --url``: a bot plays a whole game at a live ``uno serve`` table through the protocol."""

from __future__ import annotations

import asyncio

from tests.server.harness import create, live_server
from unoengine import new_game, view_for
from unoengine.cli.remote import play_remote, view_from_json
from unoengine.core.views import view_to_json


def test_a_view_reads_back_from_its_json() -> None:
    for rules, seats in (("classic", 3), ("duo", 2), ("flex", 4)):
        state = new_game(rules, seats, seed=4)
        for seat in range(seats):
            view = view_for(state, seat)
            assert view_from_json(view_to_json(view)) == view


async def test_uno_bot_plays_a_whole_game_against_a_live_server() -> None:
    async with live_server() as live:
        code, token = await create(live, rules="classic", seats=2, options={"single_round": True}, bots=[None])
        url = f"{live.url}/t/{code}"
        guest = asyncio.create_task(play_remote(url, "heuristic"))  # joins the open seat 1
        for _ in range(100):
            _status, table = await live.get(f"/api/tables/{code}")
            if not table["seats"][1]["open"]:
                break
            await asyncio.sleep(0.05)
        host = asyncio.create_task(play_remote(url, "ismcts:iterations=3", token=token, start=True))
        results = await asyncio.wait_for(asyncio.gather(host, guest), timeout=120)
        assert [result["seat"] for result in results] == [0, 1]
        assert results[0]["winner"] == results[1]["winner"] in (0, 1)
        assert results[0]["scores"] == results[1]["scores"]
