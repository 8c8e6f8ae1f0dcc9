"""The baseline bots: ``random`` (as RLCard's random agent plays) and ``uniform``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from unoengine.bots.base import register
from unoengine.core.actions import CALL_UNO, DRAW, PASS, Action, Catch, Draw, Pass, Play
from unoengine.core.views import PlayerView

_PLAY: Final = Play
_DRAW: Final = Draw
_PASS: Final = Pass
_CATCH: Final = Catch
_DRAW_ACTION: Final = DRAW
_PASS_ACTION: Final = PASS
_CALL_UNO_ACTION: Final = CALL_UNO


class _SeededBot:
    """What both baseline bots share: a generator whose ``random`` is bound once beside it, and a pickle of the
    bot's class and generator."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._random: Callable[[], float] = rng.random
        """``rng.random``, bound once: a call of it, not a method lookup on the generator, per choice."""

    @property
    def rng(self) -> random.Random:
        """The bot's generator; assigning it rebinds the bot's draws to the new one."""
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        self._random = rng.random

    def __reduce__(self) -> tuple[type[_SeededBot], tuple[random.Random]]:
        return type(self), (self._rng,)


class RandomBot(_SeededBot):
    """``random``: uniform among its legal plays (a play with and without ` uno`
    count as two); draws only when it has no legal play; plays the drawn card when
    it can; uniform where a decision is not a play. Never takes an out-of-turn action.
    """

    name = "random"
    needs_view = False
    reacts = False

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        # The plays are counted, and the chosen one found by a second pass, instead of gathered in a list;
        # ``float(plays)``: the product of two floats, as ``random() * len(list)`` computes it.
        plays = 0
        for action in legal:
            if type(action) is _PLAY:
                plays += 1
        if plays:
            k = int(self._random() * float(plays))
            for action in legal:
                if type(action) is _PLAY:
                    if not k:
                        return action
                    k -= 1
        # ``DRAW in legal`` and ``PASS in legal``, by type: every Draw is DRAW (it has no fields), and an ``in``
        # test calls ``__eq__`` against each other action.
        for action in legal:
            if type(action) is _DRAW:
                return _DRAW_ACTION
        for action in legal:
            if type(action) is _PASS:
                return _PASS_ACTION
        choices = [action for action in legal if type(action) is not _CATCH and action is not _CALL_UNO_ACTION]
        return choices[int(self._random() * float(len(choices)))] if choices else legal[0]

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return None


class UniformBot(_SeededBot):
    """``uniform``: uniform over every legal action, optional draws and passes included (fuzzing)."""

    name = "uniform"
    needs_view = False
    reacts = False

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        return legal[int(self._random() * float(len(legal)))]

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return None


register("random")(RandomBot)
register("uniform")(UniformBot)
