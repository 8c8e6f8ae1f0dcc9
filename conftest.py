"""Test collection: the doctests of compiled modules run in the pure build.

With the compiled build (the default), the ``.py`` files of the modules mypyc
compiled are not collected for their doctests: the compiled modules are the
ones imported, and their functions carry no doctests. tests/test_builds.py runs
those doctests in a pure-build subprocess instead.
"""

from __future__ import annotations

from pathlib import Path

from unoengine import _build


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if _build.BUILD == "compiled" and collection_path.suffix == ".py":
        compiled = {_build.source_of(module).resolve() for module in _build.COMPILED_MODULES}
        if collection_path.resolve() in compiled:
            return True
    return None
