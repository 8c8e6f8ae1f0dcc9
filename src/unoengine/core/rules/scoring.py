"""The deal, scoring and dealers that several rule sets share (C-2, C-21, F-6, F-28)."""

from __future__ import annotations

from unoengine.core.cards import CardId, Seat
from unoengine.core.work import Work


def winner_takes_all(work: Work, winner: Seat) -> tuple[int, ...]:
    """C-21, F-28: the winner scores the cards left in every other hand."""
    points = work.tables.points
    total = sum(points[card] for seat, hand in enumerate(work.hands) if seat != winner for card in hand)
    return tuple(total if seat == winner else 0 for seat in range(work.seats))


def first_to_target(work: Work, round_winner: Seat | None) -> tuple[bool, Seat | None]:
    """C-21, F-28: a seat that reaches the target wins; ``single_round``: the round's winner."""
    if work.options.single_round:
        return True, round_winner
    best = max(range(work.seats), key=lambda seat: work.scores[seat])
    if work.scores[best] >= work.options.target_score:
        return True, best
    return False, None


def dealer_to_the_left(work: Work) -> Seat:
    """C-21 Reading: each new round is dealt by the next dealer to the left."""
    return (work.dealer + 1) % work.seats


def deal_seven(work: Work, order: list[CardId]) -> None:
    """C-2, F-6: one card at a time to each seat from the dealer's left, 7 rounds.

    ``order`` is the shuffled deck, top first; what is left is the draw pile.
    """
    # Round r gives seat (dealer + 1 + k) % seats the card at r * seats + k: a seat's hand is every
    # seats-th card of the dealt part from its offset k, sliced in C (as the one-card-at-a-time loop dealt it).
    seats = work.seats
    dealer = work.dealer
    dealt = work.game.deal_size * seats  # H-8 sets it
    work.hands = [bytes(order[(seat - dealer - 1) % seats : dealt : seats]) for seat in range(seats)]
    work.draw_pile = bytes(order[dealt:])[::-1]
