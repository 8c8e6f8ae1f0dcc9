"""What cards do, in words, for interfaces (C-12 … C-16)."""

from __future__ import annotations

from collections.abc import Mapping

from unoengine.core.cards import Card, Rank, card_name
from unoengine.i18n import said

CLASSIC_WORDS: dict[Rank, str] = {
    Rank.SKIP: said("the next player misses their turn"),
    Rank.REVERSE: said("the direction changes (with two players: play again)"),
    Rank.DRAW_TWO: said("the next player draws 2 and misses their turn"),
    Rank.WILD: said("name the colour"),
    Rank.WILD_DRAW_FOUR: said("name the colour; the next player draws 4 and misses their turn"),
}
"""C-12 … C-16 in a few words (interfaces show them; the rules are the effects below)."""


def card_does(name: str, effect: str) -> str:
    """``red Skip: the next player misses their turn``: a card's name and what it does."""
    # TRANSLATORS: {card} is a card's name (red Skip), {effect} what it does (the next player misses their turn)
    return said("{card}: {effect}", card=name, effect=effect)


def describe_with(words: Mapping[Rank, str], card: Card) -> str:
    """``red Skip: the next player misses their turn``."""
    name = card_name(card)
    return card_does(name, words[card.rank]) if card.rank in words else name


def describe_classic(card: Card) -> str:
    """What a Classic card does (C-12 … C-16)."""
    return describe_with(CLASSIC_WORDS, card)
