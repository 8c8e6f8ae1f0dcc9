"""Compile the rules core with mypyc (scripts/setup runs this, in the foreground or in the background).

Usage, from the repository root: ``python scripts/compile_core.py wait|try LOG [INSTALL COMMAND ...]``
(LOG ``-``: the output stays on stdout and stderr; the install command, if any, runs first).

It compiles the core into a folder of its own under .venv, then moves each file in with a rename (a
running process keeps the file it loaded) and the digest of the sources last: until the digest is
there, unoengine._build runs the pure build, so a half-built or half-moved build is never imported.
One build at a time (a lock on .venv/compile.lock): "wait" waits for a running one, "try" leaves it.
Exits 0 also when another build made the compiled build current meanwhile.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType


def plan() -> ModuleType:
    """unoengine._build, read from the sources (which build would run now), without importing unoengine."""
    spec = importlib.util.spec_from_file_location("unoengine_build_plan", "src/unoengine/_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(env: dict[str, str]) -> None:
    """Compile into a folder under .venv, then move the files into src/, the digest of the sources last."""
    work = Path(tempfile.mkdtemp(prefix="compile-", dir=".venv"))
    try:
        built = work / "lib"
        command = [sys.executable, "setup.py", "--quiet", "build_ext", "--build-lib", str(built)]
        subprocess.run([*command, "--build-temp", str(work / "temp")], check=True, env=env)
        stamp = Path("unoengine/_compiled_sources.txt")
        files = [path.relative_to(built) for path in built.rglob("*") if path.is_file()]
        if stamp not in files:
            sys.exit("setup.py built no compiled core (no C compiler, or mypyc missing?)")
        (Path("src") / stamp).unlink(missing_ok=True)
        for name in files:
            if name != stamp:
                os.replace(built / name, Path("src") / name)
        os.replace(built / stamp, Path("src") / stamp)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(how: str, log: str, install: list[str]) -> None:
    with open(".venv/compile.lock", "w") as lock:  # held until the build is in place
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if how == "wait" else fcntl.LOCK_NB))
        except BlockingIOError:
            return  # another build is under way
        for stale in Path(".venv").glob("compile-*"):  # left by a build that was killed
            shutil.rmtree(stale, ignore_errors=True)
        if log != "-":
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, 1)
            os.dup2(out, 2)
        env = {key: value for key, value in os.environ.items() if key != "UNOENGINE_PURE"}
        os.environ.pop("UNOENGINE_PURE", None)
        if plan().BUILD == "compiled":
            return
        if install:
            print("installing what compiling needs:", " ".join(install), flush=True)
            subprocess.run(install, check=True)
        build(env)
        print("compiled: the next start of uno runs the compiled build", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
