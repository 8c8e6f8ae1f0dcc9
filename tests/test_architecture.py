"""The design's structural rules, checked on the source text.

- Only the rule modules (src/unoengine/core/rules/) may name a rule set: the rest of
  the code asks the ``RuleSet``'s data and hooks, never ``if rules is FLEX``.
- The rules core (src/unoengine/core) is pure: standard library and itself only,
  no output, no logging, no clock, and no global random state (every shuffle is a
  seeded ``random.Random(...)``, G-1).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "unoengine"
CORE = SRC / "core"
RULES = CORE / "rules"

FORBIDDEN_TEXT = ("rules.name ==", "is FLEX", "is DUO", "is CLASSIC", '== "flex"', '== "duo"', '== "classic"')


def sources(root: Path) -> list[Path]:
    files = sorted(root.rglob("*.py"))
    assert files, f"no source under {root}"
    return files


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def where(path: Path, node: ast.AST | None = None) -> str:
    line = f":{getattr(node, 'lineno', '?')}" if node is not None else ""
    return f"{path.relative_to(ROOT)}{line}"


def test_only_the_rule_modules_name_a_rule_set() -> None:
    hits = []
    for path in sources(SRC):
        if path.is_relative_to(RULES):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits += [f"{path.relative_to(ROOT)}:{number}: {line.strip()}" for text in FORBIDDEN_TEXT if text in line]
    assert not hits, "rule-set branching outside src/unoengine/core/rules/:\n" + "\n".join(hits)


def imported_modules(tree: ast.Module) -> Iterator[tuple[ast.AST, str, int]]:
    """(node, module name, relative level) of every import, nested ones included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node, node.module or "", node.level


TYPING_ONLY = frozenset({"mypy_extensions"})
"""Packages of type annotations with no behaviour (``mypyc_attr`` marks a class for the compiler)."""


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    bad = []
    for path in sources(CORE):
        for node, module, level in imported_modules(parse(path)):
            if level > 0:
                continue  # relative: inside the package
            top = module.split(".")[0]
            if module == "unoengine.core" or module.startswith("unoengine.core."):
                continue
            if module == "unoengine.i18n":  # said(): its words as messages, with no I/O (catalogs load at the edge)
                continue
            if top in sys.stdlib_module_names or top in TYPING_ONLY:
                continue
            bad.append(f"{where(path, node)}: import {module}")
    assert not bad, "the core imports outside the standard library and unoengine.core:\n" + "\n".join(bad)


def test_the_words_module_the_core_uses_imports_nothing_outside_the_standard_library() -> None:
    """unoengine.i18n is the core's one import outside itself: at import time it needs only the standard
    library (Babel reads a catalog when an edge first asks for a language other than English)."""
    path = CORE.parent / "i18n" / "__init__.py"
    tree = parse(path)
    lazy = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) for inner in ast.walk(node)}
    bad = [
        f"{where(path, node)}: import {module}"
        for node, module, level in imported_modules(tree)
        if level == 0 and module.split(".")[0] not in (*sys.stdlib_module_names, "__future__") and id(node) not in lazy
    ]
    assert not bad, bad


def test_the_core_neither_prints_nor_logs() -> None:
    bad = []
    for path in sources(CORE):
        tree = parse(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "print":
                bad.append(f"{where(path, node)}: print")
        for node, module, _ in imported_modules(tree):
            if module.split(".")[0] == "logging":
                bad.append(f"{where(path, node)}: import {module}")
        if "print(" in path.read_text(encoding="utf-8"):
            bad.append(f"{where(path)}: contains 'print('")
    assert not bad, "\n".join(bad)


def test_the_core_does_not_read_the_clock() -> None:
    bad = []
    for path in sources(CORE):
        tree = parse(path)
        for node, module, _ in imported_modules(tree):
            if module.split(".")[0] in ("time", "datetime"):
                bad.append(f"{where(path, node)}: import {module}")
            if isinstance(node, ast.ImportFrom) and any(a.name in ("time", "datetime") for a in node.names):
                bad.append(f"{where(path, node)}: from {module} import time/datetime")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in ("time", "datetime"):
                    bad.append(f"{where(path, node)}: {node.value.id}.{node.attr}")
            elif isinstance(node, ast.Name) and node.id == "datetime":
                bad.append(f"{where(path, node)}: datetime")
    assert not bad, "\n".join(bad)


def test_the_core_uses_no_global_random_state() -> None:
    """Only ``random.Random(seed...)`` is allowed: no ``random.shuffle``, ``random.choice``, ``random.seed`` ..."""
    bad = []
    for path in sources(CORE):
        tree = parse(path)
        constructions: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "random"
                    and func.attr == "Random"
                ):
                    constructions.add(id(func))
                    if not node.args and not node.keywords:
                        bad.append(f"{where(path, node)}: random.Random() without a seed")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and id(node) not in constructions
            ):
                bad.append(f"{where(path, node)}: random.{node.attr}")
        for node, module, _ in imported_modules(tree):
            if isinstance(node, ast.ImportFrom) and module == "random":
                names = [alias.name for alias in node.names]
                if names != ["Random"]:
                    bad.append(f"{where(path, node)}: from random import {', '.join(names)}")
            if module.split(".")[0] == "secrets":
                bad.append(f"{where(path, node)}: import {module}")
        if "os.urandom" in path.read_text(encoding="utf-8"):
            bad.append(f"{where(path)}: os.urandom")
    assert not bad, "global random state in the core:\n" + "\n".join(bad)


