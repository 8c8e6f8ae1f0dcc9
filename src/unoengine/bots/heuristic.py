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
  dumps after a Reverse (action cards last), adds to a volley when it can;
- No Mercy (N-1 … N-28; every "next seat" counts only the seats still in the round, N-22, the
  view's ``power``): adds to a pending draw whenever it can (N-15), the smallest sufficient draw
  card first, but the smallest that knocks the seat it hits out (N-21) before it, never a Wild
  Reverse Draw Four that comes back to itself (two in the round, N-24); scores a 7 or a 0 by the
  cards it takes from its hand (N-18; a 7 swaps with the smallest hand) and draws (N-9) rather
  than take a big hand; a Discard All by the cards of its colour it sheds (N-14); Skip Everyone
  (Skip, Reverse with two in the round) as a free card; skips and draw cards against a low
  seat, draw cards against a seat close to 25 cards; keeps its wild draw cards for stacking
  while its hand is large; as the roulette's victim (N-17) names the colour with the most cards
  it has not seen (the deck less its hand and the discard pile). The scores are module
  functions (:func:`mercy_choice`) that ``ismcts``'s rollouts share; weights in
  :class:`NoMercyTuning`, measured in docs/BOTS.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import NamedTuple

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
from unoengine.core.rules import find_rules as rule_set_named  # the real one: tests stub ``find_rules``
from unoengine.core.rules.nomercy import DRAW_VALUE, MERCY
from unoengine.core.rules.nomercy import NAME as NO_MERCY
from unoengine.core.views import PlayerView

DUO_VALUES = frozenset({Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO, Rank.WILD, Rank.WILD_DRAW_FOUR})


@cache
def is_no_mercy(rules: str) -> bool:
    """Is ``rules`` (a view's rule set) UNO Show 'Em No Mercy?"""
    ruleset = rule_set_named(rules)
    return ruleset.name == NO_MERCY


@cache
def deck_counts(rules: str, options: tuple[tuple[str, object], ...]) -> Counter[Card]:
    """The cards of a game's deck, by kind (the rule set's own deck for these options)."""
    ruleset = rule_set_named(rules)
    return Counter(ruleset.make_deck(ruleset.options(dict(options))))


def unseen_cards(deck: Iterable[Card] | Counter[Card], view: PlayerView) -> Counter[Card]:
    """The cards of ``deck`` the view does not show: less its own hand and the discard pile (counts may go below
    zero for a card the deck does not hold)."""
    unseen = Counter(deck)
    unseen.subtract(view.hand)
    unseen.subtract(view.discard_pile)
    return unseen


@dataclass(frozen=True, slots=True)
class NoMercyTuning:
    """The weights of the heuristic's No Mercy play scores (measured: docs/BOTS.md)."""

    discard_each: float = 6.0
    """A Discard All: for each other card of its colour it sheds (N-14)."""
    again: float = 8.0
    """A card after which the bot plays again (Skip Everyone; Skip, Reverse with two in the round)."""
    low: int = 2
    """A seat holding this many cards or fewer is low: skip it, hit it."""
    low_bonus: float = 8.0
    """For an action card that skips or hits a low seat."""
    hit: float = 1.0
    """For each card a draw card makes its target face."""
    knock_out: float = 20.0
    """For a draw card whose value brings its target to 25 cards (N-21)."""
    defence_hand: int = 6
    """With more cards than this, a wild draw card is kept for stacking (N-15)."""
    defence: float = 20.0
    """The penalty of spending a wild draw card from a large hand."""
    coloured_defence: float = 0.0
    """The penalty of spending a coloured draw card from a large hand."""
    swap: float = 6.0
    """For each card a 7 or a 0 takes from the bot's hand (N-18): the hand it gets is smaller."""
    draw_below: float = -30.0
    """Draw (N-9) rather than play when the best play scores below this (a 7 or a 0 that brings a big hand)."""
    roulette: float = 4.0
    """A Color Roulette (N-17): the cards its victim turns, about."""


# -- No Mercy (N-1 … N-28): shared with ``ismcts``'s rollouts, which read a state instead of a view ----------


class MercyTable(NamedTuple):
    """What the No Mercy scores read of a position: a view's or a determinized state's."""

    hand: tuple[Card, ...]
    """The hand of the seat to play."""
    sizes: tuple[int, ...]
    seat: int
    direction: int
    in_round: tuple[bool, ...]
    """N-22: the seats still in the round (``PlayerView.power`` in No Mercy)."""
    color: Color | None


def color_counts(hand: tuple[Card, ...], without: Card | None = None) -> Counter[Color]:
    """How many cards of each colour ``hand`` holds, less one ``without`` (wilds count for none)."""
    counts: Counter[Color] = Counter()
    skipped = without is None
    for card in hand:
        if not skipped and card == without:
            skipped = True
            continue
        if card.color is not None:
            counts[card.color] += 1
    return counts


def favourite_color(hand: tuple[Card, ...], without: Card | None = None) -> Color:
    """The colour ``hand`` holds most (less one ``without``), ties to the first of COLORS."""
    counts = color_counts(hand, without)
    return max(COLORS, key=lambda color: (counts[color], -COLORS.index(color)))


def next_in_round(table: MercyTable, seat: int, direction: int) -> int:
    """N-22: the next seat after ``seat`` in ``direction`` that is still in the round."""
    in_round = table.in_round
    seats = len(in_round)
    for _ in range(seats):
        seat = (seat + direction) % seats
        if in_round[seat]:
            break
    return seat


def draw_target(table: MercyTable, card: Card) -> int:
    """The seat that faces the total of a draw card played by ``table.seat`` (N-12, N-16, N-24)."""
    if card.rank is Rank.WILD_REVERSE_DRAW_FOUR:
        if sum(table.in_round) == 2:
            return table.seat  # N-24: its player draws
        return next_in_round(table, table.seat, -table.direction)
    return next_in_round(table, table.seat, table.direction)


def mercy_stack(table: MercyTable, total: int, plays: list[Play]) -> Play | None:
    """N-15: the draw card to add to a pending ``total`` (``None``: draw it): the smallest that will do (the big
    ones are kept), the smallest that knocks the seat it hits out (N-21) first, a coloured one before a wild;
    never one that comes back to this seat (N-24)."""
    if not plays:
        return None
    if len(table.hand) == 1:
        return plays[0]  # N-25: the last card wins, its effect is not applied
    best: tuple[bool, int, bool, float] | None = None
    choice: Play | None = None
    for play in plays:
        card = play.card
        target = draw_target(table, card)
        if target == table.seat:
            continue
        value = DRAW_VALUE.get(card.rank, 0)
        colour = 0.0
        if play.color is not None:
            colour = 1.0 if play.color is favourite_color(table.hand, card) else -1.0
        key = (table.sizes[target] + total + value >= MERCY, -value, not card.is_wild, colour + play.uno)
        if best is None or key > best:
            best, choice = key, play
    return choice


def mercy_score(table: MercyTable, play: Play, tuning: NoMercyTuning) -> float:
    """The score of a No Mercy play on a turn (N-11 … N-18): higher is better."""
    card = play.card
    hand = table.hand
    size = len(hand)
    if size == 1:
        return 1000.0  # N-25: the last card wins
    rank = card.rank
    sizes = table.sizes
    seat = table.seat
    following = next_in_round(table, seat, table.direction)
    score = 0.0
    if card.is_wild:
        score -= 30 if size > 2 else 0
    elif card.color is table.color:
        score += 10
    else:
        score += 4
    value = DRAW_VALUE.get(rank, 0)
    if value:
        target = draw_target(table, card)
        if target == seat:
            score -= 100  # N-24: with two in the round a Wild Reverse Draw Four hits its player
        else:
            score += tuning.hit * value
            if sizes[target] <= tuning.low:
                score += tuning.low_bonus
            if sizes[target] + value >= MERCY:
                score += tuning.knock_out
            if size > tuning.defence_hand:
                score -= tuning.defence if card.is_wild else tuning.coloured_defence
    elif rank is Rank.WILD_COLOR_ROULETTE:
        score += tuning.roulette
        if sizes[following] <= tuning.low:
            score += tuning.low_bonus
        if sizes[following] + tuning.roulette >= MERCY:
            score += tuning.knock_out / 2
    elif rank is Rank.SKIP_EVERYONE or (rank in (Rank.SKIP, Rank.REVERSE) and sum(table.in_round) == 2):
        score += tuning.again + (tuning.low_bonus if sizes[following] <= tuning.low else 0)
    elif rank in (Rank.SKIP, Rank.REVERSE):
        score += tuning.low_bonus if sizes[following] <= tuning.low else 2
    elif rank is Rank.DISCARD_ALL:
        shed = sum(1 for other in hand if other.color is card.color) - 1
        if shed == size - 1:
            return 1000.0  # N-14, N-25: the discards empty the hand
        score += 2 + tuning.discard_each * shed
    elif card.number == 7 and play.target is not None:
        score += tuning.swap * (size - 1 - sizes[play.target])  # N-18: the hands swap
    elif card.number == 0:
        giver = next_in_round(table, seat, -table.direction)  # N-18: the hand passed on to this seat
        score += tuning.swap * (size - 1 - sizes[giver])
    if card.number is not None:
        score += card.number / 10
    if play.color is not None:
        score += 1 if play.color is favourite_color(hand, card) else -1
    if play.uno:
        score += 0.5
    return score


def mercy_choice(
    table: MercyTable, pending: str, total: int, plays: list[Play], can_draw: bool, tuning: NoMercyTuning
) -> Action | None:
    """A No Mercy decision other than the roulette's: on a pending draw (``stack``), a draw card to add or
    ``draw``; else the best play, or ``draw`` (N-9) when the best scores below ``tuning.draw_below`` (a 7 or a
    0 that brings a big hand); ``None`` when neither is legal."""
    if pending == "stack":
        added = mercy_stack(table, total, plays)
        return added if added is not None or not can_draw else DRAW
    if plays:
        scored = [(mercy_score(table, play, tuning), play) for play in plays]
        score, best = max(scored, key=lambda pair: pair[0])
        return DRAW if can_draw and score < tuning.draw_below else best
    return DRAW if can_draw else None


class HeuristicBot:
    """The ``heuristic`` bot. ``forget_uno`` is the chance of not calling UNO (for people to catch)."""

    name = "heuristic"
    needs_view = True
    reacts = True

    def __init__(self, rng: random.Random, forget_uno: float = 0.0) -> None:
        self.rng = rng
        self.forget_uno = forget_uno
        self.tuning = NoMercyTuning()

    # -- own decisions ---------------------------------------------------------------

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        assert view is not None
        if is_no_mercy(view.rules):
            return self._no_mercy(view, legal)
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

    def _best_color_action(self, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        favourite = favourite_color(view.hand)
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
            score += 1 if play.color is favourite_color(view.hand, card) else -1
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
        counts = color_counts(tuple(card for card in view.hand if card.number != number or card.is_wild))
        return max(plays, key=lambda play: (play.uno, -counts[play.card.color] if play.card.color else 0))

    def _draft(self, view: PlayerView) -> Action:
        card = view.draft_card
        if card is None:
            return KEEP
        if card.rank in DUO_VALUES:
            return KEEP
        counts = color_counts(view.hand)
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
        unseen = unseen_cards(rules.make_deck(rules.options(dict(view.options))), view)  # the game's own deck
        unseen_total = sum(max(count, 0) for count in unseen.values())
        matching = sum(max(count, 0) for card, count in unseen.items() if card.color is color or card.is_wild)
        held = view.hand_sizes[player]
        if unseen_total <= 0 or held <= 0:
            return ACCEPT
        none = comb(unseen_total - matching, held) / comb(unseen_total, held) if unseen_total >= held else 0.0
        return CHALLENGE if 1.0 - none > 0.2 else ACCEPT

    # -- No Mercy (N-1 … N-28) ---------------------------------------------------------

    def _no_mercy(self, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        plays = [action for action in legal if type(action) is Play]
        if self.forget_uno and plays and self.rng.random() < self.forget_uno:
            plays = [play for play in plays if not play.uno] or plays
        if view.pending == "roulette":
            return self._roulette(view, legal)
        assert view.seat is not None
        table = MercyTable(view.hand, view.hand_sizes, view.seat, view.direction, view.power, view.color)
        action = mercy_choice(table, view.pending, int(view.detail("stack", 0)), plays, DRAW in legal, self.tuning)
        if action is not None:
            return action
        if PASS in legal:
            return PASS
        own = [action for action in legal if type(action) is not Catch and action is not CALL_UNO]
        return own[0] if own else legal[0]

    def _roulette(self, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        """N-17: name the colour of which the most cards are unseen (the deck less the hand and the discard
        pile): the one most likely to show soon. Ties: the colour held most."""
        unseen = unseen_cards(deck_counts(view.rules, view.options), view)
        by_color: Counter[Color] = Counter()
        for card, count in unseen.items():
            if card.color is not None and count > 0:
                by_color[card.color] += count
        held = color_counts(view.hand)
        colours = [action for action in legal if type(action) is ChooseColor]
        if not colours:
            return legal[0]
        return max(colours, key=lambda action: (by_color[action.color], held[action.color]))


register("heuristic")(HeuristicBot)
