"""Actions and their notation (docs/NOTATION.md, "Actions").

Every decision a seat can take is one :class:`Action` value (its classes are
those of ``unoengine.core.values``, re-exported here). Actions are interned:
the same notation always gives the same object, so the engine compares them by
identity on the hot path and ``parse_action(format_action(a)) is a``.
"""

from __future__ import annotations

import re
from functools import cache

from unoengine.core.cards import Card, Color, Seat, format_card, parse_card
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.values import Accept, CallUno, Catch, Challenge, ChooseColor, Draw, Keep, Pass, Play, Reject

Action = Play | Draw | Pass | CallUno | Catch | Accept | Challenge | Keep | Reject | ChooseColor

ACTION_TYPES = (Play, Draw, Pass, CallUno, Catch, Accept, Challenge, Keep, Reject, ChooseColor)

DRAW = Draw()
PASS = Pass()
CALL_UNO = CallUno()
ACCEPT = Accept()
CHALLENGE = Challenge()
KEEP = Keep()
REJECT = Reject()

_WORDS: dict[str, Action] = {
    "draw": DRAW,
    "pass": PASS,
    "uno": CALL_UNO,
    "accept": ACCEPT,
    "challenge": CHALLENGE,
    "keep": KEEP,
    "reject": REJECT,
}


def play(
    card: Card,
    color: Color | None = None,
    flex: bool = False,
    target: Seat | None = None,
    uno: bool = False,
) -> Play:
    """The interned :class:`Play` for these fields, however they are passed (``play(card, color)`` is
    ``play(card, color, False, None, False)``: the action-id tables find the engine's plays by identity).

    A play aimed at no possible seat (a target outside 0 to 63, as notation may say) is made afresh each time, so
    that no input can grow the table without bound."""
    key = (card, color, flex, target, uno)
    found = _PLAYS.get(key)
    if found is None:
        found = Play(card, color, flex, target, uno)
        if target is None or 0 <= target < 64:
            _PLAYS[key] = found
    return found


_PLAYS: dict[tuple[Card, Color | None, bool, Seat | None, bool], Play] = {}
"""Every play made so far by :func:`play`, by its fields."""


@cache
def catch(seat: Seat) -> Catch:
    """The interned :class:`Catch` of ``seat``."""
    return Catch(seat)


@cache
def choose_color(color: Color) -> ChooseColor:
    """The interned :class:`ChooseColor`."""
    return ChooseColor(color)


_PLAY_RE = re.compile(r"^(?P<card>.+?)(?P<flex>@flex)?(?::(?P<color>[a-z]+?))?(?:>(?P<target>[0-9]+))?(?P<uno>uno)?$")
_CATCH_RE = re.compile(r"^catch([0-9]+)$")
_COLOR_RE = re.compile(r"^colou?r([a-z]+)$")

MAX_SEAT_DIGITS = 9
"""The most digits a seat number may have in an action (``catch N``, ``>N``)."""

MAX_ACTION_LENGTH = 64
"""The longest action, spaces left out; the longest that can be valid is about half as long."""


def parse_action(text: str) -> Action:
    """Parse action notation; case-insensitive, spaces ignored.

    >>> parse_action("FW+2 @FLEX :R > 2")
    Play(card=Card.parse('FW+2'), color=<Color.RED: 'R'>, flex=True, target=2, uno=False)
    >>> parse_action("catch 1")
    Catch(seat=1)

    Raises:
        InvalidNotationError: the text is not an action (also: not text, not
            ASCII, too long, or a seat number of more than 9 digits).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"not an action: {excerpt(text)} (expected text)")
    cached = _ACTION_CACHE.get(text)
    if cached is not None:
        return cached
    action = _parse_action(text)
    if len(_ACTION_CACHE) < 100_000 and len(text) <= MAX_ACTION_LENGTH:
        _ACTION_CACHE[text] = action
    return action


_ACTION_CACHE: dict[str, Action] = {}


def _parse_action(text: str) -> Action:
    if not text.isascii():
        raise InvalidNotationError(f"not an action: {excerpt(text)} (only ASCII characters are allowed)")
    key = "".join(text.split()).lower()
    if len(key) > MAX_ACTION_LENGTH:
        raise InvalidNotationError(f"not an action: {excerpt(text)} (too long: {len(key)} characters)")
    word = _WORDS.get(key)
    if word is not None:
        return word
    if match := _CATCH_RE.match(key):
        return catch(_seat_number(text, match[1]))
    if match := _COLOR_RE.match(key):
        return choose_color(Color.parse(match[1]))
    match = _PLAY_RE.match(key)
    if match is None:
        raise InvalidNotationError(f"not an action: {excerpt(text)}")
    try:
        card = parse_card(match["card"])
        color = Color.parse(match["color"]) if match["color"] else None
    except InvalidNotationError as error:
        raise InvalidNotationError(f"not an action: {excerpt(text)} ({error})") from None
    target = _seat_number(text, match["target"]) if match["target"] else None
    return play(card, color, bool(match["flex"]), target, bool(match["uno"]))


def _seat_number(text: str, digits: str) -> Seat:
    if len(digits) > MAX_SEAT_DIGITS:
        raise InvalidNotationError(
            f"not an action: {excerpt(text)} (a seat number has at most {MAX_SEAT_DIGITS} digits)"
        )
    return int(digits)


def format_action(action: Action) -> str:
    """Canonical notation of an action.

    >>> format_action(parse_action("w+4:B uno"))
    'W+4:b uno'
    """
    if not isinstance(action, Play):
        return str(action)
    text = format_card(action.card)
    if action.flex:
        text += "@flex"
    if action.color is not None:
        text += ":" + action.color.letter
    if action.target is not None:
        text += f">{action.target}"
    if action.uno:
        text += " uno"
    return text


__all__ = [
    "ACCEPT",
    "ACTION_TYPES",
    "CALL_UNO",
    "CHALLENGE",
    "DRAW",
    "KEEP",
    "MAX_ACTION_LENGTH",
    "MAX_SEAT_DIGITS",
    "PASS",
    "REJECT",
    "Accept",
    "Action",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Draw",
    "Keep",
    "Pass",
    "Play",
    "Reject",
    "catch",
    "choose_color",
    "format_action",
    "parse_action",
    "play",
]
