"""A game step by step with every hand face up: what the review screens (browser, terminal) show.

A finished game's record is public (the server reveals its seed, and the record holds
every action), so its review may show every hand at every step. Everything shown is
built through the core's one view function: the table as a spectator sees it
(:func:`~unoengine.core.views.view_for` with no seat), each seat's hand from that seat's
own view, and the narrator's sentences for a spectator. Nothing here decides a rule: the
steps are the record's actions applied by the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unoengine.core.actions import parse_action
from unoengine.core.cards import format_card
from unoengine.core.engine import apply
from unoengine.core.record import Record, replaying
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView, view_for, view_to_json
from unoengine.i18n import DEFAULT
from unoengine.play.narrator import Names, first_card, in_language, narrate

__all__ = ["ReviewStep", "review_steps"]


@dataclass(frozen=True)
class ReviewStep:
    """The table after one action of the record (``index`` ``None``: after the deal, before any action)."""

    index: int | None
    """The action's position in the record's ``actions``."""
    seat: int | None
    action: str | None
    """The action in notation, as the record has it."""
    lines: tuple[str, ...]
    """The narrator's sentences of the step, for a spectator."""
    hands: tuple[tuple[str, ...], ...]
    """Every seat's hand after the step, in notation, face up."""
    view: PlayerView
    """The table after the step as a spectator sees it (top card, colour, direction, scores, who acts)."""

    def to_json(self, lang: str = DEFAULT) -> dict[str, Any]:
        """``{"index", "seat", "action", "lines", "hands", "view"}``; ``view`` is the view's JSON form.

        ``lang``: the lines and the view's words in that language (notation never changes)."""
        return {
            "index": self.index,
            "seat": self.seat,
            "action": self.action,
            "lines": list(in_language(self.lines, lang)),
            "hands": [list(hand) for hand in self.hands],
            "view": in_language(view_to_json(self.view), lang),
        }


def review_steps(record: Record, names: Sequence[str] | None = None) -> list[ReviewStep]:
    """The deal and then one step per action of ``record`` (also of a game that has not ended).

    ``names`` are the seats' names in the sentences (default "Seat 1", "Seat 2", …).

    Raises:
        RecordError: the record's set-up is refused.
        ReplayError: an action is refused (as :func:`~unoengine.core.record.replay` raises it).
    """
    seats = tuple(names) if names is not None else tuple(f"Seat {seat + 1}" for seat in range(record.seats))
    reader = Names(seats, None)
    state = record.start()
    before = view_for(state, None)
    opening = first_card(before, reader)
    steps = [ReviewStep(None, None, None, () if opening is None else (opening,), _hands(state), before)]
    for index, (seat, text) in enumerate(record.actions):
        with replaying(index, text):
            transition = apply(state, seat, parse_action(text))
        after = view_for(transition.state, None)
        lines = narrate(before, transition.events, after, reader, transition.state.tables.cards)
        steps.append(ReviewStep(index, seat, text, tuple(lines), _hands(transition.state), after))
        state, before = transition.state, after
    return steps


def _hands(state: GameState) -> tuple[tuple[str, ...], ...]:
    """Every seat's hand, each from that seat's own view (the one view function)."""
    return tuple(tuple(format_card(card) for card in view_for(state, seat).hand) for seat in range(state.seats))
