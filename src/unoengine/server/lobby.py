"""A table's public description (the ``lobby`` message, ``GET /api/tables/{code}``) and who hosts it.

The lobby names the table's settings and rules, every seat (its player or bot,
presence, whether it hosts), how many watch, whom the server waits for between
rounds, and the fairness commitments of its games (docs/PROTOCOL.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from unoengine.core.rules import find_rules
from unoengine.server import auth
from unoengine.server.presence import Attendance
from unoengine.server.protocol import table_rules
from unoengine.server.store import TableRow

Message = dict[str, Any]


def status_of(row: TableRow) -> str:
    """``lobby`` (no game dealt yet), ``playing`` or ``over`` (the last game)."""
    if not row.games:
        return "lobby"
    return "over" if row.games[-1].over else "playing"


def people(row: TableRow) -> list[int]:
    """The seats a person holds."""
    return [seat for seat, seat_row in sorted(row.seats.items()) if seat_row.bot is None]


def open_seats(row: TableRow) -> list[int]:
    return [seat for seat in range(row.settings.seats) if seat not in row.seats]


def next_host(row: TableRow, attendance: Attendance, leaving: int) -> int | None:
    """Who hosts when ``leaving`` gives up the seat: the first connected person, else the first person."""
    others = [seat for seat in people(row) if seat != leaving]
    connected = [seat for seat in others if attendance[seat].connected and not attendance[seat].away]
    chosen = connected or others
    return chosen[0] if chosen else None


def describe(row: TableRow, attendance: Attendance, *, spectators: int, waiting: Iterable[int]) -> Message:
    """The table's public description: settings, seats, presence, host, watchers, fairness commitments."""
    settings = row.settings
    seats = []
    for seat in range(settings.seats):
        seat_row = row.seats.get(seat)
        presence = attendance[seat]
        person = seat_row is not None and seat_row.bot is None
        seats.append(
            {
                "seat": seat,
                "name": seat_row.name if seat_row is not None else None,
                "bot": seat_row.bot if seat_row is not None else None,
                "open": seat_row is None,
                "connected": presence.connected if person else None,
                "away": presence.away,
                "host": seat == row.host,
            }
        )
    games = []
    for game in row.games:
        item: Message = {
            "game": game.number,
            "over": game.over,
            "commitment": auth.seed_commitment(game.seed, game.salt),
        }
        if game.over:
            record = f"/api/tables/{row.code}/games/{game.number}/record"
            item.update(seed=str(game.seed), salt=game.salt, record=record)  # text: JS numbers stop at 2**53
        games.append(item)
    status = status_of(row)
    return {
        "code": row.code,
        "title": find_rules(settings.rules).title,
        "settings": settings.to_json(),
        "rules": table_rules(settings.rules, dict(settings.options)),
        "status": status,
        "game": row.games[-1].number if row.games else 0,
        "seats": seats,
        "games": games,
        "host": row.host,
        "spectators": spectators,
        "waiting": sorted(waiting),
        "joinable": status == "lobby" and bool(open_seats(row)),
    }
