"""Card and action notation (docs/NOTATION.md): round trips, lenient input, clear refusals."""

from __future__ import annotations

import itertools

import pytest

from unoengine import (
    COLORS,
    Accept,
    CallUno,
    Card,
    Catch,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    InvalidNotationError,
    Keep,
    Pass,
    Play,
    Rank,
    Reject,
    apply,
    format_action,
    format_card,
    legal_actions,
    new_game,
    parse_action,
    parse_card,
)
from unoengine.core import actions as A
from unoengine.core.rules import RULESETS

# -- cards ---------------------------------------------------------------------------

CARD_EXAMPLES = {
    "R7": Card(Color.RED, Rank.NUMBER, 7),
    "G0": Card(Color.GREEN, Rank.NUMBER, 0),
    "B9": Card(Color.BLUE, Rank.NUMBER, 9),
    "YS": Card(Color.YELLOW, Rank.SKIP),
    "BR": Card(Color.BLUE, Rank.REVERSE),
    "G+2": Card(Color.GREEN, Rank.DRAW_TWO),
    "W": Card(None, Rank.WILD),
    "W+4": Card(None, Rank.WILD_DRAW_FOUR),
    "R5!": Card(Color.RED, Rank.NUMBER, 5, flip=True),
    "G2|Y": Card(Color.GREEN, Rank.NUMBER, 2, flex_color=Color.YELLOW),
    "RS|B": Card(Color.RED, Rank.SKIP, flex_color=Color.BLUE),
    "RR|B": Card(Color.RED, Rank.REVERSE, flex_color=Color.BLUE),
    "R+2|B": Card(Color.RED, Rank.DRAW_TWO, flex_color=Color.BLUE),
    "WAF": Card(None, Rank.WILD_ALL_FLIP),
    "FW+2": Card(None, Rank.FLEX_WILD_DRAW_TWO),
    "FWA": Card(None, Rank.FLEX_WILD_ALL_DRAW),
    "FW+4": Card(None, Rank.FLEX_WILD_DRAW_FOUR),
}


@pytest.mark.parametrize(("text", "card"), CARD_EXAMPLES.items())
def test_notation_examples_parse_to_their_cards(text: str, card: Card) -> None:
    assert parse_card(text) == card
    assert format_card(card) == text
    assert str(card) == text


def every_card() -> list[Card]:
    """Every kind of card of every rule set's decks, plus every syntactically possible card."""
    out: set[Card] = set()
    for rules in RULESETS.values():
        for options in ({}, {"duo_deck": "standard108"}):
            if set(options) <= rules.option_names:
                out.update(rules.make_deck(rules.options(options)))
    for color in COLORS:
        flexes: list[Color | None] = [None, *(c for c in COLORS if c is not color)]
        for flex in flexes:
            for number in range(10):
                out.add(Card(color, Rank.NUMBER, number, flex))
            for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
                out.add(Card(color, rank, None, flex))
        for number in range(10):
            out.add(Card(color, Rank.NUMBER, number, flip=True))
    for rank in Rank:
        if rank.is_wild:
            out.add(Card(None, rank))
    return sorted(out, key=format_card)


