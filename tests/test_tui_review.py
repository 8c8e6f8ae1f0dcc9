"""``uno play``'s game review: at the end of a game, ``r`` steps through it with every hand face up.

A short game (two seats, three cards each, one round) is played to its end in a pilot,
then the review is opened from the final screen. The analysis is replaced by a fast fake
with fixed marks (the real one searches; its own tests are elsewhere), so that what the
screen does with the marks and win chances is checked, not the search.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from tests.tui_helpers import shown
from unoengine.analysis import Analysis, DecisionReview, PlayerReview
from unoengine.cli import review
from unoengine.cli.review import ReviewScreen, win_graph
from unoengine.cli.session import HUMAN, Session
from unoengine.cli.tui import NoticeScreen, UnoApp
from unoengine.core.actions import DRAW, PASS, Action, Play
from unoengine.core.record import Record

SIZE = (120, 40)


def text_of(screen: ReviewScreen, widget: str) -> str:
    """The plain text a widget of the review shows."""
    content = screen.query_one(f"#{widget}", Static).content
    return content.plain if isinstance(content, Text) else str(content)


def choose(legal: Sequence[Action]) -> Action:
    """The scripted person: a play (calling UNO when it may), else draw, else pass, else the first move."""
    plays = [action for action in legal if isinstance(action, Play)]
    if plays:
        return next((p for p in plays if p.uno), plays[0])
    for move in (DRAW, PASS):
        if move in legal:
            return move
    return legal[0]


async def play_to_the_end(app: UnoApp, pilot: Pilot[None]) -> None:
    """Play the person's moves until the final screen shows."""
    for _ in range(400):
        await pilot.pause()
        if isinstance(app.screen, NoticeScreen) and app.screen.kind == "over":
            return
        view = app.view
        if app.modal is None and view.outcome is None and view.to_act == HUMAN and not app.reaction_pending():
            app.perform(choose(view.legal))
    raise AssertionError("the game never ended")


def fake_analysis(record: Record, seats: Sequence[int]) -> Analysis:
    """Fixed ratings of the chosen seats' decisions: the first is a blunder, the second a mistake, then good ones."""
    decisions: list[DecisionReview] = []
    for index, (seat, action) in enumerate(record.actions):
        if seat not in seats or action == "uno":
            continue
        mine = [d for d in decisions if d.seat == seat]
        mark = ("blunder", "mistake")[len(mine)] if len(mine) < 2 else None
        win = 0.48 if mark == "blunder" else 0.55 + 0.1 * (len(mine) % 3)
        best = "better-move" if mark else action
        decisions.append(DecisionReview(index, seat, action, best, win, 0.62 if mark else win, mark))
    players = tuple(
        PlayerReview(seat, 80.0 + seat, sum(d.seat == seat for d in decisions), 0, 1, 1) for seat in sorted(seats)
    )
    return Analysis(record.rules, record.seats, tuple(decisions), players)


