"""Observations and action masks for learning code, built from a :class:`~unoengine.PlayerView` only.

An observation is one flat ``float32`` vector made of named pieces (OpenSpiel's
observer), laid out by an :class:`Encoding` for one (rule set, seat count,
history window). Every piece is derived from the core's tables, never written
out here: the card kinds are :data:`unoengine.core.action_ids.KINDS` (every kind
of every rule set), the decisions are every rule set's decision kinds
(``RuleSet.decisions``), the action mask has :data:`~unoengine.core.action_ids.NUM_ACTIONS`
entries. A rule set or house rule that adds a card kind, a decision or an action
id changes the sizes here by itself. docs/RL.md lists the pieces.

Seats are written *relative to the observer*: entry ``k`` of a per-seat piece is
the seat ``(seat + k) % seats`` (entry 0 is the observer itself), as the action
table does for catches and targets.

>>> enc = Encoding("classic", 2)
>>> [piece.name for piece in enc.pieces][:4]
['hand', 'top', 'color', 'direction']
>>> from unoengine.core.engine import new_game
>>> from unoengine.core.views import view_for
>>> obs = enc.observe(view_for(new_game("classic", 2, seed=3), 0))
>>> float(enc.piece(obs, "hand").sum()), float(enc.piece(obs, "hand_sizes")[1])
(7.0, 7.0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from unoengine.core.action_ids import KINDS, NUM_ACTIONS
from unoengine.core.cards import COLORS, Card
from unoengine.core.rules import RULESETS, find_rules
from unoengine.core.views import PlayerView
from unoengine.rl.decisions import ids_of

ENCODING_VERSION = 2
"""The version of the observation layout; any change of a piece, its order or its meaning bumps it."""

KIND_INDEX: dict[Card, int] = {card: index for index, card in enumerate(KINDS)}
"""The index of every card kind in the per-kind pieces (the order of ``KINDS``)."""

DECISIONS: tuple[str, ...] = tuple(sorted({kind for rules in RULESETS.values() for kind in rules.decisions}))
"""The decision kinds of every rule set, sorted: the ``pending`` piece's one-hot order."""

_DECISION_INDEX = {kind: index for index, kind in enumerate(DECISIONS)}
_COLOR_INDEX = {color: index for index, color in enumerate(COLORS)}

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Piece(NamedTuple):
    """One named piece of the observation: ``vector[start:start + size]``."""

    name: str
    start: int
    size: int
    doc: str


