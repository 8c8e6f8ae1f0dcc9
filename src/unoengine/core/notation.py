"""Text forms of a whole state: a one-line summary and the referee's JSON view.

``state_to_json`` is the object ``uno replay --json`` prints (docs/NOTATION.md,
"The referee's view of a state"); its keys are a public contract.
"""

from __future__ import annotations

from typing import Any

from unoengine.core.cards import format_card
from unoengine.core.state import GameState


def state_to_json(state: GameState) -> dict[str, Any]:
    """The referee's view of a state: every hand, as NOTATION.md lists its keys."""
    cards = state.tables.cards
    pending = state.pending
    top = state.top
    data: dict[str, Any] = {
        "rules": state.rules.name,
        "seats": state.seats,
        "round": state.round,
        "to_act": pending.seat,
        "pending": pending.kind,
        "top": None if top is None else format_card(cards[top]),
        "color": None if state.color is None or top is None else state.color.letter,
        "direction": state.direction,
        "hands": [[format_card(cards[card]) for card in hand] for hand in state.hands],
        "draw_pile": len(state.draw_pile),
        "discard_pile": len(state.discard_pile),
    }
    extra = state.rules.state_json
    if extra is not None:
        data.update(extra(state))
    data["scores"] = list(state.scores)
    data["round_winner"] = state.round_winner
    data["game_winner"] = state.outcome.winner if state.outcome is not None else None
    data["dealer"] = state.dealer
    data["direction_name"] = "clockwise" if state.direction == 1 else "counterclockwise"
    data["round_scores"] = [list(deltas) for deltas in state.round_scores]
    data["unsafe"] = state.unsafe
    data["steps"] = state.steps
    data["termination"] = state.outcome.termination.value if state.outcome is not None else None
    return data


def format_state(state: GameState) -> str:
    """A one-line human summary of a state (for ``repr`` and logs)."""
    cards = state.tables.cards
    top = state.top
    hands = " ".join(
        f"{seat}:" + ",".join(format_card(cards[card]) for card in hand) for seat, hand in enumerate(state.hands)
    )
    color = state.color.letter if state.color is not None else "-"
    return (
        f"{state.rules.name} r{state.round} {state.pending.kind}@{state.pending.seat} "
        f"top={format_card(cards[top]) if top is not None else '-'}:{color} "
        f"dir={state.direction:+d} draw={len(state.draw_pile)} {hands}"
    )
