"""The bot protocol, the registry of bots by name, and bot specs with parameters.

A *bot spec* names a bot and, optionally, its parameters (docs/BOTS.md):

- a registered name: ``heuristic``, ``ismcts``;
- a registered name with parameters: ``ismcts:iterations=200,seed=3``;
- an import path to a class or factory: ``mypkg.bots:Greedy``, with
  parameters after a second colon: ``mypkg.bots:Greedy:depth=2``.

Parameter values are read as integers, then numbers, then ``true``/``false``,
else kept as text. :func:`split_specs` splits a comma-separated list of specs
(``ismcts:ms=50,seed=3,heuristic`` is two: an item with ``=`` and no ``:``
continues the parameters of the spec before it).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import random
import re
import time
from collections.abc import Callable, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol

from unoengine.core.actions import ACTION_TYPES, Action, format_action
from unoengine.core.errors import excerpt, one_line
from unoengine.core.views import PlayerView


class Bot(Protocol):
    """A player program.

    ``choose`` picks one of ``legal`` (never empty) for a decision of its own seat;
    ``react`` may take an out-of-turn action (``uno``, ``catch N``, a jump-in) from
    ``legal``, or return ``None``. A bot whose ``needs_view`` is False is given
    ``None`` for the view (a simulation then skips building it); bots never see a
    game state.
    """

    name: str
    needs_view: bool
    reacts: bool

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        """Pick an action of ``legal`` for the seat's own decision."""
        ...

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        """Maybe take an out-of-turn action (``uno`` or ``catch N``) of ``legal``."""
        ...


BotFactory = Callable[..., Bot]
"""Makes a bot: called as ``factory(rng, **parameters)`` with its own ``random.Random``."""

PACKAGE = "unoengine."
"""The prefix of this package's modules: its own bot classes are made without the checks a user's factory gets."""

