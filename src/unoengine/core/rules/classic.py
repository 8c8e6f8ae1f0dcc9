"""Classic UNO, 2–10 players (docs/RULES.md C-1 … C-22).

Flags and hooks, with their rules:

- deck: the standard 108 cards (C-1); ``points``: number cards face value, Skip,
  Reverse, Draw Two 20, wilds 50 (C-21).
- ``deal``: 7 cards each, one at a time from the dealer's left (C-2); the first
  card starts the discard pile (C-3); a Wild is returned and the draw pile
  reshuffled (C-5); a first action card acts as if the dealer played it (C-4).
- matching (C-7), playing is never compulsory and the drawn card may be played
  (C-8), wild colours are named in the play (C-9): shared engine.
- ``turn_over_discards = False``: an empty draw pile is refilled by shuffling the
  discard pile less its top card (C-10); too few cards: draw what there is (C-11).
- effects: Reverse (C-12, two players: a Skip), Skip (C-13), Draw Two (C-14),
  Wild (C-15), Wild Draw Four (C-16, C-17 with option ``wild_draw_four``).
- UNO call and catch (C-18, C-19) and the round's end (C-20): shared engine.
- scoring and the target score (C-21); ``draw_until_playable`` (C-22).

Readings (where the rulebook is silent):

- C-5: the hands stay as dealt; only the draw pile is reshuffled.
- C-4 with two players: a first Reverse lets the dealer play first (as C-4 says),
  which is also what a two-player Reverse (a Skip) would give.
- C-16: "matching" means of the current colour; a plain Wild or a number/symbol
  match does not forbid a Wild Draw Four.
- C-17: under ``strict`` an illegal Wild Draw Four is not among the legal actions
  and is refused naming C-16.
- C-21: each new round is dealt by the next dealer to the left.
"""

from __future__ import annotations

from typing import Final

from unoengine.core.cards import Card, CardId, Rank
from unoengine.core.house import allowed, rule_set_options
from unoengine.core.rules.decisions import BASE_DECISIONS, with_base
from unoengine.core.rules.effects import CLASSIC_EFFECTS, classic_wild_draw_four_legal
from unoengine.core.rules.option_specs import wild_draw_four_option
from unoengine.core.rules.ruleset import RuleSet
from unoengine.core.rules.scoring import deal_seven, dealer_to_the_left, first_to_target, winner_takes_all
from unoengine.core.rules.tables import standard_deck
from unoengine.core.state import DrawStack, More
from unoengine.core.work import CARD_BYTE, Work

CLASSIC_POINTS = {
    Rank.SKIP: 20,
    Rank.REVERSE: 20,
    Rank.DRAW_TWO: 20,
    Rank.WILD: 50,
    Rank.WILD_DRAW_FOUR: 50,
}


CLASSIC_DECK = standard_deck()
"""C-1: the standard 108 cards."""


def classic_points(card: Card) -> int:
    """C-21: face value for number cards, 20 for Skip/Reverse/Draw Two, 50 for wilds."""
    if card.rank is Rank.NUMBER:
        assert card.number is not None
        return card.number
    return CLASSIC_POINTS[card.rank]


_SKIP: Final = Rank.SKIP
_REVERSE: Final = Rank.REVERSE
_DRAW_TWO: Final = Rank.DRAW_TWO
"""(The ranks the first card may have, as constants: ``Rank.SKIP`` is a look-up in a Python class.)"""


def classic_deal(work: Work, order: list[CardId]) -> None:
    """C-2 … C-6: deal, turn the first card, perform its action."""
    deal_seven(work, order)
    cards = work.tables.cards
    while True:
        first = work.draw_pile[-1]
        face = cards[first]
        if not face.is_wild:
            break
        # C-5: a wild first card is returned and the draw pile reshuffled.
        work.draw_pile = bytes(work.shuffle(list(work.draw_pile)))
    work.draw_pile = work.draw_pile[:-1]
    work.discard_pile = CARD_BYTE[first]
    work.color = face.color
    dealer = work.dealer
    player = work.next_seat(dealer)
    rank = face.rank
    if rank is _SKIP:  # C-4: the first player is skipped
        work.turn(work.next_seat(dealer, 2))
    elif rank is _REVERSE:  # C-4: direction -1, the dealer plays first
        work.direction = -1
        work.turn(dealer)
    elif rank is _DRAW_TWO:  # C-4: the first player draws 2 and is skipped
        work.draw(player, 2)
        work.turn(work.next_seat(dealer, 2))
    else:  # C-6: the player to the dealer's left plays first
        work.turn(player)


CLASSIC = RuleSet(
    name="classic",
    title="Classic UNO",
    aliases=("uno", "standard"),
    seats=range(2, 11),
    make_deck=lambda options: CLASSIC_DECK,
    points=classic_points,
    option_specs=rule_set_options("classic", [wild_draw_four_option("strict", "C-17")]),
    deal=classic_deal,
    effects=CLASSIC_EFFECTS,
    wild_draw_four_legal=classic_wild_draw_four_legal,
    score_round=winner_takes_all,
    game_winner=first_to_target,
    next_dealer=dealer_to_the_left,
    handlers=with_base({}),
    decisions={**BASE_DECISIONS, "stack": DrawStack, "more": More},
    house=allowed("classic"),
    rule_letter="C",
    cite={"match": "C-7", "drawn": "C-8", "wild": "C-9", "wd4": "C-16", "uno": "C-19", "flex": "C-7"},
)
