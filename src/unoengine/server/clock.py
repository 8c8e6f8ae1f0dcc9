"""A table's clocks: the bots' pace, the turn timer, the people's reaction window and the wait between rounds.

Fair to people: bots do not react (catch, call UNO, jump in) before the people's
reaction time (``ServerConfig.react_delay``) has passed while a connected person
could react too, and the next round waits until every connected person is
``ready`` (or ``ServerConfig.round_wait`` seconds).

Every timer submits a command to the table's actor (:class:`BotTurn`,
:class:`TurnTimeout`, :class:`RoundWaitOver`), stamped with the (game, version)
it was made for: a command for a version gone by does nothing.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from unoengine.core.action_words import action_type
from unoengine.core.events import RoundEnded
from unoengine.play.table import Table, TableStep, window_open
from unoengine.server.commands import STAND_IN, BotTurn, Message, RoundWaitOver, TurnTimeout

if TYPE_CHECKING:
    from unoengine.server.actor import TableActor


class Clock:
    """The table's timers, and the bots' and the stand-in's steps when they are due."""

    def __init__(self, actor: TableActor) -> None:
        self.actor = actor
        self.bot_timer: asyncio.TimerHandle | None = None
        self.bot_stamp: tuple[int, int] | None = None
        self.bots_idle_at: tuple[int, int] | None = None
        """The version at which the bots had nothing to do (they look again after a change of seats)."""
        self.turn_timer: asyncio.TimerHandle | None = None
        self.turn_stamp: tuple[int, int] | None = None
        self.turn_deadline = 0.0
        self.opened: tuple[tuple[int, int], float] = ((0, 0), time.monotonic())
        """When the current version was reached: the people's reaction window runs from there."""
        self.round_timer: asyncio.TimerHandle | None = None
        self.round_deadline = 0.0

    def timers(self) -> Message:
        """Milliseconds left now of the turn timer, the people's reaction window and the wait for the next round."""
        now = time.monotonic()

        def left(deadline: float | None) -> int | None:
            return None if deadline is None else max(0, round((deadline - now) * 1000))

        turn = self.turn_deadline if self.turn_timer is not None else None
        round_ = self.round_deadline if self.round_timer is not None else None
        return {"turn": left(turn), "react": left(self.react_deadline()), "round": left(round_)}

    # -- steps that come due ---------------------------------------------------------------

    async def bot_turn(self, stamp: tuple[int, int]) -> None:
        self.bot_timer = None
        actor = self.actor
        table, game = actor.table, actor.game
        if table is None or game is None or table.is_over or (game.number, table.version) != stamp or actor.waiting:
            return
        before = table.state
        step = table.bot_step()
        if step is None:
            self.bots_idle_at = stamp
            return
        await actor.pipeline.commit(step, before)

    async def turn_timeout(self, stamp: tuple[int, int]) -> None:
        self.turn_timer = None
        actor = self.actor
        table, game = actor.table, actor.game
        if table is None or game is None or (game.number, table.version) != stamp:
            return
        seat = table.waiting_for()
        if seat is None:
            return
        action = actor.bot(STAND_IN).choose(table.view(seat), table.legal(seat))
        before = table.state
        step = table.submit(seat, action, expected_version=table.version)
        await actor.pipeline.commit(step, before, timeout=True)

    # -- scheduling --------------------------------------------------------------------------

    def cancel(self) -> None:
        for handle in (self.bot_timer, self.turn_timer, self.round_timer):
            if handle is not None:
                handle.cancel()
        self.bot_timer = self.turn_timer = self.round_timer = None

    def schedule(self) -> None:
        """After every command: a bot's step, or the turn timer of the person to act (not while a round waits)."""
        actor = self.actor
        table, game = actor.table, actor.game
        if table is None or game is None or table.is_over or not actor.drives(actor.code):
            self.cancel()  # over, or another worker runs this table's bots and timers
            actor.waiting.clear()
            return
        stamp = (game.number, table.version)
        loop = asyncio.get_event_loop()
        if self.opened[0] != stamp:
            self.opened = (stamp, time.monotonic())
        if actor.waiting:
            for handle in (self.bot_timer, self.turn_timer):
                if handle is not None:
                    handle.cancel()
            self.bot_timer = self.turn_timer = None
            return
        if self.turn_timer is not None and self.turn_stamp != stamp:
            self.turn_timer.cancel()
            self.turn_timer = None
        if self.bot_timer is not None and self.bot_stamp != stamp:
            self.bot_timer.cancel()  # made for an earlier version: the delays start again
            self.bot_timer = None
        seat = table.waiting_for()
        if seat is None:
            if self.bot_timer is not None or self.bots_idle_at == stamp:
                return
            delay = actor.config.bot_delay
            react = self.react_deadline()
            if react is not None:
                delay = max(delay, react - time.monotonic())
            self.bot_stamp = stamp
            self.bot_timer = loop.call_later(delay, actor.submit, BotTurn(stamp))
            return
        turn_seconds = actor.row.settings.turn_seconds
        if turn_seconds > 0 and self.turn_timer is None:
            self.turn_stamp = stamp
            self.turn_deadline = time.monotonic() + turn_seconds
            self.turn_timer = loop.call_later(turn_seconds, actor.submit, TurnTimeout(stamp))

    def react_deadline(self) -> float | None:
        """When the people's reaction window ends, while a bot may react and a connected person could too."""
        actor = self.actor
        table, game = actor.table, actor.game
        if table is None or game is None or actor.config.react_delay <= 0 or not table.bot_due():
            return None
        if not window_open(table.state) or not self._person_may_react(table):
            return None
        stamp, opened = self.opened
        if stamp != (game.number, table.version):
            opened = time.monotonic()
        deadline = opened + actor.config.react_delay
        return deadline if deadline > time.monotonic() else None

    def _person_may_react(self, table: Table) -> bool:
        """A connected person has an out-of-turn action (catch, call UNO, jump in) in the open window."""
        actor = self.actor
        to_act = table.state.to_act
        for seat in actor.human_seats():
            if not actor.presence[seat].here:
                continue
            legal = table.legal(seat)
            if seat != to_act and legal:
                return True
            if any(action_type(action) in ("catch", "uno") for action in legal):
                return True
        return False

    # -- between rounds ----------------------------------------------------------------------

    def stepped(self, step: TableStep) -> bool:
        """After a step is accepted, before it is sent: a round that ended waits for the people; timers move on.

        Whether the next round now waits.
        """
        actor = self.actor
        waits = False
        round_wait = actor.config.round_wait
        if round_wait > 0 and not step.state.outcome and any(type(e) is RoundEnded for e in step.events):
            waiting = {seat for seat in actor.human_seats() if actor.presence[seat].here}
            if waiting:
                actor.waiting = waiting
                self.round_deadline = time.monotonic() + round_wait
                if self.round_timer is not None:
                    self.round_timer.cancel()
                stamp = (actor.game.number if actor.game is not None else 0, step.version)
                self.round_timer = asyncio.get_event_loop().call_later(round_wait, actor.submit, RoundWaitOver(stamp))
                waits = True
        self.schedule()
        return waits

    def round_wait_over(self, stamp: tuple[int, int]) -> None:
        self.round_timer = None
        if self.actor.waiting:
            self.actor.waiting.clear()
            self.actor.outbox.broadcast_lobby()

    def ready(self, seat: int) -> None:
        if seat in self.actor.waiting:
            self.actor.waiting.discard(seat)
            if not self.end_round_wait_if_done():
                self.actor.outbox.broadcast_lobby()

    def end_round_wait_if_done(self) -> bool:
        """Everyone the round waited for is ready (or gone): the game goes on. Whether it ended now."""
        if self.actor.waiting or self.round_timer is None:
            return False
        self.round_timer.cancel()
        self.round_timer = None
        self.actor.outbox.broadcast_lobby()
        self.schedule()
        return True
