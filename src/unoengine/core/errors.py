"""Typed errors, and the helpers that keep their messages short and safe.

The three errors subclass :class:`ValueError`, as python-chess's do. Every
message that repeats a piece of input repeats it through :func:`excerpt`: escaped
as Python's ``repr`` escapes it (no control character, no terminal escape gets
through) and cut to a few dozen characters, so that one bad action of a
megabyte never makes a megabyte of message.
"""

from __future__ import annotations

import reprlib

EXCERPT_LIMIT = 60
"""The longest excerpt of input (quotes included) that a message repeats."""

MESSAGE_LIMIT = 400
"""The longest one-line error message (:func:`one_line`)."""

ELLIPSIS = "…"


class InvalidNotationError(ValueError):
    """Text that is not a card, an action, an option or a record."""


class IllegalActionError(ValueError):
    """An action the rules do not allow here (G-4).

    ``rule`` is the rule number that forbids it (``C-16``) and ``reason`` the
    reason in words; ``str(error)`` is ``"C-16 reason"``.
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule} {reason}")
        self.rule = rule
        self.reason = reason


class GameTooLongError(RuntimeError):
    """A played-out game passed its cap on actions (a safety net for simulations)."""


class RecordError(ValueError):
    """A game record that cannot be read: bad JSON, unknown keys, a wrong deck."""


def _short_repr() -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxlevel = 2
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = short.maxfrozenset = 4
    short.maxstring = short.maxother = short.maxlong = 24
    return short


_SHORT = _short_repr()


def excerpt(value: object, limit: int = EXCERPT_LIMIT, *, quote: bool = True) -> str:
    """A piece of input as an error message may repeat it: escaped, and at most ``limit`` characters.

    A short text is exactly its ``repr``; a longer one is cut, and ``…`` marks the cut.
    ``quote=False`` leaves the quotes out. Other values (numbers, lists, objects of
    parsed JSON) are shown with ``reprlib``'s limits.

    >>> excerpt("R7")
    "'R7'"
    >>> excerpt("\\x1b]2;PWNED\\x07", quote=False)
    '\\\\x1b]2;PWNED\\\\x07'
    >>> excerpt("1" * 5000, 12)
    "'111111111…'"
    """
    if isinstance(value, str):
        size = min(len(value), limit)
        shown = repr(value[:size])
        if size == len(value) and len(shown) <= limit:
            return shown if quote else shown[1:-1]
        while size and len(shown) + len(ELLIPSIS) > limit:
            size -= max(1, (len(shown) + len(ELLIPSIS) - limit) // 4)
            size = max(size, 0)
            shown = repr(value[:size])
        cut = shown[:-1] + ELLIPSIS + shown[-1]
        return cut if quote else cut[1:-1]
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"<an integer of {value.bit_length()} bits>"
    try:
        shown = _SHORT.repr(value)
    except (ValueError, RecursionError, MemoryError):
        shown = f"<{type(value).__name__}>"
    return shown if len(shown) <= limit else shown[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` as one safe line: every character that is not printable escaped, at most ``limit`` long.

    The last line of defence of every error message the ``uno`` command prints:
    whatever reached it, no line break, control character or terminal escape gets
    out, and no message is longer than ``limit``.

    >>> one_line("two\\nlines\\x1b[31m")
    'two\\\\nlines\\\\x1b[31m'
    """
    head = text[: limit + 1]
    out = "".join(char if char.isprintable() else repr(char)[1:-1] for char in head)
    if len(text) > limit or len(out) > limit:
        return out[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS
    return out
