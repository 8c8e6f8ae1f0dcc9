"""The small types a table's actor and its collaborators share: the server's knobs, a connection, the commands.

A command is one of the protocol's messages (:mod:`unoengine.server.protocol`)
from a client, or one of the actor's own (a bot's step is due, a timer ran out,
another worker wrote the table).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from unoengine.core.errors import excerpt
from unoengine.server.protocol import ClientMessage

Message = dict[str, Any]
Tap = Callable[[str, "Client", Message], None]
"""Sees every message sent, before it is written: (table code, client, message)."""

STAND_IN = "heuristic"
"""The bot that plays a dropped player's seat, a seat given up, or a decision whose turn timer ran out."""
CHAT_HISTORY = 50
OUTBOX = 4096
"""Messages queued for one client before it is dropped as too slow (it resyncs when it comes back)."""
REPLAY_LIMIT = 5000
"""The most steps a catch-up rebuilds from the game's record (beyond the kept history); older asks get a view."""
MIN_ROUND_WAIT = 10.0


class Outlet(Protocol):
    """Where a client's messages go (a WebSocket, or a list in tests)."""

    def push(self, text: str) -> bool:
        """Queue one message; ``False`` when the client cannot keep up."""
        ...

    def drop(self, reason: str) -> None:
        """Close the connection."""
        ...


@dataclass(eq=False)
class Client:
    """One connection to a table: a seat (after a ``hello`` with its token) or a spectator."""

    outlet: Outlet
    seat: int | None = None
    spectator: bool = True
    sent: int = 0
    lang: str = "en"
    """The connection's language (its ``hello``'s ``lang``): what it is sent in words is in it."""


REACT_DELAY: Final = 3.0
"""The default people's reaction time (``uno serve --react-delay``), in seconds.

Nobody here measured people; the figure comes from published ones and the testers' own clicks.
To jump in, a person sees the card (simple visual reaction, about 0.25 s), recognises a card of
the hand that matches it (choice reaction with recognition, 0.5-0.8 s), then moves to its button
and taps it (Fitts's law on a phone, 0.5-1 s): 1.25-2.05 s, before the message's trip to the
server. The testers' clicks came 1.0-1.8 s after the window opened, and 4 of 14 missed the old
2.0 s window. 3.0 s lets the slowest observed click (1.8 s) in with 1.2 s to spare for a slower
hand or network; bots among themselves stay fast (``bot_delay``), and only a window a connected
person could use waits.
"""


def bot_name(seat: int) -> str:
    """A bot's name: the seat as people count it, from 1 ("Bot 2" sits in the page's second seat, seat 1)."""
    return f"Bot {seat + 1}"


@dataclass(slots=True)
class ServerConfig:
    """Server-wide knobs."""

    bot_delay: float = 0.6
    """Seconds a bot waits before it acts (0 in tests and the load benchmark)."""
    react_delay: float = REACT_DELAY
    """The people's reaction time: while a connected person could act out of turn (catch a seat
    that did not call UNO, call UNO before being caught, jump in), no bot reacts (catches, calls
    UNO, jumps in) until this many seconds after the window opened. Bots among themselves stay fast.
    Why 3 s by default: see :data:`REACT_DELAY`."""
    round_wait: float = 15.0
    """Seconds the next round waits at most for every connected person's ``ready`` (0: it does not
    wait, for tests and benchmarks; else at least 10)."""
    history: int = 256
    """Steps kept per table for reconnects ("events since N"); older ones are rebuilt from the record."""
    message_rate: float = 20.0
    """Messages a second one connection may send (bursts of ``message_burst``); more are refused."""
    message_burst: float = 60.0
    http_rate: float = 5.0
    """Table creations and joins a second from one address (bursts of ``http_burst``)."""
    http_burst: float = 50.0
    idle_seconds: float = 600.0
    """A table nobody is connected to and nothing happened at for this long leaves memory (0: never).

    It stays in the store: the next message for it loads it again, its game where it was.
    """
    cluster: dict[str, float] = field(default_factory=dict)
    """With PostgreSQL: ``poll_seconds`` (the periodic read, 3) and ``lease_seconds`` (a lease's life, 10)."""
    gc_freeze_seconds: float = 10.0
    """How often the server moves what has survived into the collector's permanent generation (0: never).

    A full collection of CPython's cyclic garbage collector walks every tracked
    object; with a thousand tables' states that is a pause of a few hundred
    milliseconds, the whole of the latency's tail. Game states are acyclic values
    freed by reference counting, so the server collects the young generations and
    then freezes what is left at this interval: full collections then walk only
    what came since.
    """

    review_workers: int = 1
    """Processes that analyse finished games for their reviews (``unoengine.server.review``), one
    analysis each at a time; 0: reviews show their steps but no analysis (its status ``off``)."""
    review_iterations: int = 0
    """The analysis's search budget per decision (0: the analysis's own default; tests use a tiny one)."""

    def __post_init__(self) -> None:
        # A delay of nan or inf would stop every timer of the event loop (the bots, and shutdown itself).
        numbers = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "cluster"}
        for name, value in (*numbers.items(), *((f"cluster[{key!r}]", v) for key, v in self.cluster.items())):
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise ValueError(f"ServerConfig.{name} must be a finite number of at least 0, not {excerpt(value)}")
        if 0 < self.round_wait < MIN_ROUND_WAIT:
            raise ValueError(f"ServerConfig.round_wait is 0 (no wait) or at least {MIN_ROUND_WAIT:g} seconds")


# -- the actor's own commands (the clients' are the protocol's messages) -------------------


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's step is due at ``stamp`` (game, version)."""

    stamp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TurnTimeout:
    """The turn timer of ``stamp`` ran out: the stand-in takes that decision."""

    stamp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundWaitOver:
    """The wait for the people's ``ready`` after the round of ``stamp`` ran out."""

    stamp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GraceOver:
    seat: int


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The client's connection closed."""


@dataclass(frozen=True, slots=True)
class Refresh:
    """Another worker wrote the table: ``hint`` (game, version) of its newest action, or a full re-read."""

    hint: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Wake:
    """This worker now drives the table's bots and timers (it took the lease)."""


@dataclass(frozen=True, slots=True)
class Join:
    """``POST /api/tables/{code}/join``: a person takes the first open seat."""

    name: str


@dataclass(frozen=True, slots=True)
class RecordOf:
    """``GET …/games/{n}/record``: a finished game's record."""

    number: int


Internal = BotTurn | TurnTimeout | RoundWaitOver | GraceOver | Disconnect | Refresh | Wake | Join | RecordOf


@dataclass(eq=False)
class Command:
    message: ClientMessage | Internal
    client: Client | None = None
    reply: asyncio.Future[Any] | None = None
    received: float = 0.0
    """``time.perf_counter()`` when its frame arrived (0: not from a client): the server's own latency."""


@dataclass(slots=True)
class Stats:
    actions: int = 0
    refused: int = 0
    messages: int = 0


class Refused(Exception):
    """A command refused (its ``error``): raised inside a handler, answered by :meth:`Outbox.refuse`."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra
