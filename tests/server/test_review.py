"""``GET /api/tables/{code}/games/{n}/review``: a finished game's steps face up, and its analysis in the pool."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from tests.server.harness import Live, Player, choose, create, finish_game, live_server, my_turn
from unoengine.core.cards import parse_card
from unoengine.core.record import parse_record

TINY: dict[str, Any] = {"review_iterations": 2}
"""A search budget the tests can afford: the analysis's figures are noise, its shape is what is checked."""


async def a_finished_table(live: Live, games: int = 1) -> tuple[str, str, Player]:
    code, token = await create(
        live, rules="duo", seats=2, bots=["random"], options={"single_round": True}, name="Alice"
    )
    host = await Player.connect(live, code, token, seat=0)
    rng = random.Random(7)
    for number in range(games):
        await finish_game(host, token, rng, again=number > 0)
    return code, token, host


async def wait_for_analysis(live: Live, code: str, number: int, seconds: float = 60) -> dict[str, Any]:
    for _ in range(int(seconds * 10)):
        status, body = await live.get(f"/api/tables/{code}/games/{number}/review?steps=0")
        assert status == 200, body
        if body["analysis"]["status"] not in ("queued", "running"):
            return body  # type: ignore[no-any-return]
        await asyncio.sleep(0.1)
    raise AssertionError("the analysis did not finish")


async def test_a_finished_game_is_reviewed_step_by_step_with_every_hand_face_up() -> None:
    async with live_server(**TINY) as live:
        code, _token, host = await a_finished_table(live)
        status, text = await live.get(f"/api/tables/{code}/games/1/record")
        assert status == 200
        record = parse_record(json.dumps(text))
        status, body = await live.get(f"/api/tables/{code}/games/1/review")
        assert status == 200, body
        assert set(body) == {"steps", "names", "analysis"}
        assert body["names"] == ["Alice", "Bot 2"]
        steps = body["steps"]
        assert len(steps) == len(record.actions) + 1
        assert steps[0]["index"] is None and steps[0]["action"] is None
        assert [(s["seat"], s["action"]) for s in steps[1:]] == [tuple(a) for a in record.actions]
        for step in steps:
            assert set(step) == {"index", "seat", "action", "lines", "hands", "view"}
            assert len(step["hands"]) == 2
            for hand in step["hands"]:
                for card in hand:
                    parse_card(card)  # face up: every card named
            assert [len(hand) for hand in step["hands"]] == step["view"]["hand_sizes"]
        assert any(step["lines"] for step in steps)
        assert any("Alice" in line for step in steps for line in step["lines"])
        assert body["analysis"]["status"] in ("queued", "running", "done")
        await host.close()


async def test_the_analysis_runs_in_the_pool_and_reports_done_with_marks_and_accuracy() -> None:
    async with live_server(**TINY) as live:
        code, _token, host = await a_finished_table(live)
        status, first = await live.get(f"/api/tables/{code}/games/1/review")
        assert status == 200
        assert first["analysis"]["status"] in ("queued", "running")
        body = await wait_for_analysis(live, code, 1)
        assert "steps" not in body  # ?steps=0: a poll of the progress only
        analysis = body["analysis"]
        assert analysis["status"] == "done", analysis
        result = analysis["result"]
        assert analysis["done"] == analysis["total"] == len(result["decisions"])
        assert {p["seat"] for p in result["players"]} == {0, 1}
        for decision in result["decisions"]:
            assert 0 <= decision["win"] <= 1 and 0 <= decision["best_win"] <= 1
            assert decision["mark"] in (None, "inaccuracy", "mistake", "blunder")
        stats = (await live.get("/api/stats"))[1]
        assert stats["review_workers"] == 1 and stats["reviews_running"] == 0
        await host.close()


async def test_one_analysis_at_a_time_per_table_even_with_free_workers() -> None:
    async with live_server(review_workers=2, **TINY) as live:
        code, _token, host = await a_finished_table(live, games=2)
        _, one = await live.get(f"/api/tables/{code}/games/1/review?steps=0")
        _, two = await live.get(f"/api/tables/{code}/games/2/review?steps=0")
        assert one["analysis"]["status"] == "running"
        assert two["analysis"]["status"] == "queued"  # a worker is free, but the table has its turn already
        assert (await live.get("/api/stats"))[1]["reviews_queued"] == 1
        assert (await wait_for_analysis(live, code, 2))["analysis"]["status"] == "done"
        assert (await wait_for_analysis(live, code, 1))["analysis"]["status"] == "done"
        await host.close()


async def test_unfinished_games_and_bad_numbers_are_refused_and_reviews_can_be_off() -> None:
    async with live_server(review_workers=0) as live:
        code, token = await create(live, rules="duo", seats=2, bots=["random"], options={"single_round": True})
        host = await Player.connect(live, code, token, seat=0)
        status, body = await live.get(f"/api/tables/{code}/games/1/review")
        assert (status, body["error"]) == (404, "no_game")  # not dealt yet
        await host.send({"type": "start", "token": token})
        await host.expect("sync")
        status, body = await live.get(f"/api/tables/{code}/games/1/review")
        assert (status, body["error"]) == (409, "not_over")
        for bad in ("0", "2", "x", "1" * 20):
            status, body = await live.get(f"/api/tables/{code}/games/{bad}/review")
            assert (status, body["error"]) == (404, "no_game"), bad
        status, body = await live.get("/api/tables/ZZZZZZ/games/1/review")
        assert (status, body["error"]) == (404, "no_table")
        rng = random.Random(3)
        while host.view is None or host.view["outcome"] is None:
            if my_turn(host):
                assert host.view is not None
                await host.act(choose(host.view, rng))
            await host.expect("step", "error", "sync")
        status, body = await live.get(f"/api/tables/{code}/games/1/review")
        assert status == 200
        assert body["analysis"] == {"status": "off", "done": 0, "total": None, "result": None}
        assert len(body["steps"]) >= 2
        await host.close()
