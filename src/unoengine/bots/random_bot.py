"""The baseline bots: ``random`` (as RLCard's random agent plays) and ``uniform``."""

from __future__ import annotations

import random

from unoengine.bots.base import register
from unoengine.core.actions import CALL_UNO, DRAW, PASS, Action, Catch, Play
from unoengine.core.views import PlayerView


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
        plays = [action for action in legal if type(action) is Play]
        if plays:
            return plays[int(self.rng.random() * len(plays))]
        if DRAW in legal:
            return DRAW
        if PASS in legal:
            return PASS
        choices = [action for action in legal if type(action) is not Catch and action is not CALL_UNO]
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
