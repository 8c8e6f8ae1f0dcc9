"""Build the rules core with mypyc when a C compiler is there; otherwise install it pure.

The modules are listed in src/unoengine/_build.py (COMPILED_MODULES). Set
UNOENGINE_PURE=1 to install without compiling (the wheel is then
``py3-none-any``). Without a C compiler (``$CC``, else the one Python was built
with), without Python's headers, or when the compiler fails on mypyc's C, the
pure build is installed, with a line on stderr saying why; an in-place build
(``setup.py build_ext --inplace``, scripts/setup) fails instead.

mypyc type-checks the compiled modules only: the rest of the package (followed
for its types) may import what the build environment lacks (NumPy, Babel...),
which the compiled modules never do (``python -m build`` builds in an isolated
environment that has only [build-system] requires).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

HERE = Path(__file__).resolve().parent

BUILDING = {"build", "build_ext", "bdist", "bdist_wheel", "bdist_egg", "install", "develop", "editable_wheel"}
"""The setup.py commands that build the extensions: mypyc runs only for these (not for python -m build's sdist and
metadata steps: sdist, egg_info, dist_info)."""


def say(message: str) -> None:
    print(f"unoengine: {message}", file=sys.stderr)


def c_compiler() -> str | None:
    """The C compiler setuptools will run ($CC, else the one Python was built with), if it is on PATH."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def compiled_extensions() -> list[object]:
    if os.environ.get("UNOENGINE_PURE", "") not in ("", "0"):
        return []
    if not BUILDING.intersection(sys.argv[1:]):
        return []
    if c_compiler() is None:
        say("no C compiler found; installing the pure-Python build")
        return []
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        say("Python's headers (Python.h) are missing; installing the pure-Python build")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not available; installing the pure-Python build")
        return []
    plan = build_plan()
    BuildAndStamp.digest = plan.sources_digest()
    paths = [str(plan.source_of(module).relative_to(HERE)) for module in plan.COMPILED_MODULES]
    return list(mypycify(["--follow-imports=silent", *paths], opt_level="3", group_name=plan.GROUP))


def build_plan() -> ModuleType:
    """src/unoengine/_build.py, loaded by path: the modules to compile, their digest, the group's name.

    Loaded under another name than ``unoengine._build``, it chooses no build for
    this process (it only describes the one to make).
    """
    spec = importlib.util.spec_from_file_location("unoengine_build_plan", HERE / "src" / "unoengine" / "_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildAndStamp(build_ext):
    """build_ext, then the digest of the compiled sources beside the package (unoengine._build reads it).

    The stamp is removed before compiling and written only once every extension is
    built, so an interrupted build leaves none and the pure build runs. When the
    compiler fails (outside an in-place build), what was built is removed and the
    package installs pure.
    """

    digest = ""

    def run(self) -> None:
        stamp = build_plan().STAMP.relative_to(HERE / "src")  # unoengine/_compiled_sources.txt
        target = (HERE / "src" if self.inplace else Path(self.build_lib)) / stamp
        target.unlink(missing_ok=True)
        try:
            super().run()
        except (CCompilerError, CompileError, ExecError, LinkError, PlatformError) as error:
            if self.inplace:
                raise
            say(f"compiling failed ({error}); installing the pure-Python build")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            return
        if self.extensions and self.digest:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.digest + "\n", encoding="ascii")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildAndStamp})
