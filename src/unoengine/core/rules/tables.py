"""The static tables of a deck (kinds, points, match masks, play actions) and the shared game of a rule set."""

from __future__ import annotations

from typing import Any, Final

from unoengine.core import actions as A
from unoengine.core.cards import COLORS, Card, Color, Rank
from unoengine.core.errors import InvalidNotationError
from unoengine.core.rules.compose import compose
from unoengine.core.rules.option_specs import Options
from unoengine.core.rules.ruleset import Effect, RuleSet
from unoengine.core.state import MAX_CARDS, Game, GameState

COLOR_INDEX: dict[Color | None, int] = {color: index for index, color in enumerate(COLORS)}

_COLORS: Final = COLORS


KIND_WORD: Final = 60
"""The kinds of one word of a set of kinds (:attr:`DeckTables.kind_word`)."""


def color_index(color: Color | None) -> int:
    """``COLOR_INDEX[color]``, without hashing the colour (an ``Enum``'s ``__hash__`` is Python code).

    Raises:
        KeyError: ``None`` (no current colour).
    """
    colors = _COLORS
    for index in range(4):
        if colors[index] is color:
            return index
    raise KeyError(color)


def match_row(state: GameState) -> int:
    """The row of the match tables for the top card and the current colour: ``top kind * 4 + colour`` (C-7)."""
    return state.game.tables.kind_of[state.discard_bytes[-1]] * 4 + color_index(state.color)


def face_matches(color: Color | None, rank: Rank, number: int | None, top: Card, current: Color | None) -> bool:
    """Does a face (colour, rank, number) match the top card and current colour? (C-7, F-9)"""
    if rank.is_wild:
        return True
    if color is current:
        return True
    if rank is top.rank and not top.is_wild:
        return rank is not Rank.NUMBER or number == top.number
    return False


