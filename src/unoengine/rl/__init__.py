"""Reinforcement-learning environments (the ``rl`` extra: ``pip install 'unoengine[rl]'``); docs/RL.md.

- :func:`env`: PettingZoo AEC environment, every rule set, 2–10 seats, any options;
- :class:`SingleAgentEnv`: Gymnasium environment, one learner against bots;
- :class:`VectorEnv`: N games stepped at once into preallocated NumPy arrays.

The PettingZoo registry gets ``unoengine/classic-v0``, ``unoengine/duo-v0`` and
``unoengine/flex-v0`` where the installed PettingZoo has one.
"""

from __future__ import annotations

from unoengine.core.rules import RULESETS
from unoengine.rl.aec_env import env, raw_env
from unoengine.rl.encoding import ENCODING_VERSION, Encoding
from unoengine.rl.gym_env import SingleAgentEnv
from unoengine.rl.vector_env import VectorEnv

__all__ = ["ENCODING_VERSION", "Encoding", "SingleAgentEnv", "VectorEnv", "env", "raw_env", "register_envs"]


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


REGISTERED = register_envs()
