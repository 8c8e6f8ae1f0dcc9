"""The WebSocket protocol over a live server: auth, seats, versions, reconnect, spectators, play again."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tests.server.harness import Live, Player, choose, create, finish_game, join, live_server, my_turn, start_two_humans


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


async def two_humans(live: Live, **settings: Any) -> tuple[str, Player, Player]:
    code, _token0, _token1, p0, p1 = await start_two_humans(live, **settings)
    return code, p0, p1


def acting(p0: Player, p1: Player) -> tuple[Player, Player]:
    assert p0.view is not None
    return (p0, p1) if p0.view["to_act"] == 0 else (p1, p0)


async def test_auth_wrong_seat_stale_version_and_illegal_actions_are_refused_and_resynced() -> None:
    async with live_server() as live:
        code, p0, p1 = await two_humans(live)
        mover, other = acting(p0, p1)
        assert mover.view is not None
        v = mover.v
        # a token that is not the seat's: refused, nothing changes
        await mover.send({"type": "act", "seat": mover.seat, "token": "x" * 32, "game": 1, "v": v, "action": "draw"})
        assert (await mover.expect("error"))["code"] == "auth"
        # an action for another seat with one's own token
        await other.act("draw", seat=mover.seat)
        assert (await other.expect("error"))["code"] == "wrong_seat"
        assert (await other.expect("sync"))["v"] == v
        # not the seat's decision: the core refuses (G-4)
        await other.act("draw")
        error = await other.expect("error")
        assert error["code"] == "illegal" and error["rule"] == "G-4"
        # a stale version
        await mover.act("draw", v=v + 5)
        error = await mover.expect("error")
        assert error["code"] == "stale" and error["v"] == v
        assert (await mover.expect("sync"))["v"] == v
        # an illegal card (one the seat does not hold, or that does not match)
        bad = next(card for card in ("R0", "Y0", "G0", "B0") if card not in mover.view["legal"])
        await mover.act(bad)
        error = await mover.expect("error")
        assert error["code"] == "illegal" and "Refused" in error["message"]
        # a notation that is not an action
        await mover.act("banana")
        assert (await mover.expect("error"))["code"] == "notation"
        # finally a legal action is accepted and broadcast to both
        await mover.act(mover.view["legal"][0])
        assert (await mover.expect("step"))["v"] == v + 1
        assert (await other.expect("step"))["v"] == v + 1
        assert live.server.actors[code].table is not None and live.server.actors[code].table.version == v + 1


async def test_spectators_see_no_hand_and_cannot_act() -> None:
    async with live_server() as live:
        code, p0, p1 = await two_humans(live)
        watcher = await Player.connect(live, code)
        message = await watcher.expect("sync")
        assert message["view"]["hand"] == [] and message["view"]["legal"] == []
        await watcher.send({"type": "act", "seat": 0, "token": "", "game": 1, "v": watcher.v, "action": "draw"})
        assert (await watcher.expect("error"))["code"] == "auth"
        mover, _ = acting(p0, p1)
        assert mover.view is not None
        await mover.act("draw" if "draw" in mover.view["legal"] else mover.view["legal"][0])
        step = await watcher.expect("step")
        assert step["view"]["hand"] == []
        for event in step["events"]:
            assert event.get("cards") is None


async def test_reconnect_gets_the_steps_since_its_version_or_a_full_view() -> None:
    async with live_server(history=4) as live:
        code, p0, p1 = await two_humans(live)
        token1, seen = p1.token, p1.v
        await p1.close()
        rng = random.Random(2)
        for _ in range(3):
            mover = p0 if my_turn(p0) else None
            if mover is None:
                break
            assert mover.view is not None
            await mover.act(choose(mover.view, rng))
            await mover.expect("step", "error")
        moved = p0.v - seen
        back = await Player.connect(live, code, token1, seat=1, since=seen, game=1)
        message = await back.expect("steps", "sync")
        if moved:
            assert message["type"] == "steps" and [s["v"] for s in message["steps"]] == list(range(seen + 1, p0.v + 1))
        assert message["v"] == p0.v
        # far behind the kept history: a full view
        stale = await Player.connect(live, code, token1, seat=1, since=-100, game=1)
        assert (await stale.expect("steps", "sync"))["type"] == "sync"
        # a reconnect keeps the seat: the welcome names it
        assert back.lobby is not None and back.lobby["seats"][1]["name"] == "Bob"


async def test_play_again_deals_a_new_game_at_the_same_table_and_reveals_the_last_seed() -> None:
    async with live_server() as live:
        code, token = await create(live, rules="duo", seats=2, bots=["random"], options={"single_round": True})
        host = await Player.connect(live, code, token, seat=0)
        await host.send({"type": "again", "token": token})
        assert (await host.expect("error"))["code"] == "not_over"
        await finish_game(host, token, random.Random(4))
        assert host.lobby is not None and host.lobby["status"] == "over"
        first = host.lobby["games"][0]
        from unoengine.server.auth import seed_commitment

        assert seed_commitment(int(first["seed"]), first["salt"]) == first["commitment"]
        status, record = await live.get(first["record"])
        assert status == 200 and record["seed"] == int(first["seed"])
        await host.send({"type": "again", "token": token})
        sync = await host.expect("sync")
        assert sync["game"] == 2 and sync["v"] == 0
        status, _ = await live.get(f"/api/tables/{code}/games/2/record")
        assert status == 409  # the running game's record (and seed) stays secret


async def test_only_the_host_starts_and_joins_close_when_seats_are_filled() -> None:
    async with live_server() as live:
        code, token0 = await create(live, rules="classic", seats=3)
        _, token1 = await join(live, code, "B")
        guest = await Player.connect(live, code, token1, seat=1)
        await guest.send({"type": "start", "token": token1, "fill": True})
        assert (await guest.expect("error"))["code"] == "not_host"
        host = await Player.connect(live, code, token0, seat=0)
        await host.send({"type": "start", "token": token0})
        assert (await host.expect("error"))["code"] == "seats_open"
        await host.send({"type": "start", "token": token0, "fill": True, "bot": "random"})
        await host.expect("sync")
        status, body = await live.post(f"/api/tables/{code}/join", {"name": "Late"})
        assert status == 409 and body["error"] == "started"
        status, mine = await live.post("/api/mine", {"tokens": [token0, token1, "nope"]})
        assert status == 200 and sorted((t["code"], t["seat"]) for t in mine["tables"]) == [(code, 0), (code, 1)]


async def test_bad_input_gets_an_error_for_that_client_only() -> None:
    async with live_server() as live:
        _code, p0, p1 = await two_humans(live)
        cases = [
            "not json",
            "[1, 2]",
            '{"type": "launch"}',
            '{"type": "act", "seat": "0", "token": "t", "game": 1, "v": 0, "action": "draw"}',
            '{"type": "act", "seat": true, "token": "t", "game": 1, "v": 0, "action": "draw"}',
            '{"type": "chat", "token": "t", "text": 5}',
            '{"type": "hello", "table": "ZZZZZZ"}',
            "x" * 5000,
            "[" * 3000 + "]" * 3000,
        ]
        for text in cases:
            await p0.send(text)
            message = await p0.expect("error")
            assert message["code"] in ("bad_json", "bad_type", "bad_field", "too_long"), (text[:40], message)
        await p1.drain()
        assert not [m for m in p1.received[-20:] if m.get("type") == "error"]
        # a frame over the WebSocket cap closes that connection only (1009), however long the machine takes
        await p1.send("y" * 100_000)
        await asyncio.wait_for(p1.ws.wait_closed(), 120)
        assert p1.ws.close_code == 1009
        await p0.send({"type": "ping"})
        assert (await p0.expect("pong"))["type"] == "pong"


async def test_hostile_names_and_chat_are_cleaned_and_capped() -> None:
    async with live_server() as live:
        live.server.clock = lambda: 0.0  # the chat's rate limit never refills: exactly its burst gets through
        code, token = await create(live, rules="classic", seats=2, name="<b>\u202eEve\x00</b>" + "x" * 40)
        host = await Player.connect(live, code, token, seat=0)
        assert host.lobby is not None
        name = host.lobby["seats"][0]["name"]
        assert len(name) <= 24 and "\u202e" not in name and "\x00" not in name
        await host.send({"type": "chat", "token": token, "text": "<script>alert(1)</script>" + "z" * 400})
        line = await host.expect("chat")
        assert len(line["text"]) <= 300
        for _ in range(8):
            await host.send({"type": "chat", "token": token, "text": "spam"})
        replies = [await host.expect("chat", "error") for _ in range(8)]
        assert [m["type"] for m in replies].count("chat") == 4  # a burst of 5, the first line included
        assert [m.get("code") for m in replies if m["type"] == "error"] == ["rate_limited"] * 4


async def test_a_flood_is_rate_limited_then_disconnected_and_other_clients_carry_on() -> None:
    async with live_server(message_rate=20, message_burst=60) as live:
        code, p0, p1 = await two_humans(live)
        for _ in range(400):
            await p0.send({"type": "ping"})
        codes = []
        try:
            while True:
                message = await p0.recv(2)
                codes.append(message.get("code"))
        except Exception:
            pass
        assert "rate_limited" in codes and "flood" in codes
        await p1.send({"type": "ping"})
        assert (await p1.expect("pong"))["type"] == "pong"
        assert code in live.server.actors


async def test_a_second_connection_of_the_same_seat_sees_the_same_game_and_cannot_double_an_action() -> None:
    """Two tabs of one seat: both get the seat's views; the same action sent from both counts once."""
    async with live_server() as live:
        code, token0, token1, p0, p1 = await start_two_humans(live)
        mover, other = acting(p0, p1)
        tab = await Player.connect(live, code, token0 if mover is p0 else token1, seat=mover.seat)
        await tab.expect("sync", "steps")
        assert tab.view == mover.view and tab.v == mover.v
        v = mover.v
        action = mover.view["legal"][0] if mover.view is not None else "draw"
        await mover.act(action, v=v)
        await tab.act(action, v=v)
        assert (await mover.expect("step"))["v"] == v + 1
        error = await tab.expect("error")
        assert error["code"] in ("stale", "illegal")  # made against version v, now v + 1 (or no longer its turn)
        assert (await other.expect("step"))["v"] == v + 1
        await other.drain(0.2)
        table = live.server.actors[code].table
        assert table is not None and table.version == v + 1
        assert other.v == v + 1
        await tab.close()
        # the seat is still connected through its first tab: no grace, no stand-in
        await mover.drain(0.2)
        assert live.server.actors[code].presence[mover.seat].connections == 1


