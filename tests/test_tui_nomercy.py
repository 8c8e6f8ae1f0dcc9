"""``uno play -r nomercy``: UNO Show 'Em No Mercy in the terminal (docs/RULES.md N-1 … N-28).

Whole games against bots (2 and 4 seats) played through the keys; the draw stack
(N-15) and the Wild Color Roulette (N-17) decided by keys; a seat knocked out by the
Mercy Rule (N-21) shown as out, never as a Power Card; the seven new card faces.
The positions are reached by bots from a seed (``reach``), so they are real games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from tests.tui_helpers import answer_key, app_of, shown
from tests.tui_helpers import settle as settle_within
from unoengine.bots.heuristic import HeuristicBot
from unoengine.bots.rng import seat_random
from unoengine.cli.session import HUMAN, Session, make_bots
from unoengine.cli.texts import card_text, hand_text, in_round, players_text
from unoengine.cli.tui import ChoiceScreen, NoticeScreen, UnoApp
from unoengine.core.actions import CALL_UNO, DRAW, Catch, Play, format_action, parse_action
from unoengine.core.cards import Color, Rank, format_card, parse_card
from unoengine.core.engine import apply, legal_actions, new_game
from unoengine.core.notation import format_state, parse_state
from unoengine.core.rules import find_rules
from unoengine.core.rules.nomercy import draw_value
from unoengine.core.state import GameState
from unoengine.core.views import view_for
from unoengine.play.narrator import Names

SMALL = (80, 24)
"""The smallest terminal the game is made for."""

NEW_FACES = ("R+4", "RSE", "RDA", "WR+4", "W+6", "W+10", "WCR")
"""No Mercy's seven new kinds of card (N-1), in notation."""


def reach(seats: int, seed: int, until: Callable[[GameState], bool]) -> Session:
    """A session at the first position of a bots-only game (heuristic bots, the person's seat too) where ``until``."""
    start = state = new_game(find_rules("nomercy"), seats, seed=seed)
    bots = make_bots(["heuristic"], seats, seed)
    person = HeuristicBot(seat_random(seed, HUMAN))
    actions: list[tuple[int, str]] = []
    while not until(state):
        assert not state.is_over, "the game ended before the position"
        seat = state.to_act
        assert seat is not None
        action = bots.get(seat, person).choose(view_for(state, seat), tuple(legal_actions(state, seat)))
        actions.append((seat, format_action(action)))
        state = apply(state, seat, action).state
    return Session(start, state, bots, actions)


async def settle(app: UnoApp, pilot: Pilot[None]) -> None:
    """Let the bots play until the person has something to do."""
    await settle_within(app, pilot, 3000)


