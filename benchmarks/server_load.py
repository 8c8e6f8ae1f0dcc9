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

The tables are created and joined over HTTP by 32 threads on keep-alive connections
(``setup_s``); the clients then connect (at most 64 handshakes at once per process) and
wait until every table is dealt (``deal_s``: until every client has its first view; no
one acts before), then play ``--warmup`` seconds before the measuring window opens.

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
actions that lost their version to another worker, and ``tables_per_worker``.
``load_before``/``load_after`` are the machine's load averages and ``others_cpu`` the
cores used by processes other than this benchmark's during the window (the machine may be
shared); ``server_cpu``/``client_cpu`` are the cores the server processes (all workers) and
the client processes used. ``server_actions`` is every action the server committed in the
window (the count of its commit histogram, all workers summed; ``actions`` is the clients'
count of their own actions answered in the window), ``actions_per_s`` is it over the
window, and ``server_cpu_ms_per_action`` the server processes' CPU time over the window
divided by it. The report starts with ``command`` (the command line, without ``--json``,
``--write`` and ``--results``; a ``--db`` URL shown as ``postgresql://…``) and the day, Python and build.

``--reviews N`` also measures reviews (docs/PROTOCOL.md, "Reviews"): before the window, N more
tables each play one single-round game to its end (a bot and the stand-in of the host, who
leaves); when the window opens the benchmark asks for the N games' reviews (``GET
…/review``, with the steps) and then polls their analyses every second: ``reviews_done`` is how
many finished in the window, ``review_cpu`` the cores the server's analysis processes used (they
are the server's children: not in ``server_cpu``, and no longer in ``others_cpu``).

``--save`` records the run in a JSON-lines file (``--results``, by default
``benchmarks/results/server_load.jsonl``: one line per command, a rerun of a command replacing
its line; each line a result as ``benchmarks/report.py``'s ``result`` makes it: the figures, the
machine, the date and the command); ``--write FILE`` records it too, then rewrites the block between
``<!-- server-load:begin -->`` and ``<!-- server-load:end -->`` of FILE as a table with a row per
line of that file (``benchmarks/render.py``, which renders every block of the docs from the results)::

  python benchmarks/server_load.py --tables 100 --seconds 10 --pace human --write docs/PERFORMANCE.md

To drop a row, delete its line from the results file and rerun any command with ``--write``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import websockets

