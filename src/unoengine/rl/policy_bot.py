"""A trained policy as a bot: :func:`policy_bot` (docs/RL.md, "A policy as a bot").

``policy_bot(policy, rules=..., seats=...)`` makes a bot factory (``rng -> Bot``)
of any of:

- a Stable-Baselines3 or sb3-contrib model (anything with ``predict``; a
  ``MaskablePPO`` gets the mask through ``predict(..., action_masks=...)``, an
  actor-critic without masking has its action distribution masked here);
- a PyTorch module: logits ``(batch, NUM_ACTIONS)`` from a ``float32`` observation
  tensor ``(batch, size)`` (a tuple's first item is taken as the logits);
- a callable ``(observation, mask) -> action id`` (NumPy arrays: ``float32``
  ``(size,)`` and ``int8`` ``(NUM_ACTIONS,)``);
- a :class:`unoengine.rl.policy.Policy` (the ``ppo`` bot's ``.npz`` format);
- a path: ``.zip`` (a saved SB3 model), ``.pt2`` (``torch.export.save`` of a module
  exported with a ``(1, size)`` example), ``.pt``/``.pth`` (TorchScript, ``torch.jit.save``),
  ``.npz`` (a :class:`~unoengine.rl.policy.Policy`). Files are read without unpickling code.

The bot sees exactly what a learner in the environments sees: its view encoded by
:class:`~unoengine.rl.encoding.Encoding` (``rules``, ``seats``, ``history``, ``discards``), a
mask of the core's action ids of its legal actions, and for an out-of-turn chance
(UNO, catch, a jump-in) those actions plus ``pass``, which means "let it go"
(:mod:`unoengine.rl.decisions`). The factory goes wherever a bot factory goes:
the environments' ``opponents``, ``play_games``/``simulate``'s bots, and, bound to
a name in an importable module, every command's ``--bot module:name``. A saved
model needs no module: ``--bot unoengine.rl.policy_bot:load:path=model.zip``.

A bot made for ``rules`` and ``seats`` refuses any other game with a
``ValueError`` naming it (never another bot in its place); without them it plays
whatever game it is given, if the encoding's size fits the model's input.

>>> import random
>>> import numpy as np
>>> from unoengine.core.engine import new_game
>>> from unoengine.core.views import view_for
>>> first_legal = policy_bot(lambda observation, mask: int(np.flatnonzero(mask)[0]), rules="classic", seats=2)
>>> bot = first_legal(random.Random(0))
>>> state = new_game("classic", 2, seed=4)
>>> view = view_for(state, state.to_act)
>>> bot.choose(view, view.legal) in view.legal
True
"""

from __future__ import annotations

import functools
import inspect
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from unoengine.core.action_ids import NUM_ACTIONS, PASS_ID, action_id
from unoengine.core.actions import Action
from unoengine.core.rules import find_rules
from unoengine.core.views import PlayerView
from unoengine.rl.encoding import Encoding
from unoengine.rl.policy import Policy

Observation = np.ndarray[Any, np.dtype[np.float32]]
Mask = np.ndarray[Any, np.dtype[np.int8]]
Decide = Callable[[Observation, Mask, random.Random], int]
"""How a policy picks an action id: ``(observation, mask, rng) -> id``."""


