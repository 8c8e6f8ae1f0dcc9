"""Fit the weights of :mod:`unoengine.bots.evaluation`: ``scripts/fit_evaluation`` (``-m ...evaluation_fit``).

Positions come from self-play of the ``heuristic``'s policy on the engine itself
(the ``ismcts`` rollout policy: :func:`~unoengine.bots.ismcts.rollout_action`
and :func:`~unoengine.apply_unchecked`; no views, no events), one round a game
from ``new_game(rules, seats, seed=s)``; a decision is kept as a position with
probability ``--rate`` (its own seeded generator) and labelled with the round's
winner (a round without one is left out). The weights are fitted by maximum
likelihood (Newton's method on the conditional logit, with a small ridge
penalty), one set per rule set and seat count, on the games of the first 80 %
of the seeds; the last 20 % are held out: their log-loss, Brier score and
calibration are printed for the fitted weights and for the hand-tuned
``linear`` evaluation. ``--write`` saves the weights as
``evaluation_weights.py`` beside this module (a plain Python table: play needs
no NumPy). Fitting needs NumPy (the ``rl`` extra).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unoengine.bots.evaluation import FEATURES, LINEAR, features, probabilities
from unoengine.bots.ismcts import rollout_action
from unoengine.core.engine import apply_unchecked, legal_actions, new_game
from unoengine.core.options import parse_options
from unoengine.core.rules import find_rules

TABLES: tuple[tuple[str, int], ...] = (
    ("classic", 2),
    ("classic", 3),
    ("classic", 4),
    ("classic", 6),
    ("classic", 10),
    ("duo", 2),
    ("flex", 2),
    ("flex", 3),
    ("flex", 4),
    ("flex", 6),
    ("flex", 8),
)
"""The (rule set, seats) fitted by default; other seat counts use the nearest."""

SEED = 1
GAMES = 20_000
RATE = 0.4
"""A decision is kept with probability ``RATE / seats`` (about 0.4 positions a round for each turn of a seat)."""
RIDGE = 1.0
"""The ridge penalty (on the summed log-likelihood): it pins down features that never vary across seats
(with two seats, ``to_act`` + ``next`` is always 1) and costs nothing measurable on the held-out games."""
MAX_STEPS = 20_000
HELD_OUT = 0.2

Position = tuple[list[list[float]], int]
"""One labelled position: each seat's features and the round's winner."""


def positions(rules: str, seats: int, seeds: Sequence[int], rate: float = RATE) -> list[Position]:
    """Labelled positions of the self-play games of ``seeds`` (each decision kept with probability ``rate / seats``)."""
    ruleset = find_rules(rules)
    options = parse_options(ruleset, {"single_round": True})
    out: list[Position] = []
    share = rate / seats
    for seed in seeds:
        state = new_game(ruleset, seats, seed=seed, options=options)
        policy = random.Random(f"{seed}:policy")
        keep = random.Random(f"{seed}:keep")
        taken: list[list[list[float]]] = []
        for _ in range(MAX_STEPS):
            if state.outcome is not None:
                break
            seat = state.pending.seat
            if seat is None:
                break
            if keep.random() < share:
                taken.append(features(state))
            state = apply_unchecked(state, seat, rollout_action(state, seat, legal_actions(state, seat), policy))
        if state.outcome is None or state.outcome.winner is None:
            continue
        out.extend((rows, state.outcome.winner) for rows in taken)
    return out


def fit(data: Sequence[Position], ridge: float = RIDGE, steps: int = 50) -> list[float]:
    """Maximum-likelihood weights of the conditional logit on ``data`` (Newton's method, ridge ``ridge``)."""
    import numpy as np

    x = np.asarray([rows for rows, _ in data], dtype=np.float64)  # positions × seats × features
    y = np.asarray([won for _, won in data], dtype=np.int64)
    count, _, width = x.shape
    chosen = x[np.arange(count), y]
    w = np.zeros(width)
    previous = math.inf
    for _ in range(steps):
        scores = x @ w
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        loss = -float(np.log(p[np.arange(count), y]).sum()) + 0.5 * ridge * float(w @ w)
        mean = np.einsum("ns,nsf->nf", p, x, optimize=True)
        gradient = (chosen - mean).sum(axis=0) - ridge * w
        second = np.einsum("ns,nsf,nsg->fg", p, x, x, optimize=True) - mean.T @ mean
        hessian = second + ridge * np.eye(width)
        w = w + np.linalg.solve(hessian, gradient)
        if previous - loss < 1e-9 * max(1.0, abs(loss)):
            break
        previous = loss
    return [float(value) for value in w]


def scores(data: Sequence[Position], weights: Sequence[float]) -> dict[str, Any]:
    """Held-out figures of ``weights``: mean log-loss, mean Brier score (summed over seats) and a
    calibration table (predicted chance by tenths: positions × seats, mean predicted, observed)."""
    loss = brier = 0.0
    bins = [[0, 0.0, 0] for _ in range(10)]
    for rows, won in data:
        p = probabilities(rows, weights)
        loss -= math.log(max(p[won], 1e-15))
        for seat, chance in enumerate(p):
            hit = seat == won
            brier += (chance - hit) ** 2
            cell = bins[min(9, int(chance * 10))]
            cell[0] += 1
            cell[1] += chance
            cell[2] += hit
    n = max(1, len(data))
    calibration = [
        {"bin": f"{index / 10:.1f}-{(index + 1) / 10:.1f}", "n": c, "predicted": p / c, "observed": h / c}
        for index, (c, p, h) in enumerate(bins)
        if c
    ]
    return {"log_loss": loss / n, "brier": brier / n, "calibration": calibration}


def fit_table(rules: str, seats: int, games: int = GAMES, seed: int = SEED, rate: float = RATE) -> dict[str, Any]:
    """Generate, fit and score one (rule set, seats): the weights and the held-out figures of both evaluations."""
    started = time.perf_counter()
    split = int(games * (1 - HELD_OUT))
    train = positions(rules, seats, range(seed, seed + split), rate)
    test = positions(rules, seats, range(seed + split, seed + games), rate)
    weights = fit(train)
    return {
        "rules": rules,
        "seats": seats,
        "games": games,
        "train_positions": len(train),
        "test_positions": len(test),
        "chance_log_loss": math.log(seats),
        "fitted": scores(test, weights),
        "linear": scores(test, LINEAR),
        "weights": [float(f"{value:.6g}") for value in weights],
        "seconds": round(time.perf_counter() - started, 1),
    }


def weights_module(results: Sequence[dict[str, Any]], command: str) -> str:
    """The text of ``evaluation_weights.py`` for fitted ``results`` (``ruff format`` leaves it as it is)."""
    lines = [
        '"""The fitted weights of :mod:`unoengine.bots.evaluation`, by rule set and seat count (generated).',
        "",
        f"Made by ``{command}``.",
        '"""',
        "",
        "FEATURES: tuple[str, ...] = (",
        *[f'    "{name}",' for name in FEATURES],
        ")",
        '"""The features the weights are for, in order (:data:`unoengine.bots.evaluation.FEATURES`)."""',
        "",
        "WEIGHTS: dict[str, dict[int, tuple[float, ...]]] = {",
    ]
    by_rules: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        by_rules.setdefault(result["rules"], []).append(result)
    for rules, group in by_rules.items():
        lines.append(f'    "{rules}": {{')
        for result in group:
            lines.append(f"        {result['seats']}: (")
            lines.extend(f"            {value!r}," for value in result["weights"])
            lines.append("        ),")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def report(result: dict[str, Any], out: Any) -> None:
    """Print one table's figures."""
    fitted, linear = result["fitted"], result["linear"]
    print(
        f"{result['rules']} {result['seats']} seats: {result['train_positions']} positions fitted, "
        f"{result['test_positions']} held out ({result['seconds']} s)",
        file=out,
    )
    print(
        f"  held-out log-loss fitted {fitted['log_loss']:.4f}  linear {linear['log_loss']:.4f}  "
        f"chance {result['chance_log_loss']:.4f}; Brier fitted {fitted['brier']:.4f}  linear {linear['brier']:.4f}",
        file=out,
    )
    for name in ("fitted", "linear"):
        cells = "  ".join(
            f"{cell['bin']}: {cell['predicted']:.2f}/{cell['observed']:.2f} ({cell['n']})"
            for cell in result[name]["calibration"]
        )
        print(f"  calibration {name} (predicted/observed): {cells}", file=out)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: ``python -m unoengine.bots.evaluation_fit --fit [--games N] [--seed S] [--write] [--json]``."""
    parser = argparse.ArgumentParser(prog="python -m unoengine.bots.evaluation_fit", description=__doc__.split("\n")[0])
    parser.add_argument("--fit", action="store_true", help="generate positions, fit and score the weights")
    parser.add_argument("--games", type=int, default=GAMES, help=f"self-play games a table (default {GAMES})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the first game's seed (default {SEED})")
    parser.add_argument(
        "--rate", type=float, default=RATE, help=f"decisions kept: this over the seats (default {RATE})"
    )
    parser.add_argument("--only", default=None, help="fit one table only, e.g. classic:2")
    parser.add_argument("--write", action="store_true", help="write evaluation_weights.py beside this module")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not args.fit:
        parser.error("nothing to do: give --fit")
    try:
        import numpy  # noqa: F401
    except ImportError:
        sys.exit("error: fitting needs NumPy (pip install 'unoengine[rl]')")
    tables = TABLES
    if args.only is not None:
        rules, _, seats = args.only.partition(":")
        tables = ((rules, int(seats)),)
    results = []
    for rules, seats in tables:
        result = fit_table(rules, seats, args.games, args.seed, args.rate)
        results.append(result)
        if not args.json:
            report(result, sys.stdout)
            sys.stdout.flush()
    if args.json:
        print(json.dumps(results, indent=2))
    if args.write:
        if args.only is not None:
            sys.exit("error: --write needs every table (leave out --only)")
        command = "python -m unoengine.bots.evaluation_fit --fit --write"
        if args.games != GAMES or args.seed != SEED or args.rate != RATE:
            command += f" --games {args.games} --seed {args.seed} --rate {args.rate}"
        path = Path(__file__).with_name("evaluation_weights.py")
        path.write_text(weights_module(results, command))
        print(f"wrote {path.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
