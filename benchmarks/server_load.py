"""Load benchmark of ``uno serve``: N concurrent tables of bot clients over real WebSockets on loopback.

The server runs in its own process (SQLite store in a temporary directory, WAL,
synchronous=FULL); this process runs two WebSocket clients per table (Classic, two
seats), which play with random legal choices (from the view's ``legal`` list) and
deal again when a game ends. It stops by itself after ``--seconds``.

  python benchmarks/server_load.py --tables 1000 --seconds 60 --pace human --json
  python benchmarks/server_load.py --tables 50 --seconds 30 --pace max

``human``: each client acts 0.5–1 s after its turn arrives; ``max``: at once.
Latency is from sending an action to receiving its broadcast ``step``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

SERVER = """
import sys, uvicorn
from unoengine.server.actor import ServerConfig
from unoengine.server.app import MAX_WS_BYTES, UnoServer, create_app
from unoengine.server.store import SQLiteStore
config = ServerConfig(bot_delay=0, message_rate=1e6, message_burst=1e6, http_rate=1e6, http_burst=1e6)
server = UnoServer(SQLiteStore(sys.argv[2]), config)
uvicorn.run(create_app(server), host="127.0.0.1", port=int(sys.argv[1]), ws="websockets-sansio",
            ws_max_size=MAX_WS_BYTES, log_level="error", backlog=4096)
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def post(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.measuring = False


async def seat_client(
    url: str, code: str, seat: int, token: str, pace: str, stats: Stats, stop: float, rng: random.Random
) -> None:
    async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "table": code, "token": token}))
        pending: dict[int, float] = {}
        view: dict[str, Any] | None = None
        game = v = 0
        acting: asyncio.Task[None] | None = None

        async def act(delay: float, game_at: int, v_at: int, action: str) -> None:
            if delay:
                await asyncio.sleep(delay)
            pending[v_at + 1] = time.perf_counter()
            message = {"type": "act", "seat": seat, "token": token, "game": game_at, "v": v_at, "action": action}
            await ws.send(json.dumps(message))

        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            kind = message["type"]
            if kind == "error":
                if stats.measuring:
                    stats.errors += 1
                continue
            if kind not in ("sync", "step", "steps"):
                continue
            view, game, v = message["view"], message["game"], message["v"]
            if kind == "step" and message["seat"] == seat and v in pending:
                sent = pending.pop(v)
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent)
                    stats.actions += 1
            if view["outcome"] is not None:
                if seat == 0:
                    await ws.send(json.dumps({"type": "again", "token": token}))
                continue
            if view["to_act"] == seat and view["legal"]:
                legal = [a for a in view["legal"] if not a.startswith("catch")]
                plays = [a for a in legal if a not in ("draw", "pass")]
                action = rng.choice(plays or legal)
                delay = rng.uniform(0.5, 1.0) if pace == "human" else 0.0
                if acting is not None and not acting.done():
                    acting.cancel()
                acting = asyncio.get_running_loop().create_task(act(delay, game, v, action))
        if acting is not None:
            acting.cancel()


async def drive(
    ws_url: str, seats: list[tuple[str, int, str]], pace: str, stop: float, warmup_until: float, seed: float
) -> tuple[Stats, float]:
    """Play ``seats`` until ``stop`` (measuring from ``warmup_until``); the stats and this process's CPU share."""
    stats = Stats()
    rng = random.Random(seed)
    clients = [
        asyncio.create_task(seat_client(ws_url, code, seat, token, pace, stats, stop, random.Random(rng.random())))
        for code, seat, token in seats
    ]
    await asyncio.sleep(1.0)
    for code, seat, token in seats:
        if seat == 0:
            async with websockets.connect(ws_url) as starter:
                await starter.send(json.dumps({"type": "hello", "table": code, "token": token}))
                await starter.send(json.dumps({"type": "start", "token": token}))
                await starter.recv()
    await asyncio.sleep(max(0.0, warmup_until - time.time()))
    stats.measuring = True
    own0, wall0 = time.process_time(), time.monotonic()
    results = await asyncio.gather(*clients, return_exceptions=True)
    stats.errors += sum(1 for result in results if isinstance(result, BaseException))
    return stats, (time.process_time() - own0) / max(1e-9, time.monotonic() - wall0)