class PolicyBot:
    """A bot that plays ``decide``'s choices (see :func:`policy_bot`, which makes these).

    ``input_size``: the number of observation entries the policy takes, when known
    (checked against the encoding of every game it is given).
    """

    needs_view = True
    reacts = True

    def __init__(
        self,
        rng: random.Random,
        decide: Decide,
        *,
        name: str = "policy",
        rules: str | None = None,
        seats: int | None = None,
        history: int = 0,
        discards: bool = False,
        input_size: int | None = None,
    ) -> None:
        self.rng = rng
        self.decide = decide
        self.name = name
        self.rules = None if rules is None else find_rules(rules).name
        self.seats = seats
        self.history = history
        self.discards = discards
        self.input_size = input_size
        self._game: tuple[str, int] | None = None
        self._encoding: Encoding | None = None
        if self.rules is not None and self.seats is not None:
            self.check_game(self.rules, self.seats)

    def check_game(self, rules: str, seats: int) -> None:
        """Refuse a game this policy was not made for.

        Raises:
            ValueError: another rule set or seat count than ``rules``/``seats`` (when given), or an
                observation of another size than the policy's input.
        """
        name = find_rules(rules).name
        if (self.rules is not None and name != self.rules) or (self.seats is not None and seats != self.seats):
            made = f"{self.rules or 'any rules'} with {self.seats or 'any number of'} seats"
            raise ValueError(f"{self.name} was made for {made}; it cannot play {name} with {seats} seats")
        encoding = _encoding(name, seats, self.history, self.discards)
        if self.input_size is not None and encoding.size != self.input_size:
            raise ValueError(
                f"{self.name} takes {self.input_size} observation entries; {name} with {seats} seats "
                f"(history={self.history}, discards={self.discards}) gives {encoding.size}: was it trained for "
                "another game? (give rules=, seats=, history= and discards= as trained)"
            )
        self._game = (name, seats)
        self._encoding = encoding

    def _observe(self, view: PlayerView) -> Observation:
        if self._game != (view.rules, view.seats):
            self.check_game(view.rules, view.seats)
        assert self._encoding is not None
        return self._encoding.observe(view)

    def _pick(self, view: PlayerView, actions: dict[int, Action | None]) -> Action | None:
        observation = self._observe(view)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[list(actions)] = 1
        chosen = int(self.decide(observation, mask, self.rng))
        if chosen not in actions:
            raise ValueError(f"{self.name} chose action id {chosen}, which is not legal here")
        return actions[chosen]

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        """The policy's action for a decision of its own seat.

        Raises:
            ValueError: a game it was not made for, or the policy chose an id outside the mask.
        """
        assert view is not None and view.seat is not None
        seat, seats = view.seat, view.seats
        chosen = self._pick(view, {action_id(action, seat, seats): action for action in legal})
        assert chosen is not None
        return chosen

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        """An out-of-turn action, or ``None`` where the policy takes ``pass``.

        Raises:
            ValueError: a game it was not made for, or the policy chose an id outside the mask.
        """
        assert view.seat is not None
        seat, seats = view.seat, view.seats
        choices: dict[int, Action | None] = {PASS_ID: None}
        choices.update({action_id(action, seat, seats): action for action in legal})
        return self._pick(view, choices)


class PolicyBotFactory:
    """Makes :class:`PolicyBot` s of one policy: ``factory(rng)`` (a bot factory, as ``make_bot``'s)."""

    def __init__(
        self,
        decide: Decide,
        *,
        name: str,
        rules: str | None,
        seats: int | None,
        history: int,
        discards: bool,
        input_size: int | None,
    ) -> None:
        self.decide = decide
        self.name = self.__name__ = name
        self.rules = rules
        self.seats = seats
        self.history = history
        self.discards = discards
        self.input_size = input_size
        if rules is not None and seats is not None:
            self(random.Random(0))  # a game the policy cannot play is refused here, not at its first decision

    def __call__(self, rng: random.Random) -> PolicyBot:
        """A new bot with its own generator."""
        return PolicyBot(
            rng,
            self.decide,
            name=self.name,
            rules=self.rules,
            seats=self.seats,
            history=self.history,
            discards=self.discards,
            input_size=self.input_size,
        )


def policy_bot(
    policy: object,
    *,
    rules: str | None = None,
    seats: int | None = None,
    history: int = 0,
    discards: bool = False,
    name: str = "policy",
    deterministic: bool = True,
    algorithm: str | None = None,
) -> PolicyBotFactory:
    """A bot factory (``rng -> Bot``) playing ``policy``: an SB3 model, a torch module, a callable, a path.

    ``rules``, ``seats``, ``history``, ``discards``: the game and observation the policy
    was trained on (the environments' arguments; a :class:`Policy` carries its own);
    with ``rules`` and ``seats`` the bot refuses any other game. ``deterministic``: the
    most likely legal action (else one drawn from the policy's distribution, from the
    bot's generator; an SB3 model samples with PyTorch's). ``algorithm``: the class
    that loads a saved ``.zip`` (``MaskablePPO`` by default, else one of
    ``stable_baselines3``'s: ``PPO``, ``A2C``, ``DQN`` …).

    Raises:
        ValueError: a policy of no known kind, a file that cannot be loaded, or (with ``rules``
            and ``seats``) a policy whose input does not fit that game.
    """
    if isinstance(policy, str | Path):
        policy = load_policy(policy, algorithm)
    decide, input_size = _decider(policy, deterministic)
    if isinstance(policy, Policy):
        rules = rules or policy.rules
        seats = seats or policy.seats
        history = int(policy.meta.get("history", history))
        discards = bool(policy.meta.get("discards", discards))
    return PolicyBotFactory(
        decide, name=name, rules=rules, seats=seats, history=history, discards=discards, input_size=input_size
    )


