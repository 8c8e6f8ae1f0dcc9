"""Bots: they read a :class:`~unoengine.PlayerView` and the legal actions, never a state."""

from __future__ import annotations

from unoengine.bots import levels as levels  # registers easy, medium, hard
from unoengine.bots.base import BOTS, Bot, make_bot
from unoengine.bots.heuristic import HeuristicBot
from unoengine.bots.ismcts import IsmctsBot
from unoengine.bots.random_bot import RandomBot, UniformBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "IsmctsBot", "RandomBot", "UniformBot", "make_bot"]
