"""A throwaway PostgreSQL cluster for the tests: a temporary directory, a free port, gone afterwards.

``scripts/test`` installs Debian's ``postgresql`` (scripts/postgres-deps); a test that
needs the cluster fails, not skips, when it cannot start. ``initdb`` refuses to run as
root, so as root the cluster runs as the ``postgres`` user (``runuser``).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("PostgreSQL is not installed: scripts/postgres-deps installs it (Debian: postgresql)")
    return Path(initdb).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    """``initdb`` + ``pg_ctl start`` on a temporary directory; :attr:`url` is its ``postgres`` database."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="uno-pg-"))
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        bindir = _bindir()
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        os.chmod(self.base, 0o777)
        data, sock = self.base / "data", self.base / "sock"
        sock.mkdir()
        os.chmod(sock, 0o777)
        self._pg_ctl = [*self._as, str(bindir / "pg_ctl"), "-D", str(data)]
        self._run([*self._as, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"])
        options = f"-p {self.port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
        self._run([*self._pg_ctl, "-w", "-t", "60", "-l", str(self.base / "log"), "-o", options, "start"])

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.base / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{command[len(self._as)]} failed: {done.stderr.strip() or done.stdout.strip()}\n{tail}")

    def stop(self) -> None:
        subprocess.run([*self._pg_ctl, "-m", "immediate", "stop"], capture_output=True, check=False)
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """One cluster per test process (tables have random codes, so the tests share its database)."""
    cluster = Cluster()
    yield cluster
    cluster.stop()
