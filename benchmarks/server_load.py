"""Load benchmark of ``uno serve``: N concurrent tables of bot clients over real WebSockets on loopback.

The server runs in its own process (SQLite store in a temporary directory, WAL,
synchronous=FULL), or as ``--workers N`` processes on one port on ``--db
postgresql://…``; client processes (``--processes``, by default one per 250 tables)
run two WebSocket clients per table (Classic, two seats), which play with random
legal choices (from the view's ``legal`` list) and deal again when a game ends. It
stops by itself after ``--seconds``.

  python benchmarks/server_load.py --tables 1000 --seconds 40 --pace human --json
  python benchmarks/server_load.py --tables 50 --seconds 30 --pace max
  python benchmarks/server_load.py --tables 1000 --pace human --db postgresql://postgres@127.0.0.1/uno --workers 2

``human``: each client acts 0.5–1 s after its turn arrives; ``max``: at once.

Three latencies are reported, so that the load generator is not mistaken for the server:

- ``p50_ms``/``p99_ms`` (end to end): from a client sending an action to it receiving
  its broadcast ``step``;
- ``server_p50_ms``/``server_p99_ms``: measured inside the server, from the ``act`` frame
  received to the ``step`` handed to every client's outlet (``GET /api/stats`` of each
  worker, read before and after the measuring window);
- ``client_lag_p99_ms``: how late the clients' own event loops wake up (a 10 ms ticker in
  every client process): the part of the end-to-end figure that is the clients' own.

With PostgreSQL it also reports the commit latency of an action (in the server),
``pg_notification_queue_usage()`` (the highest seen, sampled every second), and the
actions that lost their version to another worker. ``load_before``/``load_after`` are the
machine's load averages and ``others_cpu`` the cores used by processes other than this
benchmark's during the window (the machine may be shared).
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
import socket, sys, uvicorn
from unoengine.server.actor import ServerConfig
from unoengine.server.app import MAX_WS_BYTES, UnoServer, create_app
from unoengine.server.worker import ServeSpec, open_store, reuse_port_socket
port, own_port, db = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
config = ServerConfig(
    bot_delay=0, react_delay=0, round_wait=0, message_rate=1e6, message_burst=1e6, http_rate=1e6, http_burst=1e6
)
server = UnoServer(open_store(ServeSpec("127.0.0.1", port, db)), config)
own = socket.create_server(("127.0.0.1", own_port), backlog=64)  # this worker's own port: its /api/stats
uv = uvicorn.Config(create_app(server), ws="websockets-sansio", ws_max_size=MAX_WS_BYTES, log_level="error",
                    backlog=4096, lifespan="on")
uvicorn.Server(uv).run(sockets=[reuse_port_socket("127.0.0.1", port), own])
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
        self.lags: list[float] = []
        self.actions = 0
        self.errors = 0
        self.measuring = False
        self.stop = float("inf")
        """``time.monotonic()`` at which the clients stop (set once every client process is ready)."""
        self.ready = 0
        """Clients that have their first view (their table dealt)."""


async def watch_lag(stats: Stats, tick: float = 0.01) -> None:
    """How late this process's event loop wakes from a ``tick`` sleep: the clients' own lag."""
    loop = asyncio.get_running_loop()
    while time.monotonic() < stats.stop:
        before = loop.time()
        await asyncio.sleep(tick)
        if stats.measuring:
            stats.lags.append(max(0.0, loop.time() - before - tick))


async def seat_client(url: str, code: str, seat: int, token: str, pace: str, stats: Stats, rng: random.Random) -> None:
    async with websockets.connect(url, max_size=2**22, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "table": code, "token": token}))
        if seat == 0:  # both seats were taken over HTTP: the host deals at once
            await ws.send(json.dumps({"type": "start", "token": token}))
        ready = False
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

        while time.monotonic() < stats.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, min(1.0, stats.stop - time.monotonic())))
            except TimeoutError:
                continue
            message = json.loads(raw)
            kind = message["type"]
            if kind == "error":
                if not ready and seat == 0:  # the other seat's join had not reached this worker yet: again
                    await asyncio.sleep(0.5)
                    await ws.send(json.dumps({"type": "start", "token": token}))
                if stats.measuring:
                    stats.errors += 1
                continue
            if kind not in ("sync", "step", "steps"):
                continue
            view, game, v = message["view"], message["game"], message["v"]
            if not ready:
                ready = True
                stats.ready += 1
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


async def drive(ws_url: str, seats: list[tuple[str, int, str]], pace: str, seed: float) -> tuple[Stats, float]:
    """Play ``seats``: say ``ready`` on stdout once every table is dealt, read the window from stdin, play it.

    The window is a JSON line ``{"measure_from": wall time, "stop": wall time}``: the parent
    sends it when every client process is ready, so a slow start never eats into it.
    The stats and this process's CPU share over the window are returned.
    """
    stats = Stats()
    rng = random.Random(seed)
    clients = [
        asyncio.create_task(seat_client(ws_url, code, seat, token, pace, stats, random.Random(rng.random())))
        for code, seat, token in seats
    ]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 300
    while stats.ready < len(seats) and loop.time() < deadline:
        if any(client.done() for client in clients):
            break
        await asyncio.sleep(0.1)
    print("ready", flush=True)
    window = json.loads(await asyncio.to_thread(sys.stdin.readline))
    offset = time.monotonic() - time.time()
    await asyncio.sleep(max(0.0, window["measure_from"] - time.time()))
    stats.stop = window["stop"] + offset
    stats.measuring = True
    own0, wall0 = time.process_time(), time.monotonic()
    lag = asyncio.create_task(watch_lag(stats))
    results = await asyncio.gather(*clients, return_exceptions=True)
    lag.cancel()
    stats.errors += sum(1 for result in results if isinstance(result, BaseException))
    return stats, (time.process_time() - own0) / max(1e-9, time.monotonic() - wall0)


def client_worker(job: str) -> None:
    """``--client-worker JOB``: drive the seats of a job file, print the stats as one JSON line."""
    spec = json.loads(Path(job).read_text())
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    seats = [tuple(item) for item in spec["seats"]]
    stats, cpu = asyncio.run(drive(spec["ws_url"], seats, spec["pace"], spec["seed"]))  # type: ignore[arg-type]
    out = {"latencies": stats.latencies, "lags": stats.lags, "actions": stats.actions, "errors": stats.errors}
    print(json.dumps({**out, "cpu": cpu}))


def machine_busy() -> float:
    """Busy jiffies of the whole machine so far (every core), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def load_average() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile of ``values`` in milliseconds (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def merged(histograms: list[Any]) -> Any:
    from unoengine.server.metrics import Histogram

    total = Histogram()
    for histogram in histograms:
        for bucket, count in histogram.counts.items():
            total.counts[bucket] = total.counts.get(bucket, 0) + count
    return total


class QueueWatch:
    """Samples ``pg_notification_queue_usage()`` every second in a thread; keeps the highest."""

    def __init__(self, url: str) -> None:
        import threading

        self.url = url
        self.highest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            while not self._stop.wait(1.0):
                row = connection.execute("SELECT pg_notification_queue_usage()").fetchone()
                self.highest = max(self.highest, float(row[0]) if row else 0.0)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join(5)
        return self.highest


async def run(
    tables: int,
    seconds: float,
    pace: str,
    warmup: float,
    processes: int = 1,
    db: str | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Serve (``workers`` processes), create ``tables`` tables, and play them from ``processes`` client processes."""
    from unoengine.server.metrics import Histogram

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    own_ports = [free_port() for _ in range(workers)]
    base = f"http://127.0.0.1:{port}"
    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        where = db or str(Path(tmp) / "load.sqlite3")
        servers = [subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(own), where]) for own in own_ports]
        queue_watch: QueueWatch | None = None
        try:
            for own in own_ports:
                for _ in range(400):
                    try:
                        urllib.request.urlopen(f"http://127.0.0.1:{own}/api/rules", timeout=1).read()
                        break
                    except OSError:
                        await asyncio.sleep(0.05)
            seats: list[tuple[str, int, str]] = []
            for _ in range(tables):
                made = await asyncio.to_thread(post, base + "/api/tables", {"rules": "classic", "seats": 2})
                joined = await asyncio.to_thread(post, f"{base}/api/tables/{made['code']}/join", {"name": "B"})
                seats += [(made["code"], 0, made["token"]), (made["code"], 1, joined["token"])]
            ws_url = base.replace("http", "ws") + "/ws"
            jobs = []
            for index in range(processes):
                share = [seat for number, seat in enumerate(seats) if number // 2 % processes == index]
                job = Path(tmp) / f"job{index}.json"
                job.write_text(json.dumps({"ws_url": ws_url, "seats": share, "pace": pace, "seed": index + 1}))
                jobs.append(job)
            clients = [
                subprocess.Popen(
                    [sys.executable, __file__, "--client-worker", str(job)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
                for job in jobs
            ]
            for client in clients:  # every table dealt and every client playing: the window starts
                assert client.stdout is not None
                await asyncio.to_thread(client.stdout.readline)
            measure_from = time.time() + warmup
            for client in clients:
                assert client.stdin is not None
                client.stdin.write(json.dumps({"measure_from": measure_from, "stop": measure_from + seconds}) + "\n")
                client.stdin.flush()
            await asyncio.sleep(max(0.0, measure_from - time.time()))
            stats0 = [await asyncio.to_thread(get_json, f"http://127.0.0.1:{own}/api/stats") for own in own_ports]
            if db is not None:
                queue_watch = QueueWatch(db)
            cpu0 = [cpu_seconds(server.pid) for server in servers]
            busy0, wall0 = machine_busy(), time.monotonic()
            outputs = [await asyncio.to_thread(client.communicate) for client in clients]
            wall = time.monotonic() - wall0
            busy = (machine_busy() - busy0) / wall
            server_cpu = sum(cpu_seconds(server.pid) - before for server, before in zip(servers, cpu0, strict=True))
            server_cpu /= wall
            stats1 = [await asyncio.to_thread(get_json, f"http://127.0.0.1:{own}/api/stats") for own in own_ports]
        finally:
            queue_usage = queue_watch.stop() if queue_watch is not None else None
            for server in servers:
                server.terminate()
            for server in servers:
                try:
                    server.wait(15)
                except subprocess.TimeoutExpired:  # a thousand WebSockets closing: do not wait for all of them
                    server.kill()
                    server.wait()
    latencies: list[float] = []
    lags: list[float] = []
    actions = errors = 0
    client_cpu = 0.0
    for client, (out, _err) in zip(clients, outputs, strict=True):
        if client.returncode != 0 or not out.strip():
            errors += 1
            continue
        data = json.loads(out.strip().splitlines()[-1])
        latencies += data["latencies"]
        lags += data["lags"]
        actions += data["actions"]
        errors += data["errors"]
        client_cpu += data["cpu"]

    def window(name: str) -> Histogram:
        return merged(
            [
                Histogram.from_json(after[name]).minus(Histogram.from_json(before[name]))
                for before, after in zip(stats0, stats1, strict=True)
            ]
        )

    step, commit = window("step"), window("commit")
    result: dict[str, Any] = {
        "tables": tables,
        "pace": pace,
        "store": "postgresql" if db else "sqlite",
        "workers": workers,
        "seconds": round(wall, 1),
        "actions_per_s": round(actions / wall, 1),
        "p50_ms": percentile(latencies, 0.50),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": round(1000 * max(latencies, default=0.0), 2),
        "server_p50_ms": round(1000 * step.percentile(0.5), 2),
        "server_p99_ms": round(1000 * step.percentile(0.99), 2),
        "server_max_ms": round(1000 * step.percentile(1.0), 2),
        "commit_p50_ms": round(1000 * commit.percentile(0.5), 2),
        "commit_p99_ms": round(1000 * commit.percentile(0.99), 2),
        "client_lag_p99_ms": percentile(lags, 0.99),
        "errors": errors,
        "server_cpu": round(server_cpu, 2),
        "client_cpu": round(client_cpu, 2),
        "others_cpu": round(max(0.0, busy - server_cpu - client_cpu), 2),
        "client_processes": processes,
        "cores": os.cpu_count(),
        "load_before": load_before,
        "load_after": load_average(),
    }
    if db is not None:
        pairs = zip(stats0, stats1, strict=True)
        result["conflicts"] = sum(after["conflicts"] - before["conflicts"] for before, after in pairs)
        result["notification_queue_usage"] = queue_usage
    return result


def default_processes(tables: int) -> int:
    """Client processes for ``tables`` tables: one per 250 (at most 8), so no client loop is the bottleneck."""
    return max(1, min(8, -(-tables // 250)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pace", choices=["human", "max"], default="human")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--processes", type=int, default=None, help="client processes sharing the tables (default: one per 250)"
    )
    parser.add_argument("--db", default=None, help="postgresql://... : serve from PostgreSQL (default: SQLite)")
    parser.add_argument("--workers", type=int, default=1, help="server processes on the port (needs --db)")
    parser.add_argument("--client-worker", metavar="JOB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client_worker:
        client_worker(args.client_worker)
        return
    if not 1 <= args.tables <= 5000 or not 0 < args.seconds <= 600:
        parser.error("--tables 1..5000, --seconds up to 600")
    processes = default_processes(args.tables) if args.processes is None else args.processes
    if not 1 <= processes <= 16:
        parser.error("--processes 1..16")
    if not 1 <= args.workers <= 16 or (args.workers > 1 and not args.db):
        parser.error("--workers 1..16, and more than one needs --db postgresql://...")
    result = asyncio.run(run(args.tables, args.seconds, args.pace, args.warmup, processes, args.db, args.workers))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")


if __name__ == "__main__":
    main()
