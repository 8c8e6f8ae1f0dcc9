"""benchmarks/server_load.py keeps working, on SQLite and on two PostgreSQL workers, for a few seconds.

No timing is asserted: only that the clients play, that every latency it reports was
measured (the server's own from its /api/stats, the clients' lag) and that the report has its fields.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from tests.postgres import Cluster, postgres_cluster

__all__ = ["postgres_cluster"]
SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "server_load.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("unoengine_benchmark_server_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def check(report: dict[str, object]) -> None:
    assert report["errors"] == 0, report
    assert isinstance(report["actions_per_s"], float) and report["actions_per_s"] > 0
    for key in ("p50_ms", "p99_ms", "server_p50_ms", "server_p99_ms", "commit_p50_ms"):
        value = report[key]
        assert isinstance(value, float) and value > 0, (key, report)
    assert len(report["load_before"]) == 3  # type: ignore[arg-type]


async def test_the_load_benchmark_runs_on_sqlite() -> None:
    report = await load().run(tables=3, seconds=1.5, pace="max", warmup=0.3, processes=1)
    check(report)
    assert report["store"] == "sqlite" and report["workers"] == 1


async def test_the_load_benchmark_runs_on_two_postgresql_workers(postgres_cluster: Cluster) -> None:
    bench = load()
    url = postgres_cluster.url
    report = await bench.run(tables=4, seconds=1.5, pace="max", warmup=0.3, processes=2, db=url, workers=2)
    check(report)
    assert report["store"] == "postgresql" and report["workers"] == 2 and report["client_processes"] == 2
    assert report["notification_queue_usage"] is not None
    assert bench.default_processes(1000) == 4 and bench.default_processes(10) == 1
