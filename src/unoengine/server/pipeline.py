"""A table's game: the pipeline of an ``act``, the commit before the broadcast, what other workers wrote,
the deal, and the records of its games.

The pipeline of an ``act`` (DESIGN.md, "Server"): authenticate the seat; the
table is live; the seat may act; the version is current and the action legal
(the core's :class:`~unoengine.play.table.Table` decides both); then apply,
persist (committed to the store) and broadcast. Every refused command is
answered with an ``error`` and a ``sync`` to that client only
(:meth:`Outbox.refuse`); nothing changes.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from unoengine.core.actions import format_action
from unoengine.core.errors import IllegalActionError, InvalidNotationError
from unoengine.core.record import Record, format_record
from unoengine.core.state import GameState
from unoengine.i18n import said
from unoengine.play.table import StaleVersionError, Table, TableStep
from unoengine.server import auth
from unoengine.server.commands import REPLAY_LIMIT, Refused
from unoengine.server.protocol import Act, words_of
from unoengine.server.store import GameRow, TableRow, VersionConflict

if TYPE_CHECKING:
    from unoengine.server.actor import TableActor


class Pipeline:
    """The table's current game and its finished games' records: every step goes through here."""

    def __init__(self, actor: TableActor) -> None:
        self.actor = actor
        self.records: dict[int, Record] = {}
        """The records of the games finished since the table was loaded (``Table.record()``)."""

    # -- tables from records -------------------------------------------------------------

    def stored_record(self, game: GameRow) -> Record:
        settings = self.actor.row.settings
        return Record(settings.rules, settings.seats, game.seed, settings.options, actions=tuple(game.actions))

    def restore(self, game: GameRow) -> Table:
        """The game's table from its stored record; its last steps are kept, so that reconnects still get them."""
        return self.from_record(self.stored_record(game))

    def from_record(self, record: Record) -> Table:
        return Table.from_record(record, self.actor.controllers(), history=self.actor.config.history)

    def steps_since(self, table: Table, since: int) -> list[tuple[TableStep, GameState]] | None:
        """The steps after ``since`` with the state before each, from the history or else rebuilt from the
        game's actions (at most :data:`REPLAY_LIMIT` of them); ``None`` when older."""
        steps = _kept_since(table, since)
        if steps is not None:
            return steps
        if table.version - since > REPLAY_LIMIT:
            return None
        again = Table(table.start, history=table.version - since + 1)  # keeps the step before ``since`` too
        for seat, action in table.actions:
            again.submit(seat, action)
        return _kept_since(again, since)

    # -- the game's steps -----------------------------------------------------------------

    async def act(self, seat: int, message: Act) -> None:
        """Steps 2–6 of the pipeline (step 1 is :meth:`Seating.authenticated`)."""
        actor = self.actor
        if message.seat != seat:
            # TRANSLATORS: {held} and {seat} are "seat N" (the seats' numbers, from 0)
            raise Refused(
                "wrong_seat", said("you hold {held}, not {seat}", held=f"seat {seat}", seat=f"seat {message.seat}")
            )
        table, game = actor.table, actor.game
        if table is None or game is None:
            raise Refused("not_started", said("the game has not started"))
        if table.is_over:
            raise Refused("over", said("the game is over"))
        if message.game != game.number:
            raise Refused(
                "stale",
                said("stale game {game}: the table plays game {number}", game=message.game, number=game.number),
                v=table.version,
            )
        before = table.state
        try:
            step = table.submit(seat, message.action, expected_version=message.v)
        except StaleVersionError as error:
            raise Refused("stale", words_of(error), v=table.version) from None
        except InvalidNotationError as error:
            raise Refused("notation", words_of(error)) from None
        except IllegalActionError as error:
            # TRANSLATORS: an illegal action; {rule} is a rule's id ("C-7"), {reason} why it is refused
            refusal = said("Refused ({rule}): {reason}", rule=error.rule, reason=error.reason)
            raise Refused("illegal", refusal, rule=error.rule) from None
        if seat in actor.waiting:  # acting in the new round says "ready"
            actor.waiting.discard(seat)
            actor.clock.end_round_wait_if_done()
        if not await self.commit(step, before):
            version = actor.table.version if actor.table is not None else 0
            raise Refused(
                "stale",
                said("stale version {v}: the table is at version {version}", v=message.v, version=version),
                v=version,
            )

    async def commit(self, step: TableStep, before: GameState, *, timeout: bool = False) -> bool:
        """Persist the step (committed) and only then broadcast it; ``False`` when its version was taken.

        The store is the sequencer: when another worker accepted an action for this
        version first, the table goes back to what is committed, takes the versions
        it missed from the store (each re-validated by the core) and broadcasts them.
        """
        actor = self.actor
        assert actor.game is not None and actor.table is not None
        game, table, store = actor.game, actor.table, actor.store
        started = time.perf_counter()
        action = format_action(step.action)  # the store's text and every seat's ``action``
        try:
            await store.append_action(actor.code, game.number, step.version, step.seat, action)
            if timeout:
                game.timeouts.add(step.version)
                await store.mark_timeout(actor.code, game.number, step.version)
        except VersionConflict:
            actor.metrics.conflicts += 1
            record = table.record()
            actor.table = self.from_record(replace(record, actions=record.actions[:-1]))
            await self.pull()
            return False
        except Exception:
            await self.reload("the store refused a write")
            return False
        actor.metrics.commit.add(time.perf_counter() - started)
        actor.stats.actions += 1
        waits = actor.clock.stepped(step)
        actor.outbox.broadcast_step(step, before, action)
        if waits:
            actor.outbox.broadcast_lobby()  # its ``waiting``: whom the next round waits for
        if actor.received:
            actor.metrics.step.add(time.perf_counter() - actor.received)
        if table.is_over:  # over is already durable (its last action is): say so, then mark the game
            game.over = True
            actor.outbox.broadcast_lobby()
            await store.end_game(actor.code, game.number)
        return True

    # -- what other workers wrote ------------------------------------------------------------

    async def refresh(self, hint: tuple[int, int] | None) -> None:
        """Another worker wrote this table (its notification, or the periodic read): take what is new."""
        actor = self.actor
        game, table = actor.game, actor.table
        if hint is not None and game is not None and table is not None and hint[0] == game.number:
            if hint[1] > table.version:
                await self.pull()
            return
        fresh = actor.store.load_table(actor.code)
        if fresh is not None:
            self.adopt(fresh)

    async def pull(self) -> None:
        """Apply the current game's actions that the store has beyond ours, one step each."""
        actor = self.actor
        game, table = actor.game, actor.table
        if game is None or table is None:
            return
        rows = await actor.store.actions_since(actor.code, game.number, table.version)
        self._apply_stored(game, table, [(seat, action) for _version, seat, action in rows])

    def _apply_stored(self, game: GameRow, table: Table, actions: list[tuple[int, str]]) -> None:
        actor = self.actor
        for seat, action in actions:
            before = table.state
            # the core re-validates; a refusal raises, and the table is reloaded from the store (the actor's loop)
            step = table.submit(seat, action, expected_version=table.version)
            actor.metrics.remote_steps += 1
            actor.outbox.broadcast_step(step, before)
        if actions and table.is_over and not game.over:
            game.over = True
            actor.outbox.broadcast_lobby()

    def adopt(self, fresh: TableRow) -> None:
        """Bring the table up to ``fresh`` (a reload from the store): seats, host, a new game, actions, chat."""
        actor, outbox = self.actor, self.actor.outbox
        row = actor.row
        changed = fresh.seats != row.seats or fresh.host != row.host
        row.seats, row.host = fresh.seats, fresh.host
        seen, back = actor.presence.seen_elsewhere(fresh.elsewhere, actor.human_seats(), row.settings.grace)
        changed = seen or changed
        for seat in back:
            actor.seating.set_controller(seat, None)
        for line in fresh.chat:
            outbox.take_chat(line)
        game = actor.game
        if fresh.games and (game is None or fresh.games[-1].number != game.number):
            self._finish_table()
            row.games = fresh.games
            actor.table = self.restore(fresh.games[-1])
            actor.clock.bots_idle_at = None
            outbox.broadcast_lobby()
            for client in list(actor.clients):
                outbox.sync(client)
            return
        if game is not None and actor.table is not None and fresh.games:
            stored = fresh.games[-1]
            game.timeouts |= stored.timeouts
            self._apply_stored(game, actor.table, stored.actions[actor.table.version :])
            if stored.over and not game.over:
                game.over = True
                changed = True
        if changed:
            outbox.broadcast_lobby()

    async def reload(self, reason: str) -> None:
        """Rebuild the table from the store (its durable truth) and resync everyone."""
        actor = self.actor
        fresh = actor.store.load_table(actor.code)
        if fresh is not None:
            actor.row = fresh
        game = actor.game
        actor.table = None
        if game is not None:
            actor.table = self.restore(game)
        for client in list(actor.clients):
            actor.outbox.error(client, "server", said("the table was reloaded ({reason})", reason=reason))
            actor.outbox.sync(client)

    # -- games ----------------------------------------------------------------------------

    async def again(self) -> None:
        if self.actor.status != "over":
            raise Refused("not_over", said("the game is not over yet"))
        await self.deal()

    async def deal(self) -> None:
        actor = self.actor
        settings = actor.row.settings
        seed, salt = auth.new_seed()
        game = GameRow(len(actor.row.games) + 1, seed, salt)
        table = Table.new(
            settings.rules,
            settings.seats,
            seed=seed,
            options=dict(settings.options),
            controllers=actor.controllers(),
            history=actor.config.history,
        )
        await actor.store.start_game(actor.code, game)
        self._finish_table()
        actor.row.games.append(game)
        actor.table = table
        actor.clock.bots_idle_at = None
        actor.waiting.clear()
        actor.clock.schedule()  # the syncs carry the new game's timers
        actor.outbox.broadcast_lobby()
        for client in list(actor.clients):
            actor.outbox.sync(client)

    def _finish_table(self) -> None:
        """The current game's table leaves memory: keep its record (for ``GET …/record``)."""
        game, table = self.actor.game, self.actor.table
        if game is not None and table is not None:
            self.records[game.number] = table.record()

    def record_text(self, number: int) -> str | None:
        actor = self.actor
        for game in actor.row.games:
            if game.number == number and game.over:
                if game is actor.game and actor.table is not None:
                    return format_record(actor.table.record())
                record = self.records.get(number)
                return format_record(record if record is not None else self.stored_record(game))
        return None


def _kept_since(table: Table, since: int) -> list[tuple[TableStep, GameState]] | None:
    """The steps after ``since`` with the state before each, from the table's kept history (``None``: older)."""
    if since == 0:
        kept = table.steps_since(0)
        if kept is None:
            return None
        return list(zip(kept, [table.start, *(step.state for step in kept)], strict=False))
    kept = table.steps_since(since - 1)
    if kept is None:
        return None
    return list(zip(kept[1:], (step.state for step in kept[:-1]), strict=True))
