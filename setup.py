"""Build the rules core with mypyc when a C compiler is there; otherwise install it pure.

The modules are listed in src/unoengine/_build.py (COMPILED_MODULES). Set
UNOENGINE_PURE=1 to install without compiling.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

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
    namespace: dict[str, object] = {}
    source = (HERE / "src" / "unoengine" / "_build.py").read_text(encoding="utf-8")
    start = source.index("COMPILED_MODULES: tuple")
    end = source.index(")", start) + 1
    exec(source[start:end].replace(": tuple[str, ...]", ""), namespace)
    modules = namespace["COMPILED_MODULES"]
    assert isinstance(modules, tuple)
    paths = []
    digest = hashlib.sha256()
    for module in modules:
        path = Path("src", *module.split("."))
        source = path / "__init__.py" if (HERE / path).is_dir() else path.with_suffix(".py")
        paths.append(str(source))
        digest.update(module.encode() + b"\0" + (HERE / source).read_bytes() + b"\0")
    BuildAndStamp.digest = digest.hexdigest()
    return list(mypycify(paths, opt_level="3", group_name="unoengine_core"))  # _build.GROUP


class BuildAndStamp(build_ext):
    """build_ext, then the digest of the compiled sources beside the package (unoengine._build reads it).

    The stamp is removed before compiling and written only once every extension is
    built, so an interrupted build leaves none and the pure build runs.
    """

    digest = ""
    STAMP = Path("unoengine") / "_compiled_sources.txt"

    def run(self) -> None:
        target = (HERE / "src" if self.inplace else Path(self.build_lib)) / self.STAMP
        target.unlink(missing_ok=True)
        super().run()
        if self.extensions and self.digest:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.digest + "\n", encoding="ascii")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildAndStamp})
