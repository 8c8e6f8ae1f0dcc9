"""The game state value and the pending decisions.

:class:`GameState` is an immutable value. It is a ``NamedTuple`` rather than a
frozen dataclass: a 20-field frozen dataclass costs about 2.4 µs to build in
CPython 3.11 (one ``object.__setattr__`` per field), a ``NamedTuple`` about 0.4 µs,
and the engine builds one per action. It keeps the value semantics (immutable,
``==`` by content, hashable) that the design asks for.

Piles are tuples of ``CardId`` with the **top at the end**. Hands are tuples of
``CardId`` in the order the cards were received.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from unoengine.core.cards import CardId, Color, Seat

if TYPE_CHECKING:
    from unoengine.core.rules.base import DeckTables, Options, RuleSet


class Turn(NamedTuple):
    """``turn``: the seat plays a card or draws (C-7, C-8)."""

    seat: Seat
    kind: str = "turn"


class DrawnCardChoice(NamedTuple):
    """``drawn``: after a draw, play the drawn card or ``pass`` (C-8, F-10, F-11).

    ``card`` is ``None`` when nothing could be drawn (C-11): only ``pass`` is left.
    """

    seat: Seat
    card: CardId | None
    kind: str = "drawn"


class ChallengeWindow(NamedTuple):
    """``challenge``: the seat that must draw accepts or challenges (C-17, D-18, F-24, F-25).

    ``legal`` (whether the Wild Draw Four was played legally) is hidden
    information: views never show it.
    """

    seat: Seat
    player: Seat
    legal: bool
    draws: int
    after_accept: Seat
    after_success: Seat
    after_fail: Seat
    kind: str = "challenge"


class ColorChoice(NamedTuple):
    """``color``: name the colour of a Wild turned at the start (Duo D-6).

    Then ``victim`` draws ``draws`` cards (``draws`` may be 0) and ``next`` plays.
    """

    seat: Seat
    victim: Seat
    draws: int
    next: Seat
    kind: str = "color"


class Volley(NamedTuple):
    """``volley``: add a Draw Two or ``draw`` the total (Duo D-13)."""

    seat: Seat
    total: int
    kind: str = "volley"


class Dump(NamedTuple):
    """``dump``: play every card of ``color``, one at a time, or decline (Duo D-15).

    ``started``: the dump has begun and must be finished. ``on_decline``: the seat
    whose turn it is if the seat declines (``pass``) or holds nothing to add.
    """

    seat: Seat
    color: Color
    started: bool
    on_decline: Seat
    kind: str = "dump"


class Draft(NamedTuple):
    """``draft``: ``keep`` or ``reject`` the top card of the draw pile (Duo D-3)."""

    seat: Seat
    step: int
    kind: str = "draft"


class GameOver(NamedTuple):
    """``game_over``: nobody acts any more."""

    seat: None = None
    kind: str = "game_over"


Pending = Turn | DrawnCardChoice | ChallengeWindow | ColorChoice | Volley | Dump | Draft | GameOver

GAME_OVER = GameOver()


class Termination(Enum):
    """Why a game ended."""

    ROUND_WON = "round_won"
    """``single_round``: the round's winner wins the game (C-20, F-27, D-20)."""
    TARGET_SCORE = "target_score"
    """A seat reached the target score (C-21, D-20, F-28)."""
    BLOCKED = "blocked"
    """A blocked round ended a single-round game with no winner (G-6)."""


class Outcome(NamedTuple):
    """How the game ended: the termination, the winner (or ``None``) and the scores."""

    termination: Termination
    winner: Seat | None
    scores: tuple[int, ...]


class GameState(NamedTuple):
    """Everything about a game at one moment (an immutable value).

    Build one with :func:`unoengine.new_game`; change it only with
    :func:`unoengine.apply`.
    """

    rules: RuleSet
    options: Options
    tables: DeckTables
    seats: int
    seed: int
    shuffles: int
    """How many shuffles (and cuts) this game has made: shuffle n uses seed ``f"{seed}:{n}"`` (G-1)."""
    round: int
    dealer: Seat
    """The round's dealer; in Duo, the round's Player 1 (D-2, D-5)."""
    hands: tuple[tuple[CardId, ...], ...]
    draw_pile: tuple[CardId, ...]
    discard_pile: tuple[CardId, ...]
    color: Color | None
    direction: int
    power: tuple[bool, ...]
    """Flex Power Cards, ``True`` for green (F-2); empty in other rule sets."""
    pending: Pending
    unsafe: Seat | None
    """The seat that has one card, has not called UNO, and can still be caught (C-18)."""
    blocked: int
    """Consecutive seats that drew nothing and passed (G-6)."""
    public_bottom: int
    """How many cards at the bottom of the draw pile are in a publicly known order (D-4, D-10)."""
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    """Each finished round's score changes, oldest first (G-5)."""
    round_winner: Seat | None
    outcome: Outcome | None
    steps: int
    """Actions applied so far."""

    @property
    def to_act(self) -> Seat | None:
        """The seat expected to act next, or ``None`` when the game is over."""
        return self.pending.seat

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome is not None

    @property
    def top(self) -> CardId | None:
        """The top card of the discard pile (``None`` during a Duo draft)."""
        if type(self.pending) is Draft or not self.discard_pile:
            return None
        return self.discard_pile[-1]

    def __repr__(self) -> str:
        from unoengine.core.notation import format_state

        return f"<GameState {format_state(self)}>"
