"""The baseline bots: ``random`` (as RLCard's random agent plays) and ``uniform``."""

from __future__ import annotations

import random
from typing import Final

from unoengine.bots.base import register
from unoengine.core.actions import CALL_UNO, DRAW, PASS, Action, Catch, Draw, Pass, Play
from unoengine.core.views import PlayerView

_PLAY: Final = Play
_DRAW: Final = Draw
_PASS: Final = Pass
_CATCH: Final = Catch


class RandomBot:
    """``random``: uniform among its legal plays (a play with and without ` uno`
    count as two); draws only when it has no legal play; plays the drawn card when
    it can; uniform where a decision is not a play. Never takes an out-of-turn action.
    """

    name = "random"
    needs_view = False
    reacts = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        plays = [action for action in legal if type(action) is _PLAY]
        if plays:
            return plays[int(self.rng.random() * len(plays))]
        # ``DRAW in legal`` and ``PASS in legal``, by type: every Draw is DRAW (it has no fields), and an ``in``
        # test runs the dataclass ``__eq__`` (Python code) against each other action.
        if any(type(action) is _DRAW for action in legal):
            return DRAW
        if any(type(action) is _PASS for action in legal):
            return PASS
        choices = [action for action in legal if type(action) is not _CATCH and action is not CALL_UNO]
        return choices[int(self.rng.random() * len(choices))] if choices else legal[0]

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return None


class UniformBot:
    """``uniform``: uniform over every legal action, optional draws and passes included (fuzzing)."""

    name = "uniform"
    needs_view = False
    reacts = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        return legal[int(self.rng.random() * len(legal))]

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return None


register("random")(RandomBot)
register("uniform")(UniformBot)
