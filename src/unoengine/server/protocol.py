"""The wire protocol's message schemas (docs/PROTOCOL.md) and their validation.

Every message from a client is one JSON object of at most :data:`MAX_MESSAGE`
characters with a known ``type``; every field is type-checked (a ``bool`` is not
an ``int``), and text fields are length-capped and cleaned of control characters.
A bad message raises :class:`ProtocolError`, which the server answers with an
``error`` message to that client only.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from unoengine.bots.base import game_refusal, known_bots
from unoengine.core.engine import new_game
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.options import PRESET_TITLES, PRESET_WORDS, PRESETS, option_specs, parse_options, preset_options
from unoengine.core.rules import find_rules
from unoengine.core.rules.option_specs import OptionSpec
from unoengine.core.rules.ruleset import RuleSet
from unoengine.i18n import DEFAULT, LANGUAGES, said, translatable, translate
from unoengine.play.narrator import in_language

PROTOCOL = "unoengine-ws/1"
MAX_MESSAGE = 4096
"""Longest client message accepted, in characters (the WebSocket layer caps bytes too)."""
MAX_NAME = 24
MAX_CHAT = 300
MAX_ACTION = 40
MAX_TOKEN = 64
MAX_GRACE = 3600.0
MAX_TURN = 3600.0


class ProtocolError(ValueError):
    """A message the server refuses: a short ``code`` and a human ``message`` (a ``said(...)``: each
    connection reads it in its language; the ``code`` never changes with language)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Hello:
    """Open a table's stream: as a seat (``token``) or a spectator (no token)."""

    table: str
    token: str | None
    since: int | None
    game: int | None
    lang: str = DEFAULT
    """The connection's language (``LANGUAGES``): every word it is sent is in it (English by default)."""


@dataclass(frozen=True, slots=True)
class Act:
    """An action of ``seat``, made against ``game`` at version ``v`` (notation text)."""

    seat: int
    token: str
    game: int
    v: int
    action: str


@dataclass(frozen=True, slots=True)
class Start:
    """The host starts the game; ``fill`` puts ``bot`` bots in the seats still open."""

    token: str
    fill: bool
    bot: str


@dataclass(frozen=True, slots=True)
class Again:
    """The host deals a new game at the same table, same seats."""

    token: str


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of table chat."""

    token: str
    text: str


@dataclass(frozen=True, slots=True)
class Sync:
    """Ask for the steps since ``since`` (or a full view)."""

    since: int | None
    game: int | None


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive; answered with ``pong``."""


@dataclass(frozen=True, slots=True)
class Ready:
    """This person has seen the round's summary and wants the next round."""

    token: str


@dataclass(frozen=True, slots=True)
class Leave:
    """Give up the seat: it opens (in the lobby) or a stand-in bot plays it; the token stops working."""

    token: str


@dataclass(frozen=True, slots=True)
class Handover:
    """The host makes ``seat`` (a person) the host."""

    token: str
    seat: int


@dataclass(frozen=True, slots=True)
class Kick:
    """The host removes an absent person from ``seat``: it opens (lobby) or a bot plays it."""

    token: str
    seat: int


@dataclass(frozen=True, slots=True)
class Replace:
    """The host puts a ``bot`` in ``seat`` now."""

    token: str
    seat: int
    bot: str


ClientMessage = Hello | Act | Start | Again | Chat | Sync | Ping | Ready | Leave | Handover | Kick | Replace

_FIELDS: dict[str, dict[str, tuple[type, bool]]] = {
    # type -> field -> (JSON type, required)
    "hello": {
        "table": (str, True),
        "token": (str, False),
        "since": (int, False),
        "game": (int, False),
        "lang": (str, False),
    },
    "act": {"seat": (int, True), "token": (str, True), "game": (int, True), "v": (int, True), "action": (str, True)},
    "start": {"token": (str, True), "fill": (bool, False), "bot": (str, False)},
    "again": {"token": (str, True)},
    "chat": {"token": (str, True), "text": (str, True)},
    "sync": {"since": (int, False), "game": (int, False)},
    "ping": {},
    "ready": {"token": (str, True)},
    "leave": {"token": (str, True)},
    "handover": {"token": (str, True), "seat": (int, True)},
    "kick": {"token": (str, True), "seat": (int, True)},
    "replace": {"token": (str, True), "seat": (int, True), "bot": (str, False)},
}
MESSAGE_TYPES = frozenset(_FIELDS)


