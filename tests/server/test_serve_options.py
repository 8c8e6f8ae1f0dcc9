"""``uno serve``'s own options, end to end: the process started as a person starts it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.harness import free_port, http
from tests.server.test_restart import wait_up

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def backend() -> str:
    """No store of the suite's: the server keeps its tables in memory (this replaces the two-store fixture)."""
    return "memory"


def serve(*args: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "unoengine.cli", "serve", "--memory", *args]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("workers", ["0", "3"])
async def test_review_workers_sizes_the_pool_of_review_analyses(workers: str) -> None:
    port = free_port()
    server = serve("--port", str(port), "--review-workers", workers)
    try:
        await wait_up(f"http://127.0.0.1:{port}")
        status, stats = http("GET", f"http://127.0.0.1:{port}/api/stats", None)
        assert status == 200 and stats["review_workers"] == int(workers)
    finally:
        server.kill()
        server.wait()


def test_review_workers_out_of_range_is_refused_before_anything_starts() -> None:
    done = serve("--port", str(free_port()), "--review-workers", "17")
    _out, err = done.communicate(timeout=60)
    assert done.returncode == 2, err
    assert b"--review-workers" in err
