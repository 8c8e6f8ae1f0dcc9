"""The server's own work an action, without sockets: what ``uno serve`` spends besides the WebSocket transport.

N two-seat Classic tables live in one :class:`~unoengine.server.app.UnoServer` on a
temporary SQLite file (WAL, ``synchronous=FULL``, group commit), each seat a client
whose outlet keeps the last message (no socket, no uvicorn, no Starlette). Each round,
every seat to act sends an ``act`` (parsed from JSON text as a socket's frame is), the
tables' actors run the pipeline (checks, one ``apply``, the commit, one view, narration
and JSON text per seat), and the process's CPU time is divided by the actions. Set
beside ``benchmarks/server_load.py``'s server CPU an action, the difference is what the
WebSocket transport (uvicorn, websockets, Starlette, the sockets) costs.

  python benchmarks/server_actor.py --tables 200 --actions 20000
  python benchmarks/server_actor.py --json
  python benchmarks/server_actor.py --save               # write benchmarks/results/server_actor.json
  python benchmarks/server_actor.py --write docs/PERFORMANCE.md   # and rewrite that file's server-actor block
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from unoengine.server.actor import Client, Join, ServerConfig, TableActor
from unoengine.server.app import UnoServer
from unoengine.server.protocol import parse_message
from unoengine.server.store import SQLiteStore

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import add_result_options, machine, publish


class Outlet:
    """A client's outlet that keeps the last message it was given (the client reads its view from it)."""

    def __init__(self) -> None:
        self.last = "{}"

    def push(self, text: str) -> bool:
        self.last = text
        return True

    def drop(self, reason: str) -> None:
        pass


Seat = tuple[TableActor, Client, str]


async def seated(server: UnoServer, tables: int) -> list[Seat]:
    """``tables`` dealt two-seat tables, both seats connected (a hello each) and the game started."""
    seats: list[Seat] = []
    for _ in range(tables):
        made = await server.create({"rules": "classic", "seats": 2})
        actor = server.actor(made["code"])
        assert actor is not None
        _seat, token = await actor.call(Join("B"))
        for secret in (made["token"], token):
            client = Client(Outlet())
            actor.submit(parse_message(json.dumps({"type": "hello", "table": actor.code, "token": secret})), client)
            seats.append((actor, client, secret))
    await settle(seats)
    for actor, client, secret in seats[::2]:
        actor.submit(parse_message(json.dumps({"type": "start", "token": secret})), client)
    await settle(seats)
    return seats


async def settle(seats: list[Seat]) -> None:
    """Until every actor has handled its queue."""
    await asyncio.sleep(0)
    while any(not actor.queue.empty() for actor, _, _ in seats):
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.005)


def acts(seats: list[Seat], rng: random.Random) -> list[tuple[TableActor, Client, str]]:
    """The frames of this round: an ``act`` of every seat to act (a random legal move), an ``again`` when over."""
    frames = []
    for actor, client, secret in seats:
        outlet = client.outlet
        assert isinstance(outlet, Outlet)
        message = json.loads(outlet.last)
        view = message.get("view")
        if not view:
            continue
        if view["outcome"] is not None:
            if client.seat == 0:
                frames.append((actor, client, json.dumps({"type": "again", "token": secret})))
            continue
        if view["to_act"] == client.seat and view["legal"]:
            legal = [action for action in view["legal"] if not action.startswith("catch")]
            action = rng.choice([a for a in legal if a not in ("draw", "pass")] or legal)
            act = {"type": "act", "seat": client.seat, "token": secret, "game": message["game"], "v": message["v"]}
            frames.append((actor, client, json.dumps({**act, "action": action})))
    return frames


async def measure(tables: int, actions: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "actor.sqlite3")
        config = ServerConfig(bot_delay=0, react_delay=0, round_wait=0, message_rate=1e9, message_burst=1e9)
        server = UnoServer(store, config)
        seats = await seated(server, tables)
        rng = random.Random(seed)
        done = 0
        cpu, wall = time.process_time(), time.perf_counter()
        commits = store.commits
        while done < actions:
            frames = acts(seats, rng)
            for actor, client, text in frames:
                actor.submit(parse_message(text), client)
            done += sum(1 for _, _, text in frames if '"act"' in text)
            await settle(seats)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        commits = store.commits - commits
        await server.close()
    return {
        "tables": tables,
        "actions": done,
        "cpu_us_per_action": round(1e6 * cpu / max(1, done), 1),
        "actions_per_cpu_second": round(done / max(cpu, 1e-9)),
        "actions_per_commit": round(done / max(1, commits), 2),
        "wall_s": round(wall, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    add_result_options(parser, "server-actor")
    args = parser.parse_args()
    if not 1 <= args.tables <= 5000 or not 1 <= args.actions <= 10_000_000:
        parser.error("--tables 1..5000, --actions 1..10,000,000")
    measured_on = machine()
    result = asyncio.run(measure(args.tables, args.actions, args.seed))
    if args.save or args.write is not None:
        publish("server_actor", sys.argv[1:], result, measured_on, args.write)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
