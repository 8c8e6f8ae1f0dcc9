"""The PettingZoo AEC environment: :func:`env` (and :class:`raw_env`, the same class).

Agents are ``seat_0 … seat_{n-1}``. ``agent_selection`` is the seat offered the
next decision: the seat to act, or before it a seat with an out-of-turn choice
(UNO, catch, and any a house rule adds; :mod:`unoengine.rl.decisions`).
Observations are written by the compiled :class:`~unoengine.rl.observe.Writer`
through the same allow-list as ``view_for`` (:mod:`unoengine.rl.encoding`); the
mask is ``int8``, 1 at each id the agent may take now, all 0 for the others.

The environment enforces PettingZoo's order contract itself (what
``OrderEnforcingWrapper`` checks: nothing before ``reset``, a ``step`` between
two agents of ``agent_iter``), so no wrapper sits on the path of every step.
As in PettingZoo's classic environments, an illegal action ends the game with
-1 to the offender by default (``illegal="raise"`` raises instead, for debugging).

>>> e = env(rules="classic", seats=2)
>>> e.reset(seed=1)
>>> observation, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, observation["action_mask"].dtype.name, int(observation["action_mask"].sum()) > 0
('seat_1', 'int8', True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from unoengine.core.action_ids import NUM_ACTIONS
from unoengine.core.views import PlayerView, view_for
from unoengine.rl.decisions import DECLINE_ID
from unoengine.rl.encoding import Encoding, legal_ids_of
from unoengine.rl.match import ILLEGAL, Match, check_choice
from unoengine.rl.observe import write_mask

ObsDict = dict[str, np.ndarray[Any, Any]]

RENDER_MODES = ("human", "ansi")

OBSERVATION_HIGH = 1000.0
"""The observation space's upper bound (no entry comes near it: counts of cards, scores over the target)."""


def observation_space(encoding: Encoding) -> spaces.Dict:
    """The observation space of an encoding: ``observation`` (float32) and ``action_mask`` (int8)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=-1.0, high=OBSERVATION_HIGH, shape=(encoding.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def choice_ids(match: Match, view: PlayerView) -> list[int]:
    """The ids the seat of ``view`` may take now: its view's legal actions (and ``pass`` on an out-of-turn offer)."""
    if view.seat != match.seat:
        return []
    ids = legal_ids_of(view)
    if match.is_out_of_turn:
        ids.append(DECLINE_ID)
    return ids  # == match.choice_ids: both are legal_actions of that seat


def observe_seat(encoding: Encoding, match: Match, seat: int) -> ObsDict:
    """``seat``'s observation and mask in ``match``, in fresh arrays (the mask all 0 unless it is offered a
    decision), written by the encoding's compiled writer."""
    observation = np.zeros(encoding.size, np.float32)  # (dtype by position: a keyword costs 40 ns a call)
    encoding.writer.write(match.state, seat, observation.data)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if match.seat == seat:
        write_mask(match.ids, mask.data)
    return {"observation": observation, "action_mask": mask}


def render_text(match: Match) -> str:
    """A line for people: the spectator's view (no hidden card)."""
    view = view_for(match.state, None)
    top = "-" if view.top is None else str(view.top)
    color = "-" if view.color is None else view.color.letter
    who = "over" if match.seat is None else f"seat_{match.seat} to decide ({view.pending})"
    return f"{view.rules} top {top} colour {color} hands {list(view.hand_sizes)} draw {view.draw_pile}: {who}"


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name)
    """UNO for PettingZoo's AEC API, every rule set, 2–10 seats (docs/RL.md).

    ``options``: the rule set's options (``new_game``'s; ``single_round`` is True
    unless given). ``illegal``: ``"terminate"`` (the game ends, -1 to the offender)
    or ``"raise"``. ``reward``: ``"win"`` or ``"score"``. ``history``: past
    discards in the observation; ``discards``: the discard pile's counts by kind
    in it. ``max_steps``: truncate every agent after that many decisions
    (``None``: never).

    Raises:
        InvalidNotationError: unknown rules or option, or a bad seat count.
        ValueError: a bad ``illegal``, ``reward``, ``render_mode`` or ``history``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "unoengine_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "classic",
        seats: int = 4,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        illegal: str = "terminate",
        reward: str = "win",
        history: int = 0,
        discards: bool = False,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        self.match = Match(rules, seats, options, reward=reward)
        self.encoding = Encoding(self.match.ruleset.name, seats, history=history, discards=discards)
        self.illegal = check_choice("illegal", illegal, ILLEGAL)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        self._agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = observation_space(self.encoding)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._steps = 0
        self._has_reset = False
        self._has_updated = False
        self.agent_selection: str = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same cached space object for every call."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(NUM_ACTIONS)``: the core's action ids (docs/ACTIONS.md)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: from ``seed``, else the next seed of the generator the last seed started.

        ``options`` is accepted for the API and unused: rule options are given to the constructor.
        """
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self.match.reset(game_seed)
        self._has_reset = True
        self._has_updated = True
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation and mask (fresh arrays)."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return observe_seat(self.encoding, self.match, self._agent_seat[agent])

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation and info."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,  # (through observe: a subclass's own is used)
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The selected agent, until no agent is left (``step`` must be called between two)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return self._agents(max_iter)

    def _agents(self, max_iter: int) -> Iterator[str]:
        for _ in range(max_iter):
            if not self.agents:
                return
            assert self._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
            self._has_updated = False
            yield self.agent_selection

    def step(self, action: int | None) -> None:
        """The selected agent takes the action of id ``action`` (``None`` for a finished agent).

        An id it may not take ends the game, -1 to it (``illegal="terminate"``).

        Raises:
            IllegalActionError: an id the agent may not take now (``illegal="raise"``); nothing changes.
        """
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._has_updated = True
            self._was_dead_step(action)
            return
        match = self.match
        match.take_id(action, self.illegal)
        self._has_updated = True
        self._cumulative_rewards[agent] = 0.0
        self._steps = steps = self._steps + 1
        seat = match.seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]  # the usual step: no reward, nobody done
            if self.max_steps is not None and steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
        else:
            for index, value in enumerate(match.rewards()):
                self.rewards[self.possible_agents[index]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the line; ``human``: print it."""
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        if self.render_mode is None:
            return None
        text = render_text(self.match)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _select(self) -> None:
        seat = self.match.seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]


def env(
    rules: str = "classic",
    seats: int = 4,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> raw_env:
    """The AEC environment (see :class:`raw_env`): it enforces PettingZoo's call order itself, unwrapped."""
    return raw_env(rules, seats, options, render_mode, **kwargs)