def clean_text(text: str, limit: int) -> str:
    """``text`` without control or format characters, whitespace collapsed, at most ``limit`` characters.

    >>> clean_text("  <b>hi</b>\\u202e\\x00  there ", 20)
    '<b>hi</b> there'
    """
    kept = "".join(" " if ch.isspace() else ch for ch in text if unicodedata.category(ch)[0] != "C" or ch.isspace())
    return " ".join(kept.split())[:limit]


def _checked(data: Mapping[str, Any], kind: str) -> dict[str, Any]:
    fields = _FIELDS[kind]
    unknown = set(data) - set(fields) - {"type"}
    if unknown:
        # TRANSLATORS: a client sent a message with a field it does not have; {field} and {kind} are code names
        raise ProtocolError(
            "bad_field", said("unknown field {field} in {kind}", field=excerpt(sorted(unknown)[0]), kind=repr(kind))
        )
    values: dict[str, Any] = {}
    for name, (expected, required) in fields.items():
        if name not in data or data[name] is None:
            if required:
                raise ProtocolError("bad_field", said("{kind} needs {field}", kind=repr(kind), field=repr(name)))
            values[name] = None
            continue
        value: Any = data[name]
        if type(value) is not expected:
            raise ProtocolError("bad_field", _JSON_NAMES[expected](repr(name)))
        if isinstance(value, int) and not -(2**31) <= value < 2**31:
            raise ProtocolError("bad_field", said("{field} is out of range", field=repr(name)))
        if isinstance(value, str) and len(value) > MAX_CHAT * 2:
            raise ProtocolError("too_long", said("{field} is too long", field=repr(name)))
        values[name] = value
    return values


def _must_be_text(field: str) -> str:
    return said("{field} must be a string", field=field)


def _must_be_int(field: str) -> str:
    return said("{field} must be an integer", field=field)


def _must_be_bool(field: str) -> str:
    return said("{field} must be true or false", field=field)


_JSON_NAMES = {str: _must_be_text, int: _must_be_int, bool: _must_be_bool}
_TOKEN_COMMANDS: dict[str, type[Again | Ready | Leave]] = {"again": Again, "ready": Ready, "leave": Leave}
_SEAT_COMMANDS: dict[str, type[Handover | Kick]] = {"handover": Handover, "kick": Kick}


def _bot(name: str | None) -> str:
    bot = name or "heuristic"
    if bot not in known_bots():
        raise ProtocolError("bad_field", said("unknown bot {bot}", bot=repr(bot[:20])))
    return bot


def parse_message(text: str | bytes) -> ClientMessage:
    """Parse and check one client message.

    >>> parse_message('{"type": "act", "seat": 0, "token": "t", "game": 1, "v": 3, "action": "R7"}')
    Act(seat=0, token='t', game=1, v=3, action='R7')
    >>> parse_message('{"type": "act", "seat": true}')
    Traceback (most recent call last):
    ...
    unoengine.server.protocol.ProtocolError: bad_field: 'seat' must be an integer

    Raises:
        ProtocolError: the message is refused (``code``: too_long, bad_json, bad_type, bad_field).
    """
    if isinstance(text, bytes):
        raise ProtocolError("bad_json", said("messages are JSON text frames"))
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_long", said("a message is at most {n} characters", n=MAX_MESSAGE))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", said("not valid JSON")) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", said("a message is a JSON object"))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("bad_type", said("unknown message type {kind}", kind=repr(str(kind)[:20])))
    values = _checked(data, kind)
    for name in ("token",):
        if values.get(name) is not None and len(values[name]) > MAX_TOKEN:
            raise ProtocolError("bad_field", said("not a seat token"))
    if kind == "hello":
        lang = values["lang"] or DEFAULT
        if lang not in LANGUAGES:
            # TRANSLATORS: {lang} is what the client sent; {known} the language codes ("en, km, si, lo")
            known = ", ".join(LANGUAGES)
            raise ProtocolError(
                "bad_lang", said("unknown language {lang} (known: {known})", lang=repr(lang[:20]), known=known)
            )
        return Hello(values["table"].upper()[:16], values["token"], values["since"], values["game"], lang)
    if kind == "act":
        if len(values["action"]) > MAX_ACTION:
            raise ProtocolError("too_long", said("not an action"))
        return Act(values["seat"], values["token"], values["game"], values["v"], values["action"])
    if kind == "start":
        return Start(values["token"], bool(values["fill"]), _bot(values["bot"]))
    if kind == "replace":
        return Replace(values["token"], values["seat"], _bot(values["bot"]))
    if kind in _SEAT_COMMANDS:
        return _SEAT_COMMANDS[kind](values["token"], values["seat"])
    if kind in _TOKEN_COMMANDS:
        return _TOKEN_COMMANDS[kind](values["token"])
    if kind == "chat":
        line = clean_text(values["text"], MAX_CHAT)
        if not line:
            raise ProtocolError("bad_field", said("empty chat line"))
        return Chat(values["token"], line)
    if kind == "sync":
        return Sync(values["since"], values["game"])
    return Ping()


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the creator chose: rule set, seats, options, a bot (or nobody) per seat, presence timers."""

    rules: str
    seats: int
    options: tuple[tuple[str, Any], ...]
    bots: tuple[str | None, ...]
    """One entry per seat: a bot name, or ``None`` for a person."""
    grace: float = 30.0
    """Seconds a dropped player keeps the seat before a bot plays it."""
    turn_seconds: float = 0.0
    """Seconds a person has for a decision before a bot takes it for them (0: no timer)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "seats": self.seats,
            "options": dict(self.options),
            "bots": list(self.bots),
            "grace": self.grace,
            "turn_seconds": self.turn_seconds,
        }


