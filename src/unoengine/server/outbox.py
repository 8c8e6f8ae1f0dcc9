"""What each connection of a table is sent: every message leaves through :meth:`Outbox.send` or a broadcast.

Every game message is built from the seat's view (the core's ``view_for``) and the
step's events redacted for that seat, with the narrator's sentences for that seat:
the server never strips a full state.

A step is built once per seat that has a connection: its view after the step (kept,
so that it is the next step's view before), its narration and its JSON text, which
every connection of that seat (and every spectator) is given as it is.

Words are made in English with ``said(...)`` (:mod:`unoengine.i18n`); a connection
in another language (its ``hello``'s ``lang``) is sent the same message with every
word translated (:func:`~unoengine.server.protocol.localized`), made once per seat
and language, and only for the languages connected: an English table does what it did.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from unoengine.core.action_words import past_words
from unoengine.core.actions import format_action
from unoengine.core.events import event_to_json
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView, view_for, view_to_json
from unoengine.i18n import DEFAULT
from unoengine.play.narrator import Names, first_card, narrate
from unoengine.play.table import Table, TableStep
from unoengine.server import lobby
from unoengine.server.commands import CHAT_HISTORY, Client, Message
from unoengine.server.protocol import dumps, localized
from unoengine.server.store import ChatRow

if TYPE_CHECKING:
    from unoengine.server.actor import TableActor


def view_message(table: Table, game: int, seat: int | None) -> Message:
    """``sync``: the seat's whole view now (``table.view``, the core's ``view_for``)."""
    return {"type": "sync", "game": game, "v": table.version, "view": view_to_json(table.view(seat))}


class Outbox:
    """The table's connections' messages: sends, refusals, syncs, catch-ups, broadcasts and the chat."""

    def __init__(self, actor: TableActor) -> None:
        self.actor = actor
        self.chat: deque[Message] = deque(maxlen=CHAT_HISTORY)
        self.chat_seen: deque[int] = deque(maxlen=CHAT_HISTORY)
        self._state: GameState | None = None
        """The state whose views :attr:`_views` holds (the last step's, or the table's when a sync asked)."""
        self._views: dict[int | None, PlayerView] = {}

    # -- sending -----------------------------------------------------------------------

    def send(self, client: Client, message: Message) -> None:
        """The one way out: every message to one client passes here (and past the tap), in its language."""
        if client.lang != DEFAULT:
            message = dict(localized(message, client.lang))
        self.deliver(client, message, dumps(message))

    def deliver(self, client: Client, message: Message, text: str) -> None:
        """Send ``message`` as ``text`` (its JSON, made once for every connection it goes to)."""
        actor = self.actor
        if actor.tap is not None:
            actor.tap(actor.code, client, message)
        client.sent += 1
        actor.stats.messages += 1
        if not client.outlet.push(text):
            actor.clients.discard(client)
            client.outlet.drop("too slow")

    def broadcast(self, message: Message) -> None:
        """The same message to every connection: its text is made once (per language connected)."""
        made: dict[str, tuple[Message, str]] = {}
        for client in list(self.actor.clients):
            lang = client.lang
            entry = made.get(lang)
            if entry is None:
                said = message if lang == DEFAULT else dict(localized(message, lang))
                entry = made[lang] = (said, dumps(said))
            self.deliver(client, *entry)

    def error(self, client: Client, code: str, message: str, **extra: Any) -> None:
        """An ``error``: its ``message`` (a ``said(...)``) in the client's language, its ``code`` never."""
        self.send(client, {"type": "error", "code": code, "message": message, **extra})

    def refuse(self, client: Client, code: str, message: str, **extra: Any) -> None:
        """A refused command: its ``error``, then a ``sync`` so that the client shows the table as it is."""
        self.actor.stats.refused += 1
        self.error(client, code, message, **extra)
        self.sync(client)

    def lobby(self) -> Message:
        """The table's public description: settings, seats, presence, host, watchers, fairness commitments."""
        actor = self.actor
        spectators = sum(1 for client in actor.clients if client.seat is None)
        return lobby.describe(actor.row, actor.presence, spectators=spectators, waiting=actor.waiting)

    def broadcast_lobby(self) -> None:
        self.broadcast({"type": "lobby", "table": self.lobby()})

    def welcome(self, client: Client) -> None:
        seat = client.seat
        self.send(
            client,
            {
                "type": "welcome",
                "seat": seat,
                "spectator": seat is None,
                "host": seat is not None and seat == self.actor.row.host,
                "table": self.lobby(),
                "chat": list(self.chat),
            },
        )

    # -- views and words ---------------------------------------------------------------

    def view(self, state: GameState, seat: int | None) -> PlayerView:
        """The seat's view of ``state``, made once: kept while ``state`` is the latest state asked for."""
        if state is not self._state:
            self._state, self._views = state, {}
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = view_for(state, seat)
        return view

    def names(self, reader: int | None) -> Names:
        row = self.actor.row
        seats = tuple(
            seat_row.name if (seat_row := row.seats.get(seat)) is not None else f"Seat {seat + 1}"
            for seat in range(row.settings.seats)
        )
        return Names(seats, reader)

    def step_json(
        self,
        step: TableStep,
        seat: int | None,
        before: PlayerView,
        after: PlayerView,
        words: tuple[str, str, bool],
    ) -> Message:
        """One step as the seat may see it: version, seat, action, redacted events, words, narrator's sentences.

        ``before`` and ``after`` are the seat's views around the step; ``words`` is what every seat
        shares: (the action in notation, in words, whether the turn timer took it).
        """
        action, said, timed_out = words
        state = step.state
        lines = narrate(before, step.events, after, self.names(seat), state.tables.cards, timed_out=timed_out)
        return {
            "v": step.version,
            "seat": step.seat,
            "action": action,
            "events": [event_to_json(event, state) for event in step.events_for(seat)],
            "words": said,
            "lines": lines,
            "timeout": timed_out,
        }

    def shared_words(self, step: TableStep, action: str | None = None) -> tuple[str, str, bool]:
        """What a step says to every seat: its action in notation (``action`` when the caller has it), its words,
        and whether the turn timer took it."""
        game = self.actor.game
        timed_out = game is not None and step.version in game.timeouts
        text = format_action(step.action) if action is None else action
        return text, past_words(step.state.rules, step.action), timed_out

    def opening(self, seat: int | None) -> list[str]:
        """The sentences that open the game's log for the seat, before any step: the first card turned at the deal
        (Classic, Flex); none while a Duo draft runs (its last step names the first card)."""
        table = self.actor.table
        assert table is not None
        line = first_card(view_for(table.start, seat), self.names(seat))
        return [] if line is None else [line]

    # -- game messages -----------------------------------------------------------------

    def sync(self, client: Client) -> None:
        actor = self.actor
        table, game = actor.table, actor.game
        if table is None:
            return
        assert game is not None
        seat = client.seat
        message = {
            "type": "sync",
            "game": game.number,
            "v": table.version,
            "view": view_to_json(self.view(table.state, seat)),
            "lines": self.opening(seat),
            "timers": actor.clock.timers(),
        }
        self.send(client, message)

    def broadcast_step(self, step: TableStep, before: GameState, action: str | None = None) -> None:
        """The step to every connection: per seat one view, one narration and one text, shared by its connections
        (and per seat and language connected, the text in that language).

        The seat's view before the step is the one kept from the step before, when it is still at hand.
        """
        actor = self.actor
        assert actor.game is not None
        kept = self._views if self._state is before else {}
        words = self.shared_words(step, action)
        timers = actor.clock.timers()
        number = actor.game.number
        made: dict[int | None, Message] = {}
        built: dict[int | tuple[int | None, str] | None, tuple[Message, str]] = {}
        for client in list(actor.clients):
            seat, lang = client.seat, client.lang
            key = seat if lang == DEFAULT else (seat, lang)
            entry = built.get(key)
            if entry is None:
                message = made.get(seat)
                if message is None:
                    after = self.view(step.state, seat)
                    ahead = kept.get(seat)
                    ahead = ahead if ahead is not None else view_for(before, seat)
                    message = made[seat] = {
                        "type": "step",
                        "game": number,
                        **self.step_json(step, seat, ahead, after, words),
                        "view": view_to_json(after),
                        "timers": timers,
                    }
                if lang != DEFAULT:
                    message = dict(localized(message, lang))
                entry = built[key] = (message, dumps(message))
            self.deliver(client, *entry)

    def catch_up(self, client: Client, since: int | None, game: int | None) -> None:
        """The steps after ``since`` of the current game (kept, or rebuilt from its record), or a ``sync``."""
        actor = self.actor
        table, row = actor.table, actor.game
        if table is None or row is None:
            return
        steps = None
        if since is not None and game == row.number and 0 <= since <= table.version:
            steps = actor.pipeline.steps_since(table, since)
        if steps is None:
            self.sync(client)
            return
        seat = client.seat
        told: list[Message] = []
        earlier: tuple[GameState, PlayerView] | None = None
        for step, before in steps:  # each state's view once: a step's view after is the next one's before
            ahead = earlier[1] if earlier is not None and earlier[0] is before else view_for(before, seat)
            after = view_for(step.state, seat)
            told.append(self.step_json(step, seat, ahead, after, self.shared_words(step)))
            earlier = (step.state, after)
        message: Message = {
            "type": "steps",
            "game": row.number,
            "steps": told,
            "v": table.version,
            "view": view_to_json(self.view(table.state, seat)),
            "timers": actor.clock.timers(),
        }
        if since == 0:  # the whole game: its log starts with the opening lines
            message["lines"] = self.opening(seat)
        self.send(client, message)

    # -- chat --------------------------------------------------------------------------

    def add_chat(self, line: ChatRow) -> Message:
        message = {"type": "chat", "seat": line.seat, "name": line.name, "text": line.text}
        self.chat.append(message)
        self.chat_seen.append(line.number)
        return message

    def take_chat(self, line: ChatRow) -> None:
        """A chat line from the store: kept and sent to everyone, unless it was seen already."""
        if line.number not in self.chat_seen:
            self.broadcast(self.add_chat(line))

    async def say(self, seat: int, text: str) -> None:
        """A seat's chat line: stored, then sent to everyone."""
        actor = self.actor
        self.take_chat(await actor.store.add_chat(actor.code, seat, actor.row.seats[seat].name, text))