async def test_the_log_starts_with_the_first_card_for_every_seat_spectator_and_reload() -> None:
    async with live_server() as live:
        for rules in ("classic", "flex"):
            code, token0 = await create(live, rules=rules, seats=2, options={"single_round": True})
            _seat, token1 = await join(live, code, "Bob")
            p0 = await Player.connect(live, code, token0, seat=0)
            p1 = await Player.connect(live, code, token1, seat=1)
            await p0.send({"type": "start", "token": token0})
            first0, first1 = (await p0.expect("sync"))["lines"], (await p1.expect("sync"))["lines"]
            assert len(first0) == 1 and first0[0].startswith("Round 1: the first card is "), first0
            assert first1[0].split("; next: ")[0] == first0[0].split("; next: ")[0]  # one card, each seat's words
            assert {first0[0].endswith("next: you (turn)"), first1[0].endswith("next: you (turn)")} == {True, False}
            watcher = await Player.connect(live, code)
            watched = (await watcher.expect("sync"))["lines"]
            assert watched[0].startswith("Round 1: the first card is ") and "you" not in watched[0]
            await watcher.close()
            rng = random.Random(5)
            for _ in range(3):  # a few steps, then a reload rebuilds the log from its opening
                mover = p0 if my_turn(p0) else p1
                assert mover.view is not None
                await mover.act(choose(mover.view, rng))
                await mover.expect("step", "error")
                await p0.drain(0.02)
                await p1.drain(0.02)
            again = await Player.connect(live, code, token1, seat=1, since=0, game=1)
            rebuilt = await again.expect("steps")
            assert rebuilt["lines"] == first1 and rebuilt["steps"]
            later = await Player.connect(live, code, token1, seat=1, since=rebuilt["v"], game=1)
            assert "lines" not in await later.expect("steps")  # a catch-up after a version adds to the log
            for player in (p0, p1, again, later):
                await player.close()
        code, token0 = await create(live, rules="duo", seats=2, options={"single_round": True})
        _seat, token1 = await join(live, code, "Bob")
        p0 = await Player.connect(live, code, token0, seat=0)
        await p0.send({"type": "start", "token": token0})
        assert (await p0.expect("sync"))["lines"] == []  # a Duo draft: its last step names the first card
        await p0.close()
