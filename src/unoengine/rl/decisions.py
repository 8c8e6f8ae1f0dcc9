"""Who is offered a decision next, out-of-turn ones included (docs/RL.md, "Who decides when").

The core lists every seat's legal actions, out-of-turn ones too
(``legal_actions(state, seat)`` for a seat that is not to act: ``uno``,
``catch N``, and whatever out-of-turn action a house rule adds, such as a
jump-in). The environments turn that into one decision at a time, generically,
without naming any action:

1. After every action, each seat that is *not* to act and has legal actions is
   offered them once, in turn order from the seat to act (its next seat first).
   Its choices are those actions plus ``pass`` (:data:`DECLINE_ID`): let the
   chance go.
2. An offered seat that acts changes the state: the offers start again from
   rule 1 on the new state. One that passes is not asked again until the state
   changes.
3. Then the seat to act decides (its mask may hold out-of-turn actions of its
   own too, such as ``uno`` or ``catch N``).

``pass`` is never legal for a seat that is not to act, so it cannot be taken for
an action of the game there.
"""

from __future__ import annotations

from collections.abc import Iterable

from unoengine.core.action_ids import PASS_ID, ActionIdError, ids_by_action
from unoengine.core.actions import PASS, Action
from unoengine.core.cards import Seat
from unoengine.core.engine import legal_actions
from unoengine.core.state import GameState, seat_of

DECLINE_ID = PASS_ID
"""The id a seat offered an out-of-turn decision takes to let it go (``pass``)."""

DECLINE = PASS


def ids_of(actions: Iterable[Action], seat: Seat, seats: int) -> list[int]:
    """The action ids (``unoengine.core.action_ids``) of ``seat``'s ``actions``, in order.

    Raises:
        ActionIdError: an action with no id (not an action of the table).
    """
    return ids_in(ids_by_action(seats, seat), actions, seat, seats)


def ids_in(by_value: dict[Action, int], actions: Iterable[Action], seat: Seat, seats: int) -> list[int]:
    """:func:`ids_of` with ``seat``'s table already at hand (``ids_by_action(seats, seat)``).

    Raises:
        ActionIdError: an action with no id (not an action of the table).
    """
    out: list[int] = []
    for action in actions:
        index = by_value.get(action)
        if index is None:
            raise ActionIdError(f"no action id for {action!s} of seat {seat} in a {seats}-seat game")
        out.append(index)
    return out


def offered(state: GameState, declined: frozenset[Seat] | set[Seat]) -> tuple[Seat | None, tuple[Action, ...]]:
    """The seat offered the next decision and its choices (``pass`` first for an out-of-turn offer).

    ``(None, ())`` once the game is over.
    """
    to_act = seat_of(state.pending)
    if to_act is None:
        return None, ()
    seats = state.seats
    for k in range(1, seats):
        seat = (to_act + k) % seats
        if seat in declined:
            continue
        legal = legal_actions(state, seat)
        if legal:
            return seat, (DECLINE, *legal)
    return to_act, legal_actions(state, to_act)
