"""Reinforcement-learning environments (the ``rl`` extra: ``pip install 'unoengine[rl]'``); docs/RL.md.

- :func:`env`: PettingZoo AEC environment, every rule set, 2–10 seats, any options;
- :class:`SingleAgentEnv`: Gymnasium environment, one learner against bots;
- :class:`VectorEnv`: N games stepped at once, in compiled code, into preallocated NumPy arrays
  (:func:`sample_actions`: a random masked agent for a batch; :func:`sample_action`: for one mask);
- :func:`policy_bot`: a trained policy (an SB3 model, a torch module, a callable) as a bot;
- :mod:`unoengine.rl.sb3` (the ``train`` extra, imported on first use): ``vec_env``, a
  Stable-Baselines3 ``VecEnv`` over :class:`VectorEnv`.

Importing this package registers ``unoengine/<rules>-v0`` for every rule set (``classic``, ``duo``,
``flex``, ``nomercy``) with PettingZoo's registry:
``pettingzoo.make("aec", "unoengine/classic-v0")``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from unoengine.core.rules import RULESETS
from unoengine.rl.aec_env import env, raw_env
from unoengine.rl.encoding import ENCODING_VERSION, Encoding
from unoengine.rl.gym_env import SingleAgentEnv
from unoengine.rl.policy_bot import policy_bot
from unoengine.rl.vector_env import VectorEnv, sample_action, sample_actions

__all__ = [
    "ENCODING_VERSION",
    "Encoding",
    "SingleAgentEnv",
    "VectorEnv",
    "env",
    "policy_bot",
    "raw_env",
    "register_envs",
    "sample_action",
    "sample_actions",
]


def register_envs() -> list[str]:
    """Register ``unoengine/<rules>-v0`` with PettingZoo's registry (if it has one); the ids registered."""
    try:
        from pettingzoo.env_registry import registration  # type: ignore[import-untyped]
    except ImportError:  # an older PettingZoo: no registry
        return []
    ids = []
    for name in RULESETS:
        env_id = f"unoengine/{name}-v0"
        if env_id not in registration.aec_registry:
            registration.register("aec", env_id, entry_point="unoengine.rl.aec_env:env", kwargs={"rules": name})
        ids.append(env_id)
    return ids


def __getattr__(name: str) -> ModuleType:
    """``unoengine.rl.sb3`` on first use (it imports Stable-Baselines3 and PyTorch: the ``train`` extra)."""
    if name == "sb3":
        return importlib.import_module("unoengine.rl.sb3")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


REGISTERED = register_envs()
