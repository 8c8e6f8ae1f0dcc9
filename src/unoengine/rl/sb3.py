"""Stable-Baselines3 over the fast batch: :func:`vec_env` (the ``train`` extra; docs/RL.md, "Stable-Baselines3").

``vec_env(n, rules=..., seats=..., opponents=[...])`` is a Stable-Baselines3
``VecEnv`` of ``n`` games of :class:`unoengine.rl.VectorEnv`, the learner at one
seat of each (drawn per game by default) and bots at the others, so that every
row of a batch is the same agent's decision. It follows SB3's conventions, not
Gymnasium's:

- the observation is the ``float32`` vector alone (a ``Box``: ``MlpPolicy``); the
  mask comes from ``action_masks()``, an ``(n, NUM_ACTIONS)`` boolean array,
  which sb3-contrib's ``MaskablePPO`` reads (``get_action_masks(env)``, through
  ``env_method("action_masks")``);
- ``step`` returns ``(observations, rewards, dones, infos)``; a game that ends is
  dealt again in the same step: ``observations[i]`` and the mask are the new
  game's, and ``infos[i]["terminal_observation"]`` holds the last one;
- ``infos[i]["seat"]`` is the learner's seat in game ``i``;
- ``seed(s)`` then ``reset()``: game ``i`` draws its seeds from ``s + i``.

The returned env is wrapped in SB3's ``VecMonitor`` (episode rewards and lengths
in the logs) unless ``monitor=False``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv, VecMonitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from unoengine.bots.base import check_game
from unoengine.core.action_ids import NUM_ACTIONS
from unoengine.core.rules import find_rules
from unoengine.rl.gym_env import Opponent, make_opponent
from unoengine.rl.vector_env import VectorEnv

__all__ = ["UnoVecEnv", "vec_env"]


class UnoVecEnv(VecEnv):
    """A :class:`VectorEnv` with opponents, under Stable-Baselines3's ``VecEnv`` API (see the module).

    Raises:
        ValueError: ``venv`` plays every seat (self-play without opponents: its rows would mix seats).
    """

    def __init__(self, venv: VectorEnv) -> None:
        if venv.opponent_kinds is None:
            raise ValueError(
                "a VectorEnv without opponents mixes every seat's decisions in one batch; give opponents "
                "(a frozen copy of the policy through unoengine.rl.policy_bot, for self-play)"
            )
        if venv.metadata["autoreset_mode"] is not AutoresetMode.SAME_STEP:
            raise ValueError(
                "Stable-Baselines3 deals the next game in the step that ends one: use a VectorEnv "
                "with autoreset_mode=AutoresetMode.SAME_STEP"
            )
        self.venv = venv
        self.render_mode: str | None = None
        single = venv.single_observation_space
        assert isinstance(single, spaces.Dict)
        observation_space = single.spaces["observation"]
        super().__init__(venv.num_envs, observation_space, venv.single_action_space)
        self._actions: np.ndarray[Any, Any] = np.zeros(venv.num_envs, dtype=np.int64)
        self._observations = np.zeros((venv.num_envs, venv.encoding.size), dtype=np.float32)
        self._masks = np.zeros((venv.num_envs, NUM_ACTIONS), dtype=np.bool_)

    def reset(self) -> VecEnvObs:
        """New games everywhere (from the seeds of the last ``seed()``, if any)."""
        venv = self.venv
        seeds = self._seeds
        if all(seed is not None for seed in seeds):
            observations, _ = venv.reset(seed=[int(seed) for seed in seeds if seed is not None])
        else:
            observations, _ = venv.reset()
        self._reset_seeds()
        self._reset_options()
        self._observations[:] = observations["observation"]
        self._masks[:] = observations["action_mask"]
        self.reset_infos = [{"seat": int(seat)} for seat in venv.learner]
        return self._observations.copy()

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        """Keep the learner's action ids for :meth:`step_wait`."""
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        """Step every game; a game that ends is dealt again at once (SB3's auto-reset)."""
        venv = self.venv
        observations, rewards, terminations, truncations, _ = venv.step(self._actions)
        out = self._observations
        masks = self._masks
        out[:] = observations["observation"]
        masks[:] = observations["action_mask"]
        dones = terminations | truncations
        learner = venv.learner
        infos: list[dict[str, Any]] = [{"seat": int(seat)} for seat in learner]
        finals = venv.final_observations
        for index in np.flatnonzero(dones):
            infos[index]["terminal_observation"] = finals[index].copy()
            infos[index]["TimeLimit.truncated"] = bool(truncations[index] and not terminations[index])
        return out.copy(), rewards.astype(np.float32), dones.copy(), infos

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The current masks, ``(num_envs, NUM_ACTIONS)`` booleans (for ``MaskablePPO``)."""
        return self._masks.copy()

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """This env's attribute (else the :class:`VectorEnv`'s), once per game of ``indices``.

        Raises:
            AttributeError: neither has it.
        """
        count = len(list(self._get_indices(indices)))
        for owner in (self, self.venv):
            if hasattr(owner, attr_name):
                return [getattr(owner, attr_name)] * count
        raise AttributeError(f"{type(self).__name__} has no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of this env (one value for all games)."""
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks``: each game's mask; any other method of this env: its result, once per game.

        Raises:
            AttributeError: no such method.
        """
        chosen = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[index] for index in chosen]
        method = getattr(self, method_name)
        result = method(*method_args, **method_kwargs)
        return [result] * len(chosen)

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper[Any, Any, Any, Any]], indices: VecEnvIndices = None
    ) -> list[bool]:
        """No game is a wrapped Gymnasium env."""
        return [False] * len(list(self._get_indices(indices)))


def vec_env(
    n: int,
    rules: str = "classic",
    seats: int = 2,
    options: Mapping[str, Any] | None = None,
    *,
    opponents: Sequence[Opponent] = ("random",),
    seat: int | None = None,
    reward: str = "win",
    history: int = 0,
    discards: bool = False,
    illegal: str = "terminate",
    monitor: bool = True,
) -> VecEnv:
    """An SB3 ``VecEnv`` of ``n`` games: the learner at ``seat`` (``None``: drawn per game), bots at the others.

    ``opponents``: one per other seat, or one for all (registered names or
    factories ``rng -> Bot``, such as :func:`unoengine.rl.policy_bot`'s for
    self-play against a frozen copy). ``monitor``: wrap it in SB3's ``VecMonitor``.
    Other arguments as :class:`unoengine.rl.VectorEnv`'s.

    Raises:
        InvalidNotationError: unknown rules or option, or a bad seat count.
        ValueError: a bad ``n``, seat, opponent list, ``illegal`` or ``reward``, or an opponent that
            cannot play this game.
    """
    venv = VectorEnv(
        n,
        rules,
        seats,
        options,
        opponents=list(opponents),
        seat=seat,
        autoreset_mode=AutoresetMode.SAME_STEP,
        illegal=illegal,
        reward=reward,
        history=history,
        discards=discards,
    )
    name = find_rules(rules).name
    for kind in venv.opponent_kinds or ():  # a bot that cannot play this game is refused here
        check_game(make_opponent(kind, random.Random(0)), name, seats)
    env: VecEnv = UnoVecEnv(venv)
    return VecMonitor(env) if monitor else env
