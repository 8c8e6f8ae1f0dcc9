"""Events: what happened during one action, for logs and clients.

An event may carry hidden cards (``CardsDrawn.cards``, ``HandShown.cards``);
:func:`redact` is the one function that turns an event into what a given seat may
see (G-2). Events are small immutable values (frozen dataclasses: events of
different types never compare equal, even when their fields do).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from unoengine.core.actions import Action, format_action
from unoengine.core.cards import CardId, Color, Seat, format_card

if TYPE_CHECKING:
    from unoengine.core.state import GameState


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A seat took an action; public."""

    seat: Seat
    action: Action


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """A seat drew cards; ``cards`` is ``None`` in a view that may not see them."""

    seat: Seat
    cards: tuple[CardId, ...] | None
    size: int = -1
    """How many cards were drawn, when ``cards`` is hidden."""

    @property
    def number(self) -> int:
        """How many cards were drawn (public)."""
        return self.size if self.cards is None else len(self.cards)


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile became the draw pile (C-10 shuffled, D-10 turned over)."""

    cards: int
    turned_over: bool


@dataclass(frozen=True, slots=True)
class HandShown:
    """A challenged hand is shown to the challenger only (C-17, D-18, F-24)."""

    seat: Seat
    to: Seat
    cards: tuple[CardId, ...] | None
    legal: bool | None


@dataclass(frozen=True, slots=True)
class ChallengeResolved:
    """A Wild Draw Four challenge: who drew, how many (public)."""

    challenger: Seat
    player: Seat
    success: bool


@dataclass(frozen=True, slots=True)
class PowerFlipped:
    """Flex Power Cards after a card (F-16): ``True`` is green."""

    power: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Caught:
    """``catcher`` caught ``seat``, who had not called UNO (C-18)."""

    catcher: Seat
    seat: Seat


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round ended: its winner (``None`` if blocked, G-6) and score changes.

    ``hands`` are every hand as the round ended: they are shown for scoring
    (C-21, D-19, F-28; Reading R-11), so the event is public.
    """

    round: int
    winner: Seat | None
    deltas: tuple[int, ...]
    hands: tuple[tuple[CardId, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game ended with this winner (or none) and these scores."""

    winner: Seat | None
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandsSwapped:
    """H-2: ``player``'s 7 swapped hands with ``target``, or its 0 (``target`` ``None``) passed every hand on.

    ``seats`` are the seats whose hands moved. The cards stay hidden (views show each seat its new hand).
    """

    player: Seat
    target: Seat | None
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class KnockedOut:
    """N-21: ``seat`` reached ``cards`` cards (25 or more) and is out of the round; its hand went under the discard
    pile (the cards stay hidden)."""

    seat: Seat
    cards: int


@dataclass(frozen=True, slots=True)
class RoundStarted:
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
    | HandsSwapped
    | KnockedOut
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
    HandsSwapped,
    KnockedOut,
)


EVENT_NAMES: dict[type[Event], str] = {
    event_type: re.sub(r"(?<!^)(?=[A-Z])", "_", event_type.__name__).lower() for event_type in EVENT_TYPES
}
"""The ``type`` of each event in its JSON form: ``cards_drawn``, ``hand_shown``, …"""


def redact(event: Event, seat: object) -> Event:
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
    elif type(event) is HandsSwapped:
        data.update(player=event.player, target=event.target, seats=list(event.seats))
    else:
        for item in fields(event):
            value = getattr(event, item.name)
            data[item.name] = value.letter if isinstance(value, Color) else value
    return data
