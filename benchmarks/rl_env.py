"""Speed of the RL environments (``unoengine.rl``), side by side with RLCard 1.2.0's UNO, in one process.

What it measures
    Environment steps per second (one step = one decision taken through the
    environment's API, observation encoding and mask included), Classic, 2 seats,
    one round per episode, every decision taken by a random *masked* agent
    (uniform over the ids the mask allows):

    * ``rlcard_env``     RLCard's ``rlcard.make("uno")`` with two ``RandomAgent``s,
                         ``env.run(is_training=False)``; its steps are the actions
                         in the returned trajectories (RLCard encodes observations
                         for every step too);
    * ``rlcard_engine``  RLCard's bare ``UnoGame`` looped as its env loops it
                         (``benchmarks/engine.py``'s side, no observations);
    * ``aec``            ``unoengine.rl.env("classic", 2)`` (PettingZoo AEC; it enforces
                         the call order itself): ``agent_iter``/``last``/``step``, the
                         agent ``unoengine.rl.sample_action`` (ours, as RLCard's side
                         runs RLCard's own ``RandomAgent``);
    * ``aec_textbook``   the same with the agent most code writes,
                         ``int(rng.choice(np.flatnonzero(mask)))``: about 7 µs a
                         decision on NumPy 2, more than RLCard's ``RandomAgent``;
    * ``gym``            ``unoengine.rl.SingleAgentEnv("classic", 2, ["random"])``:
                         the learner's ``step`` calls (the bot's moves happen inside),
                         our agent; ``gym_textbook`` with the textbook agent;
    * ``vector_N``       ``unoengine.rl.VectorEnv(N, "classic", 2)``, self-play, for
                         each N of ``--batches`` (16, 256, 4096): every seat's
                         decisions come back as observations, a batch of random
                         masked actions per step (``sample_actions``: uniform over
                         each row's mask; steps = games × calls);
    * ``vector_bots``    ``VectorEnv(256, …, opponents=["random"])``: the learner's
                         steps (the random bot's moves are made inside, without views).

    Our masked random agent may draw while holding a playable card (the mask
    allows it, C-7), so its games are longer than RLCard's (whose agent can only
    draw with nothing to play): compare steps/s, not games/s.

How it runs
    RLCard 1.2.0 (and termcolor) are installed without dependencies into
    ``benchmarks/.rlcard-rl`` (first run only) and share this interpreter's NumPy.
    After a warm-up every side runs for short slices (``--slice``), all sides one
    after the other, the order flipping every repetition; figures are medians.

    ``--breakdown`` adds where a step of ``vector_256`` goes: each part timed on its
    own over the same games (the engine and the offers through ``Match.take_id``,
    the observation writer, the mask writer, clearing the arrays, the agent), a
    Python loop's own cost taken off each; and a step of the AEC side with each
    agent's own cost, RLCard's ``RandomAgent.step`` included, timed apart.

Usage
    python benchmarks/rl_env.py               # about two minutes
    python benchmarks/rl_env.py --quick       # about 30 s
    python benchmarks/rl_env.py --json        # one JSON object on stdout
    python benchmarks/rl_env.py --breakdown   # and the cost of each part of a step
    python benchmarks/rl_env.py --breakdown --save    # write benchmarks/results/rl_env.json
    python benchmarks/rl_env.py --breakdown --write docs/PERFORMANCE.md   # and rewrite its rl-speed block

Targets: ``aec`` ≥ 3× ``rlcard_env`` (5× if it can), ``gym`` ≥ 3×,
``vector_256`` ≥ 20× and rising with the batch; each side with its own random
agent (the textbook agent's rows are shown beside them).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from report import add_result_options, machine, publish  # noqa: E402
from unoengine import _build  # noqa: E402
from unoengine.rl import SingleAgentEnv, VectorEnv, env  # noqa: E402
from unoengine.rl.vector_env import sample_action, sample_actions  # noqa: E402

RLCARD_VERSION = "1.2.0"
RLCARD_DIR = HERE / ".rlcard-rl"
TARGETS = {"aec": 3.0, "gym": 3.0, "vector_256": 20.0}
BASE_SIDES = ["rlcard_env", "rlcard_engine", "aec", "aec_textbook", "gym", "gym_textbook"]


def ensure_rlcard(log: bool) -> None:
    """RLCard into ``benchmarks/.rlcard-rl`` (no dependencies: it uses this interpreter's NumPy), once."""
    if str(RLCARD_DIR) not in sys.path:
        sys.path.insert(0, str(RLCARD_DIR))
    stamp = RLCARD_DIR / ".python"
    here = f"{platform.python_version()} {sys.executable} rlcard=={RLCARD_VERSION}"
    if stamp.exists() and stamp.read_text() == here:
        return
    if log:
        print(f"installing rlcard=={RLCARD_VERSION} into {RLCARD_DIR} ...", file=sys.stderr)
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"),
            *("--upgrade", "--target", str(RLCARD_DIR), f"rlcard=={RLCARD_VERSION}", "termcolor==3.1.0"),
        ],
        check=True,
        stdout=sys.stderr,
    )
    stamp.write_text(here)
    importlib.invalidate_caches()


