"""``uno play`` explains every turn: each thing a new player missed, through the Textual pilot.

1. every card's effect in words, both sides of a Flex card (the rule set's ``describe_side``);
2. a warning before a Wild Draw Four that would be a bluff (Duo, Flex);
3. skipped turns and every round's first card in the log (F-7's covered card too);
4. a countdown for the catch window, and ``--catch-seconds``;
5. the refusal line clears at the next action; refusals say "decline" and name only
   what the person chose;
6. ``-o`` for ``--option``; no direction in a two-player game (Duo);
7. a full log that scrolls and that prompts leave in sight;
8. statistics across games on the final screen, in ``$XDG_DATA_HOME/unoengine/``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.containers import VerticalScroll

from tests.helpers import deal, duo_deal
from tests.test_tui_prompts import answer_key, classic_race, pick, prompt_kind, question, settle
from tests.tui_helpers import app_of, shown
from unoengine.bots.heuristic import HeuristicBot
from unoengine.cli.play import play
from unoengine.cli.screens import NoticeScreen
from unoengine.cli.session import HUMAN, Session, make_bots
from unoengine.cli.stats import parse_stats, stats_path
from unoengine.cli.tui import UnoApp
from unoengine.core.actions import Action, Play
from unoengine.core.cards import format_card, parse_card
from unoengine.core.engine import new_game
from unoengine.core.notation import format_state
from unoengine.core.record import format_record
from unoengine.core.rules import find_rules
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView, view_for

SIZE = (120, 40)


def session_of(state: GameState) -> Session:
    """A session built from a state parsed from its one-line notation (seat 0 is the person, heuristic bots)."""
    parsed = GameState.parse(format_state(state))
    assert parsed == state
    return Session(parsed, parsed, make_bots(["heuristic"], parsed.seats, 0))


class Plays(HeuristicBot):
    """A heuristic bot that plays ``card`` whenever it can, and never forgets UNO."""

    def __init__(self, card: str) -> None:
        super().__init__(random.Random(0))
        self.card = parse_card(card)

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        wanted = [a for a in legal if isinstance(a, Play) and a.card == self.card]
        return wanted[0] if wanted else super().choose(view, legal)


# -- 1. every card's effect in words ------------------------------------------------


@pytest.mark.asyncio
async def test_the_picked_card_says_what_it_does_on_both_sides() -> None:
    flex = find_rules("flex")
    app = app_of(session_of(deal("flex", [["R+2|B", "RS"], [], []], top="R4", dealer=2)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "R+2|B")
        hand = shown(app, "hand").replace("\n", " ")
        card = parse_card("R+2|B")
        assert f"normal side: {flex.describe_side(card, False)}" in hand
        assert f"flex side: {flex.describe_side(card, True)}" in hand
        assert "every other player draws 1" in hand, "the flex side of a Flex Draw Two"
        await pick(app, pilot, "RS")
        assert "RS (playable) — red Skip: the next player misses their turn" in shown(app, "hand")


# -- 2. a bluff is warned before it is played ----------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("rules", ["duo", "flex"])
async def test_a_wild_draw_four_that_would_be_a_bluff_is_warned_first(rules: str) -> None:
    if rules == "duo":
        state, card = duo_deal([["W+4", "R3"], []], top="R5", player1=1), "W+4"
    else:
        state, card = deal("flex", [["FW+4", "R3"], [], []], top="R4", dealer=2), "FW+4"
    session = session_of(state)
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, card)
        await pilot.press("enter")
        assert prompt_kind(app) == "bluff"
        assert "would be a bluff: you hold a card that matches the current colour" in question(app)
        await pilot.press(answer_key(app, "cancel"))
        assert prompt_kind(app) is None and session.actions == [], "kept: nothing was played"
        await pilot.press("enter")
        await pilot.press(answer_key(app, "bluff"))
        assert prompt_kind(app) in ("wild", "side"), "then the play is asked as always"


@pytest.mark.asyncio
async def test_a_wild_draw_four_that_is_no_bluff_asks_no_warning() -> None:
    app = app_of(session_of(duo_deal([["W+4", "Y3"], []], top="R5", player1=1)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "W+4")
        await pilot.press("enter")
        assert prompt_kind(app) == "wild"


# -- 3. skipped turns and first cards in the log -------------------------------------


@pytest.mark.asyncio
async def test_the_log_tells_who_skips_whom_and_the_first_card() -> None:
    session = session_of(deal("classic", [["R7", "RS"], ["R8"], ["RS"]], top="R3", dealer=2))
    session.seat_bot(1, Plays("R8"))
    session.seat_bot(2, Plays("RS"))
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "Round 1: the first card is red 3; next: you (turn)" in app.lines
        await pick(app, pilot, "R7")
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Bot 2 skips you" in app.lines
        await pick(app, pilot, "RS")
        await pilot.press("enter")
        await settle(app, pilot)
        assert "You skip Bot 1" in app.lines


@pytest.mark.asyncio
async def test_f7_the_log_names_an_action_card_turned_and_covered() -> None:
    seed = next(s for s in range(60) if len(new_game("flex", 3, seed=s).discard_pile) > 1)
    app = app_of(Session.new("flex", 3, seed=seed))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = [line for line in app.lines if line.startswith("Round 1: the first card is ")]
        assert first and "turned first and covered" in first[0]


def quick_game(**options: Any) -> tuple[int, str]:
    """A seed of a two-seat Classic game of one card each where the person can go out at once."""
    for seed in range(200):
        view = view_for(new_game("classic", 2, seed=seed, options={"hand_size": 1, **options}), HUMAN)
        plays = [a for a in view.legal if isinstance(a, Play) and not a.card.is_wild]
        if view.to_act == HUMAN and plays:
            return seed, format_card(plays[0].card)
    raise AssertionError("no seed")


@pytest.mark.asyncio
async def test_every_round_names_its_first_card() -> None:
    seed, card = quick_game()
    app = app_of(Session.new("classic", 2, seed=seed, options={"hand_size": 1}))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, card)
        await pilot.press("enter")
        assert isinstance(app.screen, NoticeScreen) and app.screen.kind == "round"
        await pilot.press("enter")
        await pilot.pause()
        assert any(line.startswith("Round 2: the first card is ") for line in app.lines)


# -- 4. the catch window's countdown -------------------------------------------------


@pytest.mark.asyncio
async def test_the_catch_window_counts_down_and_the_bots_react_at_its_end(tmp_path: Path) -> None:
    session = classic_race(tmp_path, racer=HUMAN)
    now = [100.0]
    app = UnoApp(session, bot_delay=0, catch_seconds=10, clock=lambda: now[0])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "R7")
        await pilot.press("enter")
        await pilot.press(answer_key(app, "quiet"))
        assert "press u to call UNO before someone catches you! (10 s left)" in shown(app, "prompt")
        now[0] += 3.5
        app.tick()
        assert "(7 s left)" in shown(app, "prompt")
        assert session.state.unsafe == HUMAN, "nobody has caught the person yet"
        now[0] += 7
        app.tick()
        await pilot.pause()
        assert any(line.startswith("Bot 1 caught you without UNO") for line in app.lines)
        assert "s left)" not in shown(app, "prompt")


def test_catch_seconds_and_o_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def run(app: UnoApp, *args: Any, **kwargs: Any) -> None:
        seen.update(seconds=app.catch_seconds, options=app.session.state.options, stats=app.session.stats)

    monkeypatch.setattr(UnoApp, "run", run)
    result = CliRunner().invoke(play, ["--seed", "3", "--catch-seconds", "7.5", "-o", "target_score=200"])
    assert result.exit_code == 0, result.output
    assert seen["seconds"] == 7.5
    assert seen["options"].target_score == 200
    assert seen["stats"] == stats_path()
    refused = CliRunner().invoke(play, ["--catch-seconds", "1e3"])
    assert refused.exit_code == 2
    assert "'1e3' is not a number of seconds" in refused.output
    assert "(expected from 0 to 60)" in CliRunner().invoke(play, ["--catch-seconds", "61"]).output


# -- 5. refusals -----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_refusal_line_clears_at_the_next_action() -> None:
    app = app_of(session_of(deal("classic", [["R7"], [], []], top="R3", dealer=2)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("u")
        assert shown(app, "message").startswith("Refused (C-19): ")
        await pilot.press("d")
        assert shown(app, "message") == ""


@pytest.mark.asyncio
async def test_refusals_say_decline_and_a_volley_w4_shows_no_colour() -> None:
    # A Duo Reverse dump refused: "you play your red cards one by one or decline with 'pass'".
    state = duo_deal([["RR", "R3", "Y7"], []], top="R5", player1=1)
    app = app_of(session_of(state))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, "RR")
        await pilot.press("enter")
        await pick(app, pilot, "Y7")
        await pilot.press("enter")
        message = shown(app, "message")
        assert "you play your red cards one by one or decline with 'pass'" in message, message
    # A Duo volley: the person's Wild Draw Four cannot join it, and the refusal names no colour.
    session = session_of(duo_deal([["W+4"], ["R+2"]], top="R5", player1=0))
    session.seat_bot(1, Plays("R+2"))
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert session.actions[-1] == (1, "R+2")
        await pick(app, pilot, "W+4")
        await pilot.press("enter")
        message = shown(app, "message")
        assert message.startswith("Refused (D-13): ") and message.endswith(", not 'W+4'"), message
        assert "W+4:" not in message


# -- 6. no direction with two players ------------------------------------------------


@pytest.mark.asyncio
async def test_no_direction_is_shown_in_duo() -> None:
    duo = app_of(session_of(duo_deal([["R3"], []], top="R5", player1=1)))
    async with duo.run_test(size=SIZE) as pilot:
        await settle(duo, pilot)
        assert "Direction" not in shown(duo, "status") and "clockwise" not in shown(duo, "status")
    classic = app_of(session_of(deal("classic", [["R7"], [], []], top="R3", dealer=2)))
    async with classic.run_test(size=SIZE) as pilot:
        await settle(classic, pilot)
        assert "Direction: ↻ clockwise" in shown(classic, "status")


# -- 7. the log ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_whole_log_scrolls_and_prompts_leave_it_in_sight() -> None:
    app = app_of(session_of(deal("classic", [["W"], [], []], top="R3", dealer=2)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.lines += [f"line {n}" for n in range(400)]
        app.refresh_view()
        box = app.query_one("#log-box", VerticalScroll)
        for _ in range(100):  # the scroll to the end lands after a refresh: on a loaded machine, a few frames later
            await pilot.pause()
            if box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y:
                break
        assert shown(app, "log").splitlines()[0].startswith("Classic UNO: you against 2 bot(s)"), "nothing is dropped"
        assert box.scroll_y == box.max_scroll_y > 0, "the log follows its end"
        await pilot.press("pageup")
        await pilot.pause()
        assert box.scroll_y < box.max_scroll_y
        app.lines.append("one more line")
        app.refresh_view()
        await pilot.pause()
        assert box.scroll_y < box.max_scroll_y, "a person reading back is left where they read"
        await pick(app, pilot, "W")
        await pilot.press("enter")
        assert prompt_kind(app) == "wild"
        prompt = app.screen.query_one("#choice-box")
        assert not prompt.region.overlaps(box.region), "the prompt covers no part of the log"
        await pilot.press("pageup")  # the log scrolls while a prompt is open
        await pilot.press("escape")
        await pilot.press("l")
        assert isinstance(app.screen, NoticeScreen) and app.screen.kind == "log"
        await pilot.press("escape")


@pytest.mark.asyncio
async def test_the_log_follows_its_end_after_a_prompt_that_lines_came_under() -> None:
    """Lines that come while a prompt covers the game (a bot catches the person while "Call UNO?" is open) are
    laid out only when the prompt closes: the log still follows them (it stopped following after every prompt)."""
    app = app_of(session_of(deal("classic", [["W", "R5", "B7"], ["G1", "G2"], ["Y1", "Y2"]], top="R3", dealer=2)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        box = app.query_one("#log-box", VerticalScroll)

        async def at_end() -> bool:
            for _ in range(100):  # the scroll to the end lands after a refresh: on a loaded machine, a few frames later
                await pilot.pause()
                if box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y:
                    return True
            return False

        app.lines += [f"line {n}" for n in range(200)]
        app.refresh_view()
        assert await at_end()
        await pick(app, pilot, "W")
        await pilot.press("enter")
        assert prompt_kind(app) == "wild"
        for step in range(3):  # steps narrated while the prompt is open
            app.lines += [f"under the prompt {step}.{n}" for n in range(5)]
            app.refresh_view()
            await pilot.pause()
        await pilot.press("escape")
        app.lines += ["Bot 1 caught you without UNO: you draw 2"]
        app.refresh_view()
        assert await at_end(), "the last line is in sight without PageDown"
        await pilot.press("pageup")
        await pilot.pause()
        app.lines.append("one more line")
        app.refresh_view()
        await pilot.pause()
        assert box.scroll_y < box.max_scroll_y, "a person reading back is still left where they read"
        for _ in range(40):
            await pilot.press("pagedown")
        app.lines.append("and another")
        app.refresh_view()
        assert await at_end(), "back at the end, the log follows again"


# -- 8. statistics across games --------------------------------------------------------


async def play_a_quick_game(stats: Path) -> str:
    """Win a one-card, one-round game; return the final screen's text."""
    seed, card = quick_game(single_round=True)
    session = Session.new("classic", 2, seed=seed, options={"hand_size": 1, "single_round": True}, stats=stats)
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick(app, pilot, card)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NoticeScreen) and app.screen.kind == "over"
        content = app.screen.query_one("#notice").render()
        return str(content)


