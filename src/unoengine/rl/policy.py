"""The learned ``ppo`` bot: a small masked policy network run with NumPy only.

``examples/train_expert.py`` trains the network (PyTorch: it imitates ``heuristic``,
then ``ismcts``'s decisions; ``examples/train_ppo.py`` made the earlier weights with
PPO) and exports its weights to :data:`WEIGHTS`, a NumPy ``.npz`` file shipped in
the package: the layers'
matrices (float16) and a JSON ``meta`` entry naming the rule set and seat count
it was trained for, the decisions it saw, the versions of the observation
layout and of the action table, and the name of every input entry and every
action id. :class:`PPOBot` plays it greedily (the most likely legal action) in
the game it was trained for and refuses any other (another rule set or seat
count: a ``ValueError`` naming it, never another bot in its place); within that
game, a decision kind it never saw (a Wild Draw Four challenge, a house rule's
decision) is handed to the ``heuristic`` bot and counted (:attr:`PPOBot.handed_over`).
When the action table or
the layout grows (a new ``ACTION_IDS_VERSION``: new house-rule ids, new card
kinds), the weights are fitted to it by those names: a new input gets zero
weights, a new action id is never chosen by the network.

The network: ``x = sign(o) * log(1 + |o|)`` of the observation ``o``, then
dense layers with ``tanh``, the last one giving one logit per action id;
illegal ids are masked out.

>>> import random
>>> from unoengine.core.engine import new_game
>>> from unoengine.core.views import view_for
>>> bot = PPOBot(random.Random(0))
>>> state = new_game("classic", 2, seed=4)
>>> view = view_for(state, state.to_act)
>>> bot.choose(view, view.legal) in view.legal
True
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from unoengine.bots.heuristic import HeuristicBot
from unoengine.core.action_ids import ACTION_IDS_VERSION, NUM_ACTIONS, action_id, action_of, table_notation
from unoengine.core.actions import Action
from unoengine.core.rules import find_rules
from unoengine.core.views import PlayerView
from unoengine.rl.decisions import DECLINE_ID
from unoengine.rl.encoding import ENCODING_VERSION, Encoding

WEIGHTS = Path(__file__).with_name("ppo_classic_2.npz")
"""The shipped weights (Classic, 2 seats)."""


def squash(observation: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The network's input transform: ``sign(o) * log(1 + |o|)`` (the trainer uses the same)."""
    result: np.ndarray[Any, Any] = np.sign(observation) * np.log1p(np.abs(observation))
    return result