def test_the_checks_see_the_whole_core() -> None:
    names = {path.relative_to(CORE).as_posix() for path in sources(CORE)}
    assert {"engine.py", "work.py", "rules/ruleset.py", "rules/decisions.py", "rules/duo.py"} <= names


def _imported_modules(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name


SEARCH_BOTS = frozenset(
    {
        SRC / "bots" / "ismcts.py",
        SRC / "bots" / "reads.py",
        SRC / "bots" / "evaluation.py",
        SRC / "bots" / "evaluation_fit.py",
    }
)
"""Search bots: they are given views only, like every bot, but search on states they build
themselves from a view (``determinize``), with the engine (``legal_actions``, ``apply_unchecked``);
the search's evaluation of such states, and its fit on self-play."""


def test_bots_read_views_never_states() -> None:
    """Bots see a PlayerView and legal actions only (G-2): no state, engine or work import,
    except a search bot's own determinized states."""
    banned = ("unoengine.core.state", "unoengine.core.engine", "unoengine.core.work", "unoengine.play")
    offenders = [
        f"{where(path, node)} imports {module}"
        for path in sources(SRC / "bots")
        for node, module in _imported_modules(parse(path))
        if module.startswith(banned) and not (path in SEARCH_BOTS and not module.startswith("unoengine.play"))
    ]
    assert not offenders, offenders


LAYERS: dict[str, int] = {
    "unoengine.core": 0,
    "unoengine._build": 0,
    "unoengine": 0,
    "unoengine.bots": 1,
    "unoengine.play": 2,
    "unoengine.rl": 2,
    "unoengine.analysis": 2,
    "unoengine.server": 3,
    "unoengine.cli": 4,
}
"""The one table of layers, lowest first: core ← bots ← play, rl and analysis ← server ← cli. A module may
import its own layer and those below it, never one above (lazy imports included); play and rl
never import each other (below)."""


def layer_of(module: str) -> int:
    """The layer of a module of the package: its longest prefix in :data:`LAYERS`."""
    best = ""
    for prefix in LAYERS:
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best):
            best = prefix
    assert best, f"{module} is in no layer of LAYERS"
    return LAYERS[best]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_every_import_follows_the_layer_table() -> None:
    offenders = []
    checked = 0
    for path in sources(SRC):
        here = layer_of(module_name(path))
        for node, module, level in imported_modules(parse(path)):
            assert level == 0, f"{where(path, node)}: a relative import"
            if module != "unoengine" and not module.startswith("unoengine."):
                continue
            checked += 1
            if layer_of(module) > here:
                offenders.append(f"{where(path, node)} ({module_name(path)}) imports {module}")
    assert checked > 100
    assert not offenders, "imports against the layer table (core ← bots ← play ← server ← cli):\n" + "\n".join(
        offenders
    )


def test_play_and_rl_never_import_each_other() -> None:
    offenders = [
        f"{where(path, node)} imports {module}"
        for here, other in (("play", "unoengine.rl"), ("rl", "unoengine.play"))
        for path in sources(SRC / here)
        for node, module, _ in imported_modules(parse(path))
        if module == other or module.startswith(other + ".")
    ]
    assert not offenders, offenders


# -- variants own their mechanics, checked by construction ------------------------------

VARIANT_MODULES = ("unoengine.core.rules.classic", "unoengine.core.rules.duo", "unoengine.core.rules.flex")
SHARED_RULE_MODULES = tuple(
    f"unoengine.core.rules.{name}"
    for name in (
        "ruleset",
        "option_specs",
        "tables",
        "words",
        "effects",
        "stacking",
        "scoring",
        "plays",
        "decisions",
        "compose",
        "windows",
    )
)
"""The modules of what several rule sets share (the base decisions, effects, hooks and tables)."""


def test_only_the_rules_package_imports_a_rule_set_module() -> None:
    """A rule set's mechanics are reached through its RuleSet (data and hooks), never imported."""
    offenders = [
        f"{where(path, node)} imports {module}"
        for path in sources(SRC)
        if not path.is_relative_to(RULES)
        for node, module in _imported_modules(parse(path))
        if module.startswith(VARIANT_MODULES)
    ]
    assert not offenders, offenders


