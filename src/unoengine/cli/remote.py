"""``uno bot --url``: a bot plays a seat of a ``uno serve`` table through the protocol (docs/PROTOCOL.md).

The client joins an open seat (``POST /api/tables/{code}/join``) or takes a seat
whose token it is given, says ``hello`` on the WebSocket, and answers every view
that gives its seat something to do: ``choose`` for its own decision, ``react``
for an out-of-turn one. Views arrive as JSON (docs/NOTATION.md) and are read back
into a :class:`~unoengine.PlayerView` (:func:`view_from_json`): the bot sees what
any client sees, never more.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import urllib.request
from typing import Any

import click

from unoengine.bots.base import Bot, BotError, ask, make_bot, split_specs
from unoengine.cli.arguments import AsciiInt
from unoengine.cli.common import CONTEXT, EXIT_FAILED, fail
from unoengine.core.actions import format_action, parse_action
from unoengine.core.cards import Card, Color, parse_card
from unoengine.core.errors import excerpt, one_line
from unoengine.core.state import Outcome, Termination
from unoengine.core.views import PlayerView

_COLORS = {color.letter: color for color in Color}
_TABLE_URL = re.compile(r"(https?)://([^/]+)/t/([A-Za-z0-9_-]+)/?")

ERROR_LIMIT = 300
"""The most characters of a server's or a connection's message that an error line of ``uno bot`` repeats
(docs/CLI.md, "Limits and errors": a line is at most 500 characters)."""


def _value(name: str, value: Any) -> Any:
    """A detail or decision field from JSON: cards and colours by their field's name, the rest as it is."""
    if isinstance(value, str) and (name == "card" or name.endswith("_card")):
        return parse_card(value)
    if isinstance(value, str) and (name == "color" or name.endswith("_color")) and value in _COLORS:
        return _COLORS[value]
    return value


def _seat_flags(data: dict[str, Any]) -> tuple[bool, ...]:
    """The view's per-seat flags (``PlayerView.power``) from its JSON: Flex's Power Cards (``power``, ``"green"``
    for True), or No Mercy's seats still in the round (``in_round``, booleans; its ``power`` is empty)."""
    if "in_round" in data:
        return tuple(bool(still) for still in data["in_round"])
    return tuple(side == "green" for side in data["power"])


def view_from_json(data: dict[str, Any]) -> PlayerView:
    """The :class:`PlayerView` of a view's JSON form (the inverse of ``view_to_json``)."""

    def card(text: str | None) -> Card | None:
        return None if text is None else parse_card(text)

    def cards(texts: list[str]) -> tuple[Card, ...]:
        return tuple(parse_card(text) for text in texts)

    outcome = data["outcome"]
    return PlayerView(
        rules=data["rules"],
        seats=data["seats"],
        seat=data["seat"],
        options=tuple(sorted(data["options"].items())),
        round=data["round"],
        dealer=data["dealer"],
        hand=cards(data["hand"]),
        hand_sizes=tuple(data["hand_sizes"]),
        top=card(data["top"]),
        color=None if data["color"] is None else _COLORS[data["color"]],
        direction=data["direction"],
        draw_pile=data["draw_pile"],
        draw_pile_known=cards(data["draw_pile_known"]),
        discard_pile=cards(data["discard_pile"]),
        power=_seat_flags(data),
        to_act=data["to_act"],
        pending=data["pending"],
        details=tuple((key, _value(key, value)) for key, value in data["details"].items()),
        challenger_of=data["challenger_of"],
        drawn_card=card(data["drawn_card"]),
        unsafe=data["unsafe"],
        scores=tuple(data["scores"]),
        round_scores=tuple(tuple(deltas) for deltas in data["round_scores"]),
        round_winner=data["round_winner"],
        outcome=None
        if outcome is None
        else Outcome(Termination(outcome["termination"]), outcome["winner"], tuple(outcome["scores"])),
        legal=tuple(parse_action(text) for text in data["legal"]),
        decision=tuple((key, _value(key, value)) for key, value in data["decision"].items()),
        blocked=data["blocked"],
        steps=data["steps"],
        known=tuple(sorted((int(seat), cards(texts)) for seat, texts in data.get("known", {}).items())),
        aside=data.get("aside", 0),
    )


