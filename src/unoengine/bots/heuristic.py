"""``heuristic``: a sensible player that reads its view only.

- colour match before number/symbol match; the normal side before a flex side;
- action cards early when the next player is low on cards;
- wilds kept for late (played when nothing else fits or the hand is small);
- names its most-held colour, targets the seat with the fewest cards;
- always calls UNO with the play and catches others;
- challenges a Wild Draw Four when the odds favour it (the chance that the player
  held the previous colour, from the cards it cannot see);
- house rules: adds to a draw stack or passes it on (H-1, H-9) rather than drawing its total, swaps
  with the seat holding the fewest cards (H-2, the target rule above), jumps in
  whenever it holds the identical card (H-3); forced play (H-4) leaves it no draw;
  never targets (swaps with) its partner while another seat will do (H-11);
- Duo: keeps action cards, wilds and cards of its main colour in the draft, always
  dumps after a Reverse (action cards last), adds to a volley when it can.
"""

from __future__ import annotations

import random
from collections import Counter
from math import comb

from unoengine.bots.base import register
from unoengine.core.actions import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    KEEP,
    PASS,
    REJECT,
    Action,
    Catch,
    ChooseColor,
    Play,
)
from unoengine.core.cards import COLORS, Card, Color, Rank
from unoengine.core.house.teams import partner_in
from unoengine.core.rules import find_rules
from unoengine.core.views import PlayerView

DUO_VALUES = frozenset({Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO, Rank.WILD, Rank.WILD_DRAW_FOUR})


class HeuristicBot:
    """The ``heuristic`` bot. ``forget_uno`` is the chance of not calling UNO (for people to catch)."""

    name = "heuristic"
    needs_view = True
    reacts = True

    def __init__(self, rng: random.Random, forget_uno: float = 0.0) -> None:
        self.rng = rng
        self.forget_uno = forget_uno

    # -- own decisions ---------------------------------------------------------------

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        assert view is not None
        pending = view.pending
        if pending == "draft":
            return self._draft(view)
        if pending == "challenge":
            stacks = [action for action in legal if type(action) is Play]
            return self._best_play(view, stacks) if stacks else self._challenge(view)  # H-1: stack first
        if pending == "color":
            return self._best_color_action(view, legal)
        plays = [action for action in legal if type(action) is Play]
        if pending == "dump":
            return self._dump(view, plays) if plays else PASS
        if pending == "more":
            return self._more(view, plays) if plays else PASS
        if plays:
            return self._best_play(view, plays)
        if DRAW in legal:
            return DRAW
        if PASS in legal:
            return PASS
        own = [action for action in legal if type(action) is not Catch and action is not CALL_UNO]
        return own[0] if own else legal[0]

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        for action in legal:
            if type(action) is Catch:
                return action
        if CALL_UNO in legal and self.rng.random() >= self.forget_uno:
            return CALL_UNO
        jumps = [action for action in legal if type(action) is Play]
        if jumps:  # H-3: jump in (the card is identical to the top card: it fits anyway)
            return self._best_play(view, jumps)
        return None

    # -- helpers ---------------------------------------------------------------------

    def _colors(self, hand: tuple[Card, ...], without: Card | None = None) -> Counter[Color]:
        counts: Counter[Color] = Counter()
        skipped = False
        for card in hand:
            if card == without and not skipped:
                skipped = True
                continue
            if card.color is not None:
                counts[card.color] += 1
        return counts

    def _favourite(self, hand: tuple[Card, ...], without: Card | None = None) -> Color:
        counts = self._colors(hand, without)
        return max(COLORS, key=lambda color: (counts[color], -COLORS.index(color)))

    def _best_color_action(self, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        favourite = self._favourite(view.hand)
        for action in legal:
            if type(action) is ChooseColor and action.color is favourite:
                return action
        return legal[0]

    def _next_size(self, view: PlayerView) -> int:
        assert view.seat is not None
        return view.hand_sizes[(view.seat + view.direction) % view.seats]

    def _score(self, view: PlayerView, play: Play) -> float:
        card = play.card
        score = 0.0
        hand_size = len(view.hand)
        if card.is_wild:
            score -= 30 if hand_size > 2 else 0
            if card.rank in (Rank.WILD_DRAW_FOUR, Rank.FLEX_WILD_DRAW_FOUR):
                score -= 5
        elif card.color is view.color and not play.flex:
            score += 10
        else:
            score += 4
        if card.is_action and not card.is_wild:
            score += 8 if self._next_size(view) <= 2 else 2
        if play.flex:
            score -= 3
        if card.number is not None:
            score += card.number / 10  # shed high numbers first
        if play.color is not None:
            score += 1 if play.color is self._favourite(view.hand, card) else -1
        if play.target is not None:
            score -= view.hand_sizes[play.target] / 100
            if play.target == partner_in(view.options, view.seats, view.seat if view.seat is not None else 0):
                score -= 100  # H-11: never swap hands with (or target) its partner while another seat will do
        if play.uno:
            score += 0.5
        return score

    def _best_play(self, view: PlayerView, plays: list[Play]) -> Play:
        if self.forget_uno and self.rng.random() < self.forget_uno:
            plays = [play for play in plays if not play.uno] or plays
        return max(plays, key=lambda play: self._score(view, play))

    def _dump(self, view: PlayerView, plays: list[Play]) -> Play:
        # D-15: dump everything; keep an action card for last (its action is ours).
        plain = [play for play in plays if not play.card.is_action]
        best = plain or plays
        return max(best, key=lambda play: (play.uno, play.card.number or 0))

    def _more(self, view: PlayerView, plays: list[Play]) -> Play:
        # H-10: shed every card of the number; the colour held most among the other cards goes last (it sets
        # the colour), so the others go first.
        if self.forget_uno and self.rng.random() < self.forget_uno:
            plays = [play for play in plays if not play.uno] or plays
        number = plays[0].card.number
        counts = self._colors(tuple(card for card in view.hand if card.number != number or card.is_wild))
        return max(plays, key=lambda play: (play.uno, -counts[play.card.color] if play.card.color else 0))

    def _draft(self, view: PlayerView) -> Action:
        card = view.draft_card
        if card is None:
            return KEEP
        if card.rank in DUO_VALUES:
            return KEEP
        counts = self._colors(view.hand)
        if card.color is not None and counts and counts[card.color] == max(counts.values()):
            return KEEP
        return KEEP if (card.number or 0) <= 3 else REJECT

    def _challenge(self, view: PlayerView) -> Action:
        """Challenge when P(the player held the previous colour) > 0.2 (the break-even)."""
        player = view.challenger_of
        if player is None or len(view.discard_pile) < 2:
            return ACCEPT
        previous = view.discard_pile[-2]
        color = previous.color
        if color is None:
            return ACCEPT
        rules = find_rules(view.rules)
        deck = rules.make_deck(rules.options(dict(view.options)))  # the game's own deck (Duo: duo_deck)
        unseen = Counter(deck)
        unseen.subtract(view.hand)
        unseen.subtract(view.discard_pile)
        unseen_total = sum(max(count, 0) for count in unseen.values())
        matching = sum(max(count, 0) for card, count in unseen.items() if card.color is color or card.is_wild)
        held = view.hand_sizes[player]
        if unseen_total <= 0 or held <= 0:
            return ACCEPT
        none = comb(unseen_total - matching, held) / comb(unseen_total, held) if unseen_total >= held else 0.0
        return CHALLENGE if 1.0 - none > 0.2 else ACCEPT


register("heuristic")(HeuristicBot)
