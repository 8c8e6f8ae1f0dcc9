"""Cards: colours, ranks, the :class:`Card` value and its notation.

A :class:`Card` is a *kind* of card (``R7``, ``W+4``, ``G2|Y``); a physical card in
a game is a ``CardId``, an index into the game's deck (``state.deck[card_id]``).
Two physical cards of the same kind are interchangeable in play, so actions name
kinds and the engine picks the physical card.

Notation (docs/NOTATION.md): ``R7``, ``YS``, ``BR``, ``G+2``, ``W``, ``W+4``,
``R5!`` (Flex flip symbol, F-4), ``G2|Y`` (Flex two-sided card, F-3), ``WAF``,
``FW+2``, ``FWA``, ``FW+4``; No Mercy's (N-1) ``R+4``, ``RSE``, ``RDA``, ``WR+4``, ``W+6``,
``W+10``, ``WCR``. Input is case-insensitive and ignores spaces.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import cache

from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.values import Card
from unoengine.i18n import said

CardId = int
Seat = int


class Color(Enum):
    """The four colours (C-1). The value is the notation letter."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    # Members are singletons compared by identity: hash them by identity, in C
    # (Enum's own __hash__ is Python code and showed up in profiles).
    __hash__ = object.__hash__

    @property
    def letter(self) -> str:
        """The chosen-colour letter, lower case (``r``)."""
        return self.value.lower()

    @property
    def word(self) -> str:
        """The colour in words, for screen readers (F-5): a :class:`~unoengine.i18n.Said` (``red``)."""
        return _COLOR_WORDS[self]

    @property
    def title(self) -> str:
        """The colour as a button's label (``Red``)."""
        return _COLOR_TITLES[self]

    @property
    def markers(self) -> int:
        """Colour-blind marker count (F-5): 1 yellow, 2 green, 3 blue, 4 red."""
        return _MARKERS[self]

    @classmethod
    def parse(cls, text: str) -> Color:
        """Parse a colour letter or word, any case.

        Raises:
            InvalidNotationError: not a colour.
        """
        if isinstance(text, str) and text.isascii():
            key = text.strip().lower()
            for color in cls:
                if key in (color.letter, color.word):
                    return color
        raise InvalidNotationError(f"not a colour: {excerpt(text)} (expected r, y, g or b)")


COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
_COLOR_WORDS: dict[Color, str] = {
    Color.RED: said("red"),
    Color.YELLOW: said("yellow"),
    Color.GREEN: said("green"),
    Color.BLUE: said("blue"),
}
_COLOR_TITLES: dict[Color, str] = {
    # TRANSLATORS: a colour on a button (capitalised where the script has capitals)
    Color.RED: said("Red"),
    Color.YELLOW: said("Yellow"),
    Color.GREEN: said("Green"),
    Color.BLUE: said("Blue"),
}
_MARKERS = {Color.YELLOW: 1, Color.GREEN: 2, Color.BLUE: 3, Color.RED: 4}


class Rank(Enum):
    """What a card is, apart from its colour and number."""

    NUMBER = ""
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "+2"
    WILD = "W"
    WILD_DRAW_FOUR = "W+4"
    WILD_ALL_FLIP = "WAF"
    FLEX_WILD_DRAW_TWO = "FW+2"
    FLEX_WILD_ALL_DRAW = "FWA"
    FLEX_WILD_DRAW_FOUR = "FW+4"
    DRAW_FOUR = "+4"
    """No Mercy's coloured Draw Four (N-1): ``R+4``."""
    SKIP_EVERYONE = "SE"
    """No Mercy's Skip Everyone (N-13): ``RSE``."""
    DISCARD_ALL = "DA"
    """No Mercy's Discard All (N-14): ``RDA``."""
    WILD_REVERSE_DRAW_FOUR = "WR+4"
    WILD_DRAW_SIX = "W+6"
    WILD_DRAW_TEN = "W+10"
    WILD_COLOR_ROULETTE = "WCR"
    """No Mercy's Wild Color Roulette (N-17): played without naming a colour."""

    __hash__ = object.__hash__

    @property
    def is_wild(self) -> bool:
        """Wild cards have no colour and match anything (C-7, F-9)."""
        return self in _WILD_RANKS

    @property
    def has_flex_side(self) -> bool:
        """Every card of this rank has a flex side: the Flex wilds (F-3; a coloured card has one by its colour)."""
        return self in _FLEX_WILDS

    @property
    def names_color(self) -> bool:
        """A play of a card of this rank names the colour (C-9): every wild but the Wild Color Roulette (N-8, N-17)."""
        return self in _WILD_RANKS and self is not Rank.WILD_COLOR_ROULETTE


_WILD_RANKS = frozenset(
    {
        Rank.WILD,
        Rank.WILD_DRAW_FOUR,
        Rank.WILD_ALL_FLIP,
        Rank.FLEX_WILD_DRAW_TWO,
        Rank.FLEX_WILD_ALL_DRAW,
        Rank.FLEX_WILD_DRAW_FOUR,
        Rank.WILD_REVERSE_DRAW_FOUR,
        Rank.WILD_DRAW_SIX,
        Rank.WILD_DRAW_TEN,
        Rank.WILD_COLOR_ROULETTE,
    }
)

