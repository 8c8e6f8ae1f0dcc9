"""What one seat may see: :func:`view_for` builds a :class:`PlayerView` (G-2).

Views are built from an allow-list, never stripped from a state: every field
below is chosen on purpose, and nothing else of the state reaches a seat. Bots,
the terminal client and any server read views only. Hidden cards are named as
card kinds (``Card``), never as physical ids.
"""

from __future__ import annotations

from typing import NamedTuple

from unoengine.core.actions import Action
from unoengine.core.cards import Card, Color, Seat
from unoengine.core.engine import legal_actions
from unoengine.core.state import ChallengeWindow, Draft, DrawnCardChoice, Dump, GameState, Outcome, Volley


class PlayerView(NamedTuple):
    """One seat's view of a game (``seat`` is ``None`` for a spectator)."""

    rules: str
    seats: int
    seat: Seat | None
    round: int
    dealer: Seat
    hand: tuple[Card, ...]
    """The seat's own hand, in the order received (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    top: Card | None
    color: Color | None
    direction: int
    draw_pile: int
    """The draw pile's size."""
    draw_pile_known: tuple[Card, ...]
    """Cards at the bottom of the draw pile whose order everyone saw (Duo D-4, D-10), bottom first."""
    discard_pile: tuple[Card, ...]
    """The discard pile, bottom first (public: the cards were played face up)."""
    power: tuple[bool, ...]
    to_act: Seat | None
    pending: str
    volley: int
    dump_color: Color | None
    challenger_of: Seat | None
    """While a Wild Draw Four may be challenged: the seat that played it."""
    drawn_card: Card | None
    """The card this seat just drew and may play (its own decision only)."""
    draft_card: Card | None
    """The card this seat looks at in a Duo draft (its own decision only)."""
    unsafe: Seat | None
    """The seat that can be caught for not calling UNO."""
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    round_winner: Seat | None
    outcome: Outcome | None
    legal: tuple[Action, ...]


def view_for(state: GameState, seat: Seat | None) -> PlayerView:
    """The view of ``seat`` (or of a spectator, ``None``): the one choke point of G-2.

    >>> from unoengine.core.engine import new_game
    >>> view = view_for(new_game("classic", 2, seed=3), 0)
    >>> len(view.hand), view.hand_sizes, view.draw_pile
    (7, (7, 7), 93)
    """
    cards = state.tables.cards
    pending = state.pending
    own = seat is not None and pending.seat == seat
    kind = type(pending)
    drawn = pending.card if own and kind is DrawnCardChoice else None  # type: ignore[union-attr]
    known = min(state.public_bottom, len(state.draw_pile))
    return PlayerView(
        rules=state.rules.name,
        seats=state.seats,
        seat=seat,
        round=state.round,
        dealer=state.dealer,
        hand=tuple(cards[card] for card in state.hands[seat]) if seat is not None else (),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        top=None if state.top is None else cards[state.top],
        color=state.color,
        direction=state.direction,
        draw_pile=len(state.draw_pile),
        draw_pile_known=tuple(cards[card] for card in state.draw_pile[:known]),
        discard_pile=tuple(cards[card] for card in state.discard_pile),
        power=state.power,
        to_act=pending.seat,
        pending=pending.kind,
        volley=pending.total if kind is Volley else 0,  # type: ignore[union-attr]
        dump_color=pending.color if kind is Dump else None,  # type: ignore[union-attr]
        challenger_of=pending.player if kind is ChallengeWindow else None,  # type: ignore[union-attr]
        drawn_card=None if drawn is None else cards[drawn],
        draft_card=cards[state.draw_pile[-1]] if own and kind is Draft else None,
        unsafe=state.unsafe,
        scores=state.scores,
        round_scores=state.round_scores,
        round_winner=state.round_winner,
        outcome=state.outcome,
        legal=legal_actions(state, seat) if seat is not None else (),
    )
