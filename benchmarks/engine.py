"""Random-play speed of unoengine versus RLCard 1.2.0's bare UNO engine.

What it measures
    Classic UNO, one round (a game ends when a seat empties its hand), with
    2 and 4 seats, every seat playing as RLCard's random agent does: uniformly
    among its playable cards, drawing only when it has none.  For each side
    it reports steps/s (actions applied per second of wall time), games/s
    and mean steps per game, plus the ratios ours/RLCard (above 1 means our
    engine is faster).

    * RLCard side: ``rlcard.games.uno.game.UnoGame(allow_step_back=False,
      num_players=N)``; per game ``init_game()``, then
      ``game.step(random.choice(game.get_legal_actions()))`` until
      ``game.is_over()``.  (RLCard's ``step`` also builds the next player's
      state dict; that is part of its engine cost.)  Python's ``random`` and
      numpy are seeded.  RLCard's rules differ a little from ours (e.g. a
      drawn playable card is played automatically), hence the steps/game
      columns: compare games/s with that in mind.
    * Our side: ``unoengine.sim.simulate(rules="classic", seats=N, games=G,
      bot="random", seed=S)``, timed by its own ``res.seconds``.  ``G`` is
      calibrated so that one run lasts about ``--seconds``.

How it runs
    Each side runs in its own subprocess: ours under this interpreter
    (``sys.executable``, with ``src/`` put on ``PYTHONPATH``), RLCard under
    ``benchmarks/.venv-rlcard``, a virtual environment the script creates
    (``python -m venv``) and fills (``pip install rlcard==1.2.0 numpy``) when
    it is missing.  Each worker warms up briefly, then measures for a fixed
    wall time.  Runs are interleaved (RLCard and ours alternate, the order
    flipping every repetition) so that machine noise hits both sides alike,
    and the table shows the median of the repetitions.

Usage
    python benchmarks/engine.py            # ~5 s per run, 3 repetitions
    python benchmarks/engine.py --quick    # ~1 s per run
    python benchmarks/engine.py --json     # one JSON object on stdout
    python benchmarks/engine.py --seconds 10 --reps 5 --seats 2 4

``--compiled`` adds a third side: the same source compiled with mypyc (the
typed core, bots and simulation loop, into ``benchmarks/.mypyc-build``; needs a
C compiler) and checked to play exactly the same games as the interpreted one.

If ``unoengine.sim`` cannot be imported or fails, our columns read ``n/a``,
the reason is printed, and the exit status is 2; no figure is made up.
(Internal worker modes: ``--rlcard-worker`` / ``--ours-worker`` with
``--seats N --seconds S --seed K`` print one JSON line.)
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
import venv
from dataclasses import asdict, dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

RLCARD_VERSION = "1.2.0"
HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_VENV = HERE / ".venv-rlcard"
MAX_STEPS_PER_GAME = 100_000  # safety net; random games end far sooner


@dataclass(frozen=True)
class Run:
    """One measured run of one side on one case."""

    games: int
    steps: int
    seconds: float
    aborted: int = 0  # RLCard games that crashed (empty deck) or hit the cap

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


@dataclass(frozen=True)
class Summary:
    """Medians over the repetitions of one side on one case."""

    steps_per_s: float
    games_per_s: float
    steps_per_game: float
    games: int
    steps: int
    aborted: int
    runs: list[dict[str, float]]

    @classmethod
    def of(cls, runs: list[Run]) -> Summary:
        games = sum(r.games for r in runs)
        steps = sum(r.steps for r in runs)
        return cls(
            steps_per_s=statistics.median(r.steps_per_s for r in runs),
            games_per_s=statistics.median(r.games_per_s for r in runs),
            steps_per_game=steps / games if games else float("nan"),
            games=games,
            steps=steps,
            aborted=sum(r.aborted for r in runs),
            runs=[{"games": r.games, "steps": r.steps, "seconds": r.seconds} for r in runs],
        )


class WorkerError(RuntimeError):
    """A worker subprocess failed; the message says why."""


# --------------------------------------------------------------------------
# Workers (run in subprocesses; print one JSON line)
# --------------------------------------------------------------------------


def _rlcard_games(game_cls: Any, np_mod: Any, rng: random.Random, seats: int, seconds: float) -> Run:
    """Play random RLCard games for ``seconds`` of wall time."""
    choice = rng.choice
    games = steps = aborted = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = game_cls(allow_step_back=False, num_players=seats)
        game.np_random = np_mod.random.RandomState(rng.getrandbits(32))
        game.init_game()
        n = 0
        try:
            while not game.is_over() and n < MAX_STEPS_PER_GAME:
                game.step(choice(game.get_legal_actions()))
                n += 1
        except IndexError:  # RLCard popped from an empty deck
            n = MAX_STEPS_PER_GAME
        if n < MAX_STEPS_PER_GAME:
            games += 1
            steps += n
        else:  # crashed or hit the cap: leave the game out
            aborted += 1
        now = time.perf_counter()
        if now >= deadline:
            return Run(games, steps, now - start, aborted)


def rlcard_worker(seats: int, seconds: float, seed: int) -> dict[str, Any]:
    np_mod = importlib.import_module("numpy")
    game_mod = importlib.import_module("rlcard.games.uno.game")
    random.seed(seed)
    np_mod.random.seed(seed % 2**32)
    rng = random.Random(seed)
    _rlcard_games(game_mod.UnoGame, np_mod, rng, seats, min(0.5, seconds / 4))
    run = _rlcard_games(game_mod.UnoGame, np_mod, rng, seats, seconds)
    return {
        **asdict(run),
        "python": platform.python_version(),
        "rlcard": version("rlcard"),
        "numpy": version("numpy"),
    }


def ours_worker(seats: int, seconds: float, seed: int) -> dict[str, Any]:
    try:
        sim = importlib.import_module("unoengine.sim")
    except ImportError as exc:
        raise WorkerError(f"cannot import unoengine.sim ({exc}); our engine's simulate() is not available yet") from exc

    def simulate(games: int, run_seed: int) -> Run:
        res = sim.simulate(rules="classic", seats=seats, games=games, bot="random", seed=run_seed)
        run = Run(int(res.games), int(res.steps), float(res.seconds))
        if run.games != games or run.steps <= 0 or run.seconds <= 0:
            raise WorkerError(f"implausible simulate() result: {res!r}")
        return run

    # Warm up, then calibrate the game count to last about `seconds`.
    simulate(20, seed + 1)
    games = 50
    while True:
        probe = simulate(games, seed + 2)
        if probe.seconds >= min(0.5, seconds / 4):
            break
        games *= 4
    games = max(1, round(games * seconds / probe.seconds))
    run = simulate(games, seed)
    return {**asdict(run), "python": platform.python_version()}


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------


def venv_python(venv_dir: Path) -> Path:
    sub = "Scripts/python.exe" if os.name == "nt" else "bin/python"
    return venv_dir / sub


def ensure_rlcard(venv_dir: Path, log: bool) -> Path:
    """Create/fill the RLCard venv if needed; return its interpreter."""
    py = venv_python(venv_dir)
    probe = [
        str(py),
        "-c",
        ("from importlib.metadata import version; from rlcard.games.uno.game import UnoGame; print(version('rlcard'))"),
    ]

    def ok() -> bool:
        if not py.exists():
            return False
        out = subprocess.run(probe, capture_output=True, text=True, check=False)
        return out.returncode == 0 and out.stdout.strip() == RLCARD_VERSION

    if ok():
        return py
    if log:
        print(f"setting up {venv_dir} (rlcard=={RLCARD_VERSION}) ...", file=sys.stderr)
    if not py.exists():
        venv.EnvBuilder(with_pip=True).create(venv_dir)
    subprocess.run(
        [
            str(py),
            "-m",
            "pip",
            "install",
            "--quiet",
            f"rlcard=={RLCARD_VERSION}",
            "numpy",
        ],
        check=True,
        stdout=sys.stderr,
    )
    if not ok():
        raise SystemExit(f"rlcard {RLCARD_VERSION} still not importable in {venv_dir}")
    return py


def run_worker(
    python: Path | str,
    mode: str,
    seats: int,
    seconds: float,
    seed: int,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    cmd = [
        str(python),
        str(Path(__file__).resolve()),
        mode,
        "--seats",
        str(seats),
        "--seconds",
        str(seconds),
        "--seed",
        str(seed),
    ]
    proc = subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60 + 20 * seconds,
    )
    lines = proc.stdout.strip().splitlines()
    try:
        data: Any = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        data = None
    if proc.returncode != 0 or not isinstance(data, dict) or "error" in data:
        reason = data.get("error") if isinstance(data, dict) else None
        raise WorkerError(reason or f"{mode} exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return data


def to_run(data: dict[str, Any]) -> Run:
    return Run(
        int(data["games"]),
        int(data["steps"]),
        float(data["seconds"]),
        int(data.get("aborted", 0)),
    )


MYPYC_MODULES = [
    "unoengine/core/cards.py",
    "unoengine/core/actions.py",
    "unoengine/core/state.py",
    "unoengine/core/events.py",
    "unoengine/core/work.py",
    "unoengine/core/engine.py",
    "unoengine/core/rules/base.py",
    "unoengine/core/rules/classic.py",
    "unoengine/core/rules/duo.py",
    "unoengine/core/rules/flex.py",
    "unoengine/bots/random_bot.py",
    "unoengine/sim.py",
]
MYPYC_DIR = REPO / "benchmarks" / ".mypyc-build"


def build_compiled(log: bool) -> Path:
    """Compile a copy of src/unoengine with mypyc; return the folder to put on PYTHONPATH."""
    if MYPYC_DIR.exists():
        shutil.rmtree(MYPYC_DIR)
    MYPYC_DIR.mkdir(parents=True)
    shutil.copytree(REPO / "src" / "unoengine", MYPYC_DIR / "unoengine")
    # The one change to the source: state.py names the rule set's types for the
    # type checker only, and that import cycle (state <-> rules) crashes a mypyc
    # build at import; the compiled copy types those three fields as Any.
    state = MYPYC_DIR / "unoengine" / "core" / "state.py"
    text = state.read_text()
    cycle = "if TYPE_CHECKING:\n    from unoengine.core.rules.base import DeckTables, Options, RuleSet\n"
    if cycle not in text:
        raise WorkerError("state.py changed: update build_compiled()")
    (MYPYC_DIR / "mypy.ini").write_text("[mypy]\n")
    state.write_text(text.replace(cycle, "from typing import Any\n\nDeckTables = Any\nOptions = Any\nRuleSet = Any\n"))
    if log:
        print("compiling with mypyc (about 30 s) ...", file=sys.stderr, flush=True)
    proc = subprocess.run(
        [sys.executable, "-m", "mypyc", "--config-file", "mypy.ini", *MYPYC_MODULES],
        cwd=MYPYC_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise WorkerError(f"mypyc failed: {(proc.stdout + proc.stderr).strip()[-2000:]}")
    return MYPYC_DIR


def same_games(env_a: dict[str, str], env_b: dict[str, str]) -> bool:
    """Do two builds play exactly the same seeded games? (wins and steps of 300 games)."""
    code = (
        "from unoengine.sim import simulate;"
        "r = simulate('classic', 3, 300, 'random', seed=5);"
        "print(r.wins, r.steps, r.lengths[:50])"
    )
    outs = [
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        for env in (env_a, env_b)
    ]
    return outs[0] == outs[1]


def ours_env(source: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    src = str(source or REPO / "src")
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = src + (os.pathsep + old if old else "")
    return env


def machine() -> str:
    parts = [platform.platform(), platform.machine(), platform.processor()]
    return " ".join(p for p in parts if p) + f", {os.cpu_count()} CPUs"


def fmt(x: float | None, digits: int = 0) -> str:
    if x is None:
        return "n/a"
    return f"{x:,.{digits}f}"


def ratio(ours: float, theirs: float) -> float:
    return ours / theirs


SIDES = {"ours": "ours", "mypyc": "mypyc"}


def print_table(report: dict[str, Any]) -> None:
    print(f"Python (ours):   {report['python']} ({sys.executable})")
    print(
        f"Python (RLCard): {report['rlcard_python']}  "
        f"rlcard {report['rlcard_version']}, numpy {report['numpy_version']}"
    )
    print(f"Machine:         {report['machine']}")
    print(
        f"Runs:            {report['repetitions']} x ~{report['seconds_per_run']} s "
        "per side and case, medians shown; ratio = ours / RLCard\n"
    )
    sides = [side for side in SIDES if any(c.get(side) for c in report["cases"])]
    head = ["case", "RLCard steps/s"]
    for side in sides:
        head += [f"{side} steps/s", "ratio"]
    head.append("RLCard games/s")
    for side in sides:
        head += [f"{side} games/s", "ratio"]
    head += ["RLCard steps/game", "ours steps/game"]
    rows = [head]
    for c in report["cases"]:
        rl = c["rlcard"]
        row = [c["case"], fmt(rl["steps_per_s"])]
        for side in sides:
            us = c.get(side)
            row += [fmt(us and us["steps_per_s"]), fmt(us and ratio(us["steps_per_s"], rl["steps_per_s"]), 2)]
        row.append(fmt(rl["games_per_s"], 1))
        for side in sides:
            us = c.get(side)
            row += [fmt(us and us["games_per_s"], 1), fmt(us and ratio(us["games_per_s"], rl["games_per_s"]), 2)]
        ours = c.get("ours")
        row += [fmt(rl["steps_per_game"], 1), fmt(ours and ours["steps_per_game"], 1)]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for n, r in enumerate(rows):
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths, strict=True))
            )
        )
        if n == 0:
            print("  ".join("-" * w for w in widths))
    aborted = sum(c["rlcard"]["aborted"] for c in report["cases"])
    if aborted:
        print(f"\n({aborted} RLCard game(s) aborted by RLCard itself were left out)")
    if report.get("compiled_same_games") is not None:
        same = "yes" if report["compiled_same_games"] else "NO"
        print(f"\nmypyc build plays exactly the same seeded games as the interpreted one: {same}")
    if report["ours_error"]:
        print(f"\nOUR ENGINE NOT MEASURED: {report['ours_error']}")


def bench(args: argparse.Namespace) -> int:
    log = not args.json
    rl_py = ensure_rlcard(Path(args.venv), log)
    envs = {"ours": ours_env()}
    same: bool | None = None
    ours_error: str | None = None
    if args.compiled:
        try:
            envs["mypyc"] = ours_env(build_compiled(log))
            same = same_games(envs["ours"], envs["mypyc"])
        except (WorkerError, subprocess.CalledProcessError) as exc:
            ours_error = f"compiled build: {exc}"
    runs: dict[str, dict[int, list[Run]]] = {side: {s: [] for s in args.seats} for side in ["rlcard", *envs]}
    rl_meta: dict[str, Any] = {}

    for rep in range(args.reps):
        for seats in args.seats:
            seed = args.seed + 1000 * rep + seats
            order = ["rlcard", *envs]
            if rep % 2:
                order.reverse()
            for side in order:
                if side != "rlcard" and ours_error is not None:
                    continue
                if log:
                    print(f"rep {rep + 1}/{args.reps}  {seats} seats  {side} ...", file=sys.stderr, flush=True)
                if side == "rlcard":
                    data = run_worker(rl_py, "--rlcard-worker", seats, args.seconds, seed)
                    rl_meta = data
                    runs["rlcard"][seats].append(to_run(data))
                    continue
                try:
                    data = run_worker(sys.executable, "--ours-worker", seats, args.seconds, seed, envs[side])
                    runs[side][seats].append(to_run(data))
                except (WorkerError, subprocess.TimeoutExpired) as exc:
                    ours_error = f"{side}: {exc}"
                    if log:
                        print(f"our engine: {ours_error}", file=sys.stderr)

    cases = []
    for seats in args.seats:
        rl = Summary.of(runs["rlcard"][seats])
        case: dict[str, Any] = {"case": f"classic {seats}p", "rules": "classic", "seats": seats, "rlcard": asdict(rl)}
        for side in envs:
            us = Summary.of(runs[side][seats]) if ours_error is None else None
            case[side] = asdict(us) if us else None
            case[f"ratio_steps_per_s_{side}" if side != "ours" else "ratio_steps_per_s"] = (
                ratio(us.steps_per_s, rl.steps_per_s) if us else None
            )
            case[f"ratio_games_per_s_{side}" if side != "ours" else "ratio_games_per_s"] = (
                ratio(us.games_per_s, rl.games_per_s) if us else None
            )
        cases.append(case)
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "rlcard_python": rl_meta.get("python"),
        "rlcard_version": rl_meta.get("rlcard"),
        "numpy_version": rl_meta.get("numpy"),
        "machine": machine(),
        "seconds_per_run": args.seconds,
        "repetitions": args.reps,
        "seed": args.seed,
        "cases": cases,
        "compiled_same_games": same,
        "ours_error": ours_error,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print_table(report)
    return 2 if ours_error or same is False else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Random-play speed: unoengine vs RLCard 1.2.0 UNO (classic, one round).")
    p.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="measured wall time per run (default 5)",
    )
    p.add_argument("--quick", action="store_true", help="shorthand for --seconds 1")
    p.add_argument(
        "--reps",
        type=int,
        default=3,
        help="repetitions per side and case; median reported (default 3)",
    )
    p.add_argument(
        "--seats",
        type=int,
        nargs="+",
        default=[2, 4],
        help="seat counts to measure (default 2 4)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--compiled", action="store_true", help="also measure a mypyc build of the same source")
    p.add_argument(
        "--venv",
        default=str(DEFAULT_VENV),
        help=f"RLCard virtual environment (default {DEFAULT_VENV})",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--rlcard-worker", action="store_true", help=argparse.SUPPRESS)
    mode.add_argument("--ours-worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.seconds = 1.0
    if args.seconds <= 0 or args.reps < 1 or any(s < 2 for s in args.seats):
        p.error("need --seconds > 0, --reps >= 1 and seats >= 2")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.rlcard_worker or args.ours_worker:
        if len(args.seats) != 1:
            raise SystemExit("worker mode takes exactly one --seats value")
        worker = rlcard_worker if args.rlcard_worker else ours_worker
        try:
            out = worker(args.seats[0], args.seconds, args.seed)
        except WorkerError as exc:
            print(json.dumps({"error": str(exc)}))
            return 1
        print(json.dumps(out))
        return 0
    return bench(args)


if __name__ == "__main__":
    sys.exit(main())
