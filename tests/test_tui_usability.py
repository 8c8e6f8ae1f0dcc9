"""``uno play``: usability fixes from a user review, driven headless (bot delay 0).

The seed on the screen and after exit, quitting with a confirmation, log lines
that say "you" in good English, an empty draw pile, an 80x24 terminal, seat
names in refusals, the cursor on a drawn card and on a Duo dump, long hands,
the Duo draft's public cards, a Flex card playable only on its flex side, and
``--resume`` with options that disagree with the record.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import OptionList, Static

from tests.helpers import deal_order, duo_order
from tests.test_tui_prompts import answer_key, answer_labels, draft_keeps, pick, prompt_kind, question, resumed, settle
from tests.tui_helpers import app_of, shown
from unoengine.cli.play import play
from unoengine.cli.session import HUMAN, Session, make_bots
from unoengine.cli.tui import FLEX_SIDE, HELP, NoticeScreen, QuitScreen, UnoApp, card_text
from unoengine.core.cards import format_card
from unoengine.core.events import Caught, ChallengeResolved, Event, GameEnded, HandShown, RoundEnded
from unoengine.core.state import Outcome, Termination
from unoengine.play.narrator import name_seats, narrate

SIZE = (120, 40)
SMALL = (80, 24)


def three_seats(tmp_path: Path, card: str = "W", rules: str = "classic") -> Session:
    """Three seats, the person first on a red 3, holding ``card``."""
    return resumed(tmp_path, rules, 3, deal_order(rules, [[card], [], []], top="R3", dealer=2), dealer=2)


# -- 1. the seed, on the screen and after the game ----------------------------------


def test_seed_shown_after_exit_and_resume_conflicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(UnoApp, "run", lambda self, *args, **kwargs: None)
    runner = CliRunner()
    path = tmp_path / "game.json"
    args = ["--seed", "7", "--seats", "3", "--option", "target_score=200", "--save", str(path)]
    result = runner.invoke(play, args)
    assert result.exit_code == 0, result.output
    assert f"Game saved to {path}" in result.output
    assert (
        "seed 7 — replay with: uno play --rules classic --seats 3 --bots heuristic --seed 7 --option target_score=200"
        in result.output
    )
    # --resume takes the record's settings: options that agree pass, others are refused.
    same = runner.invoke(play, ["--resume", str(path), "--seed", "7", "--rules", "classic"])
    assert same.exit_code == 0, same.output
    assert "seed 7 — replay with" in same.output
    refused = runner.invoke(
        play, ["--resume", str(path), "--rules", "duo", "--seats", "2", "--option", "target_score=50"]
    )
    assert refused.exit_code == 2
    assert "--rules duo: the record says classic" in refused.output
    assert "--seats 2: the record says 3" in refused.output
    assert "--option target_score=50: the record says target_score=200" in refused.output


# -- 2. quitting asks first -----------------------------------------------------------


@pytest.mark.asyncio
async def test_q_asks_before_quitting_and_bots_wait(tmp_path: Path) -> None:
    app = app_of(Session.new("classic", 3, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "seed 0" in shown(app, "status").splitlines()[0]
        await pilot.press("d")  # a draw
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        steps = app.session.state.steps
        await pilot.press("p")  # game keys do nothing while "Quit?" is open
        for _ in range(5):
            await pilot.pause()
        assert app.session.state.steps == steps
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen)
        await settle(app, pilot)
        assert app.is_running
        await pilot.press("q", "escape")
        assert app.is_running and not isinstance(app.screen, QuitScreen)
        await pilot.press("q", "y")
        await pilot.pause()
        assert not app.is_running
    # Once the game is over, q quits at once.
    dealt = Session.new("classic", 3, seed=0).state
    ended = dealt._replace(outcome=Outcome(Termination.TARGET_SCORE, 1, dealt.scores))
    over = app_of(Session(dealt, ended, make_bots(["heuristic"], 3, 0)))
    async with over.run_test(size=SIZE) as pilot:
        await settle(over, pilot)
        over.advance()
        await pilot.pause()
        assert isinstance(over.screen, NoticeScreen) and over.screen.kind == "over"
        await pilot.press("q")
        await pilot.pause()
        assert not over.is_running


# -- 3. "you" in the log, and seat names in refusals ---------------------------------


WRONG = re.compile(
    r"\bYou's\b|\byou's\b|\b[Yy]ou (draws|holds|has|shows|names|plays|takes|adds|calls|was)\b|You showed their"
)


def test_log_lines_about_you_are_good_english() -> None:
    session = Session.new("classic", 3, seed=0)

    def describe(event: Event) -> str | None:
        lines = narrate(None, [event], session.view_now(), session.names, session.state.tables.cards)
        return lines[0] if lines else None

    assert describe(ChallengeResolved(0, 1, False)) == "Your challenge of Bot 1 failed"
    assert describe(ChallengeResolved(2, 0, True)) == "Bot 2's challenge of you succeeded"
    assert describe(HandShown(0, 2, (1, 2), True)) == "You showed your hand to Bot 2"
    assert describe(HandShown(1, 2, (1, 2), True)) == "Bot 1 showed their hand to Bot 2"
    assert describe(Caught(2, 0)) == "Bot 2 caught you without UNO: you draw 2"
    assert describe(Caught(0, 1)) == "You caught Bot 1 without UNO: Bot 1 draws 2"
    assert describe(RoundEnded(1, 0, (30, 0, 0))) == "Round 1 won by you: You +30, Bot 1 +0, Bot 2 +0"
    assert describe(GameEnded(0, (500, 0, 0))) == "Game over: you won"
    lines = [
        describe(event)
        for a in range(3)
        for b in range(3)
        if a != b
        for event in (
            ChallengeResolved(a, b, True),
            HandShown(a, b, (1,), True),
            Caught(a, b),
            RoundEnded(1, a, (0, 0, 0)),
        )
    ]
    assert not [line for line in lines if line and WRONG.search(line)]
    names = session.names
    assert name_seats("seat 0 holds no R7", names) == "you hold no R7"
    assert name_seats("seat 1 holds 2 cards, not one: there is nothing to catch", names).startswith("Bot 1 holds 2")
    assert (
        name_seats("it is seat 1's decision (turn), not seat 0's", names) == "it is Bot 1's decision (turn), not yours"
    )
    assert (
        name_seats("seat 0's Power Card is red: no flex-side play", names)
        == "your Power Card is red: no flex-side play"
    )
    assert (
        name_seats("seat 0 adds a Draw Two to the volley or takes it with 'draw', not 'R7'", names)
        == "you add a Draw Two to the volley or take it with 'draw', not 'R7'"
    )
    assert name_seats("seat 0 plays its red cards one by one", names) == "you play your red cards one by one"
    assert name_seats("there is no seat 7 (seats are 0 to 2)", names) == "there is no seat 7 (seats are 0 to 2)"


@pytest.mark.asyncio
async def test_refusals_name_players_and_catch_without_target(tmp_path: Path) -> None:
    app = app_of(Session.new("classic", 3, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        actions = list(app.session.actions)
        await pilot.press("c")
        assert shown(app, "message") == "Nobody to catch."
        assert app.session.actions == actions
        await pilot.press("u")
        assert shown(app, "message") == "Refused (C-19): you hold 7 cards, not one, and cannot call UNO"
        assert "seat" not in shown(app, "message")
        # -- 10. after a draw the cursor is on the drawn card.
        await pilot.press("d")
        drawn = app.view.drawn_card
        assert drawn is not None
        assert app.hand_cards()[app.selected] == drawn
        assert f"Picked: {format_card(drawn)} (drawn) (" in shown(app, "hand")
        assert "Turn: You (drawn card)" in shown(app, "status")


# -- 4. an empty draw pile --------------------------------------------------------------


@pytest.mark.asyncio
async def test_drawing_from_an_empty_pile_says_to_pass(tmp_path: Path) -> None:
    played = three_seats(tmp_path, "R7")
    session = Session(played.start, played.state._replace(draw_pile=()), played.bots, played.actions)
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        done = len(app.session.actions)
        await pilot.press("d")
        assert app.session.state.pending.kind == "drawn"
        assert shown(app, "prompt") == "Nothing left to draw: pass (p: pass)."
        assert "(drawn)" not in shown(app, "hand")
        await pilot.press("p")
        assert app.session.actions[done : done + 2] == [(HUMAN, "draw"), (HUMAN, "pass")]


# -- 6. an 80x24 terminal -----------------------------------------------------------------


def inside(app: UnoApp, widget: Widget) -> bool:
    return app.screen.region.contains_region(widget.region)


@pytest.mark.asyncio
async def test_prompts_and_help_fit_80x24(tmp_path: Path) -> None:
    app = app_of(three_seats(tmp_path, "W"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.pause()
        assert app.query_one("#players").region.width <= 40
        assert app.query_one("#log-box").region.width >= 38
        await pick(app, pilot, "W")
        await pilot.press("enter")
        assert prompt_kind(app) == "wild"
        box = app.screen.query_one(Vertical)
        assert box.region.width <= 80
        assert inside(app, box)
        answers = app.screen.query_one(OptionList)
        assert answers.option_count == 4
        assert answers.max_scroll_y == 0, "every colour is on screen"
        await pilot.press("escape")
        await pilot.press("question_mark")
        assert isinstance(app.screen, NoticeScreen)
        await pilot.pause()
        scroll = app.screen.query_one(VerticalScroll)
        assert inside(app, scroll)
        assert scroll.max_scroll_y == 0 and scroll.max_scroll_x == 0, "the whole help is visible"
        notice = app.screen.query_one("#notice", Static)
        assert notice.region.height >= len(HELP.strip().splitlines()), "no help line is cut off"
        assert inside(app, notice)
        await pilot.press("escape")
        await pilot.press("q")
        assert inside(app, app.screen.query_one("#quit", Static))


# -- 5. hands of more than ten cards ----------------------------------------------------


@pytest.mark.asyncio
async def test_long_hand_numbered_and_never_broken_inside_a_card(tmp_path: Path) -> None:
    deck = deal_order("classic", [[], []], top="R5", dealer=1)
    steps = ["0 draw", "0 pass", "1 draw", "1 pass"] * 6
    app = app_of(resumed(tmp_path, "classic", 2, deck, dealer=1, actions=steps))
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        await pilot.pause()
        cards = app.hand_cards()
        assert len(cards) == 13
        width = app.query_one("#hand").content_size.width
        lines = shown(app, "hand").splitlines()
        assert all(len(line) <= width for line in lines)
        for index, card in enumerate(cards):
            piece = f"{index + 1}:{card_text(card).plain}"
            assert any(piece in line for line in lines), f"card {index + 1} is whole on one line"
        await pilot.press("end")
        assert app.selected == 12
        assert "▶13:" in shown(app, "hand")
        await pilot.press("home")
        assert app.selected == 0
        await pilot.press("0")
        assert app.selected == 9


# -- 7. the Duo draft: what was kept, what went face up --------------------------------


@pytest.mark.asyncio
async def test_duo_draft_log_names_the_public_cards() -> None:
    app = app_of(Session.new("duo", 2, seed=1))
    async with app.run_test(size=SIZE) as pilot:
        for answer in ("keep", "reject"):
            await settle(app, pilot)
            assert prompt_kind(app) == "draft"
            cards, pile = app.session.state.tables.cards, app.session.state.draw_pile
            looked, following = cards[pile[-1]].words, cards[pile[-2]].words
            await pilot.press("1" if answer == "keep" else "2")
            if answer == "keep":
                line = f"You kept {looked}; {following} went to the draft discards"
            else:
                line = f"You rejected {looked} and took {following}"
            assert line in app.lines
            index = app.lines.index(line)
            assert not app.lines[index - 1].startswith("You drew"), "no separate (earlier) draw line"
        await settle(app, pilot)
        bot = [line for line in app.lines if line.startswith("Bot 1 ")]
        assert bot and all(
            re.fullmatch(r"Bot 1 (kept a card; .+ went|rejected .+ and took the next card).*", b) for b in bot
        )
        assert not any(line.startswith(("You drew", "Bot 1 drew")) for line in app.lines)
        discards = app.view.discard_pile
        assert f"Discards: {len(discards)}, top {card_text(discards[-1]).plain}" in shown(app, "status")


# -- 8. a Flex card playable only on its flex side -------------------------------------


@pytest.mark.asyncio
async def test_flex_side_only_is_confirmed_first(tmp_path: Path) -> None:
    app = app_of(three_seats(tmp_path, "Y2|R", rules="flex"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        steps = app.session.state.steps
        await pick(app, pilot, "Y2|R")
        await pilot.press("enter")
        assert prompt_kind(app) == "side"
        assert question(app).startswith("Only the flex side of")
        assert answer_labels(app) == ["Flex side: red (your Power Card turns red)", "Cancel: keep the card"]
        await pilot.press("q")  # q works in a prompt too, and n goes back to it
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert prompt_kind(app) == "side"
        await pilot.press("2")
        assert prompt_kind(app) is None
        assert app.session.state.steps == steps
        await pilot.press("enter")
        await pilot.press(answer_key(app, FLEX_SIDE))
        assert app.session.actions[steps] == (HUMAN, "Y2|R@flex")


# -- 10. a Duo Reverse dump, 11. a resume, 12. the first card and "colour" ----------------


@pytest.mark.asyncio
async def test_dump_cursor_resume_log_and_first_card(tmp_path: Path) -> None:
    deck = duo_order([["RR", "R3", "R8"], []], top="R5", draw=["Y7"], player1=1)
    session = resumed(tmp_path, "duo", 2, deck, dealer=1, actions=draft_keeps(1))
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        log = app.lines
        assert log[0] == "Resumed after 14 actions; the last ones:"
        assert "  You kept a card" not in log
        assert any(line.startswith("  Bot 1 kept a card; ") for line in log)
        assert any(re.fullmatch(r"  You kept .+; .+ went to the draft discards", line) for line in log)
        assert "  Round 1: the first card is red 5; next: you (turn)" in log, "the narrator names it after the draft"
        await pick(app, pilot, "RR")
        await pilot.press("enter")
        assert app.session.state.pending.kind == "dump"
        assert format_card(app.hand_cards()[app.selected]) == "R3", "the cursor is on the first card to dump"


def test_the_quit_hint_repeats_every_setting_and_how_uno_was_started(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(UnoApp, "run", lambda self, *args, **kwargs: None)
    runner = CliRunner()
    args = ["--seed", "7", "--seats", "3", "--bots", "random,uniform", "-o", "target_score=100"]
    result = runner.invoke(play, args, env={"UNO_COMMAND": "./scripts/uno"})
    assert result.exit_code == 0, result.output
    hint = "./scripts/uno play --rules classic --seats 3 --bots random,uniform --seed 7 --option target_score=100"
    assert hint in result.output
    plain = runner.invoke(play, ["--seed", "7", "--rules", "duo"], env={"UNO_COMMAND": None})
    assert "replay with: uno play --rules duo --seats 2 --bots heuristic --seed 7" in plain.output
