"""``uno serve --workers 2 --db postgresql://…``: two processes answer on one port; SIGTERM stops them all."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.postgres import Cluster
from tests.server.harness import free_port, http
from tests.server.test_restart import wait_up

ROOT = Path(__file__).resolve().parents[2]


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


async def test_two_workers_share_one_port_and_stop_on_sigterm(postgres_cluster: Cluster) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "unoengine.cli", "serve", "--port", str(port), "--db", postgres_cluster.url]
    parent = subprocess.Popen([*command, "--workers", "2"], cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        await wait_up(url)
        names = set()
        for _ in range(200):  # a new connection each time: the kernel spreads them over both workers
            status, body = await asyncio.to_thread(http, "GET", url + "/healthz", None)
            assert status == 200 and body["ok"] is True, body
            names.add(body["worker"])
            if len(names) == 2:
                break
        assert len(names) == 2, names
        workers = [pid for pid in children(parent.pid) if pid != parent.pid]
        assert len(workers) >= 2  # the two workers (and multiprocessing's resource tracker)
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(20) == 0
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in workers):
            await asyncio.sleep(0.1)
        alive = [pid for pid in workers if Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)]
        assert not alive, f"workers still running: {alive}"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def _state(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


async def test_workers_need_postgresql(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "unoengine.cli", "serve", "--workers", "2", "--db", str(tmp_path / "t.sqlite3")]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False, timeout=60, env=os.environ)
    assert done.returncode == 2 and "--workers needs --db postgresql://" in done.stderr