class DeckTables:
    """Static tables of one deck: kinds, points, match masks and play actions.

    Built once per (rule set, deck) and shared by identity between states.
    """

    def __init__(self, rules: RuleSet, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        kinds: list[Card] = []
        index: dict[Card, int] = {}
        for card in cards:
            if card not in index:
                index[card] = len(kinds)
                kinds.append(card)
        self.kinds: tuple[Card, ...] = tuple(kinds)
        self.kind_index = index
        self.kind_of: tuple[int, ...] = tuple(index[card] for card in cards)
        self.points: tuple[int, ...] = tuple(rules.points(card) for card in cards)
        self.kind_color: tuple[int, ...] = tuple(COLOR_INDEX.get(card.color, -1) for card in kinds)
        self.card_color: tuple[Color | None, ...] = tuple(card.color for card in cards)
        """Each physical card's printed colour (``None``: a wild), by card id."""
        self.card_number: tuple[int, ...] = tuple(-1 if card.number is None else card.number for card in cards)
        """Each physical card's number (``-1``: not a number card), by card id (H-2: sevens and zeros)."""
        self.card_effects: tuple[tuple[Effect | None, Effect | None], ...] = tuple(
            (rules.effects.get((card.rank, False)), rules.effects.get((card.rank, True))) for card in cards
        )
        """Each physical card's effect on its normal and its flex side (``rules.effects``), by card id."""
        n = len(kinds)
        normal: list[tuple[bool, ...]] = []
        for top in kinds:
            for current in COLORS:
                normal.append(tuple(face_matches(c.color, c.rank, c.number, top, current) for c in kinds))
        self.normal_ok: tuple[tuple[bool, ...], ...] = tuple(normal)
        """``normal_ok[top_kind * 4 + color_index][kind]``: the normal side may be played."""
        self.is_wd4: tuple[bool, ...] = tuple(c.rank in (Rank.WILD_DRAW_FOUR, Rank.FLEX_WILD_DRAW_FOUR) for c in kinds)
        self.is_draw_two: tuple[bool, ...] = tuple(c.rank is Rank.DRAW_TWO for c in kinds)
        """H-1, D-13: the Draw Two kinds (their normal side: the cards that stack and volley)."""
        self.number_of: tuple[int, ...] = tuple(-1 if c.number is None else c.number for c in kinds)
        """A number card kind's number, ``-1`` for the others (H-2: sevens and zeros)."""
        plain: list[tuple[A.Play, ...]] = []
        with_uno: list[tuple[A.Play, ...]] = []
        for card in kinds:
            colors: tuple[Color | None, ...] = COLORS if card.rank.names_color else (None,)  # N-17: WCR names none
            plain.append(tuple(A.play(card, c) for c in colors))
            with_uno.append(tuple(A.play(card, c, uno=u) for c in colors for u in (False, True)))
        self.plays = tuple(plain)
        self.plays_uno = tuple(with_uno)
        assert n == len(self.plays)
        # The same, by physical card and by "row" (top kind * 4 + colour): what a card
        # may be played as, empty when it does not match. legal_actions reads these.
        kind_of = self.kind_of
        cards_range = range(len(cards))
        self.kind_word: tuple[int, ...] = tuple(kind_of[card] // KIND_WORD for card in cards_range)
        """Which word of a set of kinds holds a physical card's kind bit (``kind // KIND_WORD``: 0 for Classic's
        and Duo's 54 kinds, 0 or 1 for Flex's 100)."""
        self.kind_word_bit: tuple[int, ...] = tuple(1 << (kind_of[card] % KIND_WORD) for card in cards_range)
        """The kind's bit in that word, to skip a second copy of a card in a hand (a word stays a small int: a bit
        per kind in one int would be a big int past 62 kinds, and its operations are not inlined)."""
        self.card_is_wd4: tuple[bool, ...] = tuple(self.is_wd4[kind_of[card]] for card in cards_range)
        """Whether a physical card is a Wild Draw Four (its normal side)."""
        self.card_plays: tuple[tuple[tuple[A.Play, ...], ...], ...] = tuple(
            tuple(plain[kind_of[card]] if ok[kind_of[card]] else () for card in cards_range) for ok in normal
        )
        self.card_plays_uno: tuple[tuple[tuple[A.Play, ...], ...], ...] = tuple(
            tuple(with_uno[kind_of[card]] if ok[kind_of[card]] else () for card in cards_range) for ok in normal
        )
        self.extras: dict[str, Any] = {}
        """Tables a rule set builds for itself on first use (Flex: its flex sides), by name."""

    def kind(self, card: Card) -> int:
        """The kind index of a card (a card keeps its hash: the deck's own cards are found by identity, in C)."""
        return self.kind_index[card]

    def holds_color(self, hand: bytes, color: Color | None) -> bool:
        """Does the hand hold a card of this colour by its normal side? Wilds have none (C-16, D-15)."""
        target = color_index(color)
        kind_of = self.kind_of
        colors = self.kind_color
        # A compiled loop by index (``any()`` of a generator is Python calls; iterating bytes boxes each byte).
        for index in range(len(hand)):  # noqa: SIM110
            if colors[kind_of[hand[index]]] == target:
                return True
        return False


_TABLES: dict[tuple[int, int], tuple[tuple[Card, ...], DeckTables]] = {}


def deck_tables(rules: RuleSet, cards: tuple[Card, ...]) -> DeckTables:
    """The shared tables of a deck (rule sets return constant decks: keyed by identity).

    Raises:
        InvalidNotationError: a deck of more than 256 cards (a card id is one byte of a hand or a pile; the
            largest deck of a rule set here is Duo's 112).
    """
    key = (id(rules), id(cards))
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not cards:
        if len(cards) > MAX_CARDS:
            raise InvalidNotationError(
                f"{rules.title} deals a deck of {len(cards)} cards: a deck has at most {MAX_CARDS} "
                "(a card id is one byte of a hand or a pile)"
            )
        cached = (cards, DeckTables(rules, cards))
        _TABLES[key] = cached
    return cached[1]


_GAMES: dict[tuple[int, int, Options], Game] = {}


_LAST_GAME: Final[list[tuple[RuleSet, int, Options, Game]]] = []
"""The rules, seats and options :func:`game_of` was last called with, and its game: found again by
identity (hashing an options tuple hashes its ``Enum`` values, Python code: about 14,000 instructions).
The options are kept, so that their ``id`` is not reused while they are here."""


def game_of(rules: RuleSet, seats: int, options: Options) -> Game:
    """The shared :class:`~unoengine.core.state.Game` of these rules, seats and options."""
    if _LAST_GAME:
        last = _LAST_GAME[0]
        if last[2] is options and last[0] is rules and last[1] == seats:
            return last[3]
    key = (id(rules), seats, options)
    game = _GAMES.get(key)
    if game is None or game.rules is not rules:
        game = Game(rules, seats, options, deck_tables(rules, rules.make_deck(options)), compose(rules, options))
        _GAMES[key] = game
    if _LAST_GAME:
        _LAST_GAME[0] = (rules, seats, options, game)
    else:
        _LAST_GAME.append((rules, seats, options, game))
    return game


def standard_deck(wilds: int = 4, wild_draw_fours: int = 4) -> tuple[Card, ...]:
    """The 108-card deck of C-1 (or with more wilds, D-1)."""
    cards: list[Card] = []
    for color in COLORS:
        cards.append(Card(color, Rank.NUMBER, 0))
        for number in range(1, 10):
            cards += [Card(color, Rank.NUMBER, number)] * 2
        for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
            cards += [Card(color, rank)] * 2
    cards += [Card(None, Rank.WILD)] * wilds
    cards += [Card(None, Rank.WILD_DRAW_FOUR)] * wild_draw_fours
    return tuple(cards)
