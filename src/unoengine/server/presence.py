"""Who is at a table: each person's connections (here and on other workers), grace periods and stand-ins.

A seat whose last connection closes keeps its seat for the table's ``grace``
seconds; then it is *away* and a stand-in bot plays it until its player comes
back (lila's ``offlineSince``/``bye``, Colyseus's ``allowReconnection``). This
module only counts and times; the table's actor decides what a change means for
the game (:class:`~unoengine.server.actor.TableActor`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(slots=True)
class Presence:
    """One seat's presence."""

    connections: int = 0
    elsewhere: int = 0
    """Connections to the seat on other workers (PostgreSQL)."""
    grace: asyncio.TimerHandle | None = None
    away: bool = False
    """A stand-in bot plays the seat until its player comes back."""

    @property
    def connected(self) -> bool:
        """Someone holds the seat, here or on another worker."""
        return self.connections + self.elsewhere > 0

    @property
    def here(self) -> bool:
        """Connected to this worker and not played by a stand-in: a person who can act now."""
        return self.connections > 0 and not self.away


class Attendance:
    """Every seat's :class:`Presence`; ``on_grace_over(seat)`` runs when a grace period ends."""

    def __init__(self, seats: int, on_grace_over: Callable[[int], None]) -> None:
        self.seats = {seat: Presence() for seat in range(seats)}
        self._on_grace_over = on_grace_over

    def __getitem__(self, seat: int) -> Presence:
        return self.seats[seat]

    def connect(self, seat: int) -> int:
        """One more connection to ``seat`` here; the seat's connections here now."""
        presence = self.seats[seat]
        presence.connections += 1
        return presence.connections

    def disconnect(self, seat: int) -> int:
        """One connection to ``seat`` closed; the seat's connections here now."""
        presence = self.seats[seat]
        presence.connections = max(0, presence.connections - 1)
        return presence.connections

    def present(self, seat: int) -> bool:
        """Someone holds the seat again: no grace period runs. Whether a stand-in was playing it."""
        presence = self.seats[seat]
        self.cancel_grace(seat)
        was_away, presence.away = presence.away, False
        return was_away

    def cancel_grace(self, seat: int) -> None:
        presence = self.seats[seat]
        if presence.grace is not None:
            presence.grace.cancel()
            presence.grace = None

    def start_grace(self, seat: int, seconds: float) -> None:
        """The seat's grace period starts (unless one runs, or a stand-in already plays it)."""
        presence = self.seats[seat]
        if presence.grace is not None or presence.away:
            return
        loop = asyncio.get_event_loop()
        presence.grace = loop.call_later(seconds, self._on_grace_over, seat)

    def grace_over(self, seat: int) -> bool:
        """The grace period ended: whether the seat is now away (nobody came back meanwhile)."""
        presence = self.seats[seat]
        presence.grace = None
        if presence.connected or presence.away:
            return False
        presence.away = True
        return True

    def seen_elsewhere(self, counts: dict[int, int], people: Iterable[int], grace: float) -> tuple[bool, list[int]]:
        """Take the other workers' connections per seat: whether the lobby changed, and the seats now back."""
        changed = False
        back: list[int] = []
        for seat in people:
            presence = self.seats[seat]
            count = counts.get(seat, 0)
            if count == presence.elsewhere:
                continue
            before = presence.connected
            presence.elsewhere = count
            if count > 0:
                if self.present(seat):
                    back.append(seat)
            elif presence.connections == 0:
                self.start_grace(seat, grace)
            changed = changed or before != presence.connected
        return changed, back

    def reset(self, seat: int) -> None:
        """The seat changed hands (a leave, a kick, a bot put in): forget its presence."""
        self.cancel_grace(seat)
        self.seats[seat] = Presence()

    def elsewhere(self) -> int:
        return sum(presence.elsewhere for presence in self.seats.values())

    def stop(self) -> None:
        for seat in self.seats:
            self.cancel_grace(seat)