def load(
    rng: random.Random,
    path: str,
    rules: str | None = None,
    seats: int | None = None,
    history: int = 0,
    discards: bool = False,
    name: str | None = None,
    deterministic: bool = True,
    algorithm: str | None = None,
) -> PolicyBot:
    """A bot of a saved policy, for a bot spec: ``unoengine.rl.policy_bot:load:path=model.zip,seats=2``.

    The file is loaded once per process (again if it changes). ``name``: the file's stem unless given.

    Raises:
        ValueError: the file cannot be loaded, or the policy does not fit the game given.
    """
    where = Path(path).expanduser().resolve()
    try:
        stamp = where.stat().st_mtime_ns
    except OSError as error:
        raise ValueError(f"policy {path}: {error.strerror or error}") from None
    factory = _file_factory(
        str(where), stamp, rules, seats, history, discards, name or Path(path).stem, deterministic, algorithm
    )
    return factory(rng)


@functools.lru_cache(maxsize=16)
def _file_factory(
    path: str,
    stamp: int,
    rules: str | None,
    seats: int | None,
    history: int,
    discards: bool,
    name: str,
    deterministic: bool,
    algorithm: str | None,
) -> PolicyBotFactory:
    """One factory per file, version and arguments (a batch of games makes a bot per game and seat)."""
    return policy_bot(
        _load_policy(path, stamp, algorithm),
        rules=rules,
        seats=seats,
        history=history,
        discards=discards,
        name=name,
        deterministic=deterministic,
    )


def load_policy(path: str | Path, algorithm: str | None = None) -> object:
    """The policy saved at ``path``: ``.zip`` (SB3), ``.pt2``/``.pt``/``.pth`` (PyTorch), ``.npz`` (:class:`Policy`).

    Raises:
        ValueError: another suffix, a missing file, or one that its loader refuses.
    """
    where = Path(path).expanduser().resolve()
    try:
        stamp = where.stat().st_mtime_ns
    except OSError as error:
        raise ValueError(f"policy {path}: {error.strerror or error}") from None
    return _load_policy(str(where), stamp, algorithm)


@functools.lru_cache(maxsize=16)
def _load_policy(path: str, stamp: int, algorithm: str | None) -> object:
    suffix = Path(path).suffix.lower()
    try:
        if suffix == ".npz":
            return Policy.load(path)
        if suffix == ".pt2":
            import torch

            return torch.export.load(path).module()
        if suffix in (".pt", ".pth"):
            import torch

            module = torch.jit.load(path, map_location="cpu")  # type: ignore[no-untyped-call]
            module.eval()
            return module
        if suffix == ".zip":
            return _sb3_class(algorithm).load(path, device="cpu")
    except ImportError as error:
        raise ValueError(f"policy {path}: {error} (the 'train' extra has torch and Stable-Baselines3)") from None
    except (OSError, RuntimeError, ValueError, KeyError) as error:
        raise ValueError(f"policy {path}: cannot be loaded ({type(error).__name__}: {error})") from None
    raise ValueError(
        f"policy {path}: not a .zip (SB3), .pt2 (torch.export), .pt/.pth (TorchScript) or .npz (unoengine Policy) file"
    )


