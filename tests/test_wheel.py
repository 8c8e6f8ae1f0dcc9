"""The wheel: ``python -m build`` makes an sdist and a wheel, and the wheel installed in a fresh virtual environment
gives a working ``uno`` (``--version`` names the build, ``simulate``, ``play``, ``serve``).

The default run builds the pure wheel (``UNOENGINE_PURE=1``: no mypyc, ``py3-none-any``) in about a minute, most
of it pip installing the dependencies. The compiled wheel (mypyc and the C compiler: minutes) is marked ``slow``:
``.venv/bin/python -m pytest tests/test_wheel.py -m slow``. Nothing here skips: a missing ``build`` package, ``venv``
or network is a failure.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import pty
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tarfile
import termios
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from unoengine import __version__

ROOT = Path(__file__).resolve().parents[1]

DATA = [
    "unoengine/py.typed",
    "unoengine/cli/RULES.md",
    "unoengine/server/static/index.html",
    "unoengine/server/static/app.js",
    "unoengine/server/static/style.css",
    "unoengine/server/static/fonts/OFL.txt",
    "unoengine/server/static/fonts/noto-sans-khmer-khmer-400-normal.woff2",
    "unoengine/i18n/locale/km.po",
    "unoengine/i18n/locale/si.po",
    "unoengine/i18n/locale/lo.po",
    "unoengine/rl/ppo_classic_2.npz",
]
"""Files beside the code that the package reads: each is in the wheel."""

ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|P[^\x1b]*\x1b\\|.)")
"""A terminal's escape sequences (CSI, OSC, DCS, and the two-character ones)."""


