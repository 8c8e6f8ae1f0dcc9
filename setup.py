"""Build the rules core with mypyc when a C compiler is there; otherwise install it pure.

The modules are listed in src/unoengine/_build.py (COMPILED_MODULES). Set
UNOENGINE_PURE=1 to install without compiling.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def compiled_extensions() -> list[object]:
    if os.environ.get("UNOENGINE_PURE", "") not in ("", "0"):
        return []
    if shutil.which(os.environ.get("CC", "cc")) is None:
        print("unoengine: no C compiler found; installing the pure-Python build", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("unoengine: mypyc is not available; installing the pure-Python build", file=sys.stderr)
        return []
    plan = build_plan()
    BuildAndStamp.digest = plan.sources_digest()
    paths = [str(plan.source_of(module).relative_to(HERE)) for module in plan.COMPILED_MODULES]
    return list(mypycify(paths, opt_level="3", group_name=plan.GROUP))


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
    built, so an interrupted build leaves none and the pure build runs.
    """

    digest = ""

    def run(self) -> None:
        stamp = build_plan().STAMP.relative_to(HERE / "src")  # unoengine/_compiled_sources.txt
        target = (HERE / "src" if self.inplace else Path(self.build_lib)) / stamp
        target.unlink(missing_ok=True)
        super().run()
        if self.extensions and self.digest:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.digest + "\n", encoding="ascii")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildAndStamp})
