"""Observations and masks written straight from the state into preallocated buffers (compiled with the core).

:class:`Writer` is the fast twin of :meth:`unoengine.rl.encoding.Encoding.entries`, which builds the same
entries from a :class:`~unoengine.core.views.PlayerView`. It reads the state through the same allow-list as
``view_for`` (G-2) and nothing else: the seat's own hand, the hand *sizes*, the top card (``state.top``, hidden
while a decision hides it), the colour, direction, draw pile *size*, Power Cards, the pending decision's seat,
kind and public fields, the drawn card only for its drawer, the details the decision's handler shows this seat
(``handler.details(state, seat)``, as ``view_for``), the scores and the discards. A test proves that both give
the same vector for every state of many games, and that dealing the hidden cards again changes neither.

The buffers are anything that takes ``buffer[index] = value``: a row of a NumPy array seen through a
``memoryview`` (``float32`` for observations, ``int8`` for masks). This module imports no NumPy. A row must be
all zero before :meth:`Writer.write` (the callers zero whole batches at once).

Offsets are absolute positions in the row, ``-1`` for a piece the layout leaves out
(:class:`unoengine.rl.encoding.Encoding` makes them).
"""

from __future__ import annotations

from typing import Any, Final, cast

from unoengine.core.cards import COLORS, Card, Color
from unoengine.core.state import ChallengeWindow, DrawnCardChoice, Game, GameState, Turn, handler_of, seat_of

_FLOATS: Final[list[object]] = [float(value) for value in range(257)]
"""Boxed floats 0.0 … 256.0: a count is written without allocating a float."""

_ONE: Final[object] = 1.0
_MINUS_ONE: Final[object] = -1.0
_MASK_ONE: Final[object] = 1

_TURN: Final = Turn

_RED: Final = COLORS[0]
_YELLOW: Final = COLORS[1]
_GREEN: Final = COLORS[2]


def _color_index(color: Color) -> int:
    """0 to 3 (r, y, g, b), by identity (an ``Enum`` hashes in Python code)."""
    if color is _RED:
        return 0
    if color is _YELLOW:
        return 1
    if color is _GREEN:
        return 2
    return 3


def _count(value: int) -> object:
    """A count as a float object (a boxed one for 0 … 256)."""
    if 0 <= value <= 256:
        return _FLOATS[value]
    return float(value)


