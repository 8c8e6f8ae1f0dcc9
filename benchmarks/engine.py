"""Random-play speed of unoengine, side by side with RLCard 1.2.0's bare UNO engine, in one process.

What it measures
    Games of one round (a game ends when a seat empties its hand), every seat
    playing as RLCard's random agent does: uniformly among its playable cards,
    drawing only when it has none.  For each side: steps/s (actions applied per
    second of wall time), games/s and steps per game, and the ratios ours/RLCard.

    Cases: Classic 2 and 4 seats (with RLCard), Duo 2 and Flex 4 seats (ours only).

    * RLCard, looped as its own env loops it (``rlcard/envs/env.py``): one
      ``UnoGame(allow_step_back=False, num_players=N)`` for the whole run, seeded
      once as ``Env.seed`` does (``game.np_random = seeding.np_random(seed)[0]``),
      then per game ``init_game()`` (as ``Env.reset``) and
      ``step(choice(get_legal_actions()))`` until ``is_over()``.  The choice is
      Python's ``random.Random.choice`` (cheaper than the random agent's
      ``np.random.choice``, so RLCard is not slowed by its agent).  RLCard's
      ``step`` also builds the next player's state dict: that is its engine's cost.
    * RLCard reseeded per game (``rlcard_reseed``): the same loop with the game
      reseeded before each one as ``Env.seed(k)`` does
      (``game.np_random = seeding.np_random(k)[0]``, ``k`` going up by one a
      game), the way a user makes each game a function of its seed, as each of
      ours is (G-1: every ``new_game`` seeds its own shuffle).  The targets are
      reported against both anchors; the seeded-once loop is the stricter one.
    * ours, through the public API:
      ``apply``       ``legal_actions`` + ``apply`` (validating) with the random bot
                      (``unoengine.bots.random_bot.RandomBot``) choosing;
      ``unchecked``   the same with ``apply_unchecked``;
      ``simulate``    ``unoengine.play.simulate.simulate(..., bot="random")``, what
                      ``uno simulate --json`` runs, in batches of a few games;
      ``table``       ``unoengine.play.table.Table.new(...)`` with a random bot in
                      every seat and ``table.run_bots()``, which builds every step
                      and its events (``n/a`` with the reason while the Table
                      cannot be imported);
      ``play_out``    the same table and bots, ``table.play_out()``: the batch
                      path, no steps and no events (what ``simulate`` runs on).
      Every game is a new ``new_game(rules, seats, seed=k, options=single_round)``.

    RLCard's rules differ a little from ours (a drawn playable card is played
    automatically; our draw and the decision on the drawn card are two actions,
    C-8): compare games/s with that in mind.

How it runs
    Everything runs in this interpreter: RLCard and numpy are installed into
    ``benchmarks/.rlcard`` (``pip install --target``, first run only, not a
    project dependency) and put on ``sys.path``.  After a warm-up, every side
    of every case runs for short timed slices (``--slice``, default 0.5 s of
    this process's CPU time, whole games only: on a shared machine the wall
    clock counts the time other work holds the cores), all sides of a case one after the other, the order
    flipping every repetition, so that machine noise hits every side alike.
    The figures are the medians over the repetitions.

    Micro figures (sampled states of random games of each case): µs per
    ``legal_actions``, ``apply``, ``apply_unchecked``, ``view_for``,
    ``legal_mask`` and ``determinize`` (when ``unoengine.core.determinize`` or
    ``unoengine.determinize`` exists), and bytes per live state: ``tracemalloc``
    counts what a list of ``--live-states`` states (every 5th state of random
    games, kept alive together) holds, divided by their number; memory shared
    between the kept states is counted once, and the shared static tables (rule
    sets, deck tables, interned cards and actions, built before tracing starts)
    not at all.

    ``sample`` is ``Determinizer(view).sample(rng)``: what a search bot calls
    each iteration once the view is placed (``determinize`` places it anew).

    The batch path against the loop (``simulate``, ``play_out``, and ``table``
    for comparison): each side's steps/s over the ``apply_unchecked`` loop's in
    the same repetition (the two slices ran one after the other), the median over
    the repetitions.

Usage
    python benchmarks/engine.py              # about 3 minutes
    python benchmarks/engine.py --quick      # about 20 s
    python benchmarks/engine.py --json       # one JSON object on stdout
    python benchmarks/engine.py --no-rlcard  # ours only (no install)
    python benchmarks/engine.py --pure       # the pure-Python build (the default is the build that runs)

Targets: ours ≥ 5× RLCard's steps/s and ≥ 4× its games/s (Classic 2 and 4,
through ``legal_actions`` + ``apply``); Duo 2 and Flex 4 at most 1.5× Classic's
µs per step (against Classic 2 and Classic 4); ``uno simulate`` and the Table
within 15 % of the ``apply_unchecked`` loop; ``determinize`` ≤ 10 µs.  The
report says plainly which are met and which are missed, by how much.
"""

