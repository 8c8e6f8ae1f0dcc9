"""The ``uno`` command's arguments, read the same way by every command.

- Numbers (:func:`parse_int`, :func:`parse_seconds`; the Click types
  :class:`AsciiInt` and :class:`Seconds`): ASCII digits only (``int()`` and
  ``float()`` would also read ``٣``, ``1_0``, ``1e309``, ``nan`` and ``inf``), at
  most :data:`MAX_DIGITS` of them, and within the option's bounds; a number of
  seconds is at most :data:`MAX_SECONDS`.
- Rule sets (:class:`RuleSetChoice`, :func:`rule_set_names`): the registry's
  (``unoengine.core.rules.RULESETS``), so that every ``--rules`` names them all.
- Choices (:class:`Choice`) and bot lists (:func:`bot_names`) that repeat a bad
  value repeat it through :func:`~unoengine.core.errors.excerpt`.
- :class:`UnoGroup` keeps every usage error Click prints (an unknown option of
  5,000 characters, a terminal escape in a value) to one escaped, bounded line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from unoengine.bots.base import split_specs
from unoengine.core.errors import MESSAGE_LIMIT, InvalidNotationError, excerpt, one_line
from unoengine.core.rules import RULESETS, find_rules

MAX_DIGITS = 18
"""The most digits a number of the command line may have (``--seed``: 100)."""

MAX_SECONDS = 60.0
"""The longest delay, in seconds, an option may ask for (``--bot-delay``)."""

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def integer(text: str, digits: int = MAX_DIGITS) -> int | None:
    """The integer that ``text`` writes in ASCII digits (at most ``digits``), else None."""
    text = text.strip()
    if _INTEGER.fullmatch(text) is None or len(text.lstrip("+-")) > digits:
        return None
    return int(text)


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"from {low:g} to {high:g}"
    return f"at least {low:g}" if low is not None else f"at most {high:g}"


def _check_range(number: float, low: float | None, high: float | None) -> None:
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"{number:g} is out of range (expected {_bounds(low, high)})")


def parse_int(text: str, *, digits: int = MAX_DIGITS, low: int | None = None, high: int | None = None) -> int:
    """An integer of the command line: ASCII digits only (a sign allowed), at most ``digits``, within bounds.

    Raises:
        ValueError: anything else; the message repeats an excerpt of ``text``.
    """
    number = integer(text, digits)
    if number is None:
        raise ValueError(f"{excerpt(text)} is not an integer of at most {digits} ASCII digits")
    _check_range(number, low, high)
    return number


def parse_seconds(text: str, *, high: float = MAX_SECONDS) -> float:
    """A number of seconds: ASCII digits with an optional decimal point (``0.3``), from 0 to ``high``.

    No exponent, no ``_``, no ``nan`` or ``inf``: the result is always finite.

    Raises:
        ValueError: anything else; the message repeats an excerpt of ``text``.
    """
    stripped = text.strip()
    if _DECIMAL.fullmatch(stripped) is None or sum(char.isdigit() for char in stripped) > MAX_DIGITS:
        raise ValueError(f"{excerpt(text)} is not a number of seconds in ASCII digits (as 0.5)")
    number = float(stripped)
    _check_range(number, 0, high)
    return number


class AsciiInt(click.ParamType[int, Any]):
    """A command-line integer (:func:`parse_int`): ASCII digits only, at most ``digits``, from ``low`` to ``high``."""

    name = "integer"

    def __init__(self, digits: int = MAX_DIGITS, low: int | None = None, high: int | None = None) -> None:
        self.digits = digits
        self.low = low
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):  # a default
            return value
        try:
            return parse_int(str(value), digits=self.digits, low=self.low, high=self.high)
        except ValueError as error:
            self.fail(str(error), param, ctx)


class Seconds(click.ParamType[float, Any]):
    """A command-line number of seconds (:func:`parse_seconds`): finite, from 0 to ``high``."""

    name = "seconds"

    def __init__(self, high: float = MAX_SECONDS) -> None:
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):  # a default
            return value
        try:
            return parse_seconds(str(value), high=self.high)
        except ValueError as error:
            self.fail(str(error), param, ctx)


class Choice(click.Choice[str]):
    """:class:`click.Choice` whose refusal repeats an excerpt of the value, not all of it."""

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        return f"{excerpt(str(value))} is not one of {', '.join(map(repr, self.choices))}."


def rule_set_names() -> str:
    """The registered rule sets' names in a sentence: ``classic, duo, flex or nomercy``."""
    names = list(RULESETS)
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)


RULES_HELP = f"Rule set: {rule_set_names()}."
"""The help of every ``--rules`` option (the registry's names; aliases such as no_mercy are taken too)."""

RULES_METAVAR = "[" + "|".join(RULESETS) + "]"
"""The rule sets as a usage line shows them: ``[classic|duo|flex|nomercy]``."""


class RuleSetChoice(Choice):
    """A rule set of the registry, by its name or one of its aliases (any case): the rule set's name."""

    def __init__(self) -> None:
        super().__init__(list(RULESETS), case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if isinstance(value, str):
            try:
                return find_rules(value).name
            except InvalidNotationError:
                pass
        return super().convert(value, param, ctx)


def bot_names(text: str) -> list[str]:
    """The bot specs of a comma-separated list (``heuristic,ismcts:iterations=50,seed=3``), each one known.

    A spec is a name, a level, ``name:k=v,...`` or ``module.path:Name[:k=v,...]`` (docs/BOTS.md).

    Raises:
        ValueError: an empty or unknown name (``--bots ''``, ``--bots ,``) or a bad parameter.
    """
    return split_specs(text)


USAGE_LIMIT = MESSAGE_LIMIT
"""The longest message of a usage error (Click adds ``Error: `` and the option's name)."""


@contextmanager
def _short_usage_errors() -> Iterator[None]:
    try:
        yield
    except click.UsageError as error:
        raise click.UsageError(one_line(error.format_message(), USAGE_LIMIT), error.ctx) from None


class UnoGroup(click.Group):
    """The ``uno`` group: every usage error of it and its commands is one escaped line of bounded length."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        with _short_usage_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _short_usage_errors():
            return super().invoke(ctx)
