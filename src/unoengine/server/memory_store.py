"""What a store is, and the simplest one: the :class:`Store` protocol, its rows and errors, :class:`MemoryStore`.

:mod:`unoengine.server.store` (SQLite, the schema) and :mod:`unoengine.server.postgres`
build on these and re-export them: ``from unoengine.server.store import MemoryStore``
keeps working.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from unoengine.server.protocol import TableSettings


@dataclass(slots=True)
class SeatRow:
    """A seat of a table: a person's name and token hash, or a bot's name."""

    name: str
    token_hash: str | None
    bot: str | None


@dataclass(slots=True)
class GameRow:
    """One game played at a table."""

    number: int
    seed: int
    salt: str
    actions: list[tuple[int, str]] = field(default_factory=list)
    """The actions as stored when the table was loaded (afterwards the table's ``Table`` keeps the game)."""
    over: bool = False
    timeouts: set[int] = field(default_factory=set)
    """The versions whose action a stand-in took because the turn timer ran out."""


@dataclass(slots=True)
class TableRow:
    """A table as stored."""

    code: str
    created: float
    settings: TableSettings
    seats: dict[int, SeatRow] = field(default_factory=dict)
    games: list[GameRow] = field(default_factory=list)
    chat: list[ChatRow] = field(default_factory=list)
    """The last :data:`CHAT_KEPT` lines, oldest first."""
    elsewhere: dict[int, int] = field(default_factory=dict)
    """Per seat, the connections to the table on other live workers (PostgreSQL; empty otherwise)."""
    host: int = 0
    """The host's seat (the creator's, 0, until a handover)."""


@dataclass(slots=True, frozen=True)
class ChatRow:
    """One chat line: its number at the table (1, 2, ...), the seat, its name then, the text."""

    number: int
    seat: int
    name: str
    text: str


CHAT_KEPT = 50
"""Chat lines loaded with a table (and shown to a newcomer)."""


class StoreError(RuntimeError):
    """A write was refused (for example an action version written twice)."""


class VersionConflict(StoreError):
    """The version of an action is taken: another writer accepted an action for it first."""


class SeatTaken(StoreError):
    """The seat is taken: another writer (a join on another worker) gave it to someone first."""


class Store(Protocol):
    """What the server needs from storage. Every write is durable when its ``await`` returns."""

    async def create_table(self, code: str, settings: TableSettings, created: float) -> None: ...
    async def put_seat(self, code: str, seat: int, row: SeatRow) -> None:
        """Give an open seat to a person or a bot; :class:`SeatTaken` when it is not open."""
        ...

    async def set_seat(self, code: str, seat: int, row: SeatRow | None) -> None:
        """Give a seat to someone else whoever held it (a leave, a kick, a bot put in), or open it (``None``)."""
        ...

    async def set_host(self, code: str, seat: int) -> None: ...
    async def mark_timeout(self, code: str, game: int, version: int) -> None:
        """The action of ``version`` was the stand-in's because the turn timer ran out (for the log)."""
        ...

    async def start_game(self, code: str, game: GameRow) -> None: ...
    async def append_action(self, code: str, game: int, version: int, seat: int, action: str) -> None: ...
    async def end_game(self, code: str, game: int) -> None: ...
    async def add_chat(self, code: str, seat: int, name: str, text: str) -> ChatRow: ...
    async def actions_since(self, code: str, game: int, version: int) -> list[tuple[int, int, str]]:
        """The actions of ``game`` after ``version``: (version, seat, action), in order."""
        ...

    def load_table(self, code: str) -> TableRow | None: ...
    def tables_of(self, token_hashes: Iterable[str]) -> list[tuple[str, int]]: ...
    async def close(self) -> None: ...

    @property
    def shared(self) -> bool:
        """Other processes write the same tables (PostgreSQL): the server fans out, leases and re-reads."""
        ...


class MemoryStore:
    """A store in a dict, for tests: same rules as the SQLite one (no version twice)."""

    shared = False

    def __init__(self) -> None:
        self.tables: dict[str, TableRow] = {}

    async def create_table(self, code: str, settings: TableSettings, created: float) -> None:
        if code in self.tables:
            raise StoreError(f"table {code} exists")
        self.tables[code] = TableRow(code, created, settings)

    async def put_seat(self, code: str, seat: int, row: SeatRow) -> None:
        if seat in self.tables[code].seats:
            raise SeatTaken(f"table {code}: seat {seat} is taken")
        self.tables[code].seats[seat] = SeatRow(row.name, row.token_hash, row.bot)

    async def set_seat(self, code: str, seat: int, row: SeatRow | None) -> None:
        seats = self.tables[code].seats
        if row is None:
            seats.pop(seat, None)
        else:
            seats[seat] = SeatRow(row.name, row.token_hash, row.bot)

    async def set_host(self, code: str, seat: int) -> None:
        self.tables[code].host = seat

    async def mark_timeout(self, code: str, game: int, version: int) -> None:
        self._game(code, game).timeouts.add(version)

    async def start_game(self, code: str, game: GameRow) -> None:
        self.tables[code].games.append(GameRow(game.number, game.seed, game.salt))

    async def append_action(self, code: str, game: int, version: int, seat: int, action: str) -> None:
        row = self._game(code, game)
        if version != len(row.actions) + 1:
            raise VersionConflict(f"table {code} game {game}: version {version} after {len(row.actions)}")
        row.actions.append((seat, action))

    async def add_chat(self, code: str, seat: int, name: str, text: str) -> ChatRow:
        chat = self.tables[code].chat
        line = ChatRow(chat[-1].number + 1 if chat else 1, seat, name, text)
        chat.append(line)
        del chat[:-CHAT_KEPT]
        return line

    async def end_game(self, code: str, game: int) -> None:
        self._game(code, game).over = True

    async def actions_since(self, code: str, game: int, version: int) -> list[tuple[int, int, str]]:
        actions = self._game(code, game).actions
        return [(number, seat, action) for number, (seat, action) in enumerate(actions, 1) if number > version]

    def _game(self, code: str, game: int) -> GameRow:
        for row in self.tables[code].games:
            if row.number == game:
                return row
        raise StoreError(f"table {code} has no game {game}")

    def load_table(self, code: str) -> TableRow | None:
        row = self.tables.get(code)
        if row is None:
            return None
        return TableRow(
            row.code,
            row.created,
            row.settings,
            {seat: SeatRow(s.name, s.token_hash, s.bot) for seat, s in row.seats.items()},
            [GameRow(g.number, g.seed, g.salt, list(g.actions), g.over, set(g.timeouts)) for g in row.games],
            list(row.chat),
            host=row.host,
        )

    def tables_of(self, token_hashes: Iterable[str]) -> list[tuple[str, int]]:
        wanted = set(token_hashes)
        return [
            (code, seat)
            for code, row in self.tables.items()
            for seat, s in row.seats.items()
            if s.token_hash is not None and s.token_hash in wanted
        ]

    async def close(self) -> None:
        return None