_RANK_WORDS: dict[Rank, str] = {
    # TRANSLATORS: the names of UNO's cards (as printed on the card or in the rules)
    Rank.SKIP: said("Skip"),
    Rank.REVERSE: said("Reverse"),
    Rank.DRAW_TWO: said("Draw Two"),
    Rank.WILD: said("Wild"),
    Rank.WILD_DRAW_FOUR: said("Wild Draw Four"),
    Rank.WILD_ALL_FLIP: said("Wild All Flip"),
    Rank.FLEX_WILD_DRAW_TWO: said("Flex Wild Draw Two"),
    Rank.FLEX_WILD_ALL_DRAW: said("Flex Wild All Draw"),
    Rank.FLEX_WILD_DRAW_FOUR: said("Flex Wild Draw Four"),
    Rank.DRAW_FOUR: said("Draw Four"),
    Rank.SKIP_EVERYONE: said("Skip Everyone"),
    Rank.DISCARD_ALL: said("Discard All"),
    Rank.WILD_REVERSE_DRAW_FOUR: said("Wild Reverse Draw Four"),
    Rank.WILD_DRAW_SIX: said("Wild Draw Six"),
    Rank.WILD_DRAW_TEN: said("Wild Draw Ten"),
    Rank.WILD_COLOR_ROULETTE: said("Wild Color Roulette"),
}


def rank_words(rank: Rank) -> str:
    """The name of a card's rank, apart from colour and number (``Draw Two``; a number card's is ``""``)."""
    return _RANK_WORDS.get(rank, "")


@cache  # every kind of card's words once: a view names its cards for every seat at every step
def card_name(card: Card) -> str:
    """The card in words without its flex side (``green 2``): what it is on its normal side."""
    if card.color is None:
        return _RANK_WORDS[card.rank]
    if card.rank is Rank.NUMBER:
        if card.flip:
            # TRANSLATORS: a Flex! number card with the flip symbol: {color} is a colour word, {number} a digit
            return said("{color} {number} with flip symbol", color=card.color.word, number=card.number)
        # TRANSLATORS: a number card: {color} is a colour word, {number} a digit (green 7)
        return said("{color} {number}", color=card.color.word, number=card.number)
    # TRANSLATORS: an action card: {color} is a colour word, {rank} the card's name (red Skip)
    return said("{color} {rank}", color=card.color.word, rank=_RANK_WORDS[card.rank])


@cache  # every kind of card's words once: a view names its cards for every seat at every step
def card_words(card: Card) -> str:
    """The card in words, for screen readers (F-5): ``green 2, flex side yellow`` (``Card.words``)."""
    name = card_name(card)
    if card.flex_color is not None:
        # TRANSLATORS: a two-sided Flex! card: {card} is its normal side (green 2), {color} its flex side's colour
        return said("{card}, flex side {color}", card=name, color=card.flex_color.word)
    return name


_FLEX_WILDS = frozenset({Rank.FLEX_WILD_DRAW_TWO, Rank.FLEX_WILD_ALL_DRAW, Rank.FLEX_WILD_DRAW_FOUR})

_CARD_RE = re.compile(
    r"""^(?:
        (?P<wild>FW\+2|FW\+4|FWA|WAF|WR\+4|W\+10|W\+6|W\+4|WCR|W)
      | (?P<color>[RYGB])
        (?: (?P<number>[0-9])(?P<flip>!)? | (?P<symbol>SE|S|R|\+2|\+4|DA) )
        (?:\|(?P<flex>[RYGB]))?
    )$""",
    re.VERBOSE,
)

_SYMBOLS = {
    "S": Rank.SKIP,
    "R": Rank.REVERSE,
    "+2": Rank.DRAW_TWO,
    "+4": Rank.DRAW_FOUR,
    "SE": Rank.SKIP_EVERYONE,
    "DA": Rank.DISCARD_ALL,
}
_WILDS = {rank.value: rank for rank in _WILD_RANKS}


def parse_card(text: object) -> Card:
    """Parse card notation; case-insensitive, spaces ignored.

    >>> parse_card("g2|y")
    Card.parse('G2|Y')

    Raises:
        InvalidNotationError: the text is not a card (also: not text, or not ASCII).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"not a card: {excerpt(text)} (expected text)")
    if not text.isascii():
        raise InvalidNotationError(f"not a card: {excerpt(text)} (only ASCII characters are allowed)")
    key = "".join(text.split()).upper()
    cached = _PARSE_CACHE.get(key)
    if cached is not None:
        return cached
    match = _CARD_RE.match(key)
    if match is None:
        raise InvalidNotationError(f"not a card: {excerpt(text)}")
    if match["wild"]:
        card = Card(None, _WILDS[match["wild"]])
    else:
        color = Color(match["color"])
        flex = Color(match["flex"]) if match["flex"] else None
        if match["number"] is not None:
            flip = bool(match["flip"])
            if flip and flex is not None:
                raise InvalidNotationError(f"not a card: {excerpt(text)} (a flip-symbol card has no flex side)")
            card = Card(color, Rank.NUMBER, int(match["number"]), flex, flip)
        else:
            card = Card(color, _SYMBOLS[match["symbol"]], None, flex)
        if flex is color:
            raise InvalidNotationError(f"not a card: {excerpt(text)} (a flex side has another colour)")
    _PARSE_CACHE[key] = card
    return card


_PARSE_CACHE: dict[str, Card] = {}


@cache  # every kind of card's notation once: views, steps and records write the same few cards again and again
def format_card(card: Card) -> str:
    """Canonical notation of a card (upper case).

    >>> format_card(Card(Color.RED, Rank.NUMBER, 5, flip=True))
    'R5!'
    """
    if card.color is None:
        return card.rank.value
    text = card.color.value + (str(card.number) if card.rank is Rank.NUMBER else card.rank.value)
    if card.flip:
        text += "!"
    if card.flex_color is not None:
        text += "|" + card.flex_color.value
    return text


__all__ = [
    "COLORS",
    "Card",
    "CardId",
    "Color",
    "Rank",
    "Seat",
    "card_name",
    "card_words",
    "format_card",
    "parse_card",
    "rank_words",
]
