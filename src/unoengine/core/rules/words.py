"""What cards do, in words, for interfaces (C-12 … C-16)."""

from __future__ import annotations

from collections.abc import Mapping

from unoengine.core.cards import Card, Rank

CLASSIC_WORDS: dict[Rank, str] = {
    Rank.SKIP: "the next player misses their turn",
    Rank.REVERSE: "the direction changes (with two players: play again)",
    Rank.DRAW_TWO: "the next player draws 2 and misses their turn",
    Rank.WILD: "name the colour",
    Rank.WILD_DRAW_FOUR: "name the colour; the next player draws 4 and misses their turn",
}
"""C-12 … C-16 in a few words (interfaces show them; the rules are the effects below)."""


def describe_with(words: Mapping[Rank, str], card: Card) -> str:
    """``red Skip: the next player misses their turn``."""
    name = card.words.split(", flex side")[0]
    return f"{name}: {words[card.rank]}" if card.rank in words else name


def describe_classic(card: Card) -> str:
    """What a Classic card does (C-12 … C-16)."""
    return describe_with(CLASSIC_WORDS, card)
