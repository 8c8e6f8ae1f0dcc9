"""Build the rules core with mypyc when a C compiler is there; otherwise install it pure.

The modules are listed in src/unoengine/_build.py (COMPILED_MODULES). Set
UNOENGINE_PURE=1 to install without compiling.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup

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
    namespace: dict[str, object] = {}
    source = (HERE / "src" / "unoengine" / "_build.py").read_text(encoding="utf-8")
    start = source.index("COMPILED_MODULES: tuple")
    end = source.index(")", start) + 1
    exec(source[start:end].replace(": tuple[str, ...]", ""), namespace)
    modules = namespace["COMPILED_MODULES"]
    assert isinstance(modules, tuple)
    paths = []
    for module in modules:
        path = Path("src", *module.split("."))
        paths.append(str(path / "__init__.py") if (HERE / path).is_dir() else str(path.with_suffix(".py")))
    return list(mypycify(paths, opt_level="3", group_name="unoengine_core"))  # _build.GROUP


setup(ext_modules=compiled_extensions())
