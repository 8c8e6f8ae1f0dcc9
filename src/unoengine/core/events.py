"""Events: what happened during one action, for logs and clients.

An event may carry hidden cards (``CardsDrawn.cards``, ``HandShown.cards``);
:func:`redact` is the one function that turns an event into what a given seat may
see (G-2). Events are small immutable values.
"""

from __future__ import annotations

from typing import NamedTuple

from unoengine.core.cards import CardId, Seat


class ActionTaken(NamedTuple):
    """A seat took an action (its notation); public."""

    seat: Seat
    action: str


class CardsDrawn(NamedTuple):
    """A seat drew cards; ``cards`` is ``None`` in a view that may not see them."""

    seat: Seat
    cards: tuple[CardId, ...] | None
    size: int = -1
    """How many cards were drawn, when ``cards`` is hidden."""

    @property
    def number(self) -> int:
        """How many cards were drawn (public)."""
        return self.size if self.cards is None else len(self.cards)


class Reshuffled(NamedTuple):
    """The discard pile became the draw pile (C-10 shuffled, D-10 turned over)."""

    cards: int
    turned_over: bool


class HandShown(NamedTuple):
    """A challenged hand is shown to the challenger only (C-17, D-18, F-24)."""

    seat: Seat
    to: Seat
    cards: tuple[CardId, ...] | None
    legal: bool | None


class ChallengeResolved(NamedTuple):
    """A Wild Draw Four challenge: who drew, how many (public)."""

    challenger: Seat
    player: Seat
    success: bool


class PowerFlipped(NamedTuple):
    """Flex Power Cards after a card (F-16): ``True`` is green."""

    power: tuple[bool, ...]


class Caught(NamedTuple):
    """``catcher`` caught ``seat``, who had not called UNO (C-18)."""

    catcher: Seat
    seat: Seat


class RoundEnded(NamedTuple):
    """A round ended: its winner (``None`` if blocked, G-6) and score changes.

    ``hands`` are every hand as the round ended: they are shown for scoring
    (C-21, D-19, F-28; Reading R-11), so the event is public.
    """

    round: int
    winner: Seat | None
    deltas: tuple[int, ...]
    hands: tuple[tuple[CardId, ...], ...] = ()


class GameEnded(NamedTuple):
    """The game ended with this winner (or none) and these scores."""

    winner: Seat | None
    scores: tuple[int, ...]


class RoundStarted(NamedTuple):
    """A new round was dealt (or, in Duo, its draft begins)."""

    round: int
    dealer: Seat


Event = (
    ActionTaken
    | CardsDrawn
    | Reshuffled
    | HandShown
    | ChallengeResolved
    | PowerFlipped
    | Caught
    | RoundEnded
    | GameEnded
    | RoundStarted
)


def redact(event: Event, seat: Seat | None) -> Event:
    """The event as ``seat`` may see it (``None``: a spectator). G-2.

    >>> redact(CardsDrawn(1, (5, 9)), 0)
    CardsDrawn(seat=1, cards=None, size=2)
    >>> redact(CardsDrawn(1, (5, 9)), 1)
    CardsDrawn(seat=1, cards=(5, 9), size=-1)
    """
    if type(event) is CardsDrawn:
        if event.seat == seat or event.cards is None:
            return event
        return CardsDrawn(event.seat, None, len(event.cards))
    if type(event) is HandShown:
        if event.to == seat:
            return event
        return HandShown(event.seat, event.to, None, None)
    return event
