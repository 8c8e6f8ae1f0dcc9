"""``uno play`` with house rules, from stacked decks: a jump-in by the j key, a 7's swap target.

The terminal knows neither rule: it offers them from the view's actions and words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.helpers import deal_order
from tests.test_tui_prompts import SIZE, answer_key, answer_values, pick, question, settle
from tests.tui_helpers import app_of, shown
from unoengine import Record, format_record
from unoengine.cli.session import HUMAN, Session
from unoengine.cli.tui import UnoApp


def house(tmp_path: Path, hand: list[str], options: dict[str, Any]) -> Session:
    """Three seats, the person first on a red 5 with ``hand``, playing with ``options``."""
    deck = deal_order("classic", [hand, [], []], top="R5", dealer=2)
    record = Record("classic", 3, seed=0, dealer=2, deck=tuple(deck), options=tuple(options.items()))
    path = tmp_path / "house.json"
    path.write_text(format_record(record))
    return Session.resume(path)


async def until(app: UnoApp, pilot: Pilot[None], test: Any) -> None:
    for _ in range(500):
        if test():
            return
        await pilot.pause()
    raise AssertionError("the app never got there")


@pytest.mark.asyncio
async def test_jump_in_window_key_and_play(tmp_path: Path) -> None:
    """H-3: with a twin of the top card, the person is told and jumps in with j, out of turn."""
    session = house(tmp_path, ["G5", "G5"], {"jump_in": True})
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "G5")
        await pilot.press("enter")
        assert session.actions[-1] == (HUMAN, "G5")
        await until(app, pilot, lambda: "press j to jump in with G5" in shown(app, "prompt"))
        assert app.session.state.to_act != HUMAN, "the window is out of turn"
        await pilot.press("j")
        await until(app, pilot, lambda: len(session.actions) >= 2)
        assert session.actions[1] == (HUMAN, "G5"), "the jump-in is an ordinary play by a seat not to act"
        assert "You played green 5" in shown(app, "log")


@pytest.mark.asyncio
async def test_no_jump_in_without_the_house_rule(tmp_path: Path) -> None:
    session = house(tmp_path, ["G5", "G5"], {})
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "G5")
        await pilot.press("enter")
        await pilot.press("j")
        assert "Nothing to jump in with now." in shown(app, "message")
        assert "jump in" not in shown(app, "prompt")


@pytest.mark.asyncio
async def test_seven_asks_whom_to_swap_hands_with(tmp_path: Path) -> None:
    """H-2: a 7 asks for its target with the rule's own question; the answer is the action R7>N."""
    session = house(tmp_path, ["R7"], {"seven_zero": True})
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "R7")
        await pilot.press("enter")
        await pilot.pause()
        assert question(app) == "Swap hands with whom?"
        assert answer_values(app) == ["1", "2"]
        await pilot.press(answer_key(app, "2"))
        await until(app, pilot, lambda: len(session.actions) >= 1)
        assert session.actions[0] == (HUMAN, "R7>2")


@pytest.mark.asyncio
async def test_h10_more_of_the_same_number_is_offered_then_pass_ends_the_turn(tmp_path: Path) -> None:
    """H-10: after a number card, the prompt offers more of that number; the person plays one, then passes."""
    session = house(tmp_path, ["R6", "G6", "B6", "Y9"], {"multi_play": True})
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "R6")
        await pilot.press("enter")
        await until(app, pilot, lambda: app.view.pending == "more")
        assert "More 6s" in shown(app, "prompt"), shown(app, "prompt")
        await pick(app, pilot, "G6")
        await pilot.press("enter")
        await until(app, pilot, lambda: len(session.actions) >= 2)
        assert session.actions[:2] == [(HUMAN, "R6"), (HUMAN, "G6")]
        assert app.view.pending == "more" and app.view.to_act == HUMAN, "a 6 is still held: more is offered again"
        assert app.view.color is not None and app.view.color.word == "green", "the last card sets the colour"
        await pilot.press("p")
        await until(app, pilot, lambda: len(session.actions) >= 3)
        assert session.actions[2] == (HUMAN, "pass")