def parse_settings(data: object) -> tuple[TableSettings, str]:
    """The settings and the creator's name from a ``POST /api/tables`` body.

    The rule set and option values are checked by the core (``RuleSet.options``).
    Seat 0 is the creator's; ``bots`` lists the other seats' bots (``null`` keeps a seat open).

    Raises:
        ProtocolError: a missing or mistyped field, an unknown rule set, option or bot.
    """
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", said("the body is a JSON object"))
    allowed = {"rules", "seats", "options", "preset", "bots", "name", "grace", "turn_seconds"}
    unknown = set(data) - allowed
    if unknown:
        raise ProtocolError("bad_field", said("unknown field {field}", field=excerpt(sorted(unknown)[0])))
    rules_name = data.get("rules", "classic")
    if not isinstance(rules_name, str) or len(rules_name) > 20:
        raise ProtocolError("bad_field", said("'rules' must be a rule set name"))
    try:
        rules = find_rules(rules_name)
    except InvalidNotationError as error:
        raise ProtocolError("bad_field", words_of(error)) from None
    seats = data.get("seats", min(4, rules.seats.stop - 1))
    if type(seats) is not int or seats not in rules.seats:
        # TRANSLATORS: {rules} is a rule set's name ("Classic"); {low}, {high}: seat counts
        raise ProtocolError(
            "bad_field",
            said("{rules} has {low}–{high} seats", rules=rules.title, low=rules.seats.start, high=rules.seats.stop - 1),
        )
    given = data.get("options", {})
    if not isinstance(given, dict) or len(given) > 40:
        raise ProtocolError("bad_field", said("'options' must be an object"))
    preset = data.get("preset")
    if preset is not None and (not isinstance(preset, str) or len(preset) > 20):
        raise ProtocolError("bad_field", said("'preset' must be one of {presets} or null", presets=", ".join(PRESETS)))
    try:
        # The core's one parser: the preset's options, then the form's (typed, or text from elsewhere).
        resolved = parse_options(rules, given, preset=preset)
        chosen = resolved.to_dict()
        new_game(rules, seats, seed=0, options=resolved)  # what the seat count refuses (H-8's deal, H-11's pairs)
    except (InvalidNotationError, TypeError) as error:
        raise ProtocolError("bad_field", words_of(error)) from None
    named = set(given) | (set(preset_options(rules, preset)) if preset is not None else set())
    options = {name: chosen[name] for name in named}
    bots = data.get("bots", [])
    if not isinstance(bots, list) or len(bots) > seats - 1:
        raise ProtocolError("bad_field", said("'bots' lists at most {n} seats after yours", n=seats - 1))
    seat_bots: list[str | None] = [None]
    for bot in bots:
        if bot is not None and (not isinstance(bot, str) or bot not in known_bots()):
            raise ProtocolError(
                "bad_field",
                said("unknown bot {bot} (known: {known})", bot=repr(str(bot)[:20]), known=", ".join(known_bots())),
            )
        if bot is not None:
            refused = game_refusal(bot, rules.name, seats)
            if refused is not None:
                raise ProtocolError("bad_field", refused)
        seat_bots.append(bot)
    seat_bots += [None] * (seats - len(seat_bots))
    grace = _seconds(data, "grace", 30.0, MAX_GRACE)
    turn = _seconds(data, "turn_seconds", 0.0, MAX_TURN)
    name = parse_name(data.get("name", "Host"))
    return (
        TableSettings(rules.name, seats, tuple(sorted(options.items())), tuple(seat_bots), grace, turn),
        name,
    )