def client_worker(job: str) -> None:
    """``--client-worker JOB``: drive the seats of a job file, print the stats as one JSON line."""
    spec = json.loads(Path(job).read_text())
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    seats = [tuple(item) for item in spec["seats"]]
    stop = time.monotonic() + (spec["stop"] - time.time())
    stats, cpu = asyncio.run(drive(spec["ws_url"], seats, spec["pace"], stop, spec["measure_from"], spec["seed"]))  # type: ignore[arg-type]
    print(json.dumps({"latencies": stats.latencies, "actions": stats.actions, "errors": stats.errors, "cpu": cpu}))


async def run(tables: int, seconds: float, pace: str, warmup: float, processes: int = 1) -> dict[str, Any]:
    """Serve, create ``tables`` tables, and play them from ``processes`` client processes."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(Path(tmp) / "load.sqlite3")])
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/api/rules", timeout=1).read()
                    break
                except OSError:
                    await asyncio.sleep(0.05)
            seats: list[tuple[str, int, str]] = []
            for _ in range(tables):
                made = await asyncio.to_thread(post, base + "/api/tables", {"rules": "classic", "seats": 2})
                joined = await asyncio.to_thread(post, f"{base}/api/tables/{made['code']}/join", {"name": "B"})
                seats += [(made["code"], 0, made["token"]), (made["code"], 1, joined["token"])]
            ws_url = base.replace("http", "ws") + "/ws"
            start = time.time() + 2.0 + tables / 500
            measure_from = start + 1.0 + warmup
            stop = measure_from + seconds
            jobs = []
            for index in range(processes):
                share = [seat for number, seat in enumerate(seats) if number // 2 % processes == index]
                job = Path(tmp) / f"job{index}.json"
                body = {"ws_url": ws_url, "seats": share, "pace": pace, "stop": stop}
                job.write_text(json.dumps({**body, "measure_from": measure_from, "seed": index + 1}))
                jobs.append(job)
            workers = [
                subprocess.Popen(
                    [sys.executable, __file__, "--client-worker", str(job)], stdout=subprocess.PIPE, text=True
                )
                for job in jobs
            ]
            await asyncio.sleep(max(0.0, measure_from - time.time()))
            cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
            outputs = [await asyncio.to_thread(worker.communicate) for worker in workers]
            wall = time.monotonic() - wall0
            server_cpu = (cpu_seconds(server.pid) - cpu0) / wall
        finally:
            server.terminate()
            server.wait(10)
    latencies: list[float] = []
    actions = errors = 0
    client_cpu = 0.0
    for worker, (out, _err) in zip(workers, outputs, strict=True):
        if worker.returncode != 0 or not out.strip():
            errors += 1
            continue
        data = json.loads(out.strip().splitlines()[-1])
        latencies += data["latencies"]
        actions += data["actions"]
        errors += data["errors"]
        client_cpu += data["cpu"]
    latencies.sort()
    latencies = latencies or [0.0]

    def pct(q: float) -> float:
        return round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)

    return {
        "tables": tables,
        "pace": pace,
        "seconds": round(wall, 1),
        "actions_per_s": round(actions / wall, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * latencies[-1], 2),
        "errors": errors,
        "server_cpu": round(server_cpu, 2),
        "client_cpu": round(client_cpu, 2),
        "client_processes": processes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pace", choices=["human", "max"], default="human")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--processes", type=int, default=1, help="client processes sharing the tables (default 1)")
    parser.add_argument("--client-worker", metavar="JOB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client_worker:
        client_worker(args.client_worker)
        return
    if not 1 <= args.tables <= 5000 or not 0 < args.seconds <= 600:
        parser.error("--tables 1..5000, --seconds up to 600")
    if not 1 <= args.processes <= 16:
        parser.error("--processes 1..16")
    result = asyncio.run(run(args.tables, args.seconds, args.pace, args.warmup, args.processes))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
