"""Both clients render decisions from the view's words and fields, never by a decision's name.

A new decision or house rule must show in the browser and the terminal with no client
change: the clients may not name a decision (as shared code may not name a rule set,
tests/test_architecture.py), nor read action notation apart (the view's ``actions``
carry its fields).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from unoengine.core.rules import RULESETS

ROOT = Path(__file__).resolve().parents[1] / "src" / "unoengine"
STATIC = ROOT / "server" / "static"
CLIENTS = (
    *sorted(STATIC.glob("*.js")),
    ROOT / "cli" / "tui.py",
    ROOT / "cli" / "texts.py",
    ROOT / "cli" / "screens.py",
)


def decision_names() -> set[str]:
    """Every decision's name: the core's and each rule set's own."""
    names: set[str] = set()
    for rules in RULESETS.values():
        names |= set(rules.decisions)  # (a house rule's decision, H-1's stack, has its type here)
    return names


def test_there_are_decision_names_to_look_for() -> None:
    assert {"turn", "drawn", "challenge", "game_over", "stack", "draft", "volley", "dump", "color"} <= decision_names()


TEXT = re.compile(r"""\b(?:t|tn|said)\(\s*(["'])(?:(?!\1).)*\1""")
"""A text to translate (the page's ``t("roulette")``, the terminal's ``said(...)``): words, not a decision."""


def test_the_clients_name_no_decision() -> None:
    hits = []
    for path in CLIENTS:
        for number, full in enumerate(path.read_text().splitlines(), start=1):
            line = TEXT.sub("t(", full)
            for name in decision_names():
                if re.search(rf"""["']{re.escape(name)}["']""", line):
                    hits.append(f"{path.name}:{number}: {name!r} in {line.strip()}")
    assert not hits, "a client names a decision:\n" + "\n".join(hits)


NOTATION_READING = (
    re.compile(r"@flex"),
    re.compile(r"""startsWith\(["'](catch|colou?r)"""),
    re.compile(r"""\.split\(["'] ["']\)"""),
    re.compile(r"\[rygb\]"),
)
"""Ways of reading action notation apart: a flex marker, a word prefix, a split on `` uno``, a colour letter."""


def test_the_browser_reads_no_action_notation() -> None:
    hits = [
        f"{path.name}: {pattern.pattern}"
        for path in STATIC.glob("*.js")
        for pattern in NOTATION_READING
        if pattern.search(path.read_text())
    ]
    assert not hits, f"the browser client reads action notation apart: {hits}"


def test_the_browser_narrates_nothing_itself() -> None:
    """The log is the server's ``lines`` (unoengine.play.narrator): no event is worded in the page."""
    for path in STATIC.glob("*.js"):
        text = path.read_text()
        for event in ("challenge_resolved", "hand_shown", "reshuffled", "power_flipped", "caught"):
            assert f'"{event}"' not in text, f"{path.name} words the {event} event itself"


def test_the_terminal_takes_actions_from_the_view() -> None:
    """The terminal reads no notation apart either: it parses only what the person types."""
    text = (ROOT / "cli" / "tui.py").read_text()
    assert "parse_action(" not in text.replace("parse_action(text)", "")
    assert not re.search(r"\.startswith\([\"'](catch|color|draw|pass)", text)


TERMINAL_APP = (ROOT / "cli" / "tui.py", ROOT / "cli" / "texts.py", ROOT / "cli" / "screens.py")
"""The terminal app and its widgets: they show views, and never see a game state."""
SESSION_CALLS = frozenset({"now", "act", "bot_turn", "bot_reaction", "record"})
"""The session's methods the app calls: each returns seat 0's view of one step (``cli/session.py``), except
``record``, which only the review asks for, once the game is over (a finished game's record is public)."""


def test_the_terminal_app_reads_views_only() -> None:
    """No ``.state`` (nor the table, nor ``view_for``): the app sees a ``PlayerView`` per step, built once."""
    hits = []
    for path in TERMINAL_APP:
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Attribute) and node.attr in ("state", "table", "start", "view_now"):
                hits.append(f"{where}: .{node.attr}")
            if isinstance(node, ast.Name) and node.id in ("view_for", "legal_actions", "GameState"):
                hits.append(f"{where}: {node.id}")
            if isinstance(node, ast.ImportFrom) and node.module in (
                "unoengine.core.state",
                "unoengine.core.engine",
                "unoengine.play.table",
            ):
                hits.append(f"{where}: imports {node.module}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "session"
                and node.func.attr not in SESSION_CALLS
            ):
                hits.append(f"{where}: session.{node.func.attr}()")
    assert not hits, "the terminal app reads more than views:\n" + "\n".join(hits)


def test_the_session_has_no_textual() -> None:
    text = (ROOT / "cli" / "session.py").read_text()
    assert "textual" not in text and "rich" not in text