from __future__ import annotations

import argparse
import copy
import gc
import importlib
import inspect
import json
import os
import pickle
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))

from unoengine import (  # noqa: E402
    GameState,
    apply,
    apply_unchecked,
    legal_actions,
    new_game,
    view_for,
)
from unoengine.bots.random_bot import RandomBot  # noqa: E402
from unoengine.core.action_ids import legal_mask  # noqa: E402
from unoengine.core.rules import find_rules  # noqa: E402

RLCARD_VERSION = "1.2.0"
NUMPY_PIN = "numpy==1.26.4"
RLCARD_DIR = HERE / ".rlcard"
MAX_STEPS_PER_GAME = 100_000  # a safety net; random games end far sooner
TARGET_STEPS = 5.0
TARGET_GAMES = 4.0
SIMULATE_TOLERANCE = 0.15
STEP_COST_TOLERANCE = 1.5
"""Duo 2 and Flex 4 cost at most 1.5x Classic's µs per step (Duo 2 against Classic 2, Flex 4 against Classic 4)."""
DETERMINIZE_TARGET_US = 10.0

CASES: list[tuple[str, int]] = [("classic", 2), ("classic", 4), ("duo", 2), ("flex", 4)]
ANCHOR_RATIOS = (
    ("rlcard", "ratios", "RLCard seeded once"),
    ("rlcard_reseed", "ratios_reseeded", "RLCard reseeded per game"),
)
"""Each anchor, the key of ours' ratios to it in a case, and its name in the verdicts: RLCard seeded once for the run
(its env's loop) and reseeded per game (``Env.seed(k)`` before each)."""
ANCHORS = [anchor for anchor, _, _ in ANCHOR_RATIOS]
OURS = ["apply", "unchecked", "simulate", "table", "play_out"]
SIDE_TITLES = {
    "rlcard": "RLCard UnoGame (env loop)",
    "rlcard_reseed": "RLCard, Env.seed(k) per game",
    "apply": "ours legal_actions + apply",
    "unchecked": "ours legal_actions + apply_unchecked",
    "simulate": "ours sim.simulate (uno simulate)",
    "table": "ours Table.run_bots",
    "play_out": "ours Table.play_out",
}


class Unavailable(Exception):
    """A side that cannot run here; the message says why."""


# -- sides -----------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    steps: int = 0
    aborted: int = 0


class Side:
    """One way of playing one case; :meth:`chunk` plays one game (or a small batch)."""

    def chunk(self, tally: Tally) -> None:
        raise NotImplementedError


class RLCardSide(Side):
    def __init__(self, seats: int, seed: int, reseed: bool = False) -> None:
        try:
            game_mod = importlib.import_module("rlcard.games.uno.game")
            seeding = importlib.import_module("rlcard.utils.seeding")
        except ImportError as error:
            raise Unavailable(f"rlcard not importable: {error}") from error
        self.game = game_mod.UnoGame(allow_step_back=False, num_players=seats)
        # Env.seed(): one generator for the whole run, handed to the game.
        self.game.np_random = seeding.np_random(seed)[0]
        self.choice = random.Random(seed).choice
        self.np_random = seeding.np_random
        self.reseed = reseed
        self.seed = seed

    def chunk(self, tally: Tally) -> None:
        game, choice = self.game, self.choice
        if self.reseed:  # Env.seed(k): a new generator for this game
            self.seed += 1
            game.np_random = self.np_random(self.seed)[0]
        game.init_game()  # Env.reset()
        steps = 0
        try:
            while not game.is_over():
                game.step(choice(game.get_legal_actions()))
                steps += 1
                if steps >= MAX_STEPS_PER_GAME:
                    raise IndexError
        except IndexError:  # RLCard pops from an empty deck now and then: leave the game out
            tally.aborted += 1
            return
        tally.games += 1
        tally.steps += steps


