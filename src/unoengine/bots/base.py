"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Protocol

from unoengine.core.actions import Action
from unoengine.core.errors import excerpt
from unoengine.core.views import PlayerView


class Bot(Protocol):
    """A player program.

    ``choose`` picks one of ``legal`` (never empty) for a decision of its own seat;
    ``react`` may take an out-of-turn action (``uno``, ``catch N``) from ``legal``,
    or return ``None``. A bot whose ``needs_view`` is False is given ``None`` for
    the view (a simulation then skips building it); bots never see a game state.
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


BotFactory = Callable[[random.Random], Bot]
BOTS: dict[str, BotFactory] = {}


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


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot of the named kind with its own random generator.

    Raises:
        ValueError: no such bot.
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {excerpt(name)} (known: {', '.join(sorted(BOTS))})") from None
    return factory(rng)
