"""``uno play``: the prompts test_tui.py does not reach, driven from stacked decks.

Each game starts from a record (rules, dealer, a stacked deck, maybe some
actions) written to a file and resumed as ``uno play --resume`` does, so that
the person meets the decision under test at once: the target of a flex-side
Flex Wild Draw Two / Four, declining a Duo Reverse dump, naming the colour of a
first-turned Wild in Duo, catching a bot that forgot UNO, calling UNO late, and
a refusal of typed notation. Bots act at once (delay 0) and the UNO window is
long, so the person always answers first. The tests assert on the screen.

(Test names carry no rule ids: the engine's rule tests own those, and
docs/RULE_TESTS.md is generated from them.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from tests.helpers import deal_order, duo_order
from tests.tui_helpers import answer_key, answer_values, app_of, shown
from tests.tui_helpers import settle as settle_within
from unoengine import Record, format_record, record_of, replay
from unoengine.bots.heuristic import HeuristicBot
from unoengine.cli.session import HUMAN, Session
from unoengine.cli.tui import FLEX_SIDE, ChoiceScreen, UnoApp
from unoengine.core.actions import ACCEPT, Action
from unoengine.core.cards import Color, format_card, parse_card
from unoengine.core.views import PlayerView
from unoengine.play.narrator import card_words

SIZE = (120, 40)

CATCH_BOT = ["R1", "R2", "R3", "R4", "R6", "R7", "R8"]
"""All red: on a red 5 the holder can always play, down to one card."""
NEVER_MATCHING = ["GS", "GR", "G+2", "BS", "BR", "B+2", "YS"]
"""Never playable on the red number cards of :data:`CATCH_BOT`."""
DRAWS = ["YR", "Y+2", "G9", "B9", "Y9", "G0", "B0", "Y0"]
"""Draws that never match the red 1-8 on top while the race of :func:`classic_race` runs."""


def question(app: UnoApp) -> str:
    """The question of the open prompt."""
    screen = app.screen
    assert isinstance(screen, ChoiceScreen), f"no prompt is open ({type(screen).__name__})"
    content = screen.query_one("#question", Static).content
    return content.plain if isinstance(content, Text) else str(content)


def answer_labels(app: UnoApp) -> list[str]:
    """The answers of the open prompt as shown (without their numbers)."""
    screen = app.screen
    assert isinstance(screen, ChoiceScreen)
    return [label.plain if isinstance(label, Text) else label for label, _ in screen.answers]


def prompt_kind(app: UnoApp) -> str | None:
    screen = app.screen
    return screen.kind if isinstance(screen, ChoiceScreen) else None


async def settle(app: UnoApp, pilot: Pilot[None]) -> None:
    """Let the bots play until the person has something to do."""
    await settle_within(app, pilot, 500)


def resumed(
    tmp_path: Path,
    rules: str,
    seats: int,
    deck: Sequence[str],
    *,
    dealer: int,
    actions: Sequence[str] = (),
) -> Session:
    """A session resumed from a record of a stacked deck and ``"SEAT ACTION"`` steps."""
    steps = tuple((int(seat), action) for seat, _, action in (step.partition(" ") for step in actions))
    record = Record(rules, seats, seed=0, dealer=dealer, deck=tuple(deck), actions=steps)
    path = tmp_path / "start.json"
    path.write_text(format_record(record))
    return Session.resume(path)


async def pick(app: UnoApp, pilot: Pilot[None], notation: str) -> None:
    """Pick a card of the hand: its number key, or the arrows past the 10th card."""
    card = parse_card(notation)
    cards = app.hand_cards()
    index = cards.index(card)
    if index < 10:
        await pilot.press(str((index + 1) % 10))
    else:
        steps = (index - app.selected) % len(cards)
        await pilot.press(*(["right"] * steps) if steps <= len(cards) // 2 else ["left"] * (len(cards) - steps))
    assert app.hand_cards()[app.selected] == card


def hand_notations(app: UnoApp) -> list[str]:
    return [format_card(card) for card in app.hand_cards()]


class AcceptingBot(HeuristicBot):
    """A heuristic bot that never challenges a Wild Draw Four, and never forgets UNO."""

    def __init__(self) -> None:
        super().__init__(random.Random(0))

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        return ACCEPT if ACCEPT in legal else super().choose(view, legal)


# -- 1. the target of a flex-side Flex Wild Draw Two / Four -------------------------


@pytest.mark.parametrize(
    ("card", "drawn", "replies"),
    [("FW+2", 2, []), ("FW+4", 4, ["Bot 2 accepted the Wild Draw Four"])],
)
@pytest.mark.asyncio
async def test_flex_side_wild_draw_asks_for_a_target_who_draws(
    tmp_path: Path, card: str, drawn: int, replies: list[str]
) -> None:
    # Three seats; the dealer is seat 2, so the person (seat 0) starts on a red 3.
    # The person holds no red card and no other wild: the Wild Draw Four is legal.
    deck = deal_order("flex", [[card], [], []], top="R3", dealer=2)
    session = resumed(tmp_path, "flex", 3, deck, dealer=2)
    # Seat 2 accepts whatever comes (never challenges): the draw is exactly the card's.
    session.seat_bot(2, AcceptingBot())
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.session.state.to_act == HUMAN
        assert "Power  ✔ green" in shown(app, "players")
        await pick(app, pilot, card)
        await pilot.press("enter")

        assert prompt_kind(app) == "side"
        assert question(app).startswith("Play which side of")
        await pilot.press(answer_key(app, FLEX_SIDE))

        assert prompt_kind(app) == "wild"
        assert question(app) == "Name the colour:"
        await pilot.press(answer_key(app, "b"))

        assert prompt_kind(app) == "target"
        assert question(app) == "Who must draw?"
        labels = answer_labels(app)
        assert labels == ["Bot 1 (7 cards)", "Bot 2 (7 cards)"], "the other seats, never the person"
        assert answer_values(app) == ["1", "2"]
        await pilot.press("2")
        await settle(app, pilot)

        played = f"{card}@flex:b>2"
        assert session.actions[0] == (HUMAN, played)
        log = shown(app, "log").splitlines()
        line = log.index(
            f"You played {card_words(parse_card(card))} on its flex side, naming blue, and Bot 2 draws the cards"
        )
        # The target (a Wild Draw Four's target may challenge: this one accepts) draws.
        assert log[line + 1 : line + 2 + len(replies)] == [*replies, f"Bot 2 drew {drawn}"]
        assert "Power  ✘ red" in shown(app, "players")
    # Once the target has drawn: only the target drew, and seat 1 (the next player) is to act.
    done = 1 + len(replies)
    assert session.actions[1:done] == [(2, "accept")] * len(replies)
    after = replay(record_of(session.start, session.actions[:done], deck=deck))
    assert [len(h) for h in after.hands] == [6, 7, 7 + drawn]
    assert after.to_act == 1
    assert after.color is Color.BLUE


@pytest.mark.asyncio
async def test_target_prompt_cancelled_with_escape_plays_nothing(tmp_path: Path) -> None:
    deck = deal_order("flex", [["FW+2"], [], []], top="R3", dealer=2)
    app = app_of(resumed(tmp_path, "flex", 3, deck, dealer=2))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        steps = app.session.state.steps
        await pick(app, pilot, "FW+2")
        await pilot.press("enter")
        await pilot.press(answer_key(app, FLEX_SIDE))
        await pilot.press(answer_key(app, "g"))
        assert prompt_kind(app) == "target"
        await pilot.press("escape")
        assert prompt_kind(app) is None
        assert app.session.state.steps == steps
        assert "FW+2" in hand_notations(app)
        assert "Your turn" in shown(app, "prompt")


@pytest.mark.asyncio
async def test_target_prompt_names_a_seat_with_one_card(tmp_path: Path) -> None:
    # Bot 1 plays six red cards (calling UNO on the sixth) while the others draw and keep.
    deck = deal_order("flex", [["FW+2"], ["R2", "R3", "R6", "R7", "R8", "R3|B", "R6|B"], []], top="R4", dealer=2)
    steps: list[str] = []
    for card in ("R2", "R3", "R6", "R7", "R8", "R3|B uno"):
        steps += ["0 draw", "0 pass", f"1 {card}", "2 draw", "2 pass"]
    app = app_of(resumed(tmp_path, "flex", 3, deck, dealer=2, actions=steps))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "Bot 1   1 card " in shown(app, "players")
        await pick(app, pilot, "FW+2")
        await pilot.press("enter")
        await pilot.press(answer_key(app, FLEX_SIDE))
        await pilot.press(answer_key(app, "r"))
        assert prompt_kind(app) == "target"
        assert answer_labels(app) == ["Bot 1 (1 card)", "Bot 2 (13 cards)"]
        await pilot.press("1")
        await settle(app, pilot)
        log = shown(app, "log").splitlines()
        assert (
            log[log.index("You played Flex Wild Draw Two on its flex side, naming red, and Bot 1 draws the cards") + 1]
            == "Bot 1 drew 2"
        )


# -- 2. declining a Duo Reverse dump ------------------------------------------------


def draft_keeps(player1: int) -> list[str]:
    """The 14 draft steps of a Duo round in which both players keep every card (Player 1 first)."""
    return [f"{player1 if step % 2 == 0 else 1 - player1} keep" for step in range(14)]


@pytest.mark.asyncio
async def test_duo_reverse_dump_declined_with_p(tmp_path: Path) -> None:
    # The bot is Player 1, so the person (Player 2) plays first, on a red 5,
    # holding a red Reverse and two more red cards; the bot draws a yellow 7.
    deck = duo_order([["RR", "R3", "R8"], []], top="R5", draw=["Y7"], player1=1)
    session = resumed(tmp_path, "duo", 2, deck, dealer=1, actions=draft_keeps(1))
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "Resumed after 14 actions" in shown(app, "log")
        assert app.session.state.pending.kind == "turn"
        await pick(app, pilot, "RR")
        await pilot.press("enter")
        assert prompt_kind(app) is None, "a Reverse asks nothing"
        assert app.session.state.pending.kind == "dump"
        assert app.session.state.to_act == HUMAN
        assert (
            "Reverse dump: play all your red cards one by one, or decline the dump"
            " (Enter: play the picked card · p: decline the dump)" in shown(app, "prompt")
        )
        assert "Turn: You (reverse dump)" in shown(app, "status")
        hand = shown(app, "hand")
        assert " R3 ▲▲▲▲ ★" in hand
        assert " R8 ▲▲▲▲ ★" in hand

        await pilot.press("p")
        await settle(app, pilot)
        assert session.actions[14:16] == [(HUMAN, "RR"), (HUMAN, "pass")]
        assert shown(app, "message") == ""
        log = shown(app, "log").splitlines()
        assert log[log.index("You played red Reverse") + 1] == "You passed"
        # The turn went to the bot; the red cards stayed in the person's hand.
        assert session.actions[16][0] == 1
        assert {"R3", "R8"} <= set(hand_notations(app))
        assert len(app.hand_cards()) == 6
        assert app.session.state.pending.kind == "turn"
        assert app.session.state.to_act == HUMAN


# -- 3. Duo: the first card turned is a Wild, Player 1 names the colour --------------


@pytest.mark.asyncio
async def test_duo_first_card_wild_player1_names_the_colour(tmp_path: Path) -> None:
    # The person is Player 1 (drafts first); the card turned after the draft is a Wild.
    deck = duo_order([[], []], top="W", player1=0)
    session = resumed(tmp_path, "duo", 2, deck, dealer=0, actions=draft_keeps(0))
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert prompt_kind(app) == "color"
        assert question(app) == "Colour: name the colour of the first card"
        assert answer_labels(app) == [" red ▲▲▲▲ ", " yellow ▲ ", " green ▲▲ ", " blue ▲▲▲ "]
        assert "Colour: name the colour of the first card." in shown(app, "prompt")
        assert "Top:  W " in shown(app, "status")
        assert "Turn: You (colour)" in shown(app, "status")
        assert "  Round 1: the first card is Wild; next: you (colour)" in app.lines
        # Escape cannot dodge the decision: the prompt comes back.
        await pilot.press("escape")
        await settle(app, pilot)
        assert prompt_kind(app) == "color"
        assert len(session.actions) == 14

        await pilot.press(answer_key(app, "color g"))
        assert session.actions[14] == (HUMAN, "color g")
        assert app.session.state.color is Color.GREEN
        await settle(app, pilot)
        assert "You named the colour green" in shown(app, "log")
        # Player 2 (the bot) plays first.
        assert session.actions[15][0] == 1


# -- 4. UNO: catching a bot, calling it late ----------------------------------------


def classic_race(tmp_path: Path, racer: int) -> Session:
    """Two seats on a red 5: ``racer`` holds seven red cards and plays five of them while
    the other draws cards it cannot play and keeps them; ``racer`` is left with R7 and R8."""
    hands = [CATCH_BOT, NEVER_MATCHING] if racer == HUMAN else [NEVER_MATCHING, CATCH_BOT]
    other = 1 - racer
    steps: list[str] = []
    for card in ("R1", "R2", "R3", "R4", "R6"):
        if racer == HUMAN:
            steps += [f"{racer} {card}", f"{other} draw", f"{other} pass"]
        else:
            steps += [f"{other} draw", f"{other} pass", f"{racer} {card}"]
    deck = deal_order("classic", hands, top="R5", draw=DRAWS, dealer=1)
    return resumed(tmp_path, "classic", 2, deck, dealer=1, actions=steps)


@pytest.mark.asyncio
async def test_catching_a_bot_that_forgot_uno_with_c(tmp_path: Path) -> None:
    session = classic_race(tmp_path, racer=1)
    # A bot that always forgets UNO (and so never calls it out of turn either).
    session.seat_bot(1, HeuristicBot(random.Random(0), forget_uno=1.0))
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "Bot 1   2 cards" in shown(app, "players")
        await pilot.press("d")
        assert app.session.state.pending.kind == "drawn"
        await pilot.press("p")
        await settle(app, pilot)
        assert app.catchable()
        assert app.session.state.unsafe == 1
        assert session.actions[-1][0] == 1 and not session.actions[-1][1].endswith("uno")
        assert "Bot 1 has one card and did not call UNO: press c to catch!" in shown(app, "prompt")
        players = shown(app, "players")
        assert "Bot 1   1 card " in players
        assert "no UNO!" in players

        await pilot.press("c")
        assert session.actions[-1] == (HUMAN, "catch 1")
        await settle(app, pilot)
        assert "You caught Bot 1 without UNO: Bot 1 draws 2" in shown(app, "log")
        assert shown(app, "log").splitlines()[-1] == "Bot 1 drew 2"
        assert app.session.state.unsafe is None
        assert not app.catchable()
        players = shown(app, "players")
        assert "Bot 1   3 cards" in players
        assert "no UNO!" not in players
        assert "press c to catch" not in shown(app, "prompt")
        assert app.session.state.to_act == HUMAN


@pytest.mark.asyncio
async def test_calling_uno_with_u_after_a_quiet_play(tmp_path: Path) -> None:
    session = classic_race(tmp_path, racer=HUMAN)
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert hand_notations(app) == ["R7", "R8"]
        await pick(app, pilot, "R7")
        await pilot.press("enter")
        assert prompt_kind(app) == "uno"
        assert question(app) == "This play leaves you one card."
        assert answer_labels(app) == ["Play and call UNO!", "Play without calling UNO"]
        await pilot.press(answer_key(app, "quiet"))

        played = len(session.actions)
        assert session.actions[-1] == (HUMAN, "R7")
        assert app.session.state.unsafe == HUMAN
        assert "You have one card: press u to call UNO before someone catches you!" in shown(app, "prompt")
        assert "no UNO!" in shown(app, "players")
        # The bot waits for the UNO window (30 s) before it may catch: the person is faster.
        await pilot.press("u")
        await settle(app, pilot)
        assert session.actions[played] == (HUMAN, "uno")
        assert app.session.state.unsafe is None
        assert "You called UNO!" in shown(app, "log")
        assert app.session.state.to_act == HUMAN
        assert hand_notations(app) == ["R8"]
        log = shown(app, "log")
        assert "caught" not in log
        assert not any("catch" in action for _, action in session.actions)
        assert "no UNO!" not in shown(app, "players")
        assert "press u" not in shown(app, "prompt")


# -- 5. a refused action typed in notation ------------------------------------------


@pytest.mark.asyncio
async def test_typed_refusal_names_the_rule_and_changes_nothing(tmp_path: Path) -> None:
    session = classic_race(tmp_path, racer=1)
    app = app_of(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        state = app.session.state
        actions = list(session.actions)
        before = (shown(app, "hand"), shown(app, "status"), shown(app, "players"))
        assert shown(app, "status").startswith("Classic UNO · round 1 · seed 0  Top:  R6 ")

        await pilot.press("slash", *"gs", "enter")
        assert shown(app, "message") == "Refused (C-7): the GS does not match R6 (current colour red)"
        assert app.session.state is state
        assert session.actions == actions
        assert (shown(app, "hand"), shown(app, "status"), shown(app, "players")) == before

        await pilot.press("colon", *"r7", "enter")
        assert shown(app, "message") == "Refused (G-4): you hold no R7", "seat numbers become screen names"
        await pilot.press("slash", *"catch 1", "enter")
        assert shown(app, "message") == "Refused (C-19): Bot 1 holds 2 cards, not one: there is nothing to catch"
        assert app.session.state is state
        assert session.actions == actions
        # Still the person's turn, and a legal typed action is taken.
        assert "Your turn" in shown(app, "prompt")
        await pilot.press("slash", *"draw", "enter")
        assert shown(app, "message") == ""
        assert session.actions[len(actions)] == (HUMAN, "draw")


@pytest.mark.asyncio
async def test_typed_flex_wild_without_target_is_refused(tmp_path: Path) -> None:
    deck = deal_order("flex", [["FW+2"], [], []], top="R3", dealer=2)
    app = app_of(resumed(tmp_path, "flex", 3, deck, dealer=2))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        state = app.session.state
        await pilot.press("slash", *"fw+2@flex:b", "enter")
        assert shown(app, "message") == "Refused (F-22): FW+2@flex chooses another seat: add >N"
        await pilot.press("slash", *"fw+2@flex:b>0", "enter")
        assert shown(app, "message").startswith("Refused (F-22): the target must be another seat")
        assert app.session.state is state
        await pilot.press("slash", *"fw+2@flex:b>1", "enter")
        await settle(app, pilot)
        assert app.session.actions[0] == (HUMAN, "FW+2@flex:b>1")
        log = shown(app, "log").splitlines()
        assert (
            log[log.index("You played Flex Wild Draw Two on its flex side, naming blue, and Bot 1 draws the cards") + 1]
            == "Bot 1 drew 2"
        )