class LoopSide(Side):
    """``legal_actions`` + ``apply`` (or ``apply_unchecked``), the random bot choosing."""

    def __init__(self, rules: str, seats: int, seed: int, checked: bool) -> None:
        ruleset = find_rules(rules)
        self.ruleset = ruleset
        self.seats = seats
        self.options = ruleset.options({"single_round": True})
        self.seed = seed
        self.bot = RandomBot(random.Random(seed))
        self.checked = checked

    def chunk(self, tally: Tally) -> None:
        self.seed += 1
        state = new_game(self.ruleset, self.seats, seed=self.seed, options=self.options)
        choose = self.bot.choose
        steps = 0
        if self.checked:
            while state.outcome is None:
                seat: int = state.pending.seat  # type: ignore[assignment]
                state = apply(state, seat, choose(None, legal_actions(state, seat))).state
                steps += 1
        else:
            while state.outcome is None:
                seat = state.pending.seat  # type: ignore[assignment]
                state = apply_unchecked(state, seat, choose(None, legal_actions(state, seat)))
                steps += 1
        tally.games += 1
        tally.steps += steps


class SimulateSide(Side):
    """``unoengine.play.simulate.simulate`` in batches of ``batch`` games."""

    def __init__(self, rules: str, seats: int, seed: int) -> None:
        try:
            self.simulate = importlib.import_module("unoengine.play.simulate").simulate
        except ImportError as error:
            raise Unavailable(f"unoengine.play.simulate not importable: {error}") from error
        self.rules, self.seats, self.seed = rules, seats, seed
        self.batch = 4

    def chunk(self, tally: Tally) -> None:
        result = self.simulate(self.rules, self.seats, self.batch, "random", self.seed)
        self.seed += self.batch
        tally.games += int(result.games)
        tally.steps += int(result.steps)


class TableSide(Side):
    """``Table.new`` with a random bot in every seat, then ``run_bots()``."""

    def __init__(self, rules: str, seats: int, seed: int) -> None:
        try:
            self.table_cls = importlib.import_module("unoengine.play.table").Table
        except ImportError as error:
            raise Unavailable(f"unoengine.play.table not importable yet: {error}") from error
        self.rules, self.seats, self.seed = rules, seats, seed
        self.rng = random.Random(seed)
        self.chunk(Tally())  # fail now, not in the middle of the run

    def chunk(self, tally: Tally) -> None:
        self.seed += 1
        bots = [RandomBot(self.rng) for _ in range(self.seats)]
        table = self.table_cls.new(
            self.rules, self.seats, seed=self.seed, options={"single_round": True}, controllers=bots
        )
        steps = len(table.run_bots())
        if not table.is_over:
            raise Unavailable("Table.run_bots() stopped before the game's end")
        tally.games += 1
        tally.steps += steps


class PlayOutSide(TableSide):
    """``Table.new`` with a random bot in every seat, then ``play_out()`` (the batch path: no steps, no events)."""

    def chunk(self, tally: Tally) -> None:
        self.seed += 1
        bots = [RandomBot(self.rng) for _ in range(self.seats)]
        table = self.table_cls.new(
            self.rules, self.seats, seed=self.seed, options={"single_round": True}, controllers=bots
        )
        steps = int(table.play_out())
        if not table.is_over:
            raise Unavailable("Table.play_out() stopped before the game's end")
        tally.games += 1
        tally.steps += steps


def make_side(name: str, rules: str, seats: int, seed: int) -> Side:
    if name in ANCHORS:
        return RLCardSide(seats, seed, reseed=name == "rlcard_reseed")
    if name in ("apply", "unchecked"):
        return LoopSide(rules, seats, seed, checked=name == "apply")
    if name == "simulate":
        return SimulateSide(rules, seats, seed)
    if name == "table":
        return TableSide(rules, seats, seed)
    if name == "play_out":
        return PlayOutSide(rules, seats, seed)
    raise ValueError(name)


CLOCK = time.process_time
"""Slices are timed in this process's CPU time: on a shared machine the wall clock
counts the time other work held the cores (the figures are per CPU second)."""


def run_slice(side: Side, seconds: float) -> tuple[Tally, float]:
    """Whole games (or batches) until ``seconds`` of CPU time have passed; the time includes the last one."""
    tally = Tally()
    clock = CLOCK
    start = clock()
    deadline = start + seconds
    while True:
        side.chunk(tally)
        now = clock()
        if now >= deadline:
            return tally, now - start