class Writer:
    """Writes one seat's observation of a state into a row (see the module's docs).

    ``offsets``: the start of each piece by name (``-1``: not in the layout); ``pending``: the position of the
    ``pending`` entry of each decision type (``RuleSet.decisions``' values: found by the type, without reading
    the decision's ``kind``); ``kinds``: the layout's card kinds (vocabulary) in order;
    ``details``: the start of the piece fed by each of a handler's details, by the detail's name.
    """

    def __init__(
        self,
        seats: int,
        offsets: dict[str, int],
        pending: dict[type, int],
        kinds: tuple[Card, ...],
        details: dict[str, int],
        target: float,
        history: int,
    ) -> None:
        self.seats = seats
        self.hand = offsets.get("hand", -1)
        self.top = offsets.get("top", -1)
        self.color = offsets.get("color", -1)
        self.direction = offsets.get("direction", -1)
        self.hand_sizes = offsets.get("hand_sizes", -1)
        self.draw_pile = offsets.get("draw_pile", -1)
        self.power = offsets.get("power", -1)
        self.to_act = offsets.get("to_act", -1)
        self.unsafe = offsets.get("unsafe", -1)
        self.challenger_of = offsets.get("challenger_of", -1)
        self.drawn_card = offsets.get("drawn_card", -1)
        self.scores = offsets.get("scores", -1)
        self.history_at = offsets.get("history", -1)
        self.history = history
        self.discards_at = offsets.get("discards", -1)
        self.pending: dict[type, int] = dict(pending)
        self.details: dict[str, int] = dict(details)
        self.kinds = kinds
        self.kind_index: dict[Card, int] = {card: index for index, card in enumerate(kinds)}
        self.vocabulary = len(kinds)
        self.target = target
        self._counts: list[int] = [0] * len(kinds)
        self._game: object = None
        self._kind_of: bytes = b""
        self._maps: dict[Game, bytes] = {}

    def kind_map(self, game: Game) -> bytes:
        """Card id -> index in the layout's kinds, for the deck of ``game`` (made once per game object).

        Raises:
            KeyError: a card of the deck that is not one of the layout's kinds (another rule set's game).
        """
        found = self._maps.get(game)
        if found is None:
            index = self.kind_index
            found = bytes([index[card] for card in game.tables.cards])
            self._maps[game] = found
        return found

    def write(self, state: GameState, seat: int, out: Any) -> None:
        """The observation of ``seat`` (a seat of the game) into the all-zero row ``out``."""
        game = state.game
        if game is not self._game:
            self._kind_of = self.kind_map(game)
            self._game = game
        kind_of = self._kind_of
        seats = self.seats
        hands = state.hand_bytes
        at = self.hand
        if at >= 0:
            self._write_counts(hands[seat], at, out)
        pending = state.pending
        pending_type = type(pending)
        discards = state.discard_bytes
        shown = len(discards) > 0 and pending_type not in game.rules.hides_top  # ``state.top``, inline
        at = self.top
        if shown and at >= 0:
            out[at + kind_of[discards[len(discards) - 1]]] = _ONE
        color = state.color
        at = self.color
        if color is not None and at >= 0:
            out[at + _color_index(color)] = _ONE
        at = self.direction
        if at >= 0:
            out[at] = _ONE if state.direction > 0 else _MINUS_ONE
        at = self.hand_sizes
        if at >= 0:
            for k in range(seats):
                count = len(hands[(seat + k) % seats])
                if count:
                    out[at + k] = _count(count)
        at = self.draw_pile
        if at >= 0:
            count = len(state.draw_bytes)
            if count:
                out[at] = _count(count)
        at = self.power
        if at >= 0:
            flags = state.power
            if flags:
                for k in range(seats):
                    if flags[(seat + k) % seats]:
                        out[at + k] = _ONE
        to_act = seat_of(pending)
        at = self.to_act
        if to_act is not None and at >= 0:
            out[at + (to_act - seat) % seats] = _ONE
        at = self.pending.get(pending_type, -1)
        if at >= 0:
            out[at] = _ONE
        unsafe = state.unsafe
        at = self.unsafe
        if unsafe is not None and at >= 0:
            out[at + (unsafe - seat) % seats] = _ONE
        if pending_type is not _TURN:  # (most decisions are turns: none of the pieces below)
            if pending_type is ChallengeWindow:
                at = self.challenger_of
                if at >= 0:
                    out[at + (cast(ChallengeWindow, pending).player - seat) % seats] = _ONE
            elif pending_type is DrawnCardChoice:
                at = self.drawn_card
                drawn = cast(DrawnCardChoice, pending).card
                if at >= 0 and to_act == seat and drawn is not None:
                    out[at + kind_of[drawn]] = _ONE
            if self.details:
                self._write_details(state, seat, out)
        at = self.scores
        if at >= 0 and state.round_scores:  # no score before a round is scored
            totals = state.scores
            target = self.target
            for k in range(seats):
                total = totals[(seat + k) % seats]
                if total:
                    out[at + k] = total / target
        if self.history:
            self._write_history(state, shown, out)
        if self.discards_at >= 0:  # the whole pile, as ``view_for``'s ``discard_pile``
            self._write_counts(state.discard_bytes, self.discards_at, out)

    def _write_details(self, state: GameState, seat: int, out: Any) -> None:
        """The pieces fed by the pending decision's details for ``seat`` (as ``view_for`` gets them)."""
        handler = handler_of(state.game, state.pending)
        for name, value in handler.details(state, seat):
            at = self.details.get(name, -1)
            if at < 0 or value is None:
                continue
            if isinstance(value, Card):
                out[at + self.kind_index[value]] = _ONE
            elif isinstance(value, Color):
                out[at + _color_index(value)] = _ONE
            elif value:
                out[at] = _count(int(value))

    def _write_history(self, state: GameState, shown: bool, out: Any) -> None:
        """The discards under the top card (all of them while the top is hidden), newest first."""
        kind_of = self._kind_of
        discards = state.discard_bytes
        end = len(discards) - 1 if shown else len(discards)
        at = self.history_at
        vocabulary = self.vocabulary
        for k in range(min(self.history, max(end, 0))):
            out[at + k * vocabulary + kind_of[discards[end - 1 - k]]] = _ONE

    def _write_counts(self, cards: bytes, at: int, out: Any) -> None:
        """How many of ``cards`` (card ids) are of each kind, into the piece starting at ``at``."""
        kind_of = self._kind_of
        counts = self._counts
        size = len(cards)
        for i in range(size):
            counts[kind_of[cards[i]]] += 1
        for i in range(size):
            index = kind_of[cards[i]]
            count = counts[index]
            if count:
                out[at + index] = _count(count)
                counts[index] = 0


def write_mask(ids: list[int], out: Any) -> None:
    """1 at each of ``ids`` in the all-zero row ``out``."""
    for index in ids:
        out[index] = _MASK_ONE