def run(command: list[str], *, env: dict[str, str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``command``; its exit status must be 0 (else the failure shows its output)."""
    try:
        done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"{' '.join(command)} took over {timeout} s:\n{error.stdout!r}\n{error.stderr!r}")
    assert done.returncode == 0, (
        f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


def outside_env(data: Path) -> dict[str, str]:
    """This environment less what would let the installed ``uno`` import this checkout or choose its build."""
    env = {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "UNOENGINE_PURE", "VIRTUAL_ENV")
    }
    env["XDG_DATA_HOME"] = str(data)  # play's statistics, serve's tables
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def build(out: Path, *, pure: bool) -> tuple[Path, Path]:
    """``python -m build`` of this checkout into ``out`` (the sdist, then the wheel built from it)."""
    assert importlib.util.find_spec("build") is not None, "the 'build' package is missing: pip install build==1.6.1"
    env = outside_env(out / "data")
    if pure:
        env["UNOENGINE_PURE"] = "1"
    run([sys.executable, "-m", "build", "--outdir", str(out / "dist"), str(ROOT)], env=env, cwd=out, timeout=600)
    sdists = sorted((out / "dist").glob("unoengine-*.tar.gz"))
    wheels = sorted((out / "dist").glob("unoengine-*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(p.name for p in (out / "dist").iterdir())
    return sdists[0], wheels[0]


@dataclass
class Installed:
    venv: Path
    env: dict[str, str]
    cwd: Path

    @property
    def uno(self) -> Path:
        return self.venv / "bin" / "uno"

    def __call__(self, *args: str, timeout: float = 60) -> str:
        return run([str(self.uno), *args], env=self.env, cwd=self.cwd, timeout=timeout).stdout


def install(wheel: Path, where: Path) -> Installed:
    """A fresh virtual environment (no system site-packages, no pip of its own) with the wheel installed.

    The dependencies come from the package index pip is configured with (uv's, when uv is on PATH).
    """
    venv = where / "venv"
    env = outside_env(where / "data")
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], env=env, cwd=where, timeout=120)
    python = venv / "bin" / "python"
    uv = shutil.which("uv")
    if uv is not None:
        command = [uv, "pip", "install", "--python", str(python), str(wheel)]
    else:
        command = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(wheel)]
    run(command, env=env, cwd=where, timeout=600)
    installed = Installed(venv, env, where)
    assert installed.uno.exists(), "the wheel installed no 'uno' script"
    where_from = run([str(python), "-c", "import unoengine; print(unoengine.__file__)"], env=env, cwd=where, timeout=60)
    module = Path(where_from.stdout.strip()).resolve()
    assert module.is_relative_to(venv.resolve()), f"unoengine comes from {module}, not the fresh environment"
    return installed


def check_simulate(uno: Installed) -> None:
    for rules in ("classic", "nomercy"):
        figures = json.loads(uno("simulate", "-g", "20", "-r", rules, "--json"))
        assert figures["games"] == 20, figures


def check_play(uno: Installed) -> None:
    """``uno play`` in a terminal (a pseudo-terminal, 120x40): the game's screen, q, "Quit? y/n", y, the replay line."""
    assert uno("play", "--help").startswith("Usage: uno play")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    command = [str(uno.uno), "play", "-n", "2", "-s", "7", "--bot-delay", "0", "--lang", "en"]
    env = {**uno.env, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}  # as the terminal's size says
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=uno.cwd)
    os.close(slave)
    shown = bytearray()

    def text() -> str:
        """What the terminal was sent, less its escape sequences."""
        return ESCAPE.sub("", shown.decode("utf-8", "replace"))

    def until(pattern: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the terminal closed: the program ended
                    break
                if not chunk:
                    break
                shown.extend(chunk)
                if re.search(pattern, text()):
                    return True
        return bool(re.search(pattern, text()))

    try:
        assert until(r"(?s)Your hand \(7\).*d Draw", 60), f"no game screen: {text()[-2000:]!r}"
        os.write(master, b"q")
        assert until(r"Quit\? y/n", 20), f"q did not ask: {text()[-2000:]!r}"
        os.write(master, b"y")
        assert until(r"replay with: uno play --rules classic --seats 2 --bots heuristic --seed 7", 20), text()[-2000:]
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def check_serve(uno: Installed) -> None:
    """``uno serve`` answers HTTP (the page, /api/rules, a static file and a font) and stops on Ctrl+C."""
    port = free_port()
    command = [str(uno.uno), "serve", "--port", str(port), "--memory", "--review-workers", "0"]
    server = subprocess.Popen(
        command, env=uno.env, cwd=uno.cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    base = f"http://127.0.0.1:{port}"

    def get(path: str) -> bytes:
        with urllib.request.urlopen(base + path, timeout=10) as response:
            assert response.status == 200, (path, response.status)
            return bytes(response.read())

    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, f"uno serve exited {server.returncode}: {server.stdout.read()}"  # type: ignore[union-attr]
            try:
                page = get("/")
                break
            except OSError:
                assert time.monotonic() < deadline, "uno serve did not answer within 60 s"
                time.sleep(0.2)
        assert b"<html" in page
        rules = json.loads(get("/api/rules"))
        assert [entry["name"] for entry in rules["rules"]] == ["classic", "duo", "flex", "nomercy"], rules["rules"]
        assert get("/static/style.css")
        assert get("/static/fonts/noto-sans-lao-lao-400-normal.woff2")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            pytest.fail("uno serve did not stop on SIGINT within 20 s")
        output = server.stdout.read() if server.stdout is not None else ""
    assert f"http://127.0.0.1:{port}/" in output, output


def check_contents(sdist: Path, wheel: Path) -> list[str]:
    """What the sdist and the wheel hold (never what a build in the checkout leaves); the wheel's names."""
    with tarfile.open(sdist) as archive:
        inside = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE", "src/unoengine/_build.py"):
        assert needed in inside, f"the sdist lacks {needed}"
    for needed in DATA:
        assert f"src/{needed}" in inside, f"the sdist lacks src/{needed}"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = archive.read(f"unoengine-{__version__}.dist-info/entry_points.txt").decode()
    for needed in DATA:
        assert needed in names, f"the wheel lacks {needed}"
    assert "uno = unoengine.cli.main:main" in entry_points
    leftovers = [name for name in [*inside, *names] if name.endswith((".pyc", ".o", ".c")) or "__pycache__" in name]
    assert not leftovers, leftovers
    assert not [name for name in inside if name.endswith((".so", "_compiled_sources.txt"))]
    return names


def test_the_pure_wheel_installs_and_runs(tmp_path: Path) -> None:
    started = time.monotonic()
    sdist, wheel = build(tmp_path, pure=True)
    assert wheel.name == f"unoengine-{__version__}-py3-none-any.whl"
    names = check_contents(sdist, wheel)
    assert not [name for name in names if name.endswith((".so", "_compiled_sources.txt"))]
    built = time.monotonic()
    uno = install(wheel, tmp_path)
    installed = time.monotonic()
    version = uno("--version")
    assert version.startswith(f"uno {__version__} (pure Python build, "), version
    assert f"{sys.implementation.name.replace('cpython', 'CPython')} {sys.version_info.major}." in version, version
    check_simulate(uno)
    check_play(uno)
    check_serve(uno)
    print(
        f"built in {built - started:.1f} s, installed in {installed - built:.1f} s, "
        f"checked in {time.monotonic() - installed:.1f} s"
    )


@pytest.mark.slow
def test_the_compiled_wheel_installs_and_runs(tmp_path: Path) -> None:
    """Where a C compiler is (as here: the compiled build is this checkout's default), the wheel is compiled."""
    sdist, wheel = build(tmp_path, pure=False)
    assert not wheel.name.endswith("-none-any.whl"), wheel.name
    names = check_contents(sdist, wheel)
    assert "unoengine/_compiled_sources.txt" in names
    assert [name for name in names if re.fullmatch(r"unoengine_core__mypyc\..*\.so", name)], names
    uno = install(wheel, tmp_path)
    version = uno("--version")
    assert version.startswith(f"uno {__version__} (compiled build, "), version
    check_simulate(uno)
    check_play(uno)
    check_serve(uno)