@dataclass
class Series:
    """The slices of one side of one case."""

    slices: list[tuple[Tally, float]] = field(default_factory=list)
    error: str | None = None

    def summary(self) -> dict[str, Any] | None:
        if self.error is not None or not self.slices:
            return None
        games = sum(t.games for t, _ in self.slices)
        steps = sum(t.steps for t, _ in self.slices)
        steps_per_s = [t.steps / s for t, s in self.slices]
        games_per_s = [t.games / s for t, s in self.slices]
        return {
            "steps_per_s": statistics.median(steps_per_s),
            "games_per_s": statistics.median(games_per_s),
            "steps_per_s_min": min(steps_per_s),
            "steps_per_s_max": max(steps_per_s),
            "steps_per_game": steps / games if games else None,
            "games": games,
            "steps": steps,
            "aborted": sum(t.aborted for t, _ in self.slices),
            "slices": len(self.slices),
            "seconds": sum(s for _, s in self.slices),
        }


def paired_ratio(side: Series, loop: Series) -> float:
    """``side``'s steps/s over ``loop``'s, slice by slice (the two slices of one repetition ran one after the
    other, so the machine's load was about the same for both), median over the repetitions."""
    if len(side.slices) != len(loop.slices):  # a side stopped early: the ratio of the medians
        mine, theirs = side.summary(), loop.summary()
        assert mine is not None and theirs is not None
        return float(mine["steps_per_s"] / theirs["steps_per_s"])
    return statistics.median(
        (tally.steps / seconds) / (loop_tally.steps / loop_seconds)
        for (tally, seconds), (loop_tally, loop_seconds) in zip(side.slices, loop.slices, strict=True)
    )


# -- RLCard installation ---------------------------------------------------------------


def rlcard_ready() -> bool:
    if str(RLCARD_DIR) not in sys.path:
        sys.path.insert(0, str(RLCARD_DIR))
    try:
        importlib.import_module("rlcard.games.uno.game")
    except ImportError:
        return False
    from importlib.metadata import PathDistribution

    dists = list(RLCARD_DIR.glob("rlcard-*.dist-info"))
    return bool(dists) and PathDistribution(dists[0]).version == RLCARD_VERSION


def ensure_rlcard(log: bool) -> None:
    """Install rlcard (and a pinned numpy) into ``benchmarks/.rlcard`` for this interpreter, once."""
    stamp = RLCARD_DIR / ".python"
    here = f"{platform.python_implementation()} {platform.python_version()} {sys.executable}"
    if stamp.exists() and stamp.read_text() == here and rlcard_ready():
        return
    if log:
        print(f"installing rlcard=={RLCARD_VERSION} and {NUMPY_PIN} into {RLCARD_DIR} ...", file=sys.stderr)
    if RLCARD_DIR.exists():
        shutil.rmtree(RLCARD_DIR)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
            str(RLCARD_DIR),
            f"rlcard=={RLCARD_VERSION}",
            NUMPY_PIN,
        ],
        check=True,
        stdout=sys.stderr,
    )
    stamp.write_text(here)
    importlib.invalidate_caches()
    if not rlcard_ready():
        raise SystemExit(f"rlcard {RLCARD_VERSION} still not importable from {RLCARD_DIR}")


def versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"rlcard": None, "numpy": None}
    for name in out:
        module = sys.modules.get(name)
        out[name] = getattr(module, "__version__", None) if module else None
    if out["rlcard"] is None and list(RLCARD_DIR.glob("rlcard-*.dist-info")):
        out["rlcard"] = RLCARD_VERSION
    return out


# -- micro figures ---------------------------------------------------------------------


def sample_states(rules: str, seats: int, count: int, seed: int, every: int = 1) -> list[GameState]:
    """``count`` states of random-bot games (every ``every``-th one), the seat to act about to decide."""
    ruleset = find_rules(rules)
    options = ruleset.options({"single_round": True})
    bot = RandomBot(random.Random(seed))
    out: list[GameState] = []
    game = seed
    while len(out) < count:
        game += 1
        state = new_game(ruleset, seats, seed=game, options=options)
        step = 0
        while state.outcome is None and len(out) < count:
            seat: int = state.pending.seat  # type: ignore[assignment]
            if step % every == 0:
                out.append(state)
            state = apply_unchecked(state, seat, bot.choose(None, legal_actions(state, seat)))
            step += 1
    return out


def per_call_us(call: Callable[[], int], min_seconds: float, runs: int) -> float:
    """µs per operation: ``call()`` does some operations and returns how many; median of ``runs``."""
    results = []
    for _ in range(runs):
        done = 0
        start = CLOCK()
        while True:
            done += call()
            elapsed = CLOCK() - start
            if elapsed >= min_seconds:
                break
        results.append(elapsed / done * 1e6)
    return statistics.median(results)


