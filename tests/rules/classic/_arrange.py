"""Arranged Classic positions: any hands, any piles, any seat to act (tests only).

``arrange([["R7"], ["G2", "B3"]], top="R5", draw=["Y1"], to_act=0)`` gives a state
in the middle of a round: the hands hold exactly the named cards (no filling), the
discard pile is ``under`` + ``top`` (top last), the draw pile starts with ``draw``
(top first) and every other card of the deck lies beneath it, or goes to the hand
of ``rest_to`` when it is given. Every card of the deck is somewhere (G-3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.helpers import legal
from unoengine import Color, GameState, new_game, parse_card
from unoengine.core.cards import CardId
from unoengine.core.state import Turn


def arrange(
    hands: Sequence[Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    *,
    to_act: int,
    color: str | None = None,
    under: Sequence[str] = (),
    direction: int = 1,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    rest_to: int | None = None,
    rules: str = "classic",
) -> GameState:
    """A Classic state (or one of ``rules``, whose deck holds the named cards) with exactly these cards where they
    are named."""
    state = new_game(rules, len(hands), seed=0, options=options, dealer=dealer)
    cards = state.tables.cards
    free: dict[Any, list[CardId]] = {}
    for card_id in range(len(cards) - 1, -1, -1):
        free.setdefault(cards[card_id], []).append(card_id)

    def take(text: str) -> CardId:
        ids = free.get(parse_card(text))
        if not ids:
            raise ValueError(f"no {text} left in the deck")
        return ids.pop()

    hand_ids = [[take(text) for text in seat_hand] for seat_hand in hands]
    discard = tuple(take(text) for text in [*under, top])
    drawn = [take(text) for text in draw]
    rest = sorted(card_id for ids in free.values() for card_id in ids)
    if rest_to is None:
        pile = tuple(rest) + tuple(reversed(drawn))
    else:
        hand_ids[rest_to] += rest
        pile = tuple(reversed(drawn))
    face = parse_card(top)
    current = face.color if face.color is not None else Color.parse(color or "r")
    return state._replace(
        hands=tuple(tuple(ids) for ids in hand_ids),
        draw_pile=pile,
        discard_pile=discard,
        color=current,
        direction=direction,
        pending=Turn(to_act),
        unsafe=None,
        blocked=0,
    )


def all_cards(state: GameState) -> list[CardId]:
    """Every physical card of the state, sorted (G-3: always the whole deck)."""
    ids = [card for hand in state.hands for card in hand]
    return sorted([*ids, *state.draw_pile, *state.discard_pile])


def simple_move(state: GameState) -> str:
    """A plain deterministic move for the seat to act: its first play, else draw, else pass."""
    seat = state.to_act
    assert seat is not None
    options = [text for text in legal(state, seat) if text != "uno" and not text.startswith("catch")]
    plays = [text for text in options if text not in ("draw", "pass")]
    if plays:
        return plays[0]
    return "draw" if "draw" in options else "pass"
