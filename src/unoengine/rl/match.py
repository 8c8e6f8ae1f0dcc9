"""One game as the environments drive it: the state, who is offered a decision, action ids in, rewards out.

Every environment of :mod:`unoengine.rl` plays through a :class:`Match`, so
that they agree on who decides when (:mod:`unoengine.rl.decisions`), on what an
illegal action is (an id that is not among the offered choices: legality is
``legal_actions``, nothing else) and on the rewards (docs/RL.md, "Rewards").
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

from unoengine.core.action_ids import ActionIdError, action_of, ids_by_action
from unoengine.core.actions import Action
from unoengine.core.cards import Seat
from unoengine.core.engine import apply_unchecked, new_game, refusal
from unoengine.core.errors import IllegalActionError
from unoengine.core.rules import find_rules
from unoengine.core.state import GameState, seat_of
from unoengine.rl.decisions import DECLINE, ids_in, offered

REWARDS = ("win", "score")
"""``win``: +1 to the winner (each seat of its team, H-11), the same total shared out as a loss by the other seats
(-1/(seats-1) each without teams); ``score``: the last round's score changes, zero-sum."""

ILLEGAL = ("raise", "terminate")
"""``raise``: an illegal action raises :class:`IllegalActionError`; ``terminate``: the game ends, -1 to the offender."""


def check_choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of ``allowed``.

    Raises:
        ValueError: it is not.
    """
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    assert isinstance(value, str)
    return value


class Match:
    """A game of ``rules`` for ``seats`` seats with the rule ``options`` (``single_round`` unless given).

    Compiled with the core: every environment steps through it. ``ids`` are the
    action ids of the offered seat's ``choices``, in the same order.

    Raises:
        InvalidNotationError: unknown rules or option, or a bad seat count.
        ValueError: a bad ``reward``.
    """

    def __init__(
        self, rules: str, seats: int, options: Mapping[str, Any] | None = None, *, reward: str = "win"
    ) -> None:
        self.ruleset = find_rules(rules)
        given = dict(options or {})
        given.setdefault("single_round", True)
        self.options = self.ruleset.options(given)
        self.seats = seats
        self.reward = check_choice("reward", reward, REWARDS)
        self.state: GameState = new_game(self.ruleset, seats, seed=0, options=self.options)  # checks seats
        self.declined: set[Seat] = set()
        self.seat: Seat | None = None
        self.choices: tuple[Action, ...] = ()
        self.ids: list[int] = []
        """The action ids of :attr:`choices`, in order (read them; never change them)."""
        self.offender: Seat | None = None
        self._ids: list[dict[Action, int]] = [ids_by_action(seats, seat) for seat in range(seats)]
        """Each seat's action ids by action (the action table's own dicts)."""
        self._offer()

    def reset(self, seed: int) -> None:
        """Start a new game with ``seed`` (G-1)."""
        self.state = new_game(self.ruleset, self.seats, seed=seed, options=self.options)
        self.declined = set()
        self.offender = None
        self._offer()

    @property
    def is_over(self) -> bool:
        """True once the game has ended (or an illegal action ended it)."""
        return self.seat is None

    @property
    def is_out_of_turn(self) -> bool:
        """True while the offered seat is not the seat to act (its choices start with ``pass``)."""
        seat = self.seat
        return seat is not None and seat != seat_of(self.state.pending)

    @property
    def choice_ids(self) -> list[int]:
        """The ids of the offered seat's choices (``legal_actions``, and ``pass`` on an out-of-turn offer)."""
        return list(self.ids)

    def action(self, action_id: object) -> Action | None:
        """The offered seat's action of ``action_id``, or ``None`` if it is not one of its choices.

        Any integer (a NumPy one too) is an id; anything else is none.
        """
        if type(action_id) is int:
            wanted: int = action_id
        else:
            try:
                wanted = operator.index(action_id)  # type: ignore[arg-type]
            except TypeError:
                return None
        ids = self.ids
        for k in range(len(ids)):
            if ids[k] == wanted:
                return self.choices[k]
        return None

    def refuse(self, action_id: object) -> IllegalActionError:
        """The error for an id that is not among the offered seat's choices (naming the rule)."""
        seat = self.seat
        assert seat is not None
        try:
            action = action_of(operator.index(action_id), seat, self.seats)  # type: ignore[arg-type]
        except (ActionIdError, TypeError, ValueError) as error:
            return IllegalActionError("G-4", f"action id {action_id!r} of seat {seat}: {error}")
        if self.is_out_of_turn:
            return IllegalActionError(
                "G-4", f"seat {seat} is offered {', '.join(map(str, self.choices))}, not {action}"
            )
        rule, reason = refusal(self.state, seat, action)
        return IllegalActionError(rule, reason)

    def take_id(self, action_id: object, illegal: str) -> bool:
        """Take the offered seat's action of ``action_id``; False if it was illegal and ended the game.

        Raises:
            IllegalActionError: ``action_id`` is not one of the choices and ``illegal`` is ``"raise"``.
        """
        chosen = None if action_id is None else self.action(action_id)
        if chosen is None:
            if illegal == "raise":
                raise self.refuse(action_id)
            self.forfeit()
            return False
        self.take(chosen)
        return True

    def take(self, action: Action) -> None:
        """Take one of the offered seat's choices (``pass`` on an out-of-turn offer lets it go)."""
        seat = self.seat
        assert seat is not None
        if action is DECLINE and seat != seat_of(self.state.pending):
            self.declined.add(seat)
        else:
            self.state = apply_unchecked(self.state, seat, action)
            if self.declined:
                self.declined.clear()
        self._offer()

    def forfeit(self) -> None:
        """End the game for an illegal action of the offered seat (``illegal="terminate"``)."""
        self.offender = self.seat
        self.seat = None
        self.choices = ()
        self.ids = []

    def rewards(self) -> list[float]:
        """Every seat's reward for the game, once it is over (zeros before)."""
        seats = self.seats
        if self.offender is not None:
            return [-1.0 if seat == self.offender else 0.0 for seat in range(seats)]
        outcome = self.state.outcome
        if outcome is None:
            return [0.0] * seats
        if self.reward == "score":
            deltas = self.state.round_scores[-1] if self.state.round_scores else (0,) * seats
            mean = sum(deltas) / seats
            return [(delta - mean) / 100.0 for delta in deltas]
        winner = outcome.winner
        if winner is None:
            return [0.0] * seats
        winners = self.state.game.allies[winner]  # the winner's team (H-11), or the winner alone
        loss = -len(winners) / (seats - len(winners))
        return [1.0 if seat in winners else loss for seat in range(seats)]

    def _offer(self) -> None:
        """Who is offered the next decision (:func:`unoengine.rl.decisions.offered`) and the ids of its choices."""
        self.seat, self.choices = seat, choices = offered(self.state, self.declined)
        if seat is None:
            self.ids = []
            return
        self.ids = ids_in(self._ids[seat], choices, seat, self.seats)
