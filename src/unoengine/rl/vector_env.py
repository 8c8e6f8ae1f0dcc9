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

Auto-reset is Gymnasium's ``AutoresetMode.NEXT_STEP`` by default: the step that
ends a game returns its last observation with ``terminations[i]`` True; the next
step ignores ``actions[i]`` and starts a new game there (reward 0). With
``autoreset_mode=AutoresetMode.SAME_STEP`` (what Stable-Baselines3 expects) the
step that ends a game already returns the next game's first observation, and the
final one is in ``final_observations[i]`` (``infos["final_obs"]``, rows marked by
``infos["_final_obs"]``).

>>> envs = VectorEnv(4, "classic", seats=2)
>>> observations, infos = envs.reset(seed=0)
>>> observations["observation"].shape[0], observations["action_mask"].dtype.name
(4, 'int8')
"""

from __future__ import annotations

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
from unoengine.rl.aec_env import ObsDict, observation_space
from unoengine.rl.batch import Batch
from unoengine.rl.encoding import Encoding
from unoengine.rl.gym_env import Opponent, make_opponent
from unoengine.rl.match import ILLEGAL, Match, check_choice


def sample_action(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    """One id that ``mask`` allows, uniformly (a random masked agent for one observation: the AEC and
    single-agent environments).

    It reads the ``int8`` mask as booleans (``nonzero`` is several times faster on them) and draws one
    float: about 1.4 µs, where ``int(rng.choice(np.flatnonzero(mask)))`` takes about 7 µs.

    Raises:
        ValueError: the mask allows no id (an agent that is not offered a decision).

    >>> mask = np.zeros(8, np.int8); mask[[2, 5]] = 1
    >>> sorted({sample_action(mask, np.random.default_rng(seed)) for seed in range(20)})
    [2, 5]
    """
    flags = mask.view(np.bool_) if mask.dtype.itemsize == 1 else mask != 0
    allowed = flags.nonzero()[0]
    count = len(allowed)
    if not count:
        raise ValueError("the mask allows no action")
    return int(allowed[min(int(rng.random() * count), count - 1)])


def sample_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """One id per row of ``masks``, uniform over the row's allowed ids (a random masked agent for a batch).

    In a few whole-array passes (no per-row Python loop and no random number per id). A row with no allowed id
    (a game that just ended: its next action is ignored) gets id 0.

    >>> masks = np.zeros((3, 5), np.int8); masks[0, [1, 3]] = 1; masks[2, 4] = 1
    >>> actions = sample_actions(masks, np.random.default_rng(0))
    >>> int(actions[0]) in (1, 3), int(actions[1]), int(actions[2])
    (True, 0, 4)
    """
    rows, width = masks.shape
    masks = np.ascontiguousarray(masks, dtype=np.int8)
    allowed = np.flatnonzero(masks.reshape(-1).view(np.bool_))  # (on int8 it is ten times slower)
    counts = np.bincount(allowed // width, minlength=rows)
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(rows) * counts).astype(np.intp)
    if not allowed.size:
        return np.zeros(rows, np.int64)
    chosen = allowed[np.minimum(picks, allowed.size - 1)] - np.arange(rows) * width
    return np.where(counts > 0, chosen, 0).astype(np.int64)


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
        illegal: str = "terminate",
        reward: str = "win",
        history: int = 0,
        discards: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
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
            for kind in opponents:
                make_opponent(kind, seat_random(0, 0))  # an unknown name fails here, not at reset
        self.opponent_kinds = opponents
        if seat is not None and not 0 <= seat < seats:
            raise ValueError(f"seat must be from 0 to {seats - 1} (or None: a seat drawn per game), not {seat}")
        self.learner_seat = seat
        self.learner = np.zeros(num_envs, dtype=np.int64)
        """The caller's seat in each game (with opponents)."""
        self.encoding = Encoding(self.matches[0].ruleset.name, seats, history=history, discards=discards)
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
        self._infos: dict[str, Any] = {"seat": self.seat, "seat_rewards": self.seat_rewards}
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {mode}")
        self.metadata = {"autoreset_mode": mode}
        self.final_observations = np.zeros((num_envs, size), dtype=np.float32)
        """``SAME_STEP``: the final observation of each game that ended at the last step (``terminations[i]``)."""
        same_step = mode is AutoresetMode.SAME_STEP
        if same_step:
            self._infos["final_obs"] = self.final_observations
            self._infos["_final_obs"] = self.terminations
        self._batch = Batch(
            self.matches,
            self.encoding.writer,
            [row.data for row in self._observation],
            [row.data for row in self._mask],
            [row.data for row in self.seat_rewards],
            self.rewards.data,
            self.terminations.data,
            self.seat.data,
            self.learner.data,
            illegal=self.illegal,
            make_bots=None if opponents is None else self._make_bots,
            learner_seat=-1 if seat is None else seat,
            finals=[row.data for row in self.final_observations] if same_step else None,
            zero_row=np.zeros(size, dtype=np.float32).data,
        )

    def _make_bots(self, learner: int, game_seed: int) -> dict[int, Bot]:
        """The bots of a new game: one per seat but the learner's, each with ``seat_random(game_seed, seat)``."""
        assert self.opponent_kinds is not None
        others = [seat for seat in range(self.seats) if seat != learner]
        return {
            seat: make_opponent(kind, seat_random(game_seed, seat))
            for seat, kind in zip(others, self.opponent_kinds, strict=True)
        }

    def _clear(self) -> None:
        """Clear what a step does not rewrite row by row (the batch clears each observation and mask row)."""
        self.rewards.fill(0.0)
        self.seat_rewards.fill(0.0)
        self.terminations.fill(False)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """New games everywhere; game ``i``'s seeds come from ``seed + i`` (or ``seed[i]``)."""
        if seed is not None:
            seeds = seed if isinstance(seed, list) else [seed + index for index in range(self.num_envs)]
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} games")
            self._batch.seed(seeds)
        self._clear()
        self._observation.fill(0.0)
        self._mask.fill(0)
        self._batch.reset()
        return self.observations, self._infos

    def step(self, actions: np.ndarray[Any, Any] | Sequence[int]) -> tuple[Any, ...]:
        """Take ``actions[i]`` in game ``i`` (ignored in a game that ended at the last step: it restarts).

        Returns ``(observations, rewards, terminations, truncations, infos)``.

        Raises:
            IllegalActionError: an id the offered seat may not take (``illegal="raise"``); no game moves and the
                arrays keep the last step's values.
            ValueError: not one action per game.
        """
        chosen = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        if len(chosen) != self.num_envs:
            raise ValueError(f"{len(chosen)} actions for {self.num_envs} games")
        if self.illegal == "raise":
            self._batch.check(chosen)  # refused before any game moves: nothing changes
        self._clear()
        self._batch.step(chosen)
        return self.observations, self.rewards, self.terminations, self.truncations, self._infos
