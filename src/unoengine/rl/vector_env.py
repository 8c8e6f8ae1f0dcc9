"""A vector environment: N games stepped at once into preallocated NumPy arrays (:class:`VectorEnv`).

Self-play by default: every seat is played by the caller, and each game's
observation is that of the seat offered its next decision (``seat[i]``). With
``opponents``, the caller plays one seat only and the bots play the other seats
inside the step; a bot that needs no view (``random``) is given none, so a
batch of its moves costs the engine's ``legal_actions`` and ``apply_unchecked``
only.

The arrays (``observations["observation"]``, ``observations["action_mask"]``,
``rewards``, ``terminations``, ``truncations``, ``seat``, ``seat_rewards``) are
allocated once and rewritten at every step: copy what you keep.

Auto-reset is Gymnasium's ``AutoresetMode.NEXT_STEP``: the step that ends a
game returns its last observation with ``terminations[i]`` True; the next step
ignores ``actions[i]`` and starts a new game there (reward 0).

>>> envs = VectorEnv(4, "classic", seats=2)
>>> observations, infos = envs.reset(seed=0)
>>> observations["observation"].shape[0], observations["action_mask"].dtype.name
(4, 'int8')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from unoengine.bots.base import Bot
from unoengine.bots.rng import seat_random
from unoengine.core.action_ids import NUM_ACTIONS
from unoengine.core.views import view_for
from unoengine.rl.aec_env import ObsDict, observation_space
from unoengine.rl.encoding import Encoding
from unoengine.rl.gym_env import Opponent, bot_decision, make_opponent
from unoengine.rl.match import ILLEGAL, Match, check_choice


class VectorEnv(GymVectorEnv[ObsDict, np.ndarray[Any, Any], np.ndarray[Any, Any]]):
    """``num_envs`` games of ``rules`` for ``seats`` seats (other arguments as :class:`unoengine.rl.raw_env`).

    With ``opponents`` (one bot for all other seats, or one per seat), the caller
    plays ``seat`` (``None``: a seat drawn for each game, ``learner[i]``).
    ``rewards[i]`` is the reward of the seat that took ``actions[i]``;
    ``seat_rewards[i]`` holds every seat's (``infos["seat_rewards"]``).

    Raises:
        InvalidNotationError: unknown rules or option, or a bad seat count.
        ValueError: a bad ``num_envs``, opponent list, ``illegal`` or ``reward``.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        num_envs: int,
        rules: str = "classic",
        seats: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        opponents: Sequence[Opponent] | None = None,
        seat: int | None = 0,
        illegal: str = "raise",
        reward: str = "win",
        history: int = 0,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be 1 or more, not {num_envs}")
        self.num_envs = num_envs
        self.matches = [Match(rules, seats, options, reward=reward) for _ in range(num_envs)]
        self.seats = seats
        self.illegal = check_choice("illegal", illegal, ILLEGAL)
        if opponents is not None:
            opponents = list(opponents) * (seats - 1) if len(opponents) == 1 else list(opponents)
            if len(opponents) != seats - 1:
                raise ValueError(f"{len(opponents)} opponents for {seats - 1} other seats (give one, or one per seat)")
        self.opponent_kinds = opponents
        if seat is not None and not 0 <= seat < seats:
            raise ValueError(f"seat must be from 0 to {seats - 1} (or None: a seat drawn per game), not {seat}")
        self.learner_seat = seat
        self.learner = np.zeros(num_envs, dtype=np.int64)
        """The caller's seat in each game (with opponents)."""
        self.encoding = Encoding(self.matches[0].ruleset.name, seats, history=history)
        self.single_observation_space = observation_space(self.encoding)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size = self.encoding.size
        self._observation = np.zeros((num_envs, size), dtype=np.float32)
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self.observations: ObsDict = {"observation": self._observation, "action_mask": self._mask}
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminations = np.zeros(num_envs, dtype=np.bool_)
        self.truncations = np.zeros(num_envs, dtype=np.bool_)
        self.seat = np.zeros(num_envs, dtype=np.int64)
        self.seat_rewards = np.zeros((num_envs, seats), dtype=np.float32)
        self._bots: list[dict[int, Bot]] = [{} for _ in range(num_envs)]
        self._seeds = [random.Random(index) for index in range(num_envs)]
        self._needs_reset = np.zeros(num_envs, dtype=np.bool_)
        self._infos = {"seat": self.seat, "seat_rewards": self.seat_rewards}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """New games everywhere; game ``i``'s seeds come from ``seed + i`` (or ``seed[i]``)."""
        if seed is not None:
            seeds = seed if isinstance(seed, list) else [seed + index for index in range(self.num_envs)]
            self._seeds = [random.Random(value) for value in seeds]
        for index in range(self.num_envs):
            self._new_game(index)
        self.rewards[:] = 0.0
        self.seat_rewards[:] = 0.0
        self.terminations[:] = False
        self.truncations[:] = False
        self._needs_reset[:] = False
        self._write()
        return self.observations, self._infos

    def step(self, actions: np.ndarray[Any, Any] | Sequence[int]) -> tuple[Any, ...]:
        """Take ``actions[i]`` in game ``i`` (ignored in a game that ended at the last step: it restarts).

        Returns ``(observations, rewards, terminations, truncations, infos)``.

        Raises:
            IllegalActionError: an id the offered seat may not take (``illegal="raise"``).
        """
        rewards = self.rewards
        seat_rewards = self.seat_rewards
        terminations = self.terminations
        rewards[:] = 0.0
        seat_rewards[:] = 0.0
        bots = self.opponent_kinds is not None
        for index, match in enumerate(self.matches):
            if self._needs_reset[index]:
                self._new_game(index)
                self._needs_reset[index] = False
                terminations[index] = False
                continue
            actor = match.seat
            assert actor is not None
            if match.take_id(int(actions[index]), self.illegal) and bots:
                self._play_bots(index)
            if match.is_over:
                values = match.rewards()
                seat_rewards[index] = values
                rewards[index] = values[actor]
                terminations[index] = True
                self._needs_reset[index] = True
        self._write()
        return self.observations, rewards, terminations, self.truncations, self._infos

    def _new_game(self, index: int) -> None:
        """A new game in slot ``index`` (with opponents: one in which the caller gets a decision)."""
        while True:
            self._deal(index)
            if not self.matches[index].is_over:
                return

    def _deal(self, index: int) -> None:
        seeds = self._seeds[index]
        game_seed = seeds.getrandbits(63)
        match = self.matches[index]
        if self.opponent_kinds is not None:
            learner = self.learner_seat if self.learner_seat is not None else seeds.randrange(self.seats)
            self.learner[index] = learner
            others = [seat for seat in range(self.seats) if seat != learner]
            self._bots[index] = {
                seat: make_opponent(kind, seat_random(game_seed, seat))
                for seat, kind in zip(others, self.opponent_kinds, strict=True)
            }
        match.reset(game_seed)
        if self.opponent_kinds is not None:
            self._play_bots(index)

    def _play_bots(self, index: int) -> None:
        match = self.matches[index]
        bots = self._bots[index]
        learner = int(self.learner[index])
        while match.seat is not None and match.seat != learner:
            match.take(bot_decision(bots[match.seat], match))

    def _write(self) -> None:
        """Every game's observation and mask, in two NumPy writes each."""
        size = self.encoding.size
        entries = self.encoding.entries
        obs_indices: list[int] = []
        obs_values: list[float] = []
        mask_indices: list[int] = []
        seat = self.seat
        for index, match in enumerate(self.matches):
            who = match.seat
            if who is None:  # over: the last decider's final view
                who = int(seat[index])
            view = view_for(match.state, who)
            seat[index] = who
            indices, values = entries(view)
            base = index * size
            obs_indices += [base + i for i in indices]
            obs_values += values
            mask_base = index * NUM_ACTIONS
            if match.seat is not None:  # the offer's ids: legal_actions(state, seat), as in the view
                mask_indices += [mask_base + i for i in match.choice_ids]
        flat = self._observation.reshape(-1)
        flat[:] = 0.0
        flat[obs_indices] = obs_values
        mask = self._mask.reshape(-1)
        mask[:] = 0
        mask[mask_indices] = 1
