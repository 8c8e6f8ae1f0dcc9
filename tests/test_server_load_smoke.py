"""benchmarks/server_load.py keeps working, on SQLite and on two PostgreSQL workers, for a few seconds.

No timing is asserted: only that the clients play, that every latency it reports was
measured (the server's own from its /api/stats, the clients' lag) and that the report has its fields;
and that ``--write`` keeps one README row per command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import load_benchmark
from tests.postgres import Cluster, postgres_cluster

__all__ = ["postgres_cluster"]
SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "server_load.py"


def check(report: dict[str, object]) -> None:
    assert report["errors"] == 0, report
    assert isinstance(report["actions_per_s"], float) and report["actions_per_s"] > 0
    for key in ("p50_ms", "p99_ms", "server_p50_ms", "server_p99_ms", "commit_p50_ms"):
        value = report[key]
        assert isinstance(value, float) and value > 0, (key, report)
    assert len(report["load_before"]) == 3  # type: ignore[arg-type]


async def test_the_load_benchmark_runs_on_sqlite() -> None:
    report = await load_benchmark("server_load").run(tables=3, seconds=1.5, pace="max", warmup=0.3, processes=1)
    check(report)
    assert report["store"] == "sqlite" and report["workers"] == 1


async def test_the_load_benchmark_runs_on_two_postgresql_workers(postgres_cluster: Cluster) -> None:
    bench = load_benchmark("server_load")
    url = postgres_cluster.url
    report = await bench.run(tables=4, seconds=1.5, pace="max", warmup=0.3, processes=2, db=url, workers=2)
    check(report)
    assert report["store"] == "postgresql" and report["workers"] == 2 and report["client_processes"] == 2
    assert report["notification_queue_usage"] is not None
    assert bench.default_processes(1000) == 4 and bench.default_processes(10) == 1


def test_the_command_line_reports_cpu_an_action_and_its_command() -> None:
    args = ["--tables", "3", "--seconds", "2", "--pace", "max", "--warmup", "0.5", "--json"]
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    check(report)
    assert report["command"] == "python benchmarks/server_load.py --tables 3 --seconds 2 --pace max --warmup 0.5"
    assert report["date"] and report["python"] and report["build"]
    assert report["actions"] > 0 and report["server_actions"] > 0
    assert 0 < report["server_cpu_ms_per_action"] < 1000
    assert report["setup_s"] > 0 and report["deal_s"] > 0 and report["tables_per_worker"] == 3
    assert report["cores"] >= 1 and report["others_cpu"] >= 0 and report["client_cpu"] > 0


def test_write_keeps_a_row_per_command(tmp_path: Path) -> None:
    bench = load_benchmark("server_load")
    readme = tmp_path / "README.md"
    readme.write_text(f"# Load\n\nintro\n\n{bench.BEGIN}\nold\n{bench.END}\n\nafter\n", encoding="utf-8")
    results = tmp_path / "results" / "server_load.jsonl"
    figures = {
        "date": "2026-12-05",
        "load_before": [1.0, 1.0, 1.0],
        "load_after": [2.5, 1.0, 1.0],
        "others_cpu": 0.5,
        "server_cpu_ms_per_action": 0.21,
        **dict.fromkeys(("p50_ms", "p99_ms", "server_p50_ms", "server_p99_ms", "commit_p50_ms"), 3.0),
        **dict.fromkeys(("commit_p99_ms", "client_lag_p99_ms", "setup_s", "deal_s"), 1234.5),
        "errors": 0,
    }
    small = bench.command_line(["--tables", "100", "--json", "--write", "README.md"])
    big = bench.command_line(["--tables", "1000", "--db", "postgresql://u:secret@h/uno", "--results=x.jsonl"])
    assert small == "python benchmarks/server_load.py --tables 100"
    assert big == "python benchmarks/server_load.py --tables 1000 --db postgresql://…"
    for command, rate in ((small, 100.0), (big, 900.0), (small, 111.0)):
        bench.write_block(
            readme, bench.markdown(bench.record(results, {"command": command, "actions_per_s": rate, **figures}))
        )
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Load\n\nintro\n\n") and text.endswith(f"{bench.END}\n\nafter\n") and "old" not in text
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == 2 and len(results.read_text().splitlines()) == 2
    assert rows[0].startswith(f"| `{small}` | 2026-12-05 | 1.0 → 2.5 | 0.50 | 111 | 0.21 ms | 3.0 / 3.0 ms |")
    assert "| 3.0 / 1,234 ms |" in rows[0] and "900" in rows[1]


def test_the_server_actor_benchmark_measures_the_work_of_an_action_without_sockets() -> None:
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "server_actor.py"
    out = subprocess.run(
        [sys.executable, str(script), "--tables", "3", "--actions", "60", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["tables"] == 3 and result["actions"] >= 60
    assert result["cpu_us_per_action"] > 0 and result["actions_per_commit"] >= 1