@pytest.mark.parametrize("card", every_card(), ids=format_card)
def test_card_round_trip(card: Card) -> None:
    text = format_card(card)
    assert parse_card(text) == card
    assert text == text.upper()


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("r7", "R7"),
        (" r 7 ", "R7"),
        ("g2|y", "G2|Y"),
        ("G 2 | y", "G2|Y"),
        ("w+4", "W+4"),
        ("W + 4", "W+4"),
        ("fw+2", "FW+2"),
        ("waf", "WAF"),
        ("r5!", "R5!"),
        ("\tb\ns", "BS"),
        ("y+2", "Y+2"),
    ],
)
def test_card_input_is_case_insensitive_and_ignores_spaces(text: str, canonical: str) -> None:
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", " ", "R", "7", "R10", "X7", "7R", "RX", "R+6", "W+2", "W4", "R7!|B", "G2|G", "R5|", "RS!", "WW", "R 7 7"],
)
def test_bad_card_notation_is_refused_clearly(text: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_card(text)
    message = str(error.value)
    assert "not a card" in message
    assert repr(text) in message


def test_bad_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card("Q9")


# -- actions -------------------------------------------------------------------------

ACTION_EXAMPLES = {
    "R7": Play(Card(Color.RED, Rank.NUMBER, 7)),
    "W:g": Play(Card(None, Rank.WILD), Color.GREEN),
    "W+4:b": Play(Card(None, Rank.WILD_DRAW_FOUR), Color.BLUE),
    "G2|Y@flex": Play(Card(Color.GREEN, Rank.NUMBER, 2, Color.YELLOW), flex=True),
    "RS|B@flex": Play(Card(Color.RED, Rank.SKIP, None, Color.BLUE), flex=True),
    "FWA@flex:r": Play(Card(None, Rank.FLEX_WILD_ALL_DRAW), Color.RED, flex=True),
    "FW+2@flex:r>2": Play(Card(None, Rank.FLEX_WILD_DRAW_TWO), Color.RED, flex=True, target=2),
    "FW+4@flex:y>3": Play(Card(None, Rank.FLEX_WILD_DRAW_FOUR), Color.YELLOW, flex=True, target=3),
    "R7 uno": Play(Card(Color.RED, Rank.NUMBER, 7), uno=True),
    "W:g uno": Play(Card(None, Rank.WILD), Color.GREEN, uno=True),
    "W+4:b uno": Play(Card(None, Rank.WILD_DRAW_FOUR), Color.BLUE, uno=True),
    "FW+2@flex:r>2 uno": Play(Card(None, Rank.FLEX_WILD_DRAW_TWO), Color.RED, flex=True, target=2, uno=True),
    "draw": Draw(),
    "pass": Pass(),
    "uno": CallUno(),
    "catch 1": Catch(1),
    "accept": Accept(),
    "challenge": Challenge(),
    "keep": Keep(),
    "reject": Reject(),
    "color g": ChooseColor(Color.GREEN),
}


@pytest.mark.parametrize(("text", "action"), ACTION_EXAMPLES.items())
def test_notation_examples_parse_to_their_actions(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


def every_action() -> list[object]:
    """Plays of every card kind with every modifier, and every other action."""
    out: list[object] = []
    cards = every_card()
    for card, flex, target, uno in itertools.product(cards, (False, True), (None, 0, 3, 9), (False, True)):
        colors: tuple[Color | None, ...] = COLORS if card.is_wild else (None,)
        out += [Play(card, color, flex, target, uno) for color in colors]
    out += [Draw(), Pass(), CallUno(), Accept(), Challenge(), Keep(), Reject()]
    out += [Catch(seat) for seat in range(12)]
    out += [ChooseColor(color) for color in COLORS]
    return out


def test_every_action_round_trips() -> None:
    failures = []
    for action in every_action():
        text = format_action(action)  # type: ignore[arg-type]
        for variant in (text, text.lower(), text.upper(), " ".join(text)):
            try:
                parsed = parse_action(variant)
            except InvalidNotationError as error:
                failures.append(f"{variant!r}: {error}")
                continue
            if parsed != action:
                failures.append(f"{variant!r} parsed as {parsed!r}")
    assert not failures, f"{len(failures)} round-trip failures, e.g. {failures[:5]}"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("w+4:B uno", "W+4:b uno"),
        ("W:G", "W:g"),
        ("w : green", "W:g"),
        ("R7UNO", "R7 uno"),
        ("  r 7   u n o ", "R7 uno"),
        ("g2|y @FLEX", "G2|Y@flex"),
        ("FW+2 @FLEX :R > 2", "FW+2@flex:r>2"),
        ("DRAW", "draw"),
        (" Pass ", "pass"),
        ("UNO", "uno"),
        ("catch1", "catch 1"),
        ("CATCH   3", "catch 3"),
        ("Color G", "color g"),
        ("colour b", "color b"),
        ("color blue", "color b"),
        ("Keep", "keep"),
        ("REJECT", "reject"),
        ("Accept", "accept"),
        ("CHALLENGE", "challenge"),
    ],
)
def test_action_input_is_case_insensitive_and_ignores_spaces(text: str, canonical: str) -> None:
    assert format_action(parse_action(text)) == canonical


def test_actions_are_interned() -> None:
    for text in ("R7", "W:g", "catch 2", "color y", "draw", "FW+4@flex:y>3 uno"):
        action = parse_action(text)
        assert parse_action(format_action(action)) is action


def test_a_play_is_one_object_however_its_fields_are_passed() -> None:
    card = parse_action("R7").card  # type: ignore[union-attr]
    assert A.play(card) is A.play(card, None, False, None, False) is A.play(card, flex=False, uno=False)
    assert A.play(card, uno=True) is A.play(card, None, False, None, True)
    # A target no seat can have is not kept (input cannot grow the table), but it still reads as its value.
    assert A.play(card, None, True, 10**9) == A.play(card, None, True, 10**9)
    assert A.play(card, None, True, 10**9) is not A.play(card, None, True, 10**9)


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_the_engines_actions_are_the_parsers_objects(rules: str) -> None:
    """Every legal action of a game is the object its notation parses to (the action-id tables, built from
    parsed-style calls, find the engine's actions by identity)."""
    seats = 4 if 4 in RULESETS[rules].seats else 2
    state = new_game(rules, seats, seed=11)
    for _ in range(300):
        if state.outcome is not None:
            break
        seat = state.pending.seat
        assert seat is not None
        legal = legal_actions(state, seat)
        for action in legal:
            assert parse_action(format_action(action)) is action
        state = apply(state, seat, legal[(state.steps * 7) % len(legal)]).state


@pytest.mark.parametrize(
    "text",
    [
        "",
        "drawpass",
        "catch",
        "catch x",
        "catch -1",
        "color",
        "color purple",
        "colour x",
        "W:x",
        "W:",
        "R7:",
        "R10",
        "X7",
        "@flex",
        "R7@flux",
        "R7>",
        "play R7",
        "unouno",
        "R7 un",
    ],
)
def test_bad_action_notation_is_refused_clearly(text: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_action(text)
    message = str(error.value)
    assert "not an action" in message or "not a colour" in message
    assert repr(text) in message or repr(text.rsplit(maxsplit=1)[-1]) in message


def test_bad_colour_names_the_colours() -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_action("W:x")
    assert "r, y, g or b" in str(error.value)


def test_action_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidNotationError, match="not an action"):
        parse_action(7)  # type: ignore[arg-type]