def test_the_shared_core_holds_nothing_of_a_rule_set() -> None:
    """No object that a rule set module defines is bound in a shared core module's namespace."""
    import importlib

    import unoengine.core  # noqa: F401

    shared = [
        "unoengine." + ".".join(path.relative_to(SRC).with_suffix("").parts)
        for path in sources(CORE)
        if not path.is_relative_to(RULES) and path.name != "__init__.py"
    ]
    offenders = []
    for name in shared:
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if getattr(value, "__module__", None) in VARIANT_MODULES:
                offenders.append(f"{name}.{attribute} is {value.__module__}.{getattr(value, '__name__', '?')}")
    assert not offenders, offenders


def test_each_rule_set_registers_its_own_decisions_and_hooks() -> None:
    """Every decision a rule set has is a handler: the base ones (shared) or its own module's.

    No rule set fills another module's registries: its decisions are its own
    ``handlers`` and ``decisions`` (the base ones, then its own), and a base
    decision can be shared (H-1's stack is Duo's volley).
    """
    from unoengine.core.rules import RULESETS
    from unoengine.core.rules.compose import compose
    from unoengine.core.rules.decisions import BASE_DECISIONS, BASE_HANDLERS
    from unoengine.core.rules.ruleset import Wrapped

    owners: dict[str, str] = {}
    for rules in RULESETS.values():
        home = f"unoengine.core.rules.{rules.name}"
        allowed = (home, *SHARED_RULE_MODULES, "unoengine.core.engine")
        every = {spec.name: spec.choices[-1] if spec.choices else spec.default for spec in rules.option_specs}
        every.update({spec.name: True for spec in rules.option_specs if spec.kind is bool})
        every.pop("draw_until_playable", None)  # (draw_to_match is on)
        full = compose(rules, rules.options(every))  # every house rule on: each decision has its handler
        assert set(full.handlers) == set(rules.decisions), f"{rules.name}: a decision without a handler"
        for kind in set(full.handlers) - set(rules.handlers):
            handler = full.handlers[kind]
            while isinstance(handler, Wrapped):  # a house rule may wrap another's decision (H-9 wraps H-1's stack)
                handler = handler.inner
            module = type(handler).__module__
            owners_of_kind = tuple(type(house).__module__ for house in rules.house if kind in house.kinds)
            assert len(owners_of_kind) <= 1, f"{rules.name}'s {kind!r} is added by several house rules"
            assert module in (*SHARED_RULE_MODULES, *owners_of_kind), (
                f"{rules.name}'s {kind!r}: a house rule's decision from {module}, which does not add it (kinds)"
            )
        for kind, handler in BASE_HANDLERS.items():
            assert rules.handlers[kind] is handler, f"{rules.name} replaces the base decision {kind!r}"
            assert rules.decisions[kind] is BASE_DECISIONS[kind]
        for kind, handler in rules.handlers.items():
            if kind in BASE_HANDLERS:
                continue
            module = type(handler).__module__
            assert module in (home, *SHARED_RULE_MODULES), f"{rules.name}'s {kind!r} handler lives outside {home}"
            defined = rules.decisions[kind].__module__
            assert defined in (home, "unoengine.core.state"), f"{kind!r} is not defined in {home} or the core"
            assert owners.setdefault(kind, rules.name) == rules.name, f"{kind!r} is claimed twice"
        for hook in ("side_plays", "refuse_play", "play_hooks", "state_json", "deal", "round_flags"):
            value = getattr(rules, hook)
            if value is not None:
                assert value.__module__ in allowed, f"{rules.name}.{hook} comes from {value.__module__}"
        for effect in rules.effects.values():
            kind = type(effect)
            assert kind.__module__ in allowed, f"{rules.name}'s effect {kind.__name__} is {kind.__module__}'s"


def test_no_module_fills_another_modules_registry_at_import() -> None:
    """The core keeps no mutable registry of decisions that a rule set would fill (the seam, issue of options)."""
    from unoengine.core import state

    for name in ("PENDING_TYPES", "HIDES_TOP"):
        assert not hasattr(state, name), name


WORDS_AND_PARSERS = ("options.py", "option_specs.py", "record.py", "notation.py", "action_words.py")
"""Modules that carry every option by name (the parsers, records, the state notation) or word a view's options for
interfaces (``action_words``): they play no rule."""


def test_no_shared_module_reads_a_house_rule_option() -> None:
    """The shared handlers, the engine and the rule sets read no house-rule option: a house rule is its module
    (``unoengine.core.house``), which composes what it adds into a game (``Game``: handlers, effects, filters,
    windows, ``hand_size``, ``uno_penalty``). Docstrings and comments may name them; code may not."""
    from unoengine.core.house import HOUSE_OPTIONS

    names = {spec.name for spec in HOUSE_OPTIONS}
    house = CORE / "house"
    offenders = []
    for path in sources(CORE):
        if path.is_relative_to(house) or path.name in WORDS_AND_PARSERS:
            continue  # the house rules themselves; what carries or words every option of a view or record
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in names:
                offenders.append(f"{where(path, node)} reads .{node.attr}")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in names
                and id(node) not in docstrings
            ):
                offenders.append(f"{where(path, node)} names {node.value!r}")
    assert not offenders, offenders
