"""What the cards several rule sets share do when played: Number, Wild, Skip, Reverse, Draw Two, Wild Draw Four."""

from __future__ import annotations

from typing import Final

from unoengine.core import actions as A
from unoengine.core.cards import Card, Rank, Seat
from unoengine.core.rules.ruleset import Effect
from unoengine.core.state import ChallengeWindow
from unoengine.core.work import Work


class NoEffect(Effect):
    """A number card or a Wild: the next player plays (C-7, C-15)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(work.next_seat(seat))


NO_EFFECT: Final = NoEffect()


class Skip(Effect):
    """C-13 Skip: the next player loses their turn (D-14: with two, play again)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(work.next_seat(seat, 2))


SKIP: Final = Skip()


class Reverse(Effect):
    """C-12 Reverse: the direction changes (with two players too); with two it acts as a Skip."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if final:
            return
        work.direction = -work.direction
        work.turn(seat if work.seats == 2 else work.next_seat(seat))


REVERSE: Final = Reverse()


class DrawTwo(Effect):
    """C-14 Draw Two: the next player draws 2 and loses their turn (C-20 when final; H-1 replaces it)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        work.draw(work.next_seat(seat), 2)
        if not final:
            work.turn(work.next_seat(seat, 2))


DRAW_TWO: Final = DrawTwo()


class WildDrawFour(Effect):
    """C-16, C-17, D-17, D-18, F-24: the next player draws 4 and loses their turn, or challenges.

    ``final`` (C-20): the draw is made with no challenge. Classic ``strict``: no
    challenge either (only legal plays were offered). H-1 replaces it (the stack's total).
    """

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        victim = work.next_seat(seat)
        if final or work.options.wild_draw_four == "strict":
            work.draw(victim, 4)
            if not final:
                work.turn(work.next_seat(seat, 2))
            return
        legal = work.rules.wild_draw_four_legal(work, seat, work.hands[seat], action)
        after = work.next_seat(victim)
        work.pending = ChallengeWindow(victim, seat, legal, 4, after, victim, after)


WILD_DRAW_FOUR: Final = WildDrawFour()


def classic_wild_draw_four_legal(work: Work, seat: Seat, hand: bytes, action: A.Play) -> bool:
    """C-16: legal when the hand holds no other card of the current colour."""
    return not work.tables.holds_color(hand, work.prior_color)


CLASSIC_EFFECTS: dict[tuple[Rank, bool], Effect] = {
    (Rank.NUMBER, False): NO_EFFECT,
    (Rank.SKIP, False): SKIP,
    (Rank.REVERSE, False): REVERSE,
    (Rank.DRAW_TWO, False): DRAW_TWO,
    (Rank.WILD, False): NO_EFFECT,
    (Rank.WILD_DRAW_FOUR, False): WILD_DRAW_FOUR,
}