class Encoding:
    """The observation layout of one rule set and seat count (``history``: past discards kept).

    Raises:
        InvalidNotationError: unknown rules, or a seat count the rule set does not allow.
    """

    def __init__(self, rules: str, seats: int, *, history: int = 0) -> None:
        ruleset = find_rules(rules)
        if seats not in ruleset.seats:
            from unoengine.core.errors import InvalidNotationError

            raise InvalidNotationError(f"{ruleset.title} is for {ruleset.seats.start}-{ruleset.seats.stop - 1} seats")
        if history < 0:
            raise ValueError(f"history must be 0 or more, not {history}")
        self.rules = ruleset.name
        self.seats = seats
        self.history = history
        kinds = len(KINDS)
        layout = [
            ("hand", kinds, "own hand: how many cards of each kind (KINDS order)"),
            ("top", kinds, "top card of the discard pile, one-hot by kind (all 0 while hidden)"),
            ("color", 4, "current colour, one-hot r, y, g, b (all 0 while none)"),
            ("direction", 1, "+1 in seat order, -1 against it"),
            ("hand_sizes", seats, "cards held by each seat, relative to the observer (entry 0: itself)"),
            ("draw_pile", 1, "cards in the draw pile"),
            ("power", seats, "Flex Power Card green (1) or red (0), relative seats; all 0 without Power Cards"),
            ("to_act", seats, "the seat that must decide, one-hot relative"),
            ("pending", len(DECISIONS), "the pending decision's kind, one-hot (DECISIONS order)"),
            ("unsafe", seats, "the seat that can be caught for not calling UNO, one-hot relative"),
            ("challenger_of", seats, "while a Wild Draw Four may be challenged: the seat that played it"),
            ("drawn_card", kinds, "the card the observer just drew and may play, one-hot by kind"),
            ("draft_card", kinds, "Duo: the card the observer looks at in the draft, one-hot by kind"),
            ("dump_color", 4, "Duo: the colour of a pending dump, one-hot"),
            ("volley", 1, "Duo: cards a pending volley would make the observer draw"),
            ("scores", seats, "game scores, relative seats, divided by the target score"),
            ("history", history * kinds, "the discards under the top card, newest first, one-hot by kind each"),
        ]
        pieces = []
        start = 0
        for name, size, doc in layout:
            pieces.append(Piece(name, start, size, doc))
            start += size
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.size = start
        self._offsets = {piece.name: piece.start for piece in pieces}
        self._target = float(ruleset.options().target_score)

    def piece(self, vector: Observation, name: str) -> Observation:
        """The slice of ``vector`` that holds the named piece.

        Raises:
            KeyError: no such piece.
        """
        for piece in self.pieces:
            if piece.name == name:
                return vector[..., piece.start : piece.start + piece.size]
        raise KeyError(f"no observation piece {name!r} (pieces: {', '.join(p.name for p in self.pieces)})")

    def observe(self, view: PlayerView) -> Observation:
        """A new observation vector of ``view``."""
        out = np.zeros(self.size, dtype=np.float32)
        self.write(view, out)
        return out

    def write(self, view: PlayerView, out: Observation) -> None:
        """Write the observation of ``view`` into ``out`` (``[:] =``; no allocation of a new vector)."""
        indices, values = self.entries(view)
        out[:] = 0.0
        out[indices] = values

    def entries(self, view: PlayerView) -> tuple[list[int], list[float]]:
        """The non-zero entries of the observation of ``view``, as (indices, values)."""
        at = self._offsets
        seats = self.seats
        me = view.seat if view.seat is not None else 0
        kind_index = KIND_INDEX
        counts: dict[int, float] = {}
        hand = at["hand"]
        for card in view.hand:
            index = hand + kind_index[card]
            counts[index] = counts.get(index, 0.0) + 1.0
        indices = list(counts)
        values = list(counts.values())
        add_index = indices.append
        add_value = values.append
        ones: list[int] = []  # the entries that are 1.0
        one = ones.append
        top = view.top
        if top is not None:
            one(at["top"] + kind_index[top])
        color = view.color
        if color is not None:
            one(at["color"] + _COLOR_INDEX[color])
        indices += (at["direction"], at["draw_pile"], at["pending"] + _DECISION_INDEX[view.pending])
        values += (float(view.direction), float(view.draw_pile), 1.0)
        sizes = at["hand_sizes"]
        hand_sizes = view.hand_sizes
        for k in range(seats):
            count = hand_sizes[(me + k) % seats]
            if count:
                add_index(sizes + k)
                add_value(float(count))
        flags = view.power
        if flags:
            power = at["power"]
            for k in range(seats):
                if flags[(me + k) % seats]:
                    one(power + k)
        totals = view.scores
        if any(totals):
            scores = at["scores"]
            target = self._target
            for k in range(seats):
                total = totals[(me + k) % seats]
                if total:
                    add_index(scores + k)
                    add_value(total / target)
        seat = view.to_act
        if seat is not None:
            one(at["to_act"] + (seat - me) % seats)
        seat = view.unsafe
        if seat is not None:
            one(at["unsafe"] + (seat - me) % seats)
        seat = view.challenger_of
        if seat is not None:
            one(at["challenger_of"] + (seat - me) % seats)
        drawn = view.drawn_card
        if drawn is not None:
            one(at["drawn_card"] + kind_index[drawn])
        if view.details:
            draft = view.draft_card
            if draft is not None:
                one(at["draft_card"] + kind_index[draft])
            dump = view.dump_color
            if dump is not None:
                one(at["dump_color"] + _COLOR_INDEX[dump])
            volley = view.volley
            if volley:
                add_index(at["volley"])
                add_value(float(volley))
        if self.history:
            history = at["history"]
            kinds = len(KINDS)
            past = view.discard_pile[:-1] if top is not None else view.discard_pile
            for k, card in enumerate(reversed(past[-self.history :] if past else ())):
                one(history + k * kinds + kind_index[card])
        indices += ones
        values += [1.0] * len(ones)
        return indices, values

    def describe(self, vector: Observation) -> str:
        """A human line per non-zero piece (for golden files and debugging)."""
        lines = []
        for piece in self.pieces:
            part = vector[piece.start : piece.start + piece.size]
            nonzero = np.flatnonzero(part)
            if nonzero.size:
                shown = ", ".join(f"{self._label(piece.name, int(i))}={part[i]:g}" for i in nonzero)
                lines.append(f"{piece.name}: {shown}")
        return "\n".join(lines)

    def labels(self) -> list[str]:
        """A name for every entry of the vector (``piece:label``: ``hand:R7``, ``hand_sizes:1``)."""
        return [
            f"{piece.name}:{self._label(piece.name, index)}" for piece in self.pieces for index in range(piece.size)
        ]

    def _label(self, name: str, index: int) -> str:
        from unoengine.core.cards import format_card

        if name in ("hand", "top", "drawn_card", "draft_card"):
            return format_card(KINDS[index])
        if name == "history":
            return f"{index // len(KINDS)}:{format_card(KINDS[index % len(KINDS)])}"
        if name in ("color", "dump_color"):
            return COLORS[index].letter
        if name == "pending":
            return DECISIONS[index]
        return str(index)


def legal_ids_of(view: PlayerView) -> list[int]:
    """The action ids of the view's own legal actions (its decision and its out-of-turn actions)."""
    seat = view.seat
    assert seat is not None, "a spectator has no actions"
    return ids_of(view.legal, seat, view.seats)


def write_mask(ids: list[int], out: Mask) -> None:
    """Write the mask of ``ids`` (1 at each id, else 0) into ``out``."""
    out[:] = 0
    if ids:
        out[ids] = 1


def new_mask() -> Mask:
    """An all-zero mask of :data:`NUM_ACTIONS` entries."""
    return np.zeros(NUM_ACTIONS, dtype=np.int8)
