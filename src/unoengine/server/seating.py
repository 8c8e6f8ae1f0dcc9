"""A table's seats and who is at them: hellos, connections coming and going, grace periods, joins,
seats given up, taken from an absent person or given to a bot, the host's seat, and the seats a
``start`` fills.

The counting and timing of presence is :mod:`unoengine.server.presence`'s; this decides what a
change means for the table (a stand-in plays, the host moves, the round stops waiting).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from unoengine.bots.base import Bot, game_refusal
from unoengine.i18n import said
from unoengine.server import auth, lobby
from unoengine.server.commands import STAND_IN, Client, Refused, bot_name
from unoengine.server.protocol import Hello, ProtocolError, Start
from unoengine.server.store import SeatRow, SeatTaken

if TYPE_CHECKING:
    from unoengine.server.actor import TableActor


class Seating:
    """The table's seats and connections: who holds which seat, who is here, who hosts."""

    def __init__(self, actor: TableActor) -> None:
        self.actor = actor

    def seat_of(self, token: str | None) -> int | None:
        if token is None:
            return None
        for seat, row in self.actor.row.seats.items():
            if auth.token_matches(token, row.token_hash):
                return seat
        return None

    # -- connections -------------------------------------------------------------------

    def hello(self, client: Client, message: Hello) -> None:
        actor, outbox = self.actor, self.actor.outbox
        seat = self.seat_of(message.token)
        if message.token is not None and seat is None:
            outbox.error(client, "auth", said("that seat token is not valid at this table"))
            client.outlet.drop("auth")
            return
        actor.clients.add(client)
        self._seat_client(client, seat)
        outbox.welcome(client)
        outbox.catch_up(client, message.since, message.game)
        outbox.broadcast_lobby()

    def _seat_client(self, client: Client, seat: int | None) -> None:
        client.seat = seat
        client.spectator = seat is None
        if seat is None:
            return
        actor = self.actor
        connections = actor.presence.connect(seat)
        if actor.publish is not None:
            actor.publish(actor.code, seat, connections)
        self._present(seat)

    def disconnect(self, client: Client) -> None:
        actor = self.actor
        if client not in actor.clients:
            return
        actor.clients.discard(client)
        seat = client.seat
        if seat is not None:
            self._unseat_client(seat)
        actor.outbox.broadcast_lobby()

    def _unseat_client(self, seat: int) -> None:
        actor = self.actor
        connections = actor.presence.disconnect(seat)
        if actor.publish is not None:
            actor.publish(actor.code, seat, connections)
        if not actor.presence[seat].connected:
            actor.waiting.discard(seat)
            if seat in actor.row.seats:
                actor.presence.start_grace(seat, actor.row.settings.grace)
            actor.clock.end_round_wait_if_done()

    def _present(self, seat: int) -> None:
        """Someone holds the seat (here or on another worker): no grace period runs, no stand-in plays."""
        if self.actor.presence.present(seat):
            self.set_controller(seat, None)

    def grace_over(self, seat: int) -> None:
        actor = self.actor
        if seat not in actor.row.seats or not actor.presence.grace_over(seat):
            return
        self.set_controller(seat, actor.bot(STAND_IN))
        actor.outbox.broadcast_lobby()

    def set_controller(self, seat: int, bot: Bot | None) -> None:
        """The seat is played by ``bot`` from now on (``None``: its person); the bots look again."""
        actor = self.actor
        if actor.table is not None:
            actor.table.set_controller(seat, bot)
        actor.clock.bots_idle_at = None

    # -- checks --------------------------------------------------------------------------

    def authenticated(self, client: Client, token: str) -> int:
        """The client's seat when ``token`` is that seat's token (step 1 of the pipeline).

        Raises:
            Refused: a spectator, or not the token of the client's seat.
        """
        seat = client.seat
        if seat is None:
            raise Refused("auth", said("spectators cannot act: join the table to get a seat"))
        row = self.actor.row.seats.get(seat)
        if row is None or not auth.token_matches(token, row.token_hash):
            raise Refused("auth", said("that seat token is not valid for your seat"))
        return seat

    def host(self, client: Client, token: str) -> int:
        """The host's seat, when the client is the host (authenticated).

        Raises:
            Refused: not authenticated, or not the host.
        """
        seat = self.authenticated(client, token)
        if seat != self.actor.row.host:
            # TRANSLATORS: {seat} is "seat N"
            raise Refused("not_host", said("only the host ({seat}) can do that", seat=f"seat {self.actor.row.host}"))
        return seat

    def person(self, seat: int) -> SeatRow:
        """Raises Refused: ``seat`` is no person's seat at this table, or it is the host's."""
        table_row = self.actor.row
        row = table_row.seats.get(seat)
        if row is None or row.bot is not None or not 0 <= seat < table_row.settings.seats:
            # TRANSLATORS: {seat} is "seat N"
            raise Refused("bad_seat", said("{seat} is not a person's seat", seat=f"seat {seat}"))
        if seat == table_row.host:
            raise Refused("bad_seat", said("that is the host's own seat"))
        return row

    def absent(self, seat: int) -> int:
        """A person's seat whose player is away or disconnected.

        Raises:
            Refused: no person's seat, the host's, or its player is here.
        """
        self.person(seat)
        presence = self.actor.presence[seat]
        if presence.connected and not presence.away:
            # TRANSLATORS: {seat} is "seat N"
            raise Refused("present", said("{seat}'s player is connected", seat=f"seat {seat}"))
        return seat

    def check_bot(self, bot: str) -> None:
        """Refuse a bot that cannot play this table's game (the ``ppo`` bot outside Classic heads-up)."""
        settings = self.actor.row.settings
        refused = game_refusal(bot, settings.rules, settings.seats)
        if refused is not None:
            raise Refused("bad_field", refused)

    # -- seats taken and given up -------------------------------------------------------

    async def join(self, name: str) -> tuple[int, str]:
        actor = self.actor
        if actor.status != "lobby":
            raise ProtocolError("started", said("this table's game has started: watch it with the spectator link"))
        token = auth.new_token()
        row = SeatRow(name, auth.hash_token(token), None)
        while True:
            open_seats = actor.open_seats()
            if not open_seats:
                raise ProtocolError("full", said("every seat is taken"))
            seat = open_seats[0]
            try:
                await actor.store.put_seat(actor.code, seat, row)
                break
            except SeatTaken:  # someone joined on another worker meanwhile: look again
                self.catch_up_seats()
        actor.row.seats[seat] = row
        actor.outbox.broadcast_lobby()
        return seat, token

    def catch_up_seats(self) -> None:
        """Take what the store has (a join on another worker may not have reached this one yet)."""
        actor = self.actor
        fresh = actor.store.load_table(actor.code)
        if fresh is None or set(fresh.seats) == set(actor.row.seats):
            raise ProtocolError("full", said("every seat is taken"))  # nothing new: the store will not take it either
        actor.pipeline.adopt(fresh)

    async def vacate(self, seat: int, bot: str | None) -> None:
        """The seat's person goes (``leave``, ``kick``) or a bot takes the seat (``replace``).

        In the lobby a person's seat opens (unless ``bot`` is given); once a game is dealt a bot
        plays it (``bot``, or the stand-in). The seat's token stops working, and its connections
        go on as spectators.
        """
        actor, outbox = self.actor, self.actor.outbox
        dealt = actor.status != "lobby"
        row = SeatRow(bot_name(seat), None, bot or STAND_IN) if dealt or bot is not None else None
        await actor.store.set_seat(actor.code, seat, row)
        if row is None:
            actor.row.seats.pop(seat, None)
        else:
            actor.row.seats[seat] = row
        actor.presence.reset(seat)
        actor.waiting.discard(seat)
        self.set_controller(seat, None if row is None or row.bot is None else actor.bot(row.bot))
        if seat == actor.row.host:
            host = lobby.next_host(actor.row, actor.presence, seat)
            if host is not None:
                await actor.store.set_host(actor.code, host)
                actor.row.host = host
        for client in list(actor.clients):
            if client.seat == seat:
                client.seat, client.spectator = None, True
                outbox.welcome(client)
                outbox.sync(client)
        actor.clock.end_round_wait_if_done()
        outbox.broadcast_lobby()

    async def replace(self, seat: int, bot: str) -> None:
        actor = self.actor
        if not 0 <= seat < actor.row.settings.seats or seat == actor.row.host:
            # TRANSLATORS: {seat} is "seat N"
            raise Refused("bad_seat", said("{seat} is not a seat the host can give to a bot", seat=f"seat {seat}"))
        self.check_bot(bot)
        row = actor.row.seats.get(seat)
        if row is not None and row.bot is None:
            self.absent(seat)
        await self.vacate(seat, bot)

    async def handover(self, seat: int) -> None:
        actor = self.actor
        self.person(seat)
        await actor.store.set_host(actor.code, seat)
        actor.row.host = seat
        actor.outbox.broadcast_lobby()  # its host and seats[].host say who hosts now

    async def start(self, message: Start) -> None:
        """``start``: the open seats filled with bots when asked (or refused while any is open), then the deal."""
        actor = self.actor
        if actor.status != "lobby":
            raise Refused("started", said("the game has already started"))
        if actor.open_seats() and actor.store.shared:  # a join on another worker may not have reached this one yet
            with contextlib.suppress(ProtocolError):
                self.catch_up_seats()
        open_seats = actor.open_seats()
        if open_seats and not message.fill:
            raise Refused("seats_open", said("{n} seat(s) still open: wait, or fill them with bots", n=len(open_seats)))
        if open_seats:
            self.check_bot(message.bot)
        for seat in open_seats:
            row = SeatRow(bot_name(seat), None, message.bot)
            try:
                await actor.store.put_seat(actor.code, seat, row)
            except SeatTaken:  # a person took it on another worker: they play
                with contextlib.suppress(ProtocolError):
                    self.catch_up_seats()
                continue
            actor.row.seats[seat] = row
        await actor.pipeline.deal()