def find_determinize() -> tuple[Callable[..., Any] | None, str]:
    for name in ("unoengine.core.determinize", "unoengine.determinize"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        function = getattr(module, "determinize", None)
        if callable(function):
            return function, f"{name}.determinize"
        return None, f"{name} has no determinize()"
    return None, "no unoengine.core.determinize or unoengine.determinize module yet"


def determinize_call(function: Callable[..., Any], state: GameState, seat: int) -> Callable[[], Any] | None:
    """A call of ``determinize`` on a sample state, guessing the argument order from its signature."""
    rng = random.Random(0)
    view = view_for(state, seat)
    try:
        names = list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        names = []
    tries: list[Callable[[], Any]] = []
    if names and names[0] in ("view", "player_view"):
        tries.append(lambda: function(view, rng))
    tries += [
        lambda: function(state, seat, rng),
        lambda: function(state, seat, rng=rng),
        lambda: function(view, rng),
        lambda: function(state, seat),
    ]
    for attempt in tries:
        try:
            attempt()
        except TypeError:
            continue
        return attempt
    return None


def live_state_bytes(rules: str, seats: int, count: int, seed: int) -> float:
    """tracemalloc: bytes a list of ``count`` live states holds, per state (see the module's docstring)."""
    sample_states(rules, seats, 200, seed + 99)  # build every shared table and interned action first
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = sample_states(rules, seats, count, seed, every=5)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(kept) == count
    return (after - before) / count


def micro(rules: str, seats: int, states: int, live: int, min_seconds: float, runs: int) -> dict[str, Any]:
    sample = sample_states(rules, seats, states, seed=7)
    pairs = [(state, state.pending.seat) for state in sample]
    bot = RandomBot(random.Random(3))
    moves = [(state, seat, bot.choose(None, legal_actions(state, seat))) for state, seat in pairs]
    n = len(pairs)

    def loop_legal() -> int:
        for state, seat in pairs:
            legal_actions(state, seat)
        return n

    def loop_apply() -> int:
        for state, seat, action in moves:
            apply(state, seat, action)
        return n

    def loop_unchecked() -> int:
        for state, seat, action in moves:
            apply_unchecked(state, seat, action)
        return n

    def loop_view() -> int:
        for state, seat in pairs:
            view_for(state, seat)
        return n

    def loop_mask() -> int:
        for state, seat in pairs:
            legal_mask(state, seat)
        return n

    def loop_pickle() -> int:
        for state, _seat in pairs:
            pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        return n

    def loop_copy() -> int:
        for state, _seat in pairs:
            copy.deepcopy(state)
        return n

    out: dict[str, Any] = {
        "states": n,
        "legal_actions_us": per_call_us(loop_legal, min_seconds, runs),
        "apply_us": per_call_us(loop_apply, min_seconds, runs),
        "apply_unchecked_us": per_call_us(loop_unchecked, min_seconds, runs),
        "view_for_us": per_call_us(loop_view, min_seconds, runs),
        "legal_mask_us": per_call_us(loop_mask, min_seconds, runs),
        "pickle_round_trip_us": per_call_us(loop_pickle, min_seconds, runs),
        "deepcopy_us": per_call_us(loop_copy, min_seconds, runs),
        "determinize_us": None,
        "determinize_sample_us": None,
    }
    function, where = find_determinize()
    out["determinize"] = where
    if function is not None:
        calls = [determinize_call(function, state, seat) for state, seat in pairs[:200]]
        if any(call is None for call in calls):
            out["determinize"] = f"{where}: no known call form works (state, seat, rng) / (view, rng)"
        else:
            ready = [call for call in calls if call is not None]

            def loop_determinize() -> int:
                for call in ready:
                    call()
                return len(ready)

            try:
                out["determinize_us"] = per_call_us(loop_determinize, min_seconds, runs)
            except Exception as error:  # report, do not crash the benchmark
                out["determinize"] = f"{where} failed: {type(error).__name__}: {error}"
    sampler = getattr(importlib.import_module("unoengine.core.determinize"), "Determinizer", None)
    if sampler is not None:
        rng = random.Random(0)
        samplers = [sampler(view_for(state, seat)) for state, seat in pairs[:200] if seat is not None]

        def loop_sample() -> int:
            for one in samplers:
                one.sample(rng)
            return len(samplers)

        out["determinize_sample_us"] = per_call_us(loop_sample, min_seconds, runs)
    out["bytes_per_live_state"] = live_state_bytes(rules, seats, live, seed=11)
    out["live_states"] = live
    return out


# -- the run -----------------------------------------------------------------------------


def build_info() -> str:
    """Which build of the core ran, and why (``uno --version`` says the same)."""
    importlib.import_module("unoengine.core.engine")
    from unoengine import _build

    return _build.describe()


def machine() -> str:
    return f"{platform.platform()} {platform.machine()}, {os.cpu_count()} CPUs"


def bench(args: argparse.Namespace) -> dict[str, Any]:
    log = not args.json
    rlcard_error: str | None = None
    if args.no_rlcard:
        rlcard_error = "--no-rlcard"
    else:
        try:
            ensure_rlcard(log)
        except (SystemExit, subprocess.CalledProcessError, OSError) as error:
            rlcard_error = f"rlcard could not be installed: {error}"
    sides: dict[tuple[str, int], dict[str, Side]] = {}
    series: dict[tuple[str, int], dict[str, Series]] = {}
    for rules, seats in args.cases:
        names = (ANCHORS if rules == "classic" else []) + OURS
        sides[(rules, seats)] = {}
        series[(rules, seats)] = {}
        for name in names:
            series[(rules, seats)][name] = Series()
            if name in ANCHORS and rlcard_error is not None:
                series[(rules, seats)][name].error = rlcard_error
                continue
            try:
                sides[(rules, seats)][name] = make_side(name, rules, seats, args.seed + seats)
            except Unavailable as error:
                series[(rules, seats)][name].error = str(error)
            except Exception as error:
                series[(rules, seats)][name].error = f"{type(error).__name__}: {error}"

    def play(case: tuple[str, int], name: str, seconds: float, keep: bool) -> None:
        side = sides[case].get(name)
        if side is None:
            return
        try:
            result = run_slice(side, seconds)
        except Exception as error:  # a side that breaks mid-run is reported, not fatal
            series[case][name].error = f"{type(error).__name__}: {error}"
            del sides[case][name]
            return
        if keep:
            series[case][name].slices.append(result)

    started = time.perf_counter()
    for case, by_name in sides.items():  # warm-up
        for name in list(by_name):
            play(case, name, min(0.2, args.slice), keep=False)
    for rep in range(args.reps):
        if log:
            print(f"repetition {rep + 1}/{args.reps} ...", file=sys.stderr, flush=True)
        for case, by_name in sides.items():
            order = list(by_name)
            if rep % 2:
                order.reverse()
            for name in order:
                play(case, name, args.slice, keep=True)
    slices_seconds = time.perf_counter() - started

    micro_figures: dict[str, Any] = {}
    for rules, seats in args.cases:
        if log:
            print(f"micro figures {rules} {seats} ...", file=sys.stderr, flush=True)
        micro_figures[f"{rules} {seats}"] = micro(
            rules, seats, args.micro_states, args.live_states, args.micro_seconds, args.micro_runs
        )

    cases = []
    for (rules, seats), by_side in series.items():
        figures = {name: s.summary() for name, s in by_side.items()}
        errors = {name: s.error for name, s in by_side.items() if s.error is not None}
        case: dict[str, Any] = {"case": f"{rules} {seats}", "rules": rules, "seats": seats, "sides": figures}
        case["errors"] = errors
        for anchor, key, _ in ANCHOR_RATIOS:
            rl = figures.get(anchor)
            case[key] = {}
            if rl is not None:
                for name in OURS:
                    us = figures.get(name)
                    if us is not None:
                        case[key][name] = {
                            "steps_per_s": us["steps_per_s"] / rl["steps_per_s"],
                            "games_per_s": us["games_per_s"] / rl["games_per_s"],
                        }
        for side in ("simulate", "table", "play_out"):
            case[f"{side}_vs_loop"] = {
                name: paired_ratio(by_side[side], by_side[name])
                for name in ("apply", "unchecked")
                if figures.get(side) is not None and figures.get(name) is not None
            }
        case["micro"] = micro_figures[f"{rules} {seats}"]
        cases.append(case)
    return {
        "benchmark": "unoengine vs RLCard 1.2.0, random play, one round",
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
        "executable": sys.executable,
        "machine": machine(),
        "build": build_info(),
        **{f"{name}_version": value for name, value in versions().items()},
        "slice_seconds": args.slice,
        "repetitions": args.reps,
        "seconds": round(slices_seconds, 1),
        "seed": args.seed,
        "targets": {"steps_per_s": TARGET_STEPS, "games_per_s": TARGET_GAMES, "simulate": SIMULATE_TOLERANCE},
        "cases": cases,
    }


# -- printing ----------------------------------------------------------------------------


def fmt(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def verdict(ratio: float, target: float) -> str:
    if ratio >= target:
        return f"met ({ratio:.2f}x >= {target:g}x)"
    return f"MISSED ({ratio:.2f}x of {target:g}x: {target / ratio:.2f}x short)"


def table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def report_lines(report: dict[str, Any]) -> list[str]:
    out = [
        f"unoengine {report['build']}, Python {report['python']} ({report['executable']})",
        f"rlcard {report['rlcard_version'] or 'n/a'}, numpy {report['numpy_version'] or 'n/a'}",
        f"machine: {report['machine']}; {report['date']}",
        f"{report['repetitions']} alternating slices of {report['slice_seconds']} s per side and case "
        f"({report['seconds']} s), medians; per second of this process's CPU time; x = ours / RLCard seeded once "
        "(its env's loop), x' = ours / RLCard reseeded per game (Env.seed(k) before each)",
        "",
    ]
    rows = [["case", "side", "steps/s", "games/s", "steps/game", "x steps/s", "x games/s", "x' steps/s", "x' games/s"]]
    notes = []
    for case in report["cases"]:
        for name, figures in case["sides"].items():
            if figures is None:
                notes.append(f"{case['case']} {SIDE_TITLES[name]}: n/a ({case['errors'].get(name)})")
                rows.append([case["case"], SIDE_TITLES[name], "n/a", "n/a", "n/a", "", "", "", ""])
                continue
            row = [
                case["case"],
                SIDE_TITLES[name],
                fmt(figures["steps_per_s"]),
                fmt(figures["games_per_s"]),
                fmt(figures["steps_per_game"], 1),
            ]
            for _, key, _ in ANCHOR_RATIOS:
                ratio = case.get(key, {}).get(name)
                row += [fmt(ratio["steps_per_s"], 2), fmt(ratio["games_per_s"], 2)] if ratio else ["", ""]
            rows.append(row)
            if name in ANCHORS and figures["aborted"]:
                notes.append(f"{case['case']}: {figures['aborted']} RLCard game(s) crashed in RLCard, left out")
    out += table(rows)
    out += ["", "micro figures (µs per call, sampled states of random games; bytes per live state, tracemalloc):"]
    rows = [
        [
            "case",
            "legal_actions",
            "apply",
            "apply_unchecked",
            "view_for",
            "legal_mask",
            "determinize",
            "sample",
            "pickle rt",
            "deepcopy",
            "B/state",
        ]
    ]
    determinize_notes = set()
    for case in report["cases"]:
        m = case["micro"]
        rows.append(
            [
                case["case"],
                fmt(m["legal_actions_us"], 2),
                fmt(m["apply_us"], 2),
                fmt(m["apply_unchecked_us"], 2),
                fmt(m["view_for_us"], 2),
                fmt(m["legal_mask_us"], 2),
                fmt(m["determinize_us"], 2),
                fmt(m.get("determinize_sample_us"), 2),
                fmt(m["pickle_round_trip_us"], 2),
                fmt(m["deepcopy_us"], 2),
                fmt(m["bytes_per_live_state"]),
            ]
        )
        determinize_notes.add(m["determinize"])
    out += table(rows)
    out.append("determinize: " + "; ".join(sorted(determinize_notes)))
    out.append("sample: Determinizer(view).sample(rng), what a search bot calls per iteration (the view placed once)")
    out += ["", "targets (ours through legal_actions + apply; the other loops for comparison):"]
    for _, key, against in ANCHOR_RATIOS:
        for case in report["cases"]:
            for name in ("apply", "unchecked", "table", "play_out"):
                ratio = case.get(key, {}).get(name)
                if ratio and name == "apply":
                    out.append(
                        f"  {case['case']} {SIDE_TITLES[name]} vs {against}: "
                        f"steps/s {verdict(ratio['steps_per_s'], TARGET_STEPS)}; "
                        f"games/s {verdict(ratio['games_per_s'], TARGET_GAMES)}"
                    )
                elif ratio:  # the other loops: figures beside the target, not verdicts
                    out.append(
                        f"  {case['case']} {SIDE_TITLES[name]} vs {against}: "
                        f"{ratio['steps_per_s']:.2f}x steps/s, {ratio['games_per_s']:.2f}x games/s (for comparison)"
                    )
    for case in report["cases"]:
        for name, loops in (
            ("simulate", case["simulate_vs_loop"]),
            ("Table.play_out", case.get("play_out_vs_loop", {})),
            ("Table.run_bots", case.get("table_vs_loop", {})),
        ):
            if "unchecked" in loops:
                ratio = loops["unchecked"]
                ok = ratio >= 1 - SIMULATE_TOLERANCE
                verdict_text = ("met" if ok else "MISSED") + f" (within {SIMULATE_TOLERANCE:.0%})"
                if name == "Table.run_bots":  # builds every step and its events for the seats: not the batch path
                    verdict_text = "not a target (every step and its events built)"
                out.append(
                    f"  {case['case']} {name} steps/s = {ratio:.2f}x the apply_unchecked loop: "
                    + verdict_text
                    + f"; {fmt(loops.get('apply'), 2)}x the validating apply loop"
                )
    by_case = {case["case"]: case for case in report["cases"]}
    for other, classic in (("duo 2", "classic 2"), ("flex 4", "classic 4")):
        if other in by_case and classic in by_case:
            mine, base = by_case[other]["sides"].get("apply"), by_case[classic]["sides"].get("apply")
            if mine and base:
                cost = base["steps_per_s"] / mine["steps_per_s"]
                out.append(
                    f"  {other} µs per step (legal_actions + apply) = {cost:.2f}x {classic}'s: "
                    + ("met" if cost <= STEP_COST_TOLERANCE else "MISSED")
                    + f" (at most {STEP_COST_TOLERANCE}x)"
                )
    for case in report["cases"]:
        us = case["micro"]["determinize_us"]
        if us is not None:
            out.append(
                f"  {case['case']} determinize {us:.1f} µs: "
                + ("met" if us <= DETERMINIZE_TARGET_US else "MISSED")
                + f" (at most {DETERMINIZE_TARGET_US:.0f} µs; Determinizer.sample "
                + f"{fmt(case['micro'].get('determinize_sample_us'), 1)} µs)"
            )
    if not any(case["ratios"] for case in report["cases"]):
        out.append("  RLCard not measured: no ratios")
    if notes:
        out += ["", *notes]
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Random-play speed: unoengine vs RLCard 1.2.0 UNO, in one process.")
    p.add_argument("--slice", type=float, default=0.5, help="seconds per timed slice (default 0.5)")
    p.add_argument("--reps", type=int, default=12, help="slices per side and case (default 12)")
    p.add_argument("--quick", action="store_true", help="about 20 s: 3 slices of 0.25 s, fewer sampled states")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--save", action="store_true", help="write the JSON result to benchmarks/results/ (engine_pure.json: --pure)"
    )
    p.add_argument(
        "--write",
        type=Path,
        metavar="FILE",
        help="write the JSON result, then rewrite the engine-speed, engine-calls and engine-targets blocks"
        " (--pure: engine-pure-speed) of FILE from it",
    )
    p.add_argument("--no-rlcard", action="store_true", help="ours only; install nothing")
    p.add_argument("--pure", action="store_true", help="measure the pure-Python build (UNOENGINE_PURE=1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--micro-states", type=int, default=4000, help="sampled states for the micro figures")
    p.add_argument("--live-states", type=int, default=10_000, help="states kept for the bytes per state")
    p.add_argument("--micro-seconds", type=float, default=0.15, help="minimum time of one micro run")
    p.add_argument("--micro-runs", type=int, default=3, help="micro runs, median reported")
    p.add_argument(
        "--case",
        action="append",
        metavar="RULES:SEATS",
        help="a case to run (repeatable; default classic:2 classic:4 duo:2 flex:4)",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.slice, args.reps = 0.25, 3
        args.micro_states, args.live_states, args.micro_seconds, args.micro_runs = 1000, 2000, 0.05, 1
    cases = CASES
    if args.case:
        try:
            cases = [(text.split(":")[0], int(text.split(":")[1])) for text in args.case]
        except (IndexError, ValueError):
            p.error("--case takes RULES:SEATS, e.g. classic:2")
    args.cases = cases
    if args.slice <= 0 or args.reps < 1 or args.micro_states < 1 or args.live_states < 1:
        p.error("need --slice > 0, --reps >= 1 and positive state counts")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.pure and os.environ.get("UNOENGINE_PURE", "") in ("", "0"):
        # The build is chosen when unoengine is first imported: run again with the pure one.
        os.environ["UNOENGINE_PURE"] = "1"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import report as results  # benchmarks/report.py: the JSON result and the docs' block

    measured_on = results.machine()
    report = bench(args)
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(report_lines(report)))
    if args.save or args.write is not None:
        name = "engine_pure" if args.pure else "engine"
        argv = sys.argv[1:] if argv is None else argv
        path = results.publish(name, argv, report, measured_on, args.write, script="engine.py")
        print(f"result written to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