class Policy:
    """A policy network: its ``meta`` (rules, seats, decisions, versions) and its dense layers.

    Raises:
        KeyError: ``meta`` lacks a field.
    """

    def __init__(self, meta: dict[str, Any], layers: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]) -> None:
        self.meta = meta
        self.layers = [(weight.astype(np.float32), bias.astype(np.float32)) for weight, bias in layers]
        self.rules: str = meta["rules"]
        self.seats: int = int(meta["seats"])
        self.decisions = frozenset(meta["decisions"])
        self.encoding = Encoding(
            self.rules, self.seats, history=int(meta.get("history", 0)), discards=bool(meta.get("discards", False))
        )
        self.known = frozenset(range(NUM_ACTIONS))
        """The action ids the network has an output for (all, unless remapped from another table)."""
        if "inputs" in meta and "actions" in meta:
            self._remap(meta["inputs"], meta["actions"])
        self.usable = (
            self.layers[0][0].shape[0] == self.encoding.size
            and self.layers[-1][0].shape[1] == NUM_ACTIONS
            and (
                "inputs" in meta
                or (
                    meta.get("encoding_version") == ENCODING_VERSION
                    and meta.get("action_ids_version") == ACTION_IDS_VERSION
                )
            )
        )

    def _remap(self, inputs: list[str], actions: list[str]) -> None:
        """Fit weights made for another layout or action table to the current ones, entry by entry by name.

        An input the network never saw gets zero weights; an action id it never saw
        is never chosen (:attr:`known` leaves it out).
        """
        labels = self.encoding.labels()
        notation = table_notation()
        if labels == inputs and list(notation) == actions:
            return
        weight, bias = self.layers[0]
        rows = {label: index for index, label in enumerate(inputs)}
        first = np.zeros((len(labels), weight.shape[1]), np.float32)
        for row, label in enumerate(labels):
            old = rows.get(label)
            if old is not None:
                first[row] = weight[old]
        self.layers[0] = (first, bias)
        weight, bias = self.layers[-1]
        columns = {text: index for index, text in enumerate(actions)}
        last = np.zeros((weight.shape[0], NUM_ACTIONS), np.float32)
        last_bias = np.zeros(NUM_ACTIONS, np.float32)
        known = set()
        for column, text in enumerate(notation):
            old = columns.get(text)
            if old is not None:
                last[:, column] = weight[:, old]
                last_bias[column] = bias[old]
                known.add(column)
        self.layers[-1] = (last, last_bias)
        self.known = frozenset(known)

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> Policy:
        """A policy from an ``.npz`` file (``W0, b0, W1, b1, …`` and a JSON ``meta``).

        Raises:
            OSError: the file cannot be read.
            ValueError: it is not a policy file.
        """
        with np.load(path, allow_pickle=False) as data:
            try:
                meta = json.loads(str(data["meta"]))
                layers = [(data[f"W{k}"], data[f"b{k}"]) for k in range(int(meta["layers"]))]
                return cls(meta, layers)
            except (KeyError, ValueError) as error:
                raise ValueError(f"{path}: not a policy file ({error})") from None

    def save(self, path: Path | str) -> None:
        """Write the policy to an ``.npz`` file (float16 weights, compressed)."""
        meta = {
            **self.meta,
            "layers": len(self.layers),
            "encoding_version": ENCODING_VERSION,
            "action_ids_version": ACTION_IDS_VERSION,
            "inputs": self.encoding.labels(),
            "actions": list(table_notation()),
        }
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        for k, (weight, bias) in enumerate(self.layers):
            arrays[f"W{k}"] = weight.astype(np.float16)
            arrays[f"b{k}"] = bias.astype(np.float16)
        np.savez_compressed(path, **arrays)

    def logits(self, observation: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The action logits of one observation (or a batch)."""
        x = squash(observation)
        last = len(self.layers) - 1
        for k, (weight, bias) in enumerate(self.layers):
            x = x @ weight + bias
            if k < last:
                x = np.tanh(x)
        return x

    def trained_for(self, view: PlayerView) -> bool:
        """Was the network trained for this view's game and decision?"""
        return self.usable and view.rules == self.rules and view.seats == self.seats and view.pending in self.decisions

    def refusal(self, name: str, rules: str, seats: int) -> str | None:
        """Why a bot ``name`` playing this network cannot play ``rules`` with ``seats`` seats (``None``: it can)."""
        if not self.usable:
            return (
                f"{name}'s weights do not fit this action table or observation layout "
                f"(action ids version {self.meta.get('action_ids_version')}, no names to fit them by)"
            )
        rules_name = find_rules(rules).name
        if rules_name != self.rules or seats != self.seats:
            return (
                f"{name} was trained for {self.rules} with {self.seats} seats; "
                f"it cannot play {rules_name} with {seats} seats"
            )
        return None

    def best(self, view: PlayerView, ids: list[int], rng: random.Random | None = None) -> int:
        """The most likely of ``ids`` in ``view`` (with ``rng``: one drawn from the policy's distribution).

        Only the ids the network knows are considered (all of ``ids`` if it knows none).
        """
        known = [index for index in ids if index in self.known]
        ids = known or ids
        logits = self.logits(self.encoding.observe(view))
        if rng is None:
            return max(ids, key=lambda index: float(logits[index]))
        chosen = logits[ids]
        weights = np.exp(chosen - chosen.max())
        return ids[_draw(weights / weights.sum(), rng)]


def _draw(probabilities: np.ndarray[Any, Any], rng: random.Random) -> int:
    point = rng.random()
    total = 0.0
    for index, probability in enumerate(probabilities):
        total += float(probability)
        if point < total:
            return index
    return len(probabilities) - 1


@cache
def shipped_policy() -> Policy:
    """The shipped network, loaded once."""
    return Policy.load(WEIGHTS)


class PPOBot:
    """``ppo``: the learned policy, for the game it was trained for only (Classic, 2 seats).

    Another rule set or seat count is refused with a ``ValueError`` naming the
    bot (:meth:`check_game`; at the first decision of such a game, or at once
    when ``rules`` and ``seats`` are given), never played by another bot in its
    place. Within its game, a decision kind the network never met is played as
    the ``heuristic`` plays it and counted in :attr:`handed_over`.
    ``sample``: draw each action from the policy's distribution instead of taking the most likely.

    Raises:
        ValueError: the weights do not fit the action table, or (with ``rules`` and ``seats``) a game
            it was not trained for.
    """

    name = "ppo"
    needs_view = True
    reacts = True

    def __init__(
        self,
        rng: random.Random,
        policy: Policy | None = None,
        *,
        sample: bool = False,
        rules: str | None = None,
        seats: int | None = None,
    ) -> None:
        self.rng = rng
        self.policy = policy if policy is not None else shipped_policy()
        self._draw_from = rng if sample else None
        self.fallback = HeuristicBot(rng)
        self.handed_over = 0
        """How many decisions (of a kind the network never met) the heuristic made."""
        self._checked: tuple[str, int] | None = None
        if not self.policy.usable:
            self.check_game(self.policy.rules, self.policy.seats)
        if rules is not None or seats is not None:
            self.check_game(rules or self.policy.rules, seats or self.policy.seats)

    def check_game(self, rules: str, seats: int) -> None:
        """Refuse a game the network was not trained for.

        Raises:
            ValueError: ``"ppo was trained for classic with 2 seats; it cannot play flex with 4 seats"``.
        """
        problem = self.policy.refusal(self.name, rules, seats)
        if problem is not None:
            raise ValueError(problem)
        self._checked = (self.policy.rules, self.policy.seats)

    def _check_view(self, view: PlayerView) -> bool:
        """True if the network knows this decision; raises for a game it was not trained for."""
        if self._checked != (view.rules, view.seats):
            self.check_game(view.rules, view.seats)
        if view.pending in self.policy.decisions:
            return True
        self.handed_over += 1
        return False

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        """The policy's most likely legal action (the heuristic's, for a decision kind it never met).

        Raises:
            ValueError: a game it was not trained for.
        """
        assert view is not None and view.seat is not None
        if not self._check_view(view):
            return self.fallback.choose(view, legal)
        seat, seats = view.seat, view.seats
        ids = [action_id(action, seat, seats) for action in legal]
        return action_of(self.policy.best(view, ids, self._draw_from), seat, seats)

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        """An out-of-turn action the policy prefers to letting the chance go (``pass``), or ``None``.

        Raises:
            ValueError: a game it was not trained for.
        """
        assert view.seat is not None
        if not self._check_view(view):
            return self.fallback.react(view, legal)
        seat, seats = view.seat, view.seats
        ids = [DECLINE_ID, *(action_id(action, seat, seats) for action in legal)]
        chosen = self.policy.best(view, ids, self._draw_from)
        return None if chosen == DECLINE_ID else action_of(chosen, seat, seats)
