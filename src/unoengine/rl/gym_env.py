"""The Gymnasium environment: one learner seat against bots (:class:`SingleAgentEnv`).

The learner is offered every decision of its seat, out-of-turn ones included
(docs/RL.md); the other seats are bots, which see their own views only. An
episode is one game; the reward comes at its end. ``action_masks()`` follows
sb3-contrib's MaskablePPO convention.

The learner's seat is drawn for every episode by default (``seat=None``), from
the episode's seed, so that it plays first as often as any other seat; give
``seat=k`` to fix it. ``info["seat"]`` names it.

>>> env = SingleAgentEnv("classic", 2, opponents=["heuristic"])
>>> observation, info = env.reset(seed=3)
>>> observation["action_mask"].dtype.name, info["seat"] in (0, 1)
('int8', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from unoengine.bots.base import Bot, check_game, make_bot
from unoengine.bots.rng import seat_random
from unoengine.core.action_ids import NUM_ACTIONS
from unoengine.rl.aec_env import RENDER_MODES, ObsDict, observation_space, observe_seat, render_text
from unoengine.rl.batch import play_bots
from unoengine.rl.encoding import Encoding
from unoengine.rl.match import ILLEGAL, Match, check_choice

Opponent = str | Callable[[random.Random], Bot]
"""A bot's registered name (``"random"``, ``"heuristic"``, ``"ppo"``) or a factory ``rng -> Bot``."""


def make_opponent(opponent: Opponent, rng: random.Random) -> Bot:
    """A bot of a name or a factory, with its own generator.

    Raises:
        ValueError: no such bot.
    """
    return make_bot(opponent, rng) if isinstance(opponent, str) else opponent(rng)


class SingleAgentEnv(gym.Env[ObsDict, int]):
    """A learner against ``opponents`` (one per other seat, or one for all).

    ``seat``: the learner's seat; ``None`` (the default) draws it for every
    episode from the episode's seed (``info["seat"]``, :attr:`seat`), so that the
    learner is dealt every position equally often. Opponents' generators derive
    from the episode's seed (``seat_random(seed, seat)``, as ``uno simulate``'s).
    ``illegal``: ``"terminate"`` (the default: the game ends, -1 to the learner)
    or ``"raise"``. Other arguments as :class:`unoengine.rl.raw_env`.

    Raises:
        InvalidNotationError: unknown rules or option, or a bad seat count.
        ValueError: a bad seat, opponent list, ``illegal``, ``reward`` or ``render_mode``, or an
            opponent that cannot play this game (``ppo`` outside Classic heads-up).
    """

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        rules: str = "classic",
        seats: int = 2,
        opponents: Sequence[Opponent] = ("random",),
        *,
        options: Mapping[str, Any] | None = None,
        seat: int | None = None,
        illegal: str = "terminate",
        reward: str = "win",
        history: int = 0,
        discards: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.match = Match(rules, seats, options, reward=reward)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < seats):
            raise ValueError(f"seat must be from 0 to {seats - 1} (or None: a seat drawn per episode), not {seat!r}")
        others = seats - 1
        if len(opponents) == 1:
            opponents = list(opponents) * others
        if len(opponents) != others:
            raise ValueError(f"{len(opponents)} opponents for {others} other seats (give one, or one per seat)")
        self.opponent_kinds = list(opponents)
        name = self.match.ruleset.name
        for kind in self.opponent_kinds:  # an unknown name, or a bot that cannot play this game, fails here
            check_game(make_opponent(kind, random.Random(0)), name, seats)
        self.fixed_seat = seat
        """The seat given to the constructor (``None``: drawn per episode)."""
        self.seat = 0 if seat is None else seat
        """The learner's seat in the current episode."""
        self.illegal = check_choice("illegal", illegal, ILLEGAL)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.encoding = Encoding(name, seats, history=history, discards=discards)
        self.observation_space = observation_space(self.encoding)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self._bots: dict[int, Bot] = {}
        self._seeds = random.Random()
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """A new game (``options`` is unused: rule options go to the constructor).

        The game's seed is ``seed`` (else the next of the generator the last seed
        started); with ``seat=None`` the learner's seat is the next draw of that
        generator. A game the bots finish before the learner's first decision (a
        heads-up run of Skips) is skipped: the next seed of that generator is dealt.
        """
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        seats = self.match.seats
        while True:
            if self.fixed_seat is None:
                self.seat = self._seeds.randrange(seats)
            others = [seat for seat in range(seats) if seat != self.seat]
            self._bots = {
                seat: make_opponent(kind, seat_random(game_seed, seat))
                for seat, kind in zip(others, self.opponent_kinds, strict=True)
            }
            self.match.reset(game_seed)
            self._play_bots()
            if not self.match.is_over:
                return self._observation(), self._info()
            game_seed = self._seeds.getrandbits(63)

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """The learner takes the action of id ``action``; the bots play until its next decision or the end.

        Raises:
            IllegalActionError: an id the learner may not take now, with ``illegal="raise"`` (with
                ``"terminate"``, the default, the game ends there and the learner gets -1).
        """
        match = self.match
        if match.is_over:
            raise RuntimeError("the game is over: call reset()")
        if match.take_id(action, self.illegal):
            self._play_bots()
        terminated = match.is_over
        reward = match.rewards()[self.seat] if terminated else 0.0
        if self.render_mode == "human":
            print(render_text(match))
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The current mask (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.copy()

    def render(self) -> str | None:
        """``ansi``: a line for people; ``human``: printed at every step."""
        return render_text(self.match) if self.render_mode == "ansi" else None

    def _play_bots(self) -> None:
        play_bots(self.match, self._bots, self.seat)

    def _observation(self) -> ObsDict:
        """The learner's observation and a fresh mask (also kept for :meth:`action_masks` and the info)."""
        observation = observe_seat(self.encoding, self.match, self.seat)
        self._mask = observation["action_mask"]
        return observation

    def _info(self) -> dict[str, Any]:
        """``seat``, ``out_of_turn`` and ``action_mask`` (the observation's own mask array)."""
        return {"seat": self.seat, "out_of_turn": self.match.is_out_of_turn, "action_mask": self._mask}
