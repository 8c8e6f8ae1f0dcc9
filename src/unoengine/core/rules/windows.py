"""Out-of-turn windows: the one mechanism for every action a seat may take when it is not its decision.

A :class:`Window` is declared by the module that owns its actions: the UNO call
and the catch (C-18, C-19) by the rule core (:data:`UNO_WINDOW`), the jump-in by
the house rule H-3 (:mod:`unoengine.core.house.jump_in`), and any later one the
same way. A game's windows (``Game.windows``) are all the engine, the ``Table``'s
reaction order, the bots' ``react`` and both clients know of out-of-turn play:

- :func:`~unoengine.core.engine.legal_actions` adds each open window's
  :meth:`Window.offers` to a seat's actions (the seat to act's too);
- :func:`~unoengine.core.engine.apply_unchecked` gives an action of a type a
  window :attr:`~Window.consumes` to that window; any other (a jump-in is a play)
  goes to the pending decision's handler, from the seat that took it;
- :func:`~unoengine.core.engine.refusal` asks the windows first;
- the ``Table`` offers the first open window to :meth:`Window.order`'s seats.

Windows never overlap: at most one is open at a time (the UNO window closes the
jump-in window, H-3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from unoengine.core import actions as A
from unoengine.core.cards import Seat
from unoengine.core.events import Caught
from unoengine.i18n import said

if TYPE_CHECKING:
    from unoengine.core.state import GameState
    from unoengine.core.work import Work


class Window:
    """One out-of-turn window (the methods of a compiled object: the engine calls them on its hot path)."""

    rule: str = ""
    """The rule number of the window (``C-18``, ``H-3``)."""
    consumes: tuple[type, ...] = ()
    """The action types this window applies itself (:meth:`apply`); a window whose actions are plays
    (a jump-in) consumes none: the play goes to the pending decision's handler."""

    def is_open(self, state: GameState) -> bool:
        """Is the window open now (the game not over)?"""
        raise NotImplementedError

    def offers(self, state: GameState, seat: Seat) -> list[A.Action]:
        """The seat's actions in the open window (asked only while :meth:`is_open`)."""
        raise NotImplementedError

    def order(self, state: GameState) -> list[Seat]:
        """The seats the open window is offered to, in order (the first that acts takes it)."""
        raise NotImplementedError

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        """Apply an action of a type of :attr:`consumes` (legal: taken from ``legal_actions``)."""
        raise AssertionError(f"the {self.rule} window consumes no action")

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str] | None:
        """The rule and reason a refused action of this window is refused, or ``None``: not this window's."""
        return None


class UnoWindow(Window):
    """C-18, C-19 (H-7's penalty): a seat that played its second-to-last card without ``uno`` may be caught.

    Open while ``state.unsafe`` names that seat: it may call ``uno``, every other seat
    may ``catch`` it; the first action of anyone closes the window (C-18).
    """

    rule = "C-18"
    consumes: tuple[type, ...] = (A.CallUno, A.Catch)

    def is_open(self, state: GameState) -> bool:
        return state.unsafe is not None

    def offers(self, state: GameState, seat: Seat) -> list[A.Action]:
        unsafe = state.unsafe
        assert unsafe is not None
        return [A.CALL_UNO if unsafe == seat else A.catch(unsafe)]

    def order(self, state: GameState) -> list[Seat]:
        """The other seats first, in turn order from the seat to act (the seat to act first: it may catch), then
        the seat that forgot to call UNO."""
        unsafe = state.unsafe
        seats = state.seats
        start = state.pending.seat if state.pending.seat is not None else 0
        order = [(start + k) % seats for k in range(seats)]
        return [seat for seat in order if seat != unsafe] + [unsafe] if unsafe is not None else []

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is _CALL_UNO:
            work.unsafe = None  # C-18: called in time
            return
        victim = action.seat  # type: ignore[union-attr]
        work.unsafe = None
        if work.events is not None:
            work.emit(Caught(seat, victim))
        work.draw(victim, work.game.catch_draws)  # C-18: a caught player draws 2 (H-7: the game's penalty)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str] | None:
        cite = state.rules.cite
        if type(action) is A.CallUno:
            count = len(state.hand_bytes[seat])
            if count != 1:
                # TRANSLATORS: a refusal: {seat} is a player, {count} a number of cards (never 1)
                reason = said(
                    "{seat} holds {count} cards, not one, and cannot call UNO", seat=f"seat {seat}", count=count
                )
                return cite["uno"], reason
            # TRANSLATORS: a refusal: {seat} is a player
            return cite["uno"], said(
                "{seat} has no UNO to call (already called, or the window has closed)", seat=f"seat {seat}"
            )
        if type(action) is A.Catch:
            target = action.seat
            if target == seat:
                return cite["uno"], said("a seat cannot catch itself")
            if not 0 <= target < state.seats:
                # TRANSLATORS: a refusal: {seat} is the seat number asked for
                return "G-4", said("there is no seat {seat}", seat=target)
            count = len(state.hand_bytes[target])
            if count != 1:
                # TRANSLATORS: a refusal: {seat} is a player, {count} a number of cards (never 1)
                reason = said(
                    "{seat} holds {count} cards, not one: there is nothing to catch", seat=f"seat {target}", count=count
                )
                return cite["uno"], reason
            # TRANSLATORS: a refusal: {seat} is a player
            return cite["uno"], said("{seat} called UNO in time (or the window has closed)", seat=f"seat {target}")
        return None


_CALL_UNO: Final = A.CallUno

UNO_WINDOW: Final = UnoWindow()
"""The UNO window of every rule set (C-18, C-19; Duo D-11, Flex F-26)."""
