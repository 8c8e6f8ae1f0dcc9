"""``uno play``: the Textual client driven headless, key by key (bot delay 0).

A scripted person plays whole rounds of each rule set through the UI: it picks
cards with number keys and arrows, plays with Enter, draws with ``d``, keeps
with ``p``, answers every prompt with its keys, types some plays in notation,
catches bots that forget UNO with ``c``. The tests assert on what the screen
shows.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from tests.tui_helpers import settle as settle_within
from tests.tui_helpers import shown
from unoengine import CLASSIC, Play, legal_actions, parse_record, replay
from unoengine.cli.play import given_options, play
from unoengine.cli.session import HUMAN, Session
from unoengine.cli.tui import FLEX_SIDE, ChoiceScreen, NoticeScreen, UnoApp, card_text
from unoengine.core.actions import CALL_UNO, DRAW, PASS, Catch
from unoengine.core.cards import Rank, parse_card
from unoengine.core.errors import InvalidNotationError

SIZE = (120, 40)


def screen_text(app: UnoApp) -> str:
    """The text of the open prompt or notice."""
    screen = app.screen
    content = screen.query_one("#question" if isinstance(screen, ChoiceScreen) else "#notice", Static).content
    return content.plain if isinstance(content, Text) else str(content)


@dataclass
class Trace:
    """What the scripted person met and did."""

    prompts: Counter[str] = field(default_factory=Counter)
    answers: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)
    keyed: list[str] = field(default_factory=list)
    dump_plays: int = 0
    catches: int = 0
    round_text: str = ""
    over_text: str = ""


async def settle(app: UnoApp, pilot: Pilot[None]) -> None:
    """Let the bots play until the person has something to do."""
    await settle_within(app, pilot, 2000)


def answer_for(screen: ChoiceScreen, trace: Trace) -> str:
    """The scripted answer to a prompt: flex sides, challenges, reject then keep, call UNO."""
    values = [value for _, value in screen.answers]
    wanted = {"side": FLEX_SIDE, "challenge": "challenge", "uno": "uno"}.get(screen.kind)
    if screen.kind == "draft":
        wanted = "reject" if trace.prompts["draft"] % 3 == 1 else "keep"
    return wanted if wanted in values else values[0]


def pick_play(app: UnoApp, plays: list[Play]) -> Play:
    """Prefer a Flex card with both sides playable, then a wild, then a Reverse, then the first."""
    cards = [p.card for p in plays]
    flexible = [
        c for c in cards if any(p.flex for p in plays if p.card == c) and any(not p.flex for p in plays if p.card == c)
    ]
    wilds = [c for c in cards if c.is_wild]
    reverses = [c for c in cards if c.rank is Rank.REVERSE]
    for group in (flexible, wilds, reverses, cards):
        if group:
            return next(p for p in plays if p.card == group[0])
    raise AssertionError("no play")


async def human_step(app: UnoApp, pilot: Pilot[None], trace: Trace) -> bool:
    """One decision of the person, through keys and the input. False once the game is over."""
    screen = app.screen
    if isinstance(screen, ChoiceScreen):
        trace.prompts[screen.kind] += 1
        answer = answer_for(screen, trace)
        trace.answers.append(f"{screen.kind}:{answer}")
        index = [value for _, value in screen.answers].index(answer)
        if index % 2:
            await pilot.press(*(["down"] * index), "enter")
        else:
            await pilot.press(str(index + 1))
        return True
    if isinstance(screen, NoticeScreen):
        trace.notices.append(screen.kind)
        text = screen_text(app)
        if screen.kind == "round":
            trace.round_text = text
            # The next round waits behind the summary: nobody acts until Enter.
            steps = app.session.state.steps
            for _ in range(3):
                await pilot.pause()
            assert app.session.state.steps == steps
        if screen.kind == "over":
            trace.over_text = text
            await pilot.press("enter")
            return False
        await pilot.press("enter")
        return True
    state = app.session.state
    if state.is_over:
        return False
    if app.catchable():
        trace.catches += 1
        await pilot.press("c")
        return True
    if state.unsafe == HUMAN:
        await pilot.press("u")
        return True
    legal = [a for a in legal_actions(state, HUMAN) if a is not CALL_UNO and not isinstance(a, Catch)]
    if not legal:
        return True
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        chosen = pick_play(app, plays)
        if state.pending.kind == "dump":
            trace.dump_plays += 1
        simple = not chosen.card.is_wild and not chosen.card.is_flex
        if simple and len(trace.keyed) % 4 == 3:
            # Type the notation instead: `/`, the text, Enter.
            text = str(chosen).replace(" uno", "") + (
                " uno" if any(p.uno for p in plays if p.card == chosen.card) else ""
            )
            trace.typed.append(text)
            trace.keyed.append("typed")
            await pilot.press("slash", *text.lower(), "enter")
            return True
        index = app.hand_cards().index(chosen.card)
        if index < 10:
            await pilot.press(str((index + 1) % 10))
        else:
            steps = (index - app.selected) % len(app.hand_cards())
            await pilot.press(*(["right"] * steps))
        assert app.hand_cards()[app.selected] == chosen.card
        trace.keyed.append(str(chosen.card))
        await pilot.press("enter")
        return True
    trace.keyed.append(str(legal[0]))
    if DRAW in legal:
        await pilot.press("d")
    elif PASS in legal:
        await pilot.press("p")
    else:
        raise AssertionError(f"unexpected decision {legal}")
    return True


async def drive(app: UnoApp, pilot: Pilot[None], trace: Trace, *, until_round_end: bool = True) -> None:
    """Play for the person until a round summary (or game over) has been shown."""
    for _ in range(3000):
        await settle(app, pilot)
        going = await human_step(app, pilot, trace)
        if not going or (until_round_end and "round" in trace.notices):
            return
    raise AssertionError("the game did not end")


def make_app(rules: str, seats: int, seed: int, **options: object) -> UnoApp:
    session = Session.new(rules, seats, seed=seed, options=dict(options) or None)
    return UnoApp(session, bot_delay=0, catch_seconds=30)


@pytest.mark.asyncio
async def test_classic_round_with_wild_typed_notation_and_summary(tmp_path: Path) -> None:
    app = make_app("classic", 3, seed=CLASSIC_SEED)
    trace = Trace()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        status = shown(app, "status")
        assert "Classic UNO · round 1" in status
        assert "Draw pile:" in status
        hand = shown(app, "hand")
        assert "Your hand (7)" in hand
        players = shown(app, "players")
        assert "Bot 1" in players
        assert "Bot 2" in players
        await drive(app, pilot, trace)
        assert trace.prompts["wild"] >= 1, "a wild colour was chosen through the prompt"
        assert trace.typed, "some plays were typed in notation"
        assert "Round 1 is over" in trace.round_text
        assert "total" in trace.round_text
        assert "Cards left, with their points:" in trace.round_text, "the round summary lists the cards"
        assert re.search(r"Bot \d\s+.*= \d+", trace.round_text), "a losing hand, card by card, with its total"
        await settle(app, pilot)
        assert "round 2" in shown(app, "status")
        log = shown(app, "log")
        assert "Round 1 won by" in log
        assert any(line.startswith("Round 1: the first card is ") for line in app.lines)
        assert any(line.startswith("Round 2: the first card is ") for line in app.lines)
        assert trace.catches >= 1
        assert any(line.startswith("You caught Bot") for line in app.lines), "a bot that forgot UNO was caught"
        app.save_screenshot(filename="classic.svg", path=str(tmp_path))
    assert (tmp_path / "classic.svg").read_text().startswith("<svg")


@pytest.mark.asyncio
async def test_duo_round_with_draft_and_reverse_dump() -> None:
    app = make_app("duo", 2, seed=DUO_SEED)
    trace = Trace()
    async with app.run_test(size=SIZE) as pilot:
        await drive(app, pilot, trace)
    assert trace.prompts["draft"] >= 7
    assert "draft:keep" in trace.answers
    assert "draft:reject" in trace.answers
    assert trace.dump_plays >= 1, "a Reverse dump was played card by card"
    assert "Round 1 is over" in trace.round_text
    assert "Cards left, with their points:" in trace.round_text


@pytest.mark.asyncio
async def test_flex_single_round_with_flex_side_and_challenge() -> None:
    app = make_app("flex", 2, seed=FLEX_SEED)
    trace = Trace()
    async with app.run_test(size=SIZE) as pilot:
        await drive(app, pilot, trace, until_round_end=False)
        assert app.session.state.is_over
        assert "Game over" in trace.over_text
        assert "Cards left, with their points:" in trace.over_text
        assert "Game over" in shown(app, "status")
    assert f"side:{FLEX_SIDE}" in trace.answers
    assert "challenge:challenge" in trace.answers


CLASSIC_SEED = 5
DUO_SEED = 1
FLEX_SEED = 3


@pytest.mark.asyncio
async def test_duo_draft_prompt_shows_the_drafted_card() -> None:
    app = make_app("duo", 2, seed=DUO_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.kind == "draft"
        text = screen_text(app)
        assert text.startswith("Draft: keep the card you drew, or reject it and take the next one: ")
        drafted = app.view.draft_card
        assert drafted is not None
        assert drafted.words in text
        status = shown(app, "status")
        discards = app.view.discard_pile
        assert f"Discards: {len(discards)}" in status, "the draft shows its face-up discards, not a top card"
        assert "Top:" not in status
        if discards:
            assert f", top {card_text(discards[-1]).plain}" in status


@pytest.mark.asyncio
async def test_refusals_show_the_rule_and_never_crash() -> None:
    app = make_app("classic", 3, seed=CLASSIC_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        steps = app.session.state.steps
        await pilot.press("p")
        assert shown(app, "message").startswith("Refused (C-8)")
        await pilot.press("u")
        assert shown(app, "message").startswith("Refused (C-19)")
        await pilot.press("slash", *"zz9", "enter")
        assert shown(app, "message").startswith("Not understood")
        unplayable = [c for c in app.hand_cards() if c not in app.playable()]
        assert unplayable
        await pilot.press(str(app.hand_cards().index(unplayable[0]) + 1), "enter")
        assert shown(app, "message").startswith("Refused (C-7)")
        assert app.session.state.steps == steps
        # the input gives the keys back after Enter: `d` draws again
        await pilot.press("d")
        assert app.session.state.pending.kind == "drawn"
        assert shown(app, "log").splitlines()[-1].startswith("You drew ")


@pytest.mark.asyncio
async def test_help_and_markers() -> None:
    app = make_app("flex", 3, seed=FLEX_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "Power  ✔ green" in shown(app, "players")
        await pilot.press("question_mark")
        assert isinstance(app.screen, NoticeScreen)
        assert "catch a player" in screen_text(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, NoticeScreen)
        hand = shown(app, "hand")
        assert "▲" in hand
    assert card_text(parse_card("G2|Y")).plain == " G2 ▲▲ |Y ▲ "
    assert card_text(parse_card("R7")).plain == " R7 ▲▲▲▲ "
    assert card_text(parse_card("B5!")).plain == " B5! ▲▲▲ "
    assert card_text(parse_card("R7"), show_markers=False).plain == " R7 "
    plain = Session.new("flex", 3, seed=FLEX_SEED)
    bare = UnoApp(plain, bot_delay=0, catch_seconds=30, show_markers=False)
    async with bare.run_test(size=SIZE) as pilot:
        await settle(bare, pilot)
        assert "▲" not in shown(bare, "hand")
        assert "▲" not in shown(bare, "status")


@pytest.mark.asyncio
async def test_save_resume_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session.new("classic", 3, seed=CLASSIC_SEED, save=path)
    app = UnoApp(session, bot_delay=0, catch_seconds=30)
    trace = Trace()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(6):
            await settle(app, pilot)
            await human_step(app, pilot, trace)
        await settle(app, pilot)
        state = app.session.state
    record = parse_record(path.read_text())
    assert json.loads(path.read_text())["seats"] == 3
    assert len(record.actions) == state.steps
    assert replay(record) == state
    from unoengine.cli.main import cli

    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    resumed = Session.resume(path, save=tmp_path / "again.json")
    assert resumed.state == state
    again = UnoApp(resumed, bot_delay=0, catch_seconds=30)
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert "Resumed after" in shown(again, "log")
        await human_step(again, pilot, trace)
        await settle(again, pilot)
        assert again.session.state.steps > state.steps
    assert replay(parse_record((tmp_path / "again.json").read_text())) == again.session.state


def test_play_command_options() -> None:
    assert given_options("classic", ("target_score=200", "single_round=true", "wild_draw_four=challenge"), None) == {
        "target_score": 200,
        "single_round": True,
        "wild_draw_four": "challenge",
    }
    # One parser for every command: exactly true/false, and a preset under the items.
    with pytest.raises(InvalidNotationError, match="single_round"):
        given_options("classic", ("single_round=yes",), None)
    assert given_options("classic", ("seven_zero=false",), "party") == {
        "stack_draw": "mixed",
        "jump_in": True,
        "seven_zero": False,
        "draw_until_playable": True,
    }
    runner = CliRunner()
    result = runner.invoke(play, ["--help"])
    assert result.exit_code == 0
    for flag in (
        "--rules",
        "--seats",
        "--bots",
        "--seed",
        "--option",
        "-o,",
        "--preset",
        "--no-markers",
        "--bot-delay",
        "--save",
        "--resume",
    ):
        assert flag in result.output
    refused = runner.invoke(play, ["--rules", "duo", "--seats", "3"])
    assert refused.exit_code == 2
    assert "seats" in refused.output
    assert runner.invoke(play, ["--bots", "nobody"]).exit_code == 2
    assert runner.invoke(play, ["--option", "nonsense"]).exit_code == 2
    house = runner.invoke(play, ["-o", "stack_draw=sometimes"])
    assert house.exit_code == 2 and "stack_draw" in house.output
    assert runner.invoke(play, ["--rules", "duo", "--preset", "nonsense"]).exit_code == 2
    assert CLASSIC.name == "classic"


def test_play_with_a_preset_and_house_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``uno play --preset mobile -o target_score=100``: the game, its record and its replay line carry them."""
    monkeypatch.setattr(UnoApp, "run", lambda self, *args, **kwargs: None)
    path = tmp_path / "house.json"
    args = ["--seed", "3", "--preset", "mobile", "-o", "target_score=100", "--save", str(path)]
    result = CliRunner().invoke(play, args)
    assert result.exit_code == 0, result.output
    options = dict(parse_record(path.read_text()).options)
    assert options["stack_draw"] == "same" and options["seven_zero"] is True and options["forced_play"] is True
    assert options["target_score"] == 100
    assert "--option seven_zero=true" in result.output and "--option target_score=100" in result.output
