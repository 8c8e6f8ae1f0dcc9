"""UNO Flex! components and deck: F-1 … F-5 and F-29 (docs/RULES.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from unoengine import (
    COLORS,
    Card,
    Color,
    InvalidNotationError,
    Rank,
    find_rules,
    format_action,
    format_card,
    new_game,
    parse_action,
    parse_card,
)

CYCLE = {Color.RED: Color.BLUE, Color.BLUE: Color.GREEN, Color.GREEN: Color.YELLOW, Color.YELLOW: Color.RED}


def flex_deck() -> tuple[Card, ...]:
    rules = find_rules("flex")
    return rules.make_deck(rules.options())


# -- F-1, F-29: the deck table -------------------------------------------------------


def test_f1_deck_is_one_table_of_104_playing_cards() -> None:
    deck = flex_deck()
    assert len(deck) == 104
    state = new_game("flex", 2, seed=1)
    assert len(state.tables.cards) == 104
    assert Counter(state.tables.cards) == Counter(deck)


def test_f29_numbers_1_to_9_twice_per_colour_and_no_zero() -> None:
    deck = flex_deck()
    numbers = [card for card in deck if card.rank is Rank.NUMBER]
    assert len(numbers) == 72
    assert all(card.number is not None and 1 <= card.number <= 9 for card in numbers)
    for color in COLORS:
        for number in range(1, 10):
            same = [card for card in numbers if card.color is color and card.number == number]
            assert len(same) == 2, (color, number)
            plain = [card for card in same if card.flex_color is None]
            flex = [card for card in same if card.flex_color is not None]
            assert len(plain) == 1 and len(flex) == 1
            # the plain set carries the flip symbol on 1, 5 and 9
            assert plain[0].flip is (number in (1, 5, 9))
            # the Flex set: flex side = same number, next colour in red→blue→green→yellow→red
            assert flex[0].flex_color is CYCLE[color]
            assert not flex[0].flip


def test_f29_flip_symbol_on_twelve_plain_cards() -> None:
    flips = [card for card in flex_deck() if card.flip]
    assert len(flips) == 12
    assert sorted(format_card(card) for card in flips) == sorted(f"{c}{n}!" for c in "RYGB" for n in (1, 5, 9))


def test_f29_flex_side_colour_cycle() -> None:
    assert parse_card("R3|B") in flex_deck()
    assert parse_card("B3|G") in flex_deck()
    assert parse_card("G2|Y") in flex_deck()  # the rulebook's example card (F-15)
    assert parse_card("Y3|R") in flex_deck()
    for card in flex_deck():
        if card.flex_color is not None:
            assert card.color is not None
            assert card.flex_color is CYCLE[card.color]


def test_f29_twenty_four_coloured_action_cards() -> None:
    deck = flex_deck()
    actions = [card for card in deck if card.is_action and not card.is_wild]
    assert len(actions) == 24
    for color in COLORS:
        for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
            same = Counter(card for card in actions if card.color is color and card.rank is rank)
            assert same == Counter({Card(color, rank): 1, Card(color, rank, None, CYCLE[color]): 1})


def test_f29_eight_wilds_and_no_plain_wild() -> None:
    deck = flex_deck()
    wilds = Counter(format_card(card) for card in deck if card.is_wild)
    assert wilds == Counter({"WAF": 2, "FW+2": 2, "FWA": 2, "FW+4": 2})
    assert all(card.rank not in (Rank.WILD, Rank.WILD_DRAW_FOUR) for card in deck)


def test_f29_eight_power_cards_two_to_eight_players() -> None:
    for seats in range(2, 9):
        state = new_game("flex", seats, seed=seats)
        assert state.power == (True,) * seats
    for seats in (1, 9):
        with pytest.raises(InvalidNotationError):
            new_game("flex", seats, seed=0)


def test_f29_a_deck_with_a_plain_wild_is_not_the_flex_deck() -> None:
    deck = [format_card(card) for card in flex_deck()]
    deck[deck.index("FW+4")] = "W"
    with pytest.raises(InvalidNotationError):
        new_game("flex", 2, seed=0, deck=deck)
    zero = [format_card(card) for card in flex_deck()]
    zero[zero.index("R2")] = "R0"
    with pytest.raises(InvalidNotationError):
        new_game("flex", 2, seed=0, deck=zero)


# -- F-2 -------------------------------------------------------------------------------


def test_f2_power_cards_start_green() -> None:
    state = new_game("flex", 5, seed=11)
    assert state.power == (True, True, True, True, True)
    # other rule sets have no Power Cards
    assert new_game("classic", 2, seed=1).power == ()


# -- F-3, F-4: notation of Flex cards --------------------------------------------------


def test_f3_two_sided_card_notation() -> None:
    card = parse_card("g2|y")
    assert card == Card(Color.GREEN, Rank.NUMBER, 2, Color.YELLOW)
    assert card.is_flex
    assert format_card(card) == "G2|Y"
    for text in ("RS|B", "BR|G", "Y+2|R"):
        parsed = parse_card(text)
        assert parsed.is_flex and parsed.rank is not Rank.NUMBER
        assert format_card(parsed) == text


def test_f3_flex_wilds_have_a_flex_side_wild_all_flip_has_not() -> None:
    assert parse_card("FW+2").is_flex
    assert parse_card("FWA").is_flex
    assert parse_card("FW+4").is_flex
    assert not parse_card("WAF").is_flex
    assert not parse_card("R5!").is_flex
    assert not parse_card("R3").is_flex


def test_f3_flex_side_must_have_another_colour() -> None:
    with pytest.raises(InvalidNotationError):
        parse_card("R2|R")


def test_f3_flex_play_notation_round_trips() -> None:
    for text in ("G2|Y@flex", "RS|B@flex", "FW+2@flex:r>2", "FW+4@flex:y>3", "FWA@flex:g", "G2|Y@flex uno"):
        action = parse_action(text)
        assert format_action(action) == text
    play = parse_action("FW+2@flex:r>2")
    assert play.flex and play.target == 2 and play.color is Color.RED  # type: ignore[union-attr]


def test_f4_flip_symbol_notation() -> None:
    card = parse_card("r5!")
    assert card.flip and card.color is Color.RED and card.number == 5
    assert format_card(card) == "R5!"
    assert parse_card("R5") != card
    # a flip-symbol card has no flex side
    with pytest.raises(InvalidNotationError):
        parse_card("G5!|Y")


# -- F-5: colour-blind markers and words -----------------------------------------------


def test_f5_colour_blind_markers() -> None:
    assert Color.YELLOW.markers == 1
    assert Color.GREEN.markers == 2
    assert Color.BLUE.markers == 3
    assert Color.RED.markers == 4


def test_f5_cards_in_words() -> None:
    assert parse_card("G2|Y").words == "green 2, flex side yellow"
    assert parse_card("R5!").words == "red 5 with flip symbol"
    assert parse_card("RS|B").words == "red Skip, flex side blue"
    assert parse_card("B+2").words == "blue Draw Two"
    assert parse_card("YR").words == "yellow Reverse"
    assert parse_card("WAF").words == "Wild All Flip"
    assert parse_card("FW+2").words == "Flex Wild Draw Two"
    assert parse_card("FWA").words == "Flex Wild All Draw"
    assert parse_card("FW+4").words == "Flex Wild Draw Four"
    # every rule set (F-5): Classic cards too
    assert parse_card("W+4").words == "Wild Draw Four"
    assert parse_card("R0").words == "red 0"
    for card in flex_deck():
        assert card.words
