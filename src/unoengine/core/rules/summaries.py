"""Each rule set in a paragraph, for people choosing one: ``uno rules --lang`` and the browser's lobby.

The rules themselves are docs/RULES.md; these say what kind of game each rule set is. Not part of the
compiled build (nothing in a game reads them).
"""

from __future__ import annotations

from unoengine.core.rules import find_rules
from unoengine.i18n import Said, said

SUMMARIES: dict[str, Said] = {
    "classic": said("Classic UNO: 2–10 players match the top card by colour or number; first to 500 points wins."),
    "duo": said(
        "UNO Duo: the two-player game — a draft when you draw, Draw Two volleys, "
        "and a Reverse that plays all your cards of its colour."
    ),
    # TRANSLATORS: "⟲" is the flip symbol printed on some number cards; F-16 is a rule number (keep it)
    "flex": said(
        "UNO Flex!: every player has a Power Card; while it is green you may play a card's flex side "
        "(the band under its face), and a number card marked ⟲ flips its player’s own Power Card (F-16)."
    ),
    "nomercy": said(
        "UNO Show 'Em No Mercy: 168 cards, draw cards that stack up to Draw Ten, 7s and 0s that swap hands, "
        "and no mercy: a player holding 25 cards is out of the round."
    ),
}
"""What each rule set is, in a paragraph (a :class:`~unoengine.i18n.Said`), by the rule set's name."""


def summary(name: str) -> Said:
    """The paragraph that says what the rule set ``name`` is (``classic``, ``duo``, ``flex``, or an alias).

    Raises:
        InvalidNotationError: no rule set has that name.
    """
    return SUMMARIES[find_rules(name).name]


__all__ = ["SUMMARIES", "summary"]