@pytest.mark.asyncio
async def test_statistics_across_games_are_kept_and_shown_on_the_final_screen(tmp_path: Path) -> None:
    path = stats_path()
    assert path.parent.name == "unoengine" and path.parent.parent.name.startswith("data")  # the tests' own folder
    first = await play_a_quick_game(path)
    assert "Statistics of every Classic UNO game played here:" in first
    assert re.search(r"^ +games +wins +win % +points$", first, re.MULTILINE)
    assert re.search(r"^  You +1 +1 +100% +[1-9]", first, re.MULTILINE)
    assert re.search(r"^  Bot 1 +1 +0 +0% +0$", first, re.MULTILINE)
    second = await play_a_quick_game(path)
    assert re.search(r"^  You +2 +2 +100% +[1-9]", second, re.MULTILINE)
    stats = parse_stats(path.read_text())["classic"]
    assert stats["You"].games == 2 and stats["You"].wins == 2 and stats["Bot 1"].wins == 0
    assert stats["You"].points > 0 and stats["Bot 1"].points == 0


@pytest.mark.asyncio
async def test_a_corrupt_statistics_file_is_reported_and_replaced() -> None:
    path = stats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    text = await play_a_quick_game(path)
    assert f"The statistics file {path} could not be read (not JSON" in text
    assert "it was replaced" in text
    assert parse_stats(path.read_text())["classic"]["You"].games == 1
    path.write_text(json.dumps({"format": "unoengine-stats/1", "rules": {"classic": {"You": {"games": "x"}}}}))
    assert "could not be read (player 'You' has no counts" in await play_a_quick_game(path)


# -- the app reads views only; the record is written from the table ------------------------


def test_a_saved_record_is_the_tables_record_formatted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save after a move deals nothing again (the record's set-up is checked once) and equals the table's record."""
    import unoengine.core.record as record_module

    dealt = []
    original = record_module.new_game

    def counting(*args: Any, **kwargs: Any) -> GameState:
        dealt.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(record_module, "new_game", counting)
    session = Session.new("classic", 3, seed=4, save=tmp_path / "g.json")
    for _ in range(40):
        step = session.bot_turn() or session.act(HUMAN, session.view_now().legal[0])
        assert step.view == view_for(session.state, HUMAN)
    assert len(dealt) == 1, "the game was dealt again to check it at every save"
    assert (tmp_path / "g.json").read_text() == format_record(session.table.record())
