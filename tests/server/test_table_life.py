"""The table's life as docs/PROTOCOL.md tells it: narrated steps, timers, the wait between rounds,
the people's reaction window, refusals that resync, and seats that change hands (leave, handover,
kick, replace). The clients speak only the protocol."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import websockets

from tests.helpers import deal, shrink
from tests.server.harness import Player, choose, create, join, live_server, my_turn, start_two_humans
from unoengine.bots import make_bot
from unoengine.play.table import Table
from unoengine.server.actor import Client, ServerConfig
from unoengine.server.app import UnoServer
from unoengine.server.protocol import Act, Hello
from unoengine.server.store import GameRow, MemoryStore


async def lobby_until(player: Player, check: Any) -> dict[str, Any]:
    """The player's lobby once ``check(table)`` holds: the latest one seen, or the next that does."""
    if player.lobby is not None and check(player.lobby):
        return player.lobby
    while True:
        table = (await player.expect("lobby"))["table"]
        if check(table):
            return table  # type: ignore[no-any-return]


def steps_of(player: Player) -> list[dict[str, Any]]:
    return [m for m in player.received if m.get("type") == "step"]


async def play_some(players: list[Player], rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        mover = next((p for p in players if my_turn(p)), None)
        if mover is None or mover.view is None:
            return
        await mover.act(choose(mover.view, rng))
        await mover.expect("step")
        for player in players:  # everyone has the step before the next one is chosen
            while player.v < mover.v:
                await player.recv()


async def test_each_seat_gets_its_own_sentences_and_a_reload_rebuilds_the_whole_log() -> None:
    async with live_server() as live:
        code, _token0, token1, p0, p1 = await start_two_humans(live)
        sync = next(m for m in p0.received if m["type"] == "sync")
        assert set(sync["timers"]) == {"turn", "react", "round"} and sync["timers"]["turn"] is None
        await play_some([p0, p1], random.Random(3), 6)
        mine, theirs = steps_of(p0), steps_of(p1)
        assert mine and len(mine) == len(theirs)
        for a, b in zip(mine, theirs, strict=True):
            assert a["v"] == b["v"] and a["timeout"] is False and set(a["timers"]) == {"turn", "react", "round"}
            assert all(isinstance(line, str) for line in a["lines"]) and a["lines"]
            if a["seat"] == 0:  # the seat itself reads "You"; the other seat reads its name
                assert a["lines"][0].startswith("You") and b["lines"][0].startswith("Host")
            else:
                assert b["lines"][0].startswith("You") and a["lines"][0].startswith("Bob")
            if a["action"] == "draw" and a["seat"] == 0:
                drawn = [e for e in a["events"] if e.get("cards")]
                shown = " ".join(b["lines"])
                assert drawn and "drew 1" in shown  # the other seat learns how many, not which
        # a reload (since 0) gets every step of the game, narrated for that seat
        again = await Player.connect(live, code, token1, seat=1, since=0, game=1)
        steps = await again.expect("steps")
        assert [s["v"] for s in steps["steps"]] == list(range(1, p1.v + 1))
        assert [s["lines"] for s in steps["steps"]] == [s["lines"] for s in theirs]
        assert set(steps["timers"]) == {"turn", "react", "round"}
        await again.close()


async def test_a_turn_that_runs_out_is_flagged_and_told_as_such() -> None:
    async with live_server() as live:
        code, token0, _token1, p0, p1 = await start_two_humans(live, turn_seconds=0.3)
        sync = next(m for m in reversed(p0.received) if m["type"] == "sync")
        turn = sync["timers"]["turn"]  # None while no worker drives the table yet (PostgreSQL's lease)
        assert turn is None or 0 < turn <= 300
        step = await p0.expect("step", timeout=15)
        other = await p1.expect("step", timeout=15)
        assert step["timeout"] is True and other["timeout"] is True
        assert 0 < step["timers"]["turn"] <= 300  # the next decision's timer runs
        seat = step["seat"]
        lines = {0: step["lines"][0], 1: other["lines"][0]}
        assert lines[seat].startswith("Time ran out: ") and lines[seat].endswith(" for you")
        name = "Host" if seat == 0 else "Bob"
        assert lines[1 - seat].startswith("Time ran out: ") and lines[1 - seat].endswith(f" for {name}")
        # the flag is kept with the game: a reload says the same
        again = await Player.connect(live, code, token0, seat=0, since=0, game=1)
        steps = (await again.expect("steps"))["steps"]
        assert steps[0]["timeout"] is True and steps[0]["lines"][0] == step["lines"][0]


async def test_refused_commands_of_any_kind_get_an_error_then_a_sync() -> None:
    async with live_server() as live:
        code, _token0, token1, p0, p1 = await start_two_humans(live)
        watcher = await Player.connect(live, code)
        await watcher.expect("sync")
        cases: list[tuple[Player, dict[str, Any], str]] = [
            (p0, {"type": "act", "seat": 0, "token": "x" * 32, "game": 1, "v": p0.v, "action": "draw"}, "auth"),
            (p0, {"type": "act", "seat": 0, "token": token1, "game": 1, "v": p0.v, "action": "draw"}, "auth"),
            (watcher, {"type": "act", "seat": 0, "token": "", "game": 1, "v": p0.v, "action": "draw"}, "auth"),
            (watcher, {"type": "chat", "token": "t", "text": "hi"}, "auth"),
            (p1, {"type": "kick", "token": token1, "seat": 0}, "not_host"),
            (p1, {"type": "act", "seat": 0, "token": token1, "game": 1, "v": p1.v, "action": "draw"}, "wrong_seat"),
        ]
        for player, message, code_ in cases:
            await player.send(message)
            error = await player.expect("error")
            assert error["code"] == code_, (message, error)
            assert (await player.recv())["type"] == "sync", message


async def test_the_lobby_names_the_host_and_counts_who_watches() -> None:
    async with live_server() as live:
        code, token0 = await create(live, rules="classic", seats=3)
        _, token1 = await join(live, code, "Bob")
        host = await Player.connect(live, code, token0, seat=0)
        assert host.lobby is not None
        assert host.lobby["host"] == 0 and host.lobby["spectators"] == 0 and host.lobby["waiting"] == []
        assert [s["host"] for s in host.lobby["seats"]] == [True, False, False] and host.lobby["joinable"]
        watcher = await Player.connect(live, code)
        await lobby_until(host, lambda table: table["spectators"] == 1)
        await watcher.close()
        await lobby_until(host, lambda table: table["spectators"] == 0)
        # handover: Bob hosts; the old host no longer may
        guest = await Player.connect(live, code, token1, seat=1)
        await host.send({"type": "handover", "token": token0, "seat": 1})
        await lobby_until(host, lambda table: table["host"] == 1)
        await host.send({"type": "start", "token": token0, "fill": True})
        assert (await host.expect("error"))["code"] == "not_host"
        await lobby_until(guest, lambda table: table["host"] == 1)
        # the host cannot hand over to a bot or an open seat
        await guest.send({"type": "handover", "token": token1, "seat": 2})
        assert (await guest.expect("error"))["code"] == "bad_seat"


async def test_leave_kick_and_replace_in_the_lobby_and_in_a_game() -> None:
    async with live_server() as live:
        code, token0 = await create(live, rules="classic", seats=4, options={"single_round": True})
        seats = [await join(live, code, name) for name in ("Ann", "Bob", "Cy")]
        host = await Player.connect(live, code, token0, seat=0)
        ann = await Player.connect(live, code, seats[0][1], seat=1)
        # in the lobby, leaving opens the seat and the token stops working
        await ann.send({"type": "leave", "token": seats[0][1]})
        welcome = await ann.expect("welcome")
        assert welcome["seat"] is None and welcome["spectator"] is True
        await lobby_until(host, lambda table: table["seats"][1]["open"] and table["joinable"])
        status, mine = await live.post("/api/mine", {"tokens": [seats[0][1]]})
        assert status == 200 and mine["tables"] == []
        # kick: Bob never connected (absent); Cy is connected (present: refused)
        cy = await Player.connect(live, code, seats[2][1], seat=3)
        await host.send({"type": "kick", "token": token0, "seat": 3})
        assert (await host.expect("error"))["code"] == "present"
        await host.send({"type": "kick", "token": token0, "seat": 2})
        await lobby_until(host, lambda table: table["seats"][2]["open"])
        # replace: put a bot in an open seat
        await host.send({"type": "replace", "token": token0, "seat": 1, "bot": "random"})
        await lobby_until(host, lambda table: table["seats"][1]["bot"] == "random")
        await host.send({"type": "start", "token": token0, "fill": True, "bot": "random"})
        await host.expect("sync")
        await cy.expect("sync")
        # in a game, a person who leaves is played by the stand-in bot
        await cy.send({"type": "leave", "token": seats[2][1]})
        assert (await cy.expect("welcome"))["seat"] is None
        await lobby_until(host, lambda table: table["seats"][3]["bot"] == "heuristic")
        await cy.send({"type": "chat", "token": seats[2][1], "text": "still here?"})
        assert (await cy.expect("error"))["code"] == "auth"


async def test_the_next_round_waits_for_the_people() -> None:
    async with live_server(round_wait=10.0) as live:
        code, token = await create(live, rules="classic", seats=2, bots=["random"])
        host = await Player.connect(live, code, token, seat=0)
        await host.send({"type": "start", "token": token})
        await host.expect("sync")
        rng = random.Random(5)
        for _ in range(3000):
            await host.drain(0.01)
            if host.lobby is not None and host.lobby["waiting"]:
                break
            if my_turn(host) and host.view is not None:
                await host.act(choose(host.view, rng))
        assert host.lobby is not None and host.lobby["waiting"] == [0]
        round_end = next(m for m in reversed(host.received) if m["type"] == "step")
        assert any(line.startswith("Round 1 won by") for line in round_end["lines"])
        assert round_end["timers"]["round"] is not None and 9000 < round_end["timers"]["round"] <= 10000
        v = host.v
        await host.drain(0.5)
        assert host.v == v  # no bot acts while the round waits
        await host.send({"type": "ready", "token": token})
        lobby = await host.expect("lobby")
        assert lobby["table"]["waiting"] == []
        if not my_turn(host):  # the bot opens the new round now
            assert (await host.expect("step"))["v"] == v + 1


class Inbox:
    """A client's messages, decoded, with the time each arrived."""

    def __init__(self) -> None:
        self.messages: list[tuple[float, dict[str, Any]]] = []

    def push(self, text: str) -> bool:
        self.messages.append((time.monotonic(), json.loads(text)))
        return True

    def drop(self, reason: str) -> None:
        pass

    async def step(self, v: int, timeout: float = 10, kind: str = "step") -> tuple[float, dict[str, Any]]:
        """The first message of ``kind`` at version ``v`` and when it arrived."""
        for _ in range(int(timeout / 0.01)):
            for stamp, message in self.messages:
                if message.get("type") == kind and message["v"] == v:
                    return stamp, message
            await asyncio.sleep(0.01)
        raise AssertionError(f"no {kind} {v}")


async def test_a_bot_does_not_catch_a_person_before_the_reaction_time() -> None:
    """The person plays down to one card without calling UNO: the bot may catch them, only after react_delay."""
    store = MemoryStore()
    server = UnoServer(store, ServerConfig(bot_delay=0, react_delay=0.5, round_wait=0))
    options = {"single_round": True}
    created = await server.create({"rules": "classic", "seats": 2, "bots": ["heuristic"], "options": options})
    code, token = created["code"], created["token"]
    actor = server.actors[code]
    state = shrink(deal("classic", [["R5", "R7"], ["B1", "B2"]], "R3", dealer=1, options=options), 0, 2)
    game = GameRow(1, state.seed, "salt")
    await store.start_game(code, game)
    actor.row.games.append(game)
    actor.table = Table(state, [None, make_bot("heuristic", random.Random(1))])
    inbox = Inbox()
    client = Client(inbox)
    actor.submit(Hello(code, token, None, None), client)
    await inbox.step(0, kind="sync")
    sent = time.monotonic()  # the window opens after this, when the play is accepted
    actor.submit(Act(0, token, 1, 0, "R5"), client)
    _played, step = await inbox.step(1)
    assert step["timers"]["react"] is not None and 0 < step["timers"]["react"] <= 500
    caught, catch = await inbox.step(2)
    assert catch["action"] == "catch 0" and catch["lines"][0] == "Bot 2 caught you without UNO: you draw 2"
    assert caught - sent >= 0.5 - 0.01  # however slow the machine: the timer cannot fire before the window ends
    await server.close()


async def test_a_person_jumping_in_2_5_s_after_the_window_opened_gets_in_before_the_bot() -> None:
    """The default reaction window (no react_delay given) lets a person's jump-in 2.5 s late in: the bot,
    whose turn it is, waits; the testers' slowest click came at 1.8 s, and 4 of 14 missed the old 2 s."""
    assert ServerConfig().react_delay >= 2.5
    store = MemoryStore()
    server = UnoServer(store, ServerConfig(bot_delay=0, round_wait=0))
    options = {"jump_in": True}
    created = await server.create({"rules": "classic", "seats": 2, "bots": ["heuristic"], "options": options})
    code, token = created["code"], created["token"]
    actor = server.actors[code]
    # Seat 0 holds two red 5s; the bot holds a red card it would play at once on its turn.
    state = shrink(deal("classic", [["R5", "R5", "B7", "G8"], ["R1", "R2"]], "R3", dealer=1, options=options), 0, 4)
    game = GameRow(1, state.seed, "salt")
    await store.start_game(code, game)
    actor.row.games.append(game)
    actor.table = Table(state, [None, make_bot("heuristic", random.Random(1))])
    assert created["table"]["seats"][1]["name"] == "Bot 2", "a bot is named by its seat as people count it"
    inbox = Inbox()
    client = Client(inbox)
    actor.submit(Hello(code, token, None, None), client)
    await inbox.step(0, kind="sync")
    actor.submit(Act(0, token, 1, 0, "R5"), client)
    opened, step = await inbox.step(1)
    assert step["view"]["to_act"] == 1 and any(a["out_of_turn"] for a in step["view"]["actions"])
    assert step["timers"]["react"] is not None and step["timers"]["react"] > 2500
    await asyncio.sleep(2.5 - (time.monotonic() - opened))
    actor.submit(Act(0, token, 1, 1, "R5"), client)
    _at, jump = await inbox.step(2)
    assert jump["seat"] == 0 and jump["action"] == "R5", "the person got in before the bot"
    assert not any(m.get("type") == "error" for _, m in inbox.messages), inbox.messages
    await server.close()


async def test_a_hello_with_since_zero_before_any_action_gets_no_steps_and_after_the_history_all() -> None:
    async with live_server(history=2) as live:
        code, _token0, token1, p0, p1 = await start_two_humans(live)
        early = await Player.connect(live, code, token1, seat=1, since=0, game=1)
        assert p0.v == 0 and (await early.expect("steps"))["steps"] == []  # two people: nobody acted yet
        await play_some([p0, p1], random.Random(8), 5)
        late = await Player.connect(live, code, token1, seat=1, since=0, game=1)
        steps = await late.expect("steps")  # beyond the 2 kept: rebuilt from the record
        assert [s["v"] for s in steps["steps"]] == list(range(1, p1.v + 1))
        assert [s["lines"] for s in steps["steps"]] == [s["lines"] for s in steps_of(p1)]


async def test_the_icon_and_codes_that_name_no_table() -> None:
    async with live_server() as live:
        status, icon = await live.get("/favicon.ico")
        assert status == 200 and icon.startswith("<svg")
        code, _token = await create(live, rules="classic", seats=2)
        assert (await live.get(f"/t/{code}"))[0] == 200
        status, page = await live.get("/t/ZZZZZZ")  # a code no table has: the page, with 404
        assert status == 404 and "<html" in page.lower()
        status, body = await live.get("/api/tables/ZZZZZZ")
        assert status == 404 and body["error"] == "no_table"
        status, body = await live.get("/api/tables/AB1")  # text that is no code at all
        assert status == 404 and body["error"] == "bad_code"
        watcher = Player(await websockets.connect(live.ws_url), "AB1", None, None)
        await watcher.send({"type": "hello", "table": "AB1"})
        assert (await watcher.expect("error"))["code"] == "bad_code"
        # a started table with every seat taken: no seat to take, and the lobby says so
        _seat, _ = await join(live, code, "Bob")
        status, lobby = await live.get(f"/api/tables/{code}")
        assert status == 200 and lobby["joinable"] is False
        status, refused = await live.post(f"/api/tables/{code}/join", {"name": "Late"})
        assert status == 409 and refused["error"] == "full"


async def test_a_bot_that_cannot_play_the_tables_game_is_refused_by_name() -> None:
    """The learned ``ppo`` bot plays Classic heads-up only: a table of another game refuses it at creation,
    as a seat's bot and as the bot that fills the open seats, with a message naming it; nothing changes."""
    async with live_server() as live:
        status, body = await live.post("/api/tables", {"rules": "classic", "seats": 4, "bots": ["ppo"]})
        assert status == 400 and body["error"] == "bad_field"
        assert "ppo was trained for classic with 2 seats; it cannot play classic with 4 seats" in body["message"]
        code, token0 = await create(live, rules="classic", seats=3)
        host = await Player.connect(live, code, token0, seat=0)
        await host.send({"type": "replace", "token": token0, "seat": 1, "bot": "ppo"})
        error = await host.expect("error")
        assert error["code"] == "bad_field" and "ppo was trained for classic with 2 seats" in error["message"]
        await host.send({"type": "start", "token": token0, "fill": True, "bot": "ppo"})
        assert (await host.expect("error"))["code"] == "bad_field"
        assert host.lobby is not None and host.lobby["status"] == "lobby"
        code, token0 = await create(live, rules="classic", seats=2, bots=["ppo"])  # its own game: accepted
        assert code


def test_every_way_to_start_a_server_has_the_same_reaction_window() -> None:
    """``uno serve``'s --react-delay, a worker's and the library's ServerConfig share REACT_DELAY (3 s)."""
    from unoengine.cli.serve import serve
    from unoengine.server.actor import REACT_DELAY
    from unoengine.server.worker import ServeSpec

    option = next(param for param in serve.params if param.name == "react_delay")
    assert option.default == REACT_DELAY == ServerConfig().react_delay == 3.0
    assert ServeSpec.__dataclass_fields__["react_delay"].default == REACT_DELAY
