"""What a heads-up Classic opponent cannot hold: the reads ``ismcts`` makes from the views it saw.

A player who draws on their turn instead of playing had no card that fitted (most
players play when they can; the ``heuristic`` always does): no card of the
colour in force, none of the top card's number or symbol, no wild. :class:`Reads`
keeps, from one decision of its seat to the next, what the views show of the
opponent's turns between them (the discard pile, the hand sizes) and turns each
such draw into a constraint on the cards the opponent then held; cards drawn
later are free, and a card the opponent plays leaves the least constrained group
that may hold it. :meth:`Reads.deal` then deals the opponent's hand of a sampled
state (a :func:`~unoengine.determinize` of the view) again so that every
constrained group holds only cards that fit its constraints.

These are beliefs, not rules: a read that the cards contradict (a card played
that no group may hold, a hand smaller than the groups) is dropped. They are made
only where the views say unambiguously what happened: Classic, two seats, without
the house rules that move hands (H-2's swaps, H-3's jump-in) or change the draw
(H-4's forced play, H-5's drawing until playable).
"""

from __future__ import annotations

from typing import NamedTuple

from unoengine.core.cards import Card, Color, Rank, Seat
from unoengine.core.engine import apply_unchecked
from unoengine.core.rules import find_rules
from unoengine.core.rules.tables import face_matches
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView

Constraint = tuple[Card, Color | None]
"""A top card and the colour in force that the cards of a group do not fit."""

_HOUSE_RULES = ("seven_zero", "jump_in", "forced_play", "draw_until_playable")
_PLAIN_DECISIONS = frozenset({"turn", "drawn", "challenge", "stack", "game_over"})
"""The decisions whose views these reads understand (no Duo draft, dump or volley; no Flex Power Cards)."""


class _After(NamedTuple):
    """The public facts just after this seat's action: what the next view is compared with."""

    round: int
    discard: tuple[Card, ...]
    size: int
    """The opponent's hand size."""
    top: Card | None
    color: Color | None
    opponent_turn: bool
    """Is the opponent's normal turn next?"""


def _fits(card: Card, constraints: tuple[Constraint, ...]) -> bool:
    """May a card of a group with these constraints be ``card``?"""
    if card.rank.is_wild:
        return not constraints
    return not any(face_matches(card.color, card.rank, card.number, top, color) for top, color in constraints)


def _with(constraints: tuple[Constraint, ...], constraint: Constraint) -> tuple[Constraint, ...]:
    return constraints if constraint in constraints else (*constraints, constraint)


class Reads:
    """The opponent's constrained groups of cards, kept from decision to decision (heads-up Classic)."""

    def __init__(self) -> None:
        self.groups: list[tuple[int, tuple[Constraint, ...]]] = []
        self.after: _After | None = None

    @staticmethod
    def applies(view: PlayerView) -> bool:
        """Can the views of this game be read (Classic, two seats, no house rule that moves cards)?"""
        options = dict(view.options)
        plain = set(find_rules(view.rules).decisions) <= _PLAIN_DECISIONS and not view.power  # Classic's decisions
        return plain and view.seats == 2 and not any(options.get(name) for name in _HOUSE_RULES)

    def observe(self, view: PlayerView) -> None:
        """Bring the groups up to ``view``: the opponent's plays and draws since this seat last acted."""
        assert view.seat is not None
        size = view.hand_sizes[1 - view.seat]
        after, self.after = self.after, None
        if after is None or after.round != view.round:
            self.groups = [(size, ())]
            return
        groups = list(self.groups)
        discard = view.discard_pile
        played = discard[len(after.discard) :] if discard[: len(after.discard)] == after.discard else None
        if after.opponent_turn and after.top is not None and played is not None:
            constraint = (after.top, after.color)
            if not played and size == after.size + 1:  # drew, kept the card
                groups = [(count, _with(cons, constraint)) for count, cons in groups] + [(1, ())]
                played = ()
            elif len(played) == 1 and size == after.size and played[0].rank in (Rank.NUMBER, Rank.WILD):
                groups = [(count, _with(cons, constraint)) for count, cons in groups]  # drew it, played it
                played = ()
        for card in played or ():
            fitting = [index for index, (count, cons) in enumerate(groups) if count and _fits(card, cons)]
            if not fitting:
                groups = []
                break
            index = min(fitting, key=lambda at: len(groups[at][1]))
            count, cons = groups[index]
            groups[index] = (count - 1, cons)
        groups = [(count, cons) for count, cons in groups if count > 0]
        held = sum(count for count, _ in groups)
        if held > size or played is None:
            groups = [(size, ())]
        elif held < size:
            groups.append((size - held, ()))
        self.groups = groups

    def remember(self, state: GameState, seat: Seat, action: object) -> None:
        """Note the public facts after ``seat`` takes ``action`` in ``state`` (a sample of its view)."""
        after = apply_unchecked(state, seat, action)  # type: ignore[arg-type]
        cards = after.tables.cards
        opponent = 1 - seat
        pending = after.pending
        self.after = _After(
            round=after.round,
            discard=tuple(cards[card] for card in after.discard_pile),
            size=len(after.hands[opponent]),
            top=None if after.top is None else cards[after.top],
            color=after.color,
            opponent_turn=pending.kind == "turn" and pending.seat == opponent and after.round == state.round,
        )

    def deal(self, state: GameState, seat: Seat) -> GameState:
        """``state`` with the opponent's hand dealt again from the unseen cards so that it fits the groups."""
        constrained = sorted((group for group in self.groups if group[1]), key=lambda group: -len(group[1]))
        if not constrained:
            return state
        opponent = 1 - seat
        hand = state.hands[opponent]
        pool = list(hand) + list(state.draw_pile[::-1])  # a uniform order: the sample dealt the hand from the top
        cards = state.tables.cards
        taken = [False] * len(pool)
        dealt: list[int] = []
        for count, cons in constrained:
            wanted = count
            for index, card_id in enumerate(pool):
                if wanted == 0:
                    break
                if not taken[index] and _fits(cards[card_id], cons):
                    taken[index] = True
                    dealt.append(card_id)
                    wanted -= 1
        for index, card_id in enumerate(pool):
            if len(dealt) == len(hand):
                break
            if not taken[index]:
                taken[index] = True
                dealt.append(card_id)
        rest = [card_id for index, card_id in enumerate(pool) if not taken[index]]
        hands = list(state.hands)
        hands[opponent] = tuple(dealt)
        return state._replace(hands=tuple(hands), draw_pile=tuple(rest[::-1]))