class FakeAnalyser:
    """The fake analysis, run in the worker thread; it can be held back to see the screen before it ends."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.release.set()
        self.calls: list[list[int]] = []

    def __call__(self, record: Record, seats: Sequence[int], progress: review.Progress) -> Analysis:
        self.calls.append(list(seats))
        progress(0, 2)
        assert self.release.wait(10)
        progress(2, 2)
        return fake_analysis(record, seats)


async def until(pilot: Pilot[None], check: object) -> None:
    for _ in range(200):
        if callable(check) and check():
            return
        await pilot.pause(0.01)
    raise AssertionError("never happened")


@pytest.mark.asyncio
async def test_r_on_the_final_screen_opens_the_review(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeAnalyser()
    fake.release.clear()
    monkeypatch.setattr(review, "analyse", fake)
    session = Session.new("classic", 2, seed=5, options={"hand_size": 3, "single_round": True})
    app = UnoApp(session, bot_delay=0, catch_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(app, pilot)
        assert "r: review this game" in str(app.screen.query_one("#notice", Static).content)
        record = session.record()
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.pause()

        # The deal first: every hand face up, before the analysis is done.
        assert text_of(screen, "review-header").startswith(f"The deal (0/{len(record.actions)})")
        hands = text_of(screen, "review-hands")
        assert "Player (3)" in hands and "Bot 1 (3)" in hands
        assert "the first card is" in text_of(screen, "review-lines")
        await until(pilot, lambda: "analysing your decisions… 0/2" in text_of(screen, "review-graph"))

        # Step forward and back (→/l, ←/h), Home/End.
        await pilot.press("right")
        _, action = record.actions[0]
        header = text_of(screen, "review-header")
        assert header.startswith(f"Action 1/{len(record.actions)}: ")
        assert action in header.splitlines()[0]
        assert text_of(screen, "review-lines").strip()
        for hand, step_hand in zip(screen.steps[1].hands, screen.steps[1].view.hand_sizes, strict=True):
            assert len(hand) == step_hand, "every hand face up, card by card"
        await pilot.press("l", "h", "left")
        assert text_of(screen, "review-header").startswith("The deal")
        await pilot.press("end")
        assert text_of(screen, "review-header").startswith(f"Action {len(record.actions)}/")
        assert "Game over" in text_of(screen, "review-header")
        await pilot.press("home")

        # The analysis comes in: the person's marks, the better move and the graph.
        fake.release.set()
        await until(pilot, lambda: "accuracy: Player 80%" in text_of(screen, "review-graph"))
        assert fake.calls == [[HUMAN]], "only the person's decisions are analysed until m asks for more"
        first = next(d for d in screen.decisions.values())
        screen.at = first.index + 1
        screen.refresh_step()
        mark = text_of(screen, "review-mark")
        assert "blunder" in mark and "better: better-move (win 62% → 48%)" in mark
        styles = [str(span.style) for span in screen.query_one("#review-mark", Static).content.spans]  # type: ignore[union-attr]
        assert any("red" in style for style in styles), "a blunder is red"
        graph = text_of(screen, "review-graph")
        assert any(block in graph for block in review.BLOCKS)
        assert "48% after your decision at action" in graph

        # A bot's decision has no mark until m asks for everyone's (and their analysis runs then).
        bots = [i for i, (s, a) in enumerate(record.actions) if s != HUMAN and a != "uno"]
        assert bots, "the bot acted"
        screen.at = bots[0] + 1
        screen.refresh_step()
        assert "blunder" not in text_of(screen, "review-mark")
        await pilot.press("m")
        await until(pilot, lambda: "Bot 1 81%" in text_of(screen, "review-graph"))
        assert fake.calls == [[HUMAN], [1]]
        assert "Bot 1: " in text_of(screen, "review-mark") and "blunder" in text_of(screen, "review-mark")
        await pilot.press("m")
        assert "blunder" not in text_of(screen, "review-mark")

        # q goes back to the final screen; Escape too, the second time.
        await pilot.press("q")
        assert isinstance(app.screen, NoticeScreen) and app.screen.kind == "over"
        await pilot.press("r")
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, NoticeScreen)
        await pilot.press("enter")  # the table, game over: r still opens the review
        await pilot.press("r")
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("q")
        assert not isinstance(app.screen, ReviewScreen)
        assert "r to review" in shown(app, "prompt")


@pytest.mark.asyncio
async def test_no_review_before_the_game_is_over() -> None:
    app = UnoApp(Session.new("classic", 2, seed=5, options={"hand_size": 3}), bot_delay=0, catch_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        assert not isinstance(app.screen, ReviewScreen)


@pytest.mark.asyncio
async def test_a_failed_analysis_leaves_the_steps_usable() -> None:
    session = Session.new("classic", 2, seed=5, options={"hand_size": 3, "single_round": True})
    app = UnoApp(session, bot_delay=0, catch_seconds=0)

    def broken(record: Record, seats: Sequence[int], progress: review.Progress) -> Analysis:
        raise ValueError("no search today")

    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(app, pilot)
        screen = ReviewScreen(session.record(), analyser=broken)
        await app.push_screen(screen)
        await until(pilot, lambda: "no analysis: no search today" in text_of(screen, "review-graph"))
        await pilot.press("right")
        assert text_of(screen, "review-header").startswith("Action 1/")


def test_the_graph_marks_the_current_decision_and_samples_long_games() -> None:
    decisions = [DecisionReview(i, 0, "R1", "R1", i / 100, i / 100, None) for i in range(100)]
    graph = win_graph(decisions, 37, 20)
    assert len(graph.plain) == 20
    assert sum("reverse" in str(span.style) for span in graph.spans) == 1
    assert win_graph([], None, 20).plain.startswith("(no decision")


def test_the_app_asks_for_the_record_only_once_the_game_is_over() -> None:
    """The record shows every hand: ``session.record()`` is called from the review's key alone, after the game."""
    import ast
    from pathlib import Path

    from unoengine.cli import tui

    tree = ast.parse(Path(tui.__file__).read_text())
    callers = [
        function.name
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute) and node.attr == "record"
    ]
    assert callers == ["action_review"]