SERVER = """
import socket, sys, uvicorn
from unoengine.server.actor import ServerConfig
from unoengine.server.app import UnoServer
from unoengine.server.worker import ServeSpec, open_store, reuse_port_socket, uvicorn_config
port, own_port, db = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
config = ServerConfig(
    bot_delay=0, react_delay=0, round_wait=0, message_rate=1e6, message_burst=1e6, http_rate=1e6, http_burst=1e6
)
server = UnoServer(open_store(ServeSpec("127.0.0.1", port, db)), config)
own = socket.create_server(("127.0.0.1", own_port), backlog=64)  # this worker's own port: its /api/stats
uv = uvicorn_config(server, log_level="error", backlog=4096)
uvicorn.Server(uv).run(sockets=[reuse_port_socket("127.0.0.1", port), own])
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_tables(port: int, tables: int, concurrency: int = 32) -> list[tuple[str, int, str]]:
    """Create ``tables`` two-seat Classic tables, take each one's second seat: every seat's ``(code, seat, token)``.

    ``concurrency`` threads send the requests, each on its own keep-alive connection (one
    new connection when the server closed it), so the setup is bounded by the server, not by
    one request's round trip at a time.
    """
    local = threading.local()

    def request(path: str, body: Any) -> Any:
        data = json.dumps(body).encode()
        for attempt in range(3):
            connection = getattr(local, "connection", None)
            if connection is None:
                connection = local.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            try:
                connection.request("POST", path, data, {"Content-Type": "application/json"})
                response = connection.getresponse()
                payload = response.read()
            except (http.client.HTTPException, OSError):
                connection.close()
                local.connection = None
                if attempt == 2:
                    raise
                continue
            if response.status >= 400:
                raise RuntimeError(f"POST {path}: {response.status} {payload[:200]!r}")
            return json.loads(payload)
        raise AssertionError("unreachable")

    def one(_: int) -> list[tuple[str, int, str]]:
        made = request("/api/tables", {"rules": "classic", "seats": 2})
        joined = request(f"/api/tables/{made['code']}/join", {"name": "B"})
        return [(made["code"], 0, made["token"]), (made["code"], 1, joined["token"])]

    with ThreadPoolExecutor(max_workers=max(1, min(concurrency, tables))) as pool:
        return [seat for pair in pool.map(one, range(tables)) for seat in pair]


def children_cpu_seconds(pid: int) -> float:
    """The CPU seconds of ``pid``'s child processes (the server's analysis pool)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def finished_games(port: int, count: int) -> list[str]:
    """``count`` tables, each with one single-round game played to its end; their codes."""
    base = f"http://127.0.0.1:{port}"
    codes = []
    for _ in range(count):
        body = {"rules": "classic", "seats": 2, "bots": ["heuristic"], "options": {"single_round": True}}
        made = await asyncio.to_thread(post_json, base + "/api/tables", body)
        async with websockets.connect(base.replace("http", "ws") + "/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "table": made["code"], "token": made["token"]}))
            await ws.send(json.dumps({"type": "start", "token": made["token"]}))
            while json.loads(await ws.recv()).get("type") != "sync":
                pass
            await ws.send(json.dumps({"type": "leave", "token": made["token"]}))  # the stand-in plays it out
            for _ in range(600):
                if (await asyncio.to_thread(get_json, f"{base}/api/tables/{made['code']}"))["status"] == "over":
                    break
                await asyncio.sleep(0.05)
        codes.append(made["code"])
    return codes


def post_json(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


async def ask_reviews(port: int, codes: list[str], stop: float) -> dict[str, Any]:
    """Ask for every game's review (steps and all), then poll the analyses every second until ``stop``."""
    base = f"http://127.0.0.1:{port}/api/tables"
    started = time.monotonic()
    status: dict[str, str] = {}
    finished: list[float] = []
    for code in codes:
        status[code] = (await asyncio.to_thread(get_json, f"{base}/{code}/games/1/review"))["analysis"]["status"]
    while time.time() < stop:
        await asyncio.sleep(1.0)
        for code in codes:
            if status[code] in ("queued", "running"):
                review = await asyncio.to_thread(get_json, f"{base}/{code}/games/1/review?steps=0")
                status[code] = review["analysis"]["status"]
                if status[code] == "done":
                    finished.append(round(time.monotonic() - started, 1))
    return {"reviews": len(codes), "reviews_done": len(finished), "review_done_at_s": finished}


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
        self.go = asyncio.Event()
        """Set once every client process has its tables dealt: no one acts before, so the deals have the server."""


async def watch_lag(stats: Stats, tick: float = 0.01) -> None:
    """How late this process's event loop wakes from a ``tick`` sleep: the clients' own lag."""
    loop = asyncio.get_running_loop()
    while time.monotonic() < stats.stop:
        before = loop.time()
        await asyncio.sleep(tick)
        if stats.measuring:
            stats.lags.append(max(0.0, loop.time() - before - tick))


async def seat_client(
    url: str, code: str, seat: int, token: str, pace: str, stats: Stats, rng: random.Random, opening: asyncio.Semaphore
) -> None:
    """One seat: connect (at most ``opening``'s count of handshakes at once in this process), play until cancelled."""
    async with opening:
        ws = await websockets.connect(url, max_size=2**22, open_timeout=300, close_timeout=2, proxy=None)
    async with ws:
        await ws.send(json.dumps({"type": "hello", "table": code, "token": token}))
        if seat == 0:  # both seats were taken over HTTP: the host deals at once
            await ws.send(json.dumps({"type": "start", "token": token}))
        ready = False
        pending: dict[int, float] = {}
        acting: asyncio.Task[None] | None = None
        loop = asyncio.get_running_loop()

        async def act(delay: float, game_at: int, v_at: int, action: str) -> None:
            await stats.go.wait()
            if delay:
                await asyncio.sleep(delay)
            pending[v_at + 1] = time.perf_counter()
            message = {"type": "act", "seat": seat, "token": token, "game": game_at, "v": v_at, "action": action}
            await ws.send(json.dumps(message))

        try:
            async for raw in ws:  # until drive() cancels this task at the window's end
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
                    acting = loop.create_task(act(delay, game, v, action))
        finally:
            if acting is not None:
                acting.cancel()


async def drive(ws_url: str, seats: list[tuple[str, int, str]], pace: str, seed: float) -> tuple[Stats, float]:
    """Play ``seats``: say ``ready`` on stdout once every table is dealt, read the window from stdin, play it.

    The window is a JSON line ``{"measure_from": wall time, "stop": wall time}``: the parent
    sends it when every client process is ready, so a slow start never eats into it. At the
    stop the clients are cancelled (a client that ended before, by an exception, is an error).
    The stats and this process's CPU share over the window are returned.
    """
    stats = Stats()
    rng = random.Random(seed)
    opening = asyncio.Semaphore(64)
    clients = [
        asyncio.create_task(seat_client(ws_url, code, seat, token, pace, stats, random.Random(rng.random()), opening))
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
    stats.go.set()
    offset = time.monotonic() - time.time()
    await asyncio.sleep(max(0.0, window["measure_from"] - time.time()))
    stats.stop = window["stop"] + offset
    stats.measuring = True
    own0, wall0 = time.process_time(), time.monotonic()
    lag = asyncio.create_task(watch_lag(stats))
    await asyncio.sleep(max(0.0, stats.stop - time.monotonic()))
    stats.measuring = False
    cpu = (time.process_time() - own0) / max(1e-9, time.monotonic() - wall0)
    ended = [client for client in clients if client.done()]
    stats.errors += sum(1 for client in ended if client.cancelled() or client.exception() is not None)
    for client in clients:
        client.cancel()
    lag.cancel()
    await asyncio.wait(clients, timeout=10)  # closing handshakes: do not wait for the slowest
    return stats, cpu


def client_worker(job: str) -> None:
    """``--client-worker JOB``: drive the seats of a job file, print the stats as one JSON line."""
    spec = json.loads(Path(job).read_text())
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    seats = [(str(code), int(seat), str(token)) for code, seat, token in spec["seats"]]
    stats, cpu = asyncio.run(drive(spec["ws_url"], seats, spec["pace"], spec["seed"]))
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
    reviews: int = 0,
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
            started = time.monotonic()
            seats = await asyncio.to_thread(make_tables, port, tables)
            reviewed = await finished_games(port, reviews)
            setup_s = time.monotonic() - started
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
            deal_s = time.monotonic() - started - setup_s
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
            review_cpu0 = sum(children_cpu_seconds(server.pid) for server in servers)
            asking = asyncio.create_task(ask_reviews(own_ports[0], reviewed, measure_from + seconds))
            outputs = [await asyncio.to_thread(client.communicate) for client in clients]
            review_report = await asking
            wall = time.monotonic() - wall0
            review_cpu = (sum(children_cpu_seconds(server.pid) for server in servers) - review_cpu0) / wall
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
        total: Histogram = merged(
            [
                Histogram.from_json(after[name]).minus(Histogram.from_json(before[name]))
                for before, after in zip(stats0, stats1, strict=True)
            ]
        )
        return total

    step, commit = window("step"), window("commit")
    # every action the server committed in the window (the bots' and the timeouts' too), all workers summed
    server_actions = commit.total if stats1 and "commit" in stats1[0] else actions
    if server_actions == 0:
        server_actions = actions
    result: dict[str, Any] = {
        "tables": tables,
        "pace": pace,
        "store": "postgresql" if db else "sqlite",
        "workers": workers,
        "tables_per_worker": round(tables / workers, 1),
        "setup_s": round(setup_s, 2),
        "deal_s": round(deal_s, 2),
        "seconds": round(wall, 1),
        "actions": actions,
        "server_actions": server_actions,
        "actions_per_s": round(server_actions / wall, 1),
        "server_cpu_ms_per_action": round(1000 * server_cpu * wall / max(1, server_actions), 3),
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
        "others_cpu": round(max(0.0, busy - server_cpu - client_cpu - review_cpu), 2),
        "client_processes": processes,
        "cores": os.cpu_count(),
        "load_before": load_before,
        "load_after": load_average(),
    }
    if reviews:
        result.update(review_report, review_cpu=round(review_cpu, 2))
    if db is not None:
        pairs = zip(stats0, stats1, strict=True)
        result["conflicts"] = sum(after["conflicts"] - before["conflicts"] for before, after in pairs)
        result["notification_queue_usage"] = queue_usage
    return result


BEGIN, END = "<!-- server-load:begin -->", "<!-- server-load:end -->"
UNMEASURED = {"--json": 0, "--write": 1, "--results": 1, "--save": 0}
"""Options that do not change what is measured (and how many values follow them): left out of a row's command."""


def command_line(argv: list[str]) -> str:
    """The command of a run, its row's key (``report.shown_command``): without ``--json``/``--write``/``--results``/
    ``--save``, a ``--db`` URL shown as ``postgresql://…``."""
    return str(_report().shown_command("server_load.py", argv, UNMEASURED))


def record(results: Path, report: dict[str, Any]) -> list[dict[str, Any]]:
    """Add ``report`` to the JSON-lines file ``results`` in place of the line of the same command; all its runs."""
    runs = []
    if results.exists():
        runs = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines() if line.strip()]
    for index, earlier in enumerate(runs):
        if earlier.get("command") == report["command"]:
            runs[index] = report
            break
    else:
        runs.append(report)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return runs


def markdown(runs: list[dict[str, Any]]) -> str:
    """The docs' table, a row per run (in the results file's order): ``benchmarks/render.py``'s."""
    return str(_render().server_load_table(runs))


def write_block(path: Path, block: str) -> None:
    """Replace the ``server-load`` block of the Markdown file ``path`` (``benchmarks/report.py``).

    Raises:
        ValueError: the file has no such markers.
    """
    _report().write_block(path, "server-load", block)


def _report() -> Any:
    """``benchmarks/report.py``, what the benchmarks of this folder share."""
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import report

    return report


def _render() -> Any:
    """``benchmarks/render.py``, the docs' blocks from the results."""
    _report()  # the folder on sys.path
    import render

    return render


def run_facts() -> dict[str, str]:
    """The day, the Python and the build (``benchmarks/report.py``)."""
    return dict(_report().run_facts())


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
    parser.add_argument("--save", action="store_true", help="add the run to --results (a line per command)")
    parser.add_argument(
        "--write", type=Path, help="add the run to --results, rewrite the server-load block of this file from it"
    )
    results = _report().results_dir() / "server_load.jsonl"  # $UNOENGINE_BENCHMARK_RESULTS, else benchmarks/results
    parser.add_argument("--results", type=Path, default=results, help="the runs' JSON-lines file (--save, --write)")
    parser.add_argument("--reviews", type=int, default=0, help="ask for N finished games' reviews in the window")
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
    if args.write is not None and not args.write.exists():
        parser.error(f"--write: no {args.write}")
    measured_on = _report().machine()
    result = asyncio.run(
        run(args.tables, args.seconds, args.pace, args.warmup, processes, args.db, args.workers, args.reviews)
    )
    result = {"command": command_line(sys.argv[1:]), **run_facts(), **result}
    if args.save or args.write is not None:
        after, cores = result["load_after"], measured_on.get("cores")
        measured_on = {
            **measured_on,
            "load_after": after,
            "notes": _report().busy_note(result["load_before"], cores, after),
        }
        saved = _report().result("server_load", sys.argv[1:], result, measured_on, UNMEASURED)
        runs = record(args.results, saved)
        if args.write is not None:
            write_block(args.write, _render().render_block("server-load", runs, args.results))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")


if __name__ == "__main__":
    main()