def _sb3_class(algorithm: str | None) -> Any:
    """The SB3 algorithm class of that name (sb3-contrib's first; ``MaskablePPO`` by default)."""
    wanted = algorithm or "MaskablePPO"
    for module_name in ("sb3_contrib", "stable_baselines3"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        found = getattr(module, wanted, None)
        if found is not None:
            return found
    raise ValueError(f"no Stable-Baselines3 algorithm {wanted!r} (installed: stable_baselines3, sb3_contrib?)")


@functools.cache
def _encoding(rules: str, seats: int, history: int, discards: bool) -> Encoding:
    return Encoding(rules, seats, history=history, discards=discards)


def _masked_best(scores: np.ndarray[Any, Any], mask: Mask, rng: random.Random, deterministic: bool) -> int:
    """The best legal id by ``scores`` (logits), or one drawn from their softmax over the legal ids."""
    ids = np.flatnonzero(mask)
    chosen = scores[ids].astype(np.float64)
    if deterministic:
        return int(ids[int(np.argmax(chosen))])
    weights = np.exp(chosen - chosen.max())
    point = rng.random() * float(weights.sum())
    index = int(np.searchsorted(np.cumsum(weights), point, side="right"))
    return int(ids[min(index, len(ids) - 1)])


def _decider(policy: object, deterministic: bool) -> tuple[Decide, int | None]:
    """How ``policy`` picks an id, and its input size when known.

    Raises:
        ValueError: no known kind of policy.
    """
    if isinstance(policy, Policy):
        known = policy

        def from_weights(observation: Observation, mask: Mask, rng: random.Random) -> int:
            return _masked_best(known.logits(observation), mask, rng, deterministic)

        return from_weights, known.encoding.size
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(policy, torch.nn.Module):
        return _torch_decider(policy, deterministic), None
    if callable(getattr(policy, "predict", None)) and hasattr(policy, "observation_space"):
        return _sb3_decider(policy, deterministic)
    if callable(policy):
        function = policy

        def from_callable(observation: Observation, mask: Mask, rng: random.Random) -> int:
            return int(function(observation, mask))

        return from_callable, None
    raise ValueError(
        f"a policy must be an SB3 model, a torch module, a callable (observation, mask) -> id "
        f"or a path to a saved one, not {type(policy).__name__}"
    )


def _torch_decider(module: Any, deterministic: bool) -> Decide:
    import torch

    parameter = next(iter(module.parameters()), None)
    device = parameter.device if parameter is not None else torch.device("cpu")

    def from_module(observation: Observation, mask: Mask, rng: random.Random) -> int:
        with torch.no_grad():
            out = module(torch.as_tensor(observation, device=device).unsqueeze(0))
        if isinstance(out, tuple | list):
            out = out[0]
        logits = out.detach().to("cpu").numpy().reshape(-1)
        if logits.shape[0] != NUM_ACTIONS:
            raise ValueError(f"the module gave {logits.shape[0]} outputs, not one logit per action id ({NUM_ACTIONS})")
        return _masked_best(logits, mask, rng, deterministic)

    return from_module


def _sb3_decider(model: Any, deterministic: bool) -> tuple[Decide, int | None]:
    space = model.observation_space
    as_dict = hasattr(space, "spaces") and "observation" in space.spaces
    box = space.spaces["observation"] if as_dict else space
    shape = getattr(box, "shape", None)
    input_size = int(shape[0]) if shape else None
    masked = "action_masks" in inspect.signature(model.predict).parameters
    distribution = getattr(getattr(model, "policy", None), "get_distribution", None)

    def inputs(observation: Observation, mask: Mask) -> Any:
        return {"observation": observation, "action_mask": mask} if as_dict else observation

    def from_model(observation: Observation, mask: Mask, rng: random.Random) -> int:
        given = inputs(observation, mask)
        if masked:
            action, _ = model.predict(given, action_masks=mask.astype(bool), deterministic=deterministic)
            return int(np.asarray(action).reshape(-1)[0])
        if distribution is not None:  # an actor-critic without masking: its logits, masked here
            import torch

            tensor, _ = model.policy.obs_to_tensor(given)
            with torch.no_grad():
                logits = distribution(tensor).distribution.logits
            return _masked_best(logits.to("cpu").numpy().reshape(-1), mask, rng, deterministic)
        action, _ = model.predict(given, deterministic=deterministic)
        return int(np.asarray(action).reshape(-1)[0])

    return from_model, input_size
