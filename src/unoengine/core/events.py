"""Events: what happened during one action, for logs and clients.

An event may carry hidden cards (``CardsDrawn.cards``, ``HandShown.cards``);
:func:`redact` is the one function that turns an event into what a given seat may
see (G-2). Events are small immutable values.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from unoengine.core.actions import Action, format_action
from unoengine.core.cards import CardId, Color, Seat, format_card

if TYPE_CHECKING:
    from unoengine.core.state import GameState


class ActionTaken(NamedTuple):
    """A seat took an action; public."""

    seat: Seat
    action: Action


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


EVENT_TYPES: tuple[type[Event], ...] = (
    ActionTaken,
    CardsDrawn,
    Reshuffled,
    HandShown,
    ChallengeResolved,
    PowerFlipped,
    Caught,
    RoundEnded,
    GameEnded,
    RoundStarted,
)


def _typed_eq(self: tuple[Any, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _typed_ne(self: tuple[Any, ...], other: object) -> bool:
    return not _typed_eq(self, other)


for _event_type in EVENT_TYPES:
    # Events of different types never compare equal, even when their fields do
    # (``Caught(1, 0)`` is not ``RoundStarted(1, 0)``): a plain NamedTuple would.
    _event_type.__eq__ = _typed_eq  # type: ignore[method-assign]
    _event_type.__ne__ = _typed_ne  # type: ignore[method-assign,assignment]
    _event_type.__hash__ = tuple.__hash__  # type: ignore[method-assign]

EVENT_NAMES: dict[type[Event], str] = {
    event_type: re.sub(r"(?<!^)(?=[A-Z])", "_", event_type.__name__).lower() for event_type in EVENT_TYPES
}
"""The ``type`` of each event in its JSON form: ``cards_drawn``, ``hand_shown``, …"""


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


def event_to_json(event: Event, state: GameState) -> dict[str, Any]:
    """The JSON form of an event (docs/NOTATION.md, "Views and events as JSON").

    ``state`` is any state of the same game (it names the cards). Cards are card
    notation; a card list that the event hides is ``null`` and ``count`` says how
    many there were. Redact first (:func:`redact`): this function shows what it is given.

    >>> from unoengine.core.engine import new_game
    >>> state = new_game("classic", 2, seed=1)
    >>> event_to_json(redact(CardsDrawn(1, (5, 9)), 0), state)
    {'type': 'cards_drawn', 'seat': 1, 'cards': None, 'count': 2}
    """
    cards = state.tables.cards

    def named(ids: tuple[CardId, ...] | None) -> list[str] | None:
        return None if ids is None else [format_card(cards[card]) for card in ids]

    data: dict[str, Any] = {"type": EVENT_NAMES[type(event)]}
    if type(event) is ActionTaken:
        data.update(seat=event.seat, action=format_action(event.action))
    elif type(event) is CardsDrawn:
        data.update(seat=event.seat, cards=named(event.cards), count=event.number)
    elif type(event) is HandShown:
        data.update(seat=event.seat, to=event.to, cards=named(event.cards), legal=event.legal)
    elif type(event) is RoundEnded:
        points = state.tables.points
        data.update(
            round=event.round,
            winner=event.winner,
            deltas=list(event.deltas),
            hands=[named(hand) for hand in event.hands],
            points=[[points[card] for card in hand] for hand in event.hands],
        )
    elif type(event) is PowerFlipped:
        data["power"] = ["green" if green else "red" for green in event.power]
    elif type(event) is GameEnded:
        data.update(winner=event.winner, scores=list(event.scores))
    else:
        for key, value in event._asdict().items():
            data[key] = value.letter if isinstance(value, Color) else value
    return data
