"""Helpers shared by the terminal game's tests."""

from __future__ import annotations

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from unoengine.cli.session import Session
from unoengine.cli.tui import ChoiceScreen, UnoApp


def shown(app: UnoApp, widget: str) -> str:
    """The plain text a widget shows."""
    content = app.query_one(f"#{widget}", Static).content
    return content.plain if isinstance(content, Text) else str(content)


def app_of(session: Session) -> UnoApp:
    """The app for a session: bots act at once, and a person gets 30 s to call or catch UNO."""
    return UnoApp(session, bot_delay=0, catch_seconds=30)


async def settle(app: UnoApp, pilot: Pilot[None], pauses: int) -> None:
    """Let the bots play until the person has something to do (at most ``pauses`` pauses of the pilot)."""
    for _ in range(pauses):
        if app.waiting_for_human() or app.catchable():
            return
        await pilot.pause()
    raise AssertionError("the app never came back to the person")


def answer_values(app: UnoApp) -> list[str]:
    """What the answers of the open prompt send."""
    screen = app.screen
    assert isinstance(screen, ChoiceScreen)
    return [value for _, value in screen.answers]


def answer_key(app: UnoApp, value: str) -> str:
    """The number key of a prompt's answer."""
    return str(answer_values(app).index(value) + 1)