def spec_json(spec: OptionSpec) -> dict[str, Any]:
    """One option of a rule set for the create-table form: its values, default, rule and words."""
    return {
        "name": spec.name,
        "default": spec.default,
        "kind": spec.kind.__name__,
        "choices": list(spec.choices),
        "low": spec.low,
        "high": spec.high,
        "rule": spec.rule,
        "words": spec.words,
        "title": spec.title or spec.name.replace("_", " "),
        "choice_words": dict(spec.choice_words),
    }


def presets_json(rules: RuleSet) -> list[dict[str, Any]]:
    """The presets, with the options each sets in this rule set (``GET /api/rules``): ``official`` and those that
    change something here (a preset whose house rules the rule set does not take, as every one but ``official`` in
    No Mercy, would promise rules the table does not play)."""
    presets = ((name, preset_options(rules, name)) for name in PRESETS)
    return [
        {
            "name": name,
            "title": PRESET_TITLES.get(name, name),
            "words": PRESET_WORDS.get(name, ""),
            "options": options,
        }
        for name, options in presets
        if options or name == "official"
    ]


def table_rules(rules_name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A table's rules for everyone who joins (the lobby's ``rules``): each option's value and words,
    and the preset they are exactly, if any."""
    rules = find_rules(rules_name)
    values = rules.options(dict(options)).to_dict()
    specs = option_specs(rules)
    changed = {spec.name: values[spec.name] for spec in specs if values[spec.name] != spec.default}
    preset = next((name for name in PRESETS if preset_options(rules, name) == changed), None)
    return {
        "preset": preset,
        "preset_title": None if preset is None else PRESET_TITLES.get(preset, preset),
        "options": [{**spec_json(spec), "value": values[spec.name]} for spec in specs],
    }


def _seconds(data: Mapping[str, Any], key: str, default: float, limit: float) -> float:
    value = data.get(key, default)
    if type(value) not in (int, float) or not 0 <= value <= limit:
        raise ProtocolError(
            "bad_field",
            said("{field} must be a number of seconds from 0 to {limit}", field=repr(key), limit=f"{limit:g}"),
        )
    return float(value)


def parse_name(value: object) -> str:
    """A player's name: text, cleaned, 1 to :data:`MAX_NAME` characters.

    Raises:
        ProtocolError: not text, or empty once cleaned.
    """
    if not isinstance(value, str) or len(value) > MAX_NAME * 4:
        raise ProtocolError("bad_field", said("a name is text of at most {n} characters", n=MAX_NAME))
    name = clean_text(value, MAX_NAME)
    if not name:
        raise ProtocolError("bad_field", said("a name needs a visible character"))
    return name


def settings_from_json(data: Mapping[str, Any]) -> TableSettings:
    """Settings as the store keeps them (already checked when the table was created)."""
    return TableSettings(
        data["rules"],
        data["seats"],
        tuple(sorted(data["options"].items())),
        tuple(data["bots"]),
        float(data["grace"]),
        float(data["turn_seconds"]),
    )


def words_of(error: BaseException) -> str:
    """An exception's message as words a connection can read in its language: the ``Said`` it was raised
    with (the core's refusals), else its text."""
    first = error.args[0] if error.args else None
    return first if translatable(first) and isinstance(first, str) else str(error)


def localized(message: Mapping[str, Any], lang: str) -> Mapping[str, Any]:
    """A server message in ``lang``: every ``said(...)`` in it translated (an ``error``'s plain ``message``
    looked up as a message id); ``message`` itself in English. Codes, notation and events never change."""
    if lang == DEFAULT:
        return message
    out: dict[str, Any] = in_language(message, lang)
    text = message.get("message")
    if message.get("type") == "error" and isinstance(text, str) and not translatable(text):
        out["message"] = translate(text, lang)
    return out


def dumps(message: Mapping[str, Any]) -> str:
    """A server message as compact JSON text (UTF-8, no spaces): what ``json.dumps(message,
    separators=(",", ":"), ensure_ascii=False)`` writes, by orjson, about nine times faster (a step's
    message is built for every seat at every step of every table)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