class Side:
    """One way of stepping; :meth:`chunk` runs one episode (or one batch step) and returns its steps."""

    def chunk(self) -> int:
        raise NotImplementedError


class RLCardEnv(Side):
    def __init__(self, seed: int) -> None:
        rlcard = importlib.import_module("rlcard")
        agents = importlib.import_module("rlcard.agents")
        self.env = rlcard.make("uno", config={"seed": seed})
        self.env.set_agents([agents.RandomAgent(num_actions=self.env.num_actions) for _ in range(2)])

    def chunk(self) -> int:
        try:
            trajectories, _ = self.env.run(is_training=False)
        except IndexError:  # RLCard pops from an empty deck now and then
            return 0
        return sum((len(trajectory) - 1) // 2 for trajectory in trajectories)


class RLCardEngine(Side):
    def __init__(self, seed: int) -> None:
        game_module = importlib.import_module("rlcard.games.uno.game")
        seeding = importlib.import_module("rlcard.utils.seeding")
        self.game = game_module.UnoGame(allow_step_back=False, num_players=2)
        self.game.np_random = seeding.np_random(seed)[0]
        self.choice = random.Random(seed).choice

    def chunk(self) -> int:
        game, choice = self.game, self.choice
        game.init_game()
        steps = 0
        try:
            while not game.is_over():
                game.step(choice(game.get_legal_actions()))
                steps += 1
        except IndexError:
            return 0
        return steps


def textbook_agent(rng: np.random.Generator) -> Any:
    """The masked random agent as most code writes it: ``int(rng.choice(np.flatnonzero(mask)))``."""
    choice = rng.choice
    return lambda mask: int(choice(np.flatnonzero(mask)))


def our_agent(rng: np.random.Generator) -> Any:
    """Our own masked random agent, ``unoengine.rl.sample_action`` (as RLCard's side runs its ``RandomAgent``)."""
    return lambda mask: sample_action(mask, rng)


class AEC(Side):
    def __init__(self, seed: int, textbook: bool = False) -> None:
        self.env = env("classic", 2)
        self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)
        self.agent = (textbook_agent if textbook else our_agent)(self.rng)

    def chunk(self, masks: list[np.ndarray[Any, Any]] | None = None) -> int:
        """One game; with ``masks``, the masks the agent met are kept there too (for :func:`aec_breakdown`)."""
        e, agent = self.env, self.agent
        e.reset()
        steps = 0
        for _agent in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(agent(observation["action_mask"]))
            steps += 1
            if masks is not None:
                masks.append(observation["action_mask"])
        return steps


class Gym(Side):
    def __init__(self, seed: int, textbook: bool = False) -> None:
        self.env = SingleAgentEnv("classic", 2, ["random"])
        self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)
        self.agent = (textbook_agent if textbook else our_agent)(self.rng)

    def chunk(self) -> int:
        e, agent = self.env, self.agent
        observation, _ = e.reset()
        steps = 0
        done = False
        while not done:
            observation, _, done, _, _ = e.step(agent(observation["action_mask"]))
            steps += 1
        return steps


class Vector(Side):
    def __init__(self, seed: int, envs: int, bots: bool) -> None:
        self.env = VectorEnv(envs, "classic", 2, opponents=["random"] if bots else None)
        self.observations, _ = self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)

    def chunk(self) -> int:
        actions = sample_actions(self.observations["action_mask"], self.rng)
        self.observations, *_ = self.env.step(actions)
        return self.env.num_envs