BOTS: dict[str, BotFactory] = {}
LEVELS: dict[str, str] = {}
"""The levels for people (``easy``, ``medium``, ``hard``) and the bot spec each stands for."""


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under ``name``."""

    def decorate(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return decorate


def _plugin(entry: EntryPoint) -> BotFactory:
    """A factory that imports a bot of a higher layer or another package only when one is made."""

    def factory(rng: random.Random) -> Bot:
        try:
            bot_class = entry.load()
        except ImportError as error:
            raise ValueError(f"bot {entry.name!r} cannot be loaded ({error}); is its extra installed?") from None
        bot: Bot = bot_class(rng)
        return bot

    return factory


for _entry in entry_points(group="unoengine.bots"):
    BOTS.setdefault(_entry.name, _plugin(_entry))
"""Bots that packages declare under the ``unoengine.bots`` entry point (``ppo``: the ``rl`` extra's)."""


def register_level(name: str, spec: str) -> None:
    """Register a level: a name (``hard``) for a bot spec (``ismcts:iterations=400``)."""
    LEVELS[name] = spec


def known_bots() -> list[str]:
    """Every registered name and level, sorted."""
    return sorted({*BOTS, *LEVELS})


class BotError(RuntimeError):
    """A bot failed at a decision: it raised, chose an illegal action or exceeded its time.

    ``bot`` is its name, ``seat`` its seat, ``decision`` the decision it was asked
    (``turn``, ``drawn``, ``react``, …), ``step`` the game's step count then.
    The game it played is left as it was before the decision.
    """

    def __init__(self, bot: str, seat: int, decision: str, step: int, problem: str) -> None:
        super().__init__(f"bot {bot} at seat {seat}, step {step} ({decision}): {problem}")
        self.bot = bot
        self.seat = seat
        self.decision = decision
        self.step = step
        self.problem = problem


_NAME = re.compile(r"[a-z][a-z0-9_\-]*")
_IMPORT = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")
_PARAM = re.compile(r"[A-Za-z_]\w*")


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec's target (a registered name or ``module:Attr``) and its parameters.

    Raises:
        ValueError: not a spec (the message says why).
    """
    text = spec.strip()
    target, params_text = text, ""
    head, sep, rest = text.partition(":")
    if sep and "=" in rest.partition(":")[0]:
        target, params_text = head, rest  # name:k=v,...
    elif sep:
        module_attr, sep2, tail = rest.partition(":")
        target, params_text = f"{head}:{module_attr}", tail if sep2 else ""
    if target.lower() in BOTS or target.lower() in LEVELS:
        target = target.lower()
    elif ":" in target:
        if not _IMPORT.fullmatch(target):
            raise ValueError(f"bot {excerpt(spec)}: {excerpt(target)} is not module.path:Name")
    else:
        raise ValueError(f"unknown bot {excerpt(target)} (known: {', '.join(known_bots())}, or module.path:Name)")
    params: dict[str, Any] = {}
    if params_text:
        for item in params_text.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not _PARAM.fullmatch(key):
                raise ValueError(f"bot {excerpt(spec)}: parameter {excerpt(item)} is not NAME=VALUE")
            if key in params:
                raise ValueError(f"bot {excerpt(spec)}: parameter {excerpt(key)} given twice")
            params[key] = _value(value.strip())
    return target, params


def split_specs(text: str) -> list[str]:
    """The bot specs of a comma-separated list; an item with ``=`` and no ``:`` belongs to the spec before it.

    Raises:
        ValueError: an empty item, or parameters before any bot.
    """
    specs: list[str] = []
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise ValueError(f"unknown bot '' in {excerpt(text)} (known: {', '.join(known_bots())})")
        if "=" in item and ":" not in item:
            if not specs:
                raise ValueError(f"parameter {excerpt(item)} comes before any bot")
            specs[-1] += "," + item
        else:
            specs.append(item)
    for spec in specs:
        parse_spec(spec)
    return specs


def _load(target: str) -> BotFactory:
    if target in BOTS:
        return BOTS[target]
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # any import failure is the user's module's
        raise ValueError(
            f"bot {one_line(target, 80)}: cannot import {one_line(module_name, 80)}: "
            f"{type(error).__name__}: {one_line(str(error), 160)}"
        ) from None
    factory = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise ValueError(
            f"bot {one_line(target, 80)}: {one_line(module_name, 80)} has no class or function {one_line(attr, 80)}"
        )
    return factory  # type: ignore[no-any-return]


class _Adapted:
    """A user's bot with the protocol's optional parts filled in (``name``, ``needs_view``, ``reacts``, ``react``)."""

    def __init__(self, inner: Any, name: str) -> None:
        self.inner = inner
        self.name = str(getattr(inner, "name", name))
        self.needs_view = bool(getattr(inner, "needs_view", True))
        self.reacts = bool(getattr(inner, "reacts", callable(getattr(inner, "react", None))))
        self.choose = inner.choose
        react = getattr(inner, "react", None)
        self.react = react if callable(react) else self._no_reaction
        for hook in ("reset", "observe"):
            if callable(getattr(inner, hook, None)):
                setattr(self, hook, getattr(inner, hook))

    @staticmethod
    def _no_reaction(view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return None


@functools.lru_cache(maxsize=256)
def bot_factory(spec: str) -> Callable[[random.Random], Bot]:
    """What makes bots of the given spec: the spec is read (and its module imported) once, here.

    ``bot_factory(spec)(rng)`` is ``make_bot(spec, rng)``; a batch of games
    (:func:`unoengine.play.simulate.play_games`) makes a fresh bot per game and
    seat from it. The answer for a spec is kept (reading a spec, and the
    factory's signature, costs far more than a bot).

    Raises:
        ValueError: no such bot or a bad parameter (a factory that fails says so
            when a bot is made).
    """
    target, params = parse_spec(spec)
    if target in LEVELS:
        level_target, level_params = parse_spec(LEVELS[target])
        target, params = level_target, {**level_params, **params}
    factory = _load(target)
    try:
        takes_rng = "rng" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        takes_rng = True
    adapt = not (target in BOTS and ":" not in target)
    label = spec.strip()
    if not adapt and not params and takes_rng and isinstance(factory, type) and factory.__module__.startswith(PACKAGE):
        # One of this package's bot classes with no parameters: the class makes the bot as the wrapper below would
        # (nothing to adapt, no parameter to refuse), without a Python frame per bot (a batch makes one per game
        # and seat).
        return factory

    def make(rng: random.Random) -> Bot:
        try:
            bot = factory(rng, **params) if takes_rng else factory(**params)
        except TypeError as error:
            raise ValueError(f"bot {excerpt(spec)}: {error}") from None
        except ValueError as error:
            raise ValueError(f"bot {excerpt(spec)}: {error}") from None
        if not callable(getattr(bot, "choose", None)):
            raise ValueError(
                f"bot {excerpt(spec)}: {target} made {type(bot).__name__}, which has no choose(view, legal)"
            )
        return _Adapted(bot, label) if adapt else bot

    return make


def make_bot(spec: str, rng: random.Random) -> Bot:
    """A new bot of the given spec (name, ``name:k=v,...`` or ``module:Attr[:k=v,...]``) with its own generator.

    The factory is called as ``factory(rng, **parameters)`` (``rng`` only when it
    takes one). A level (``hard``) stands for its spec.

    Raises:
        ValueError: no such bot, a bad parameter, or a factory that fails or makes no bot.
    """
    return bot_factory(spec)(rng)


def check_game(bot: Bot, rules: str, seats: int) -> None:
    """Let a bot that plays only some games refuse this one now, by its ``check_game(rules, seats)`` if it has
    one (the learned ``ppo`` bot plays Classic heads-up only; a policy bot, the game it was made for).

    Raises:
        ValueError: the bot cannot play ``rules`` with ``seats`` seats (the message names it).
    """
    check = getattr(bot, "check_game", None)
    if callable(check):
        check(rules, seats)


def game_refusal(spec: str, rules: str, seats: int) -> str | None:
    """Why the bot of ``spec`` cannot play ``rules`` with ``seats`` seats (:func:`check_game`), or ``None``.

    >>> game_refusal("heuristic", "flex", 4) is None
    True

    Raises:
        ValueError: no such bot (as :func:`make_bot`).
    """
    try:
        check_game(make_bot(spec, random.Random(0)), rules, seats)
    except ValueError as refused:
        return str(refused)
    return None


def bots_refusal(specs: Sequence[str], rules: str, seats: int) -> str | None:
    """The first refusal (:func:`game_refusal`) among the bots of ``specs`` for ``rules`` with ``seats`` seats,
    or ``None``: commands refuse such a game before it starts, not at the bot's first decision.

    >>> bots_refusal(["heuristic", "ppo"], "classic", 4)
    'ppo was trained for classic with 2 seats; it cannot play classic with 4 seats'

    Raises:
        ValueError: no such bot (as :func:`make_bot`).
    """
    for spec in dict.fromkeys(specs):
        refused = game_refusal(spec, rules, seats)
        if refused is not None:
            return refused
    return None


def ask(
    bot: Bot,
    seat: int,
    decision: str,
    step: int,
    view: PlayerView | None,
    legal: tuple[Action, ...],
    *,
    react: bool = False,
    time_limit: float | None = None,
) -> Action | None:
    """Ask ``bot`` for a decision (``react``: an out-of-turn one), reporting any failure as a :class:`BotError`.

    Raises:
        BotError: the bot raised, returned something not in ``legal`` (``None`` is
            allowed for a reaction) or took longer than ``time_limit`` seconds.
    """
    started = time.perf_counter() if time_limit is not None else 0.0
    try:
        chosen = bot.react(view, legal) if react and view is not None else bot.choose(view, legal)
    except Exception as error:  # a bot's failure is reported, never lets the game break
        raise bot_raised(bot, seat, decision, step, error) from error
    if time_limit is not None:
        took = time.perf_counter() - started
        if took > time_limit:
            raise BotError(bot.name, seat, decision, step, f"took {took:.3f} s (limit {time_limit:g} s)")
    if chosen is None and react:
        return None
    if chosen not in legal:
        raise bot_chose_illegal(bot, seat, decision, step, chosen, legal)
    return chosen


def bot_raised(bot: Bot, seat: int, decision: str, step: int, error: Exception) -> BotError:
    """The :class:`BotError` of a bot that raised ``error`` at a decision."""
    return BotError(bot.name, seat, decision, step, f"raised {type(error).__name__}: {error}")


def bot_chose_illegal(
    bot: Bot, seat: int, decision: str, step: int, chosen: object, legal: tuple[Action, ...]
) -> BotError:
    """The :class:`BotError` of a bot that chose ``chosen``, which is not in ``legal``."""
    if not isinstance(chosen, ACTION_TYPES):
        return BotError(bot.name, seat, decision, step, f"returned {excerpt(chosen)}, which is not an action")
    legal_text = ", ".join(format_action(action) for action in legal[:12]) + (", …" if len(legal) > 12 else "")
    return BotError(
        bot.name, seat, decision, step, f"chose {format_action(chosen)}, which is not legal (legal: {legal_text})"
    )
