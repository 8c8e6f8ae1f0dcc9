"""Which build of the rules core runs: compiled (mypyc) or pure Python.

The core is one source. A normal install compiles the modules of
:data:`COMPILED_MODULES` with mypyc when a C compiler is there (``setup.py``);
a checkout's ``scripts/setup`` compiles them in place. Without a compiler the
same ``.py`` files run as they are. Set ``UNOENGINE_PURE=1`` to run the pure
build although a compiled one is installed (the test that proves both builds
play identical games does). A compiled build is used only while its sources are
the ones it was built from (setup.py writes their digest beside the package): a
checkout edited since ``scripts/setup`` runs the pure build instead.

This module only chooses between files of the package; it is imported by
``unoengine.core`` before any of the modules it chooses for.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

COMPILED_MODULES: tuple[str, ...] = (
    "unoengine.core.values",
    "unoengine.core.state",
    "unoengine.core.work",
    "unoengine.core.engine",
    "unoengine.core.events",
    "unoengine.core.views",
    "unoengine.core.rules.option_specs",
    "unoengine.core.rules.ruleset",
    "unoengine.core.rules.tables",
    "unoengine.core.rules.words",
    "unoengine.core.rules.effects",
    "unoengine.core.rules.stacking",
    "unoengine.core.rules.scoring",
    "unoengine.core.rules.plays",
    "unoengine.core.rules.decisions",
    "unoengine.core.rules.compose",
    "unoengine.core.rules.windows",
    "unoengine.core.house.stack_draw",
    "unoengine.core.house.deflect",
    "unoengine.core.house.seven_zero",
    "unoengine.core.house.multi_play",
    "unoengine.core.house.jump_in",
    "unoengine.core.house.draw_to_match",
    "unoengine.core.house.forced_play",
    "unoengine.core.house.uno_penalty",
    "unoengine.core.house.hand_size",
    "unoengine.core.house.teams",
    "unoengine.core.rules.classic",
    "unoengine.core.rules.duo",
    "unoengine.core.rules.flex",
    "unoengine.core.rules.nomercy",
    "unoengine.core.perft",
    "unoengine.core.determinize",
    "unoengine.core.action_ids",
    "unoengine.play.table",
    "unoengine.bots.random_bot",
    "unoengine.bots.rng",
    "unoengine.rl.decisions",
    "unoengine.rl.match",
    "unoengine.rl.observe",
    "unoengine.rl.batch",
)
"""The modules compiled with mypyc (the hot path of every game: the core and its values (the card and action
classes), the Table, the random bot and the generator of a seat's bot; perft; determinize, which a search bot calls
every iteration; the action ids, whose ``legal_mask`` a learning loop asks for every step; and the RL environments'
step: who is offered a decision (``rl.decisions``, ``rl.match``), the observation writer (``rl.observe``) and the
batch loop of the vector environment (``rl.batch``), none of which imports NumPy).

Not compiled: the notation parsers (``cards``, ``actions``: they take any object
and refuse it with ``InvalidNotationError``, where compiled code would raise
``TypeError`` first; the classes they re-export are ``values``') and ``rules/__init__``."""

ROOT = Path(__file__).resolve().parent.parent
"""The folder that holds the ``unoengine`` package."""


def source_of(module: str) -> Path:
    """The ``.py`` file of a module of :data:`COMPILED_MODULES`."""
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def compiled_of(module: str) -> Path | None:
    """The compiled extension of a module next to its source, if there is one."""
    source = source_of(module)
    stem = "__init__" if source.name == "__init__.py" else source.stem
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(stem + suffix)
        if candidate.exists():
            return candidate
    return None


GROUP = "unoengine_core"
"""mypyc's group name (setup.py): the compiled code is one shared library, ``unoengine_core__mypyc``."""


def shared_library() -> Path | None:
    """The compiled build's shared library (beside the ``unoengine`` package), if there is one.

    Every compiled module's code is in it (the per-module extensions are small
    shims that are not rebuilt when only the code changes), so its time is the
    build's time.
    """
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = ROOT / f"{GROUP}__mypyc{suffix}"
        if candidate.exists():
            return candidate
    return None


STAMP = ROOT / "unoengine" / "_compiled_sources.txt"
"""Written by setup.py when it compiles: the digest of the sources it compiled."""


def sources_digest() -> str:
    """The SHA-256 of the compiled modules' sources, in :data:`COMPILED_MODULES` order."""
    digest = hashlib.sha256()
    for module in COMPILED_MODULES:
        digest.update(module.encode() + b"\0" + source_of(module).read_bytes() + b"\0")
    return digest.hexdigest()


def _choose() -> tuple[str, str]:
    if os.environ.get("UNOENGINE_PURE", "") not in ("", "0"):
        return "pure", "UNOENGINE_PURE is set"
    missing = [module for module in COMPILED_MODULES if compiled_of(module) is None]
    if missing or shared_library() is None:
        return "pure", "no compiled modules (no C compiler at install, or not built: scripts/setup)"
    try:
        stamp = STAMP.read_text(encoding="ascii").strip()
    except OSError:
        return "pure", "the compiled build does not say what it was built from (rebuild: scripts/setup)"
    if stamp != sources_digest():
        return "pure", "the sources changed since the compiled build (rebuild: scripts/setup)"
    return "compiled", "mypyc"


BUILD, REASON = _choose()
"""``"compiled"`` or ``"pure"``, and why."""


class _PreferSource(importlib.machinery.PathFinder):
    """Find the ``.py`` source of the compiled modules, never their extension."""

    @classmethod
    def find_spec(
        cls, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        source = source_of(fullname)
        is_package = source.name == "__init__.py"
        return importlib.util.spec_from_file_location(
            fullname, source, submodule_search_locations=[str(source.parent)] if is_package else None
        )


if __name__ == "unoengine._build" and BUILD == "pure" and not any(f is _PreferSource for f in sys.meta_path):
    # (setup.py loads this file under another name to read the plan: it chooses nothing there)
    sys.meta_path.insert(0, _PreferSource)


def running() -> str:
    """The build that runs: ``"compiled"`` or ``"pure"`` (the engine's module as imported; :data:`BUILD` before)."""
    engine = sys.modules.get("unoengine.core.engine")
    if engine is None:
        return BUILD
    return "compiled" if not str(getattr(engine, "__file__", "")).endswith(".py") else "pure"


def describe() -> str:
    """One line for the benchmarks' reports: which build runs, and why (``uno --version`` says it its own way)."""
    actual = running()
    return f"{actual} build ({REASON})" if actual == BUILD else f"{actual} build"