def make_side(name: str, seed: int) -> Side:
    if name == "rlcard_env":
        return RLCardEnv(seed)
    if name == "rlcard_engine":
        return RLCardEngine(seed)
    if name in ("aec", "aec_textbook"):
        return AEC(seed, textbook=name == "aec_textbook")
    if name in ("gym", "gym_textbook"):
        return Gym(seed, textbook=name == "gym_textbook")
    if name == "vector_bots":
        return Vector(seed, 256, bots=True)
    return Vector(seed, int(name.removeprefix("vector_")), bots=False)


def breakdown(envs: int = 256, steps: int = 300, seed: int = 1, rlcard: bool = True) -> dict[str, float]:
    """Microseconds a game-step of each part of ``VectorEnv.step`` (self-play, Classic heads-up).

    Each part runs on its own over the games of one batch, in a Python loop whose own
    cost (measured empty) is taken off; ``env.step`` and the agent are timed whole.
    """
    from unoengine.rl.observe import write_mask

    vector = VectorEnv(envs, "classic", 2)
    observations, _ = vector.reset(seed=seed)
    rng = np.random.default_rng(seed)
    batch = vector._batch
    writer = batch.writer
    matches = vector.matches
    parts = dict.fromkeys(["loop", "engine_and_offers", "observation", "mask", "clear", "agent", "env_step"], 0.0)
    for _ in range(steps):
        started = time.perf_counter()
        actions = sample_actions(observations["action_mask"], rng).tolist()
        agent_done = time.perf_counter()
        vector._clear()
        cleared = time.perf_counter()
        for _index in range(envs):
            pass
        looped = time.perf_counter()
        for index in range(envs):
            match = matches[index]
            if batch.needs_reset[index]:
                batch._new_game(index)
                batch.needs_reset[index] = False
            else:
                match.take_id(actions[index], "terminate")
                batch.needs_reset[index] = match.seat is None
        taken = time.perf_counter()
        for index in range(envs):
            match = matches[index]
            seat = match.seat
            row = batch.observations[index]
            row[:] = batch.zero_row
            writer.write(match.state, int(batch.seat[index]) if seat is None else seat, row)
        written = time.perf_counter()
        for index in range(envs):
            match = matches[index]
            mask = batch.masks[index]
            for old in batch.mask_ids[index]:
                mask[old] = 0
            batch.mask_ids[index] = []
            if match.seat is not None:
                write_mask(match.ids, mask)
                batch.mask_ids[index] = match.ids
                batch.seat[index] = match.seat
        masked = time.perf_counter()
        parts["agent"] += agent_done - started
        parts["clear"] += cleared - agent_done
        parts["loop"] += looped - cleared
        parts["engine_and_offers"] += taken - looped
        parts["observation"] += written - taken
        parts["mask"] += masked - written
    started = time.perf_counter()
    for _ in range(steps):
        vector.step(sample_actions(observations["action_mask"], rng))
    parts["env_step"] = time.perf_counter() - started
    loop = parts.pop("loop")
    for name in ("engine_and_offers", "observation", "mask"):
        parts[name] -= loop
    out = {name: round(1e6 * value / (steps * envs), 3) for name, value in parts.items()}
    out.update(aec_breakdown(games=max(20, steps // 3), seed=seed, rlcard=rlcard))
    return out


def aec_breakdown(games: int, seed: int = 1, rlcard: bool = True) -> dict[str, float]:
    """Microseconds a step of the AEC side, and of the agents alone, timed again on the masks the AEC side met:
    ours (``sample_action``), the textbook one (``np.flatnonzero`` + ``Generator.choice``) and, with ``rlcard``,
    RLCard's ``RandomAgent.step`` on the states of RLCard games."""
    side = AEC(seed)
    masks: list[np.ndarray[Any, Any]] = []
    steps = 0
    started = time.perf_counter()
    for _ in range(games):
        steps += side.chunk(masks if len(masks) < 2000 else None)
    whole = (time.perf_counter() - started) / steps
    out = {"aec_step": round(1e6 * whole, 3)}
    for name, agent in (("aec_agent", our_agent(side.rng)), ("textbook_agent", textbook_agent(side.rng))):
        started = time.perf_counter()
        for mask in masks:
            agent(mask)
        out[name] = round(1e6 * (time.perf_counter() - started) / len(masks), 3)
    if rlcard:
        rlcard_env = RLCardEnv(seed)
        states = []
        while len(states) < 2000:
            try:
                trajectories, _ = rlcard_env.env.run(is_training=False)
            except IndexError:
                continue
            states += [item for trajectory in trajectories for item in trajectory[:-1:2]]
        rlcard_agent = rlcard_env.env.agents[0]
        started = time.perf_counter()
        for state in states:
            rlcard_agent.step(state)
        out["rlcard_agent"] = round(1e6 * (time.perf_counter() - started) / len(states), 3)
    return out


def run_slice(side: Side, seconds: float) -> float:
    steps = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        steps += side.chunk()
    return steps / elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer, shorter slices")
    p.add_argument("--slice", type=float, default=1.0, help="seconds per slice")
    p.add_argument("--repetitions", type=int, default=8)
    p.add_argument("--batches", default="16,256,4096", help="games in the vector env, comma-separated")
    p.add_argument("--breakdown", action="store_true", help="also time each part of a vector env step")
    add_result_options(p, "rl-speed")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--no-rlcard", action="store_true", help="ours only; install nothing")
    args = p.parse_args()
    if args.quick:
        args.slice, args.repetitions = 0.4, 4
    batches = [int(size) for size in args.batches.split(",")]
    sides = [*BASE_SIDES, *(f"vector_{size}" for size in batches), "vector_bots"]
    error = None
    if args.no_rlcard:
        sides = [name for name in sides if not name.startswith("rlcard")]
        error = "--no-rlcard"
    else:
        try:
            ensure_rlcard(not args.json)
        except (subprocess.CalledProcessError, OSError) as failure:
            error = f"rlcard could not be installed: {failure}"
            sides = [name for name in sides if not name.startswith("rlcard")]
    load = f"{os.getloadavg()[0]:.1f}"
    measured_on = machine()
    made = {name: make_side(name, 1) for name in sides}
    for side in made.values():
        run_slice(side, min(0.3, args.slice))  # warm-up
    figures: dict[str, list[float]] = {name: [] for name in sides}
    started = time.perf_counter()
    for repetition in range(args.repetitions):
        order = sides if repetition % 2 == 0 else sides[::-1]
        for name in order:
            figures[name].append(run_slice(made[name], args.slice))
    medians = {name: statistics.median(values) for name, values in figures.items()}
    base = medians.get("rlcard_env")
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "load": load,
        "build": _build.BUILD,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "rlcard": RLCARD_VERSION if base is not None else None,
        "rlcard_error": error,
        "vector_batches": batches,
        "slice_seconds": args.slice,
        "repetitions": args.repetitions,
        "seconds": round(time.perf_counter() - started, 1),
        "steps_per_s": {name: round(value, 1) for name, value in medians.items()},
        "vs_rlcard_env": {name: round(value / base, 2) for name, value in medians.items()} if base else None,
        "targets": {
            name: {"target": target, "ratio": round(medians[name] / base, 2), "met": medians[name] / base >= target}
            for name, target in TARGETS.items()
            if name in medians
        }
        if base
        else None,
        "breakdown_us_per_game_step": breakdown(
            steps=30 if args.quick or args.slice < 0.2 else 300, rlcard=base is not None
        )
        if args.breakdown
        else None,
    }
    if args.save or args.write is not None:
        publish("rl_env", sys.argv[1:], report, measured_on, args.write)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"Classic, 2 seats, random masked agents; {_build.BUILD} build, Python {report['python']}, "
        f"NumPy {report['numpy']}, RLCard {report['rlcard'] or 'n/a'}; {args.repetitions} alternating slices "
        f"of {args.slice} s per side"
    )
    print(f"{'side':<15}{'steps/s':>12}{'× RLCard env':>14}")
    for name in sides:
        ratio = f"{medians[name] / base:.2f}" if base else "n/a"
        print(f"{name:<15}{medians[name]:>12,.0f}{ratio:>14}")
    if base:
        for name, target in TARGETS.items():
            if name not in medians:
                continue
            ratio = medians[name] / base
            verdict = "met" if ratio >= target else f"MISSED by {target / ratio:.1f}×"
            print(f"target {name} ≥ {target:g}× RLCard env: {ratio:.2f}× — {verdict}")
    elif error:
        print(f"RLCard not measured: {error}")
    if report["breakdown_us_per_game_step"]:
        print("vector_256, µs a game-step by part (and the AEC side's step and agent):")
        for name, value in report["breakdown_us_per_game_step"].items():
            print(f"  {name:<20}{value:>8.3f}")


if __name__ == "__main__":
    main()
