"""Helpers shared by the terminal game's tests."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from unoengine.cli.session import Session
from unoengine.cli.tui import UnoApp


def shown(app: UnoApp, widget: str) -> str:
    """The plain text a widget shows."""
    content = app.query_one(f"#{widget}", Static).content
    return content.plain if isinstance(content, Text) else str(content)


def app_of(session: Session) -> UnoApp:
    """The app for a session: bots act at once, and a person gets 30 s to call or catch UNO."""
    return UnoApp(session, bot_delay=0, catch_seconds=30)