def question(app: UnoApp) -> str:
    content = app.screen.query_one("#question", Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def press_card(app: UnoApp, pilot: Pilot[None], card_text_: str) -> None:
    """Pick a card of the hand by its number key (or the arrows past the 10th) and play it with Enter."""
    card = parse_card(card_text_)
    index = app.hand_cards().index(card)
    if index < 10:
        await pilot.press(str((index + 1) % 10))
    else:
        await pilot.press(*(["right"] * ((index - app.selected) % len(app.hand_cards()))))
    assert app.hand_cards()[app.selected] == card
    await pilot.press("enter")


class Person:
    """The scripted person of a whole game: what it met on its turns and what the screens showed."""

    def __init__(self) -> None:
        self.decisions: Counter[str] = Counter()
        self.prompts: Counter[str] = Counter()
        self.out_shown = False
        self.over_text = ""

    async def step(self, app: UnoApp, pilot: Pilot[None]) -> bool:
        """One decision, by keys only. False once the game is over."""
        screen = app.screen
        players = shown(app, "players")
        assert "Power" not in players, "No Mercy has no Power Cards"
        self.out_shown |= "✘ out" in players
        if isinstance(screen, ChoiceScreen):
            self.prompts[screen.kind] += 1
            values = [value for _, value in screen.answers]
            wanted = "uno" if "uno" in values else values[-1]
            await pilot.press(answer_key(app, wanted))
            return True
        if isinstance(screen, NoticeScreen):
            if screen.kind == "over":
                content = screen.query_one("#notice", Static).content
                self.over_text = content.plain if isinstance(content, Text) else str(content)
                await pilot.press("enter")
                return False
            await pilot.press("enter")
            return True
        state = app.session.state
        if state.is_over:
            return False
        if app.catchable():
            await pilot.press("c")
            return True
        if state.unsafe == HUMAN:
            await pilot.press("u")
            return True
        legal = [a for a in legal_actions(state, HUMAN) if a is not CALL_UNO and not isinstance(a, Catch)]
        if not legal:
            return True
        self.decisions[state.pending.kind] += 1
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            await press_card(app, pilot, str(plays[0].card))
        elif DRAW in legal:
            await pilot.press("d")
        else:
            await pilot.press("p")
        return True


async def play_to_the_end(app: UnoApp, pilot: Pilot[None], person: Person) -> None:
    for _ in range(3000):
        await settle(app, pilot)
        if not await person.step(app, pilot):
            return
    raise AssertionError("the game did not end")


@pytest.mark.asyncio
@pytest.mark.parametrize(("seats", "seed"), [(2, 0), (4, 2)])
async def test_a_whole_game_against_bots(seats: int, seed: int) -> None:
    app = app_of(Session.new("no_mercy", seats, seed=seed))
    person = Person()
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        assert "UNO Show 'Em No Mercy · round 1" in shown(app, "status")
        await play_to_the_end(app, pilot, person)
        assert app.session.state.is_over
        assert "Game over" in shown(app, "status")
        assert "Game over" in person.over_text
    assert person.decisions["turn"] >= 1
    assert sum(person.decisions.values()) >= 3
    if seats > 2:
        assert person.out_shown, "a seat knocked out by the Mercy Rule was shown as out"


@pytest.mark.asyncio
async def test_the_draw_stack_taken_with_d() -> None:
    session = reach(2, 0, lambda s: s.pending.kind == "stack" and s.pending.seat == HUMAN)
    total = session.view_now().detail("stack")
    assert total >= 2
    before = len(session.state.hands[HUMAN])
    app = app_of(session)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        assert "(draw stack)" in shown(app, "status")
        prompt = shown(app, "prompt")
        assert f"take {total}" in prompt, "the prompt shows the total to draw"
        assert f"d: take {total}" in prompt
        steps = len(session.actions)
        await pilot.press("d")
        assert session.actions[steps] == (HUMAN, "draw")
        assert len(session.state.hands[HUMAN]) == before + total
        drew = next(line for line in app.lines if line.startswith("You drew "))
        assert drew.count(",") == total - 1, "the whole total, card by card"


@pytest.mark.asyncio
async def test_the_draw_stack_added_to_with_a_card_and_its_colour() -> None:
    def stackable(state: GameState) -> bool:
        if state.pending.kind != "stack" or state.pending.seat != HUMAN:
            return False
        return any(adds(a) for a in legal_actions(state, HUMAN))

    def adds(action: object) -> bool:
        """A wild draw card that passes the stack on (with two players a Wild Reverse Draw Four does not: N-24)."""
        return isinstance(action, Play) and action.card.is_wild and action.card.rank is not Rank.WILD_REVERSE_DRAW_FOUR

    session = None
    for seed in range(40):
        try:
            session = reach(2, seed, stackable)
            break
        except AssertionError:
            continue
    assert session is not None, "no seed gave the person a wild draw card to stack"
    total = session.view_now().detail("stack")
    wild = next(a for a in legal_actions(session.state, HUMAN) if isinstance(a, Play) and adds(a))
    app = app_of(session)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        assert "★" in shown(app, "hand"), "the cards that stack are highlighted"
        steps, before = len(session.actions), session.state
        await press_card(app, pilot, str(wild.card))
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.kind == "wild"
        await pilot.press(answer_key(app, "g"))
        seat, played = session.actions[steps]
        assert seat == HUMAN
        assert played.startswith(f"{wild.card}:g")
        assert f"You played {wild.card.words}, naming green" in app.lines
        after = view_for(apply(before, HUMAN, parse_action(played)).state, HUMAN)
        assert after.top == wild.card
        assert after.color is Color.GREEN
        assert after.pending == "stack"
        assert after.detail("stack") == total + draw_value(wild.card)


@pytest.mark.asyncio
async def test_the_color_roulette_named_by_keys() -> None:
    session = reach(2, 33, lambda s: s.pending.kind == "roulette" and s.pending.seat == HUMAN)
    app = app_of(session)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.kind == "roulette"
        assert question(app).startswith("Name a colour: you turn cards until one of that colour shows")
        labels = [label.plain if isinstance(label, Text) else label for label, _ in app.screen.answers]
        assert labels == [" red ▲▲▲▲ ", " yellow ▲ ", " green ▲▲ ", " blue ▲▲▲ "]
        assert "Top:  WCR " in shown(app, "status")
        # Escape cannot dodge the decision: the prompt comes back.
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.kind == "roulette"
        steps = len(session.actions)
        await pilot.press(answer_key(app, "color g"))
        assert session.actions[steps] == (HUMAN, "color g")
        assert session.state.color is Color.GREEN
        assert "You named the colour green" in app.lines


@pytest.mark.asyncio
async def test_a_knocked_out_bot_is_shown_as_out() -> None:
    session = reach(4, 3, lambda s: not all(s.power))
    out = [seat for seat in range(4) if not session.state.power[seat]]
    assert HUMAN not in out
    app = app_of(session)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        players = shown(app, "players")
        assert "Power" not in players
        for line in players.splitlines():
            if line.strip().startswith(f"Bot {out[0]} "):
                assert "✘ out" in line
                assert "cards" not in line
        assert players.count("✘ out") == len(out)
        assert "cards" in players


@pytest.mark.asyncio
async def test_the_person_knocked_out_watches_the_round() -> None:
    session = reach(4, 1, lambda s: not s.power[HUMAN])
    app = app_of(session)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        players = shown(app, "players")
        assert players.splitlines()[0].lstrip("▶ ").startswith("You")
        assert "✘ out" in players.splitlines()[0]
        assert "You are out of this round" in shown(app, "hand")
        person = Person()
        await play_to_the_end(app, pilot, person)
        assert not person.decisions, "a seat out of the round has nothing to decide"
        assert app.session.state.is_over
        assert "press c to catch" not in shown(app, "prompt")


def test_the_seat_flags_decide_what_the_players_panel_shows() -> None:
    names = Names.bots(3, HUMAN)
    flex = view_for(new_game("flex", 3, seed=1), HUMAN)
    assert "Power  ✔ green" in players_text(flex, names, 58).plain
    mercy = view_for(new_game("nomercy", 3, seed=1), HUMAN)
    assert mercy.power == (True, True, True)
    assert all(in_round(mercy, seat) for seat in range(3))
    text = players_text(mercy, names, 58).plain
    assert "Power" not in text
    assert "out" not in text
    knocked = mercy._replace(power=(True, False, True), hand_sizes=(7, 0, 7))
    assert not in_round(knocked, 1)
    lines = players_text(knocked, names, 58).plain.splitlines()
    assert "✘ out" in lines[1]
    assert "✘ out" not in lines[0] + lines[2]
    # Flex's red Power Card is not a knock-out
    red = flex._replace(power=(True, False, True))
    assert all(in_round(red, seat) for seat in range(3))


def with_hand(state: GameState, seat: int, cards: tuple[str, ...]) -> GameState:
    """The state with ``cards`` (taken from the draw pile) in ``seat``'s hand, its own cards put in the pile."""
    fields = dict(field.split("=", 1) for field in format_state(state).split(" ")[1:])
    hands = [hand.split(",") for hand in fields["hands"].split("/")]
    draw = fields["draw"].split(",")
    chosen = []
    for card in cards:
        token = next(token for token in draw if token.split("#")[0] == card)
        draw.remove(token)
        chosen.append(token)
    draw += hands[seat]
    hands[seat] = chosen
    fields["hands"] = "/".join(",".join(hand) for hand in hands)
    fields["draw"] = ",".join(draw)
    fields["pending"] = f"turn:{seat}"
    head = format_state(state).split(" ")[0]
    return parse_state(" ".join([head, *(f"{key}={value}" for key, value in fields.items())]))


def test_each_no_mercy_card_face_shows_its_notation_and_colour_markers() -> None:
    for notation in NEW_FACES:
        card = parse_card(notation)
        face = card_text(card)
        assert notation in face.plain
        assert face.plain.startswith(f" {notation} ")
        if card.color is None:
            assert face.plain == f" {notation} "
        else:
            assert face.plain == f" {notation} {'▲' * card.color.markers} "
            assert card_text(card, show_markers=False).plain == f" {notation} "


@pytest.mark.asyncio
async def test_the_no_mercy_card_faces_fit_a_hand_at_80_by_24() -> None:
    state = with_hand(new_game("nomercy", 2, seed=4), HUMAN, NEW_FACES)
    session = Session(state, state, make_bots(["heuristic"], 2, 4))
    view = session.view_now()
    assert sorted(map(str, view.hand)) == sorted(NEW_FACES)
    hand = hand_text(view, view.actions, 0, 76).plain
    for notation in NEW_FACES:
        assert f" {notation} " in hand
    assert all(len(line) <= 76 for line in hand.split("Picked:")[0].splitlines()), "the faces fit 80 columns"
    app = app_of(session)
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        shown_hand = shown(app, "hand")
        assert "Your hand (7):" in shown_hand
        for notation in NEW_FACES:
            assert f" {notation} " in shown_hand
        # Each face says what it does once picked.
        for index, card in enumerate(app.hand_cards()):
            await pilot.press(str(index + 1))
            picked = shown(app, "hand").split("Picked: ", 1)[1]
            assert picked.startswith(format_card(card))
            assert "—" in picked
        await pilot.press(str(1 + app.hand_cards().index(parse_card("W+10"))))
        assert "Picked: W+10 (playable) — Wild Draw Ten" in shown(app, "hand")