def _post(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


async def play_remote(
    url: str,
    spec: str,
    *,
    token: str | None = None,
    name: str | None = None,
    start: bool = False,
    seed: int = 0,
    games: int = 1,
) -> dict[str, Any]:
    """Play a seat of the table at ``url`` (``http://host:port/t/CODE``) with the bot ``spec``
    until ``games`` games are over; return the last view's outcome and the seat.

    ``token``: a seat's token (the creator's, from ``POST /api/tables``); else the
    client joins an open seat. ``start``: deal (host only), filling open seats with bots.

    Raises:
        ValueError: not a table URL, or the server refused (its message).
        BotError: the bot failed (its message names the decision).
    """
    import websockets

    match = _TABLE_URL.fullmatch(url.strip())
    if match is None:
        raise ValueError(f"not a table URL (http://host:port/t/CODE): {excerpt(url)}")
    scheme, host, code = match.groups()
    bot: Bot = make_bot(spec, random.Random(seed))
    if token is None:
        try:
            body = {"name": name or bot.name[:20]}
            joined = await asyncio.to_thread(_post, f"{scheme}://{host}/api/tables/{code}/join", body)
        except OSError as error:
            raise ValueError(f"cannot join table {excerpt(code)}: {one_line(str(error), ERROR_LIMIT)}") from None
        token = str(joined["token"])
    ws_url = f"{'wss' if scheme == 'https' else 'ws'}://{host}/ws"
    seat: int | None = None
    finished = 0
    answered: set[tuple[int, int]] = set()
    async with websockets.connect(ws_url) as socket:
        await socket.send(json.dumps({"type": "hello", "table": code, "token": token}))
        if start:
            await socket.send(json.dumps({"type": "start", "token": token, "fill": True}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=60))
            kind = message.get("type")
            if kind == "welcome":
                seat = message.get("seat")
                continue
            if kind == "error" and message.get("code") not in ("stale", "illegal", "rate_limited"):
                raise ValueError(f"the server refused: {one_line(str(message.get('message')), ERROR_LIMIT)}")
            data = message.get("view")
            if not isinstance(data, dict) or seat is None:
                continue
            view = view_from_json(data)
            game, version = message.get("game"), message.get("v")
            if view.outcome is not None:
                finished += 1
                if finished >= games:
                    return {"seat": seat, "winner": view.outcome.winner, "scores": list(view.outcome.scores)}
                continue
            if not view.legal or (game, version) in answered:
                continue
            own = view.to_act == seat
            chosen = ask(bot, seat, view.pending if own else "react", view.steps, view, view.legal, react=not own)
            if chosen is None:
                continue
            answered.add((game, version))
            act = {"type": "act", "seat": seat, "token": token, "game": game, "v": version}
            await socket.send(json.dumps(act | {"action": format_action(chosen)}))


@click.command("bot", context_settings=CONTEXT)
@click.option("--url", required=True, metavar="http://HOST:PORT/t/CODE", help="The table's invite link.")
@click.option("--bot", "spec", default="heuristic", show_default=True, help="The bot spec (docs/BOTS.md).")
@click.option("--token", default=None, help="Play the seat of this token (else join an open seat).")
@click.option("--name", default=None, help="The name shown at the table [default: the bot's].")
@click.option("--start", is_flag=True, help="Deal once seated (host only), open seats filled with bots.")
@click.option("--games", type=AsciiInt(low=1), default=1, show_default=True, help="Games to play, then leave.")
@click.option("-s", "--seed", type=AsciiInt(100), default=0, show_default=True, help="The bot's seed.")
def bot_command(
    *, url: str, spec: str, token: str | None, name: str | None, start: bool, games: int, seed: int
) -> None:
    """Play a seat of a 'uno serve' table with a bot, through the table's protocol.

    A URL that is not a table's invite link or an unknown bot is a usage error
    (exit status 2); a table that cannot be reached or refuses, or a bot that fails, exit status 1.
    """
    from websockets.exceptions import WebSocketException

    if _TABLE_URL.fullmatch(url.strip()) is None:
        raise click.BadParameter(
            f"{excerpt(url)} is not a table's invite link (http://host:port/t/CODE)", param_hint="'--url'"
        )
    try:
        split_specs(spec)
        make_bot(spec, random.Random(seed))  # an unknown bot, module or parameter: refused before connecting
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--bot'") from None
    try:
        result = asyncio.run(play_remote(url, spec, token=token, name=name, start=start, seed=seed, games=games))
    except BotError as error:
        fail(f"error: {error}", EXIT_FAILED)
    except (ValueError, OSError, WebSocketException) as error:
        fail(f"error: {one_line(str(error), ERROR_LIMIT)}", EXIT_FAILED)
    winner = result["winner"]
    click.echo(
        f"seat {result['seat']}: "
        + ("won" if winner == result["seat"] else "no winner" if winner is None else f"seat {winner} won")
        + f"; scores {result['scores']}"
    )
