"""Instructions a step under callgrind: the fixed loop docs/PERFORMANCE.md's instruction counts come from.

What it measures
    ``legal_actions`` + ``apply`` with the random bot (one generator for the run,
    ``random.Random(7)``) over ``GAMES`` seeded games of one round (seeds 1000 on),
    in a function, after two warm-up games. Run under ``valgrind --tool=callgrind``
    once with ``GAMES`` games and once with none: the difference of the two totals
    over the steps printed is the instructions a step, which the load of the
    machine does not change. It prints the steps and a hash of the final states,
    so that two builds (or two versions of the code) can be checked to play the
    same games.

Usage
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python benchmarks/instructions.py classic 2 300
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python benchmarks/instructions.py classic 2 0
    # instructions a step = (first "Collected" total - second) / steps printed by the first
    # (PYTHONHASHSEED=0: a count moves by up to 2 % with the string hashes of the process)
    # benchmarks/instruction_counts.py runs every count of docs/PERFORMANCE.md this way and saves the result

Instructions a call
    ``--call NAME`` (``pickle``, ``view_for``, ``legal_mask``, ``determinize``,
    ``sample``): ``NAME`` over 200 sampled states (every tenth decision of 40
    seeded games), the third argument the passes over them after one warm-up
    pass; again once with ``REPS`` and once with 0, the difference over the calls
    printed. Run with ``PYTHONHASHSEED=0``: a call this short moves by a few per
    cent with the string hashes of the process.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python benchmarks/instructions.py --call view_for classic 4 10
"""

from __future__ import annotations

import pickle
import random
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))

from unoengine import (  # noqa: E402
    Determinizer,
    GameState,
    apply,
    apply_unchecked,
    determinize,
    legal_actions,
    legal_mask,
    new_game,
    view_for,
)
from unoengine.bots.random_bot import RandomBot  # noqa: E402
from unoengine.core.rules import find_rules  # noqa: E402


def run(rules: str, seats: int, games: int) -> tuple[int, int]:
    """Play ``games`` games of one round; the steps and a hash of their final scores and lengths."""
    ruleset = find_rules(rules)
    options = ruleset.options({"single_round": True})
    choose = RandomBot(random.Random(7)).choose
    steps = 0
    digest = 0
    for game in range(games):
        state = new_game(ruleset, seats, seed=1000 + game, options=options)
        while state.outcome is None:
            seat: int = state.pending.seat  # type: ignore[assignment]
            state = apply(state, seat, choose(None, legal_actions(state, seat))).state
            steps += 1
        digest = hash((digest, state.scores, state.steps))
    return steps, digest


def calls(name: str, rules: str, seats: int, reps: int) -> int:
    """``reps`` passes of the call ``name`` over 200 sampled states, after one warm-up pass; the calls made."""
    ruleset = find_rules(rules)
    options = ruleset.options({"single_round": True})
    choose = RandomBot(random.Random(7)).choose
    pairs: list[tuple[GameState, int]] = []
    for game in range(40):
        state = new_game(ruleset, seats, seed=1000 + game, options=options)
        decision = 0
        while state.outcome is None:
            seat: int = state.pending.seat  # type: ignore[assignment]
            if decision % 10 == 3:
                pairs.append((state, seat))
            state = apply_unchecked(state, seat, choose(None, legal_actions(state, seat)))
            decision += 1
    pairs = pairs[:200]
    views = [view_for(state, seat) for state, seat in pairs]
    samplers = [Determinizer(view) for view in views]
    rng = random.Random(3)

    def pickle_round_trips() -> None:
        for state, _ in pairs:
            pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))

    def views_for() -> None:
        for state, seat in pairs:
            view_for(state, seat)

    def legal_masks() -> None:
        for state, seat in pairs:
            legal_mask(state, seat)

    def determinizes() -> None:
        for view in views:
            determinize(view, rng)

    def samples() -> None:
        for sampler in samplers:
            sampler.sample(rng)

    one: dict[str, Callable[[], None]] = {
        "pickle": pickle_round_trips,
        "view_for": views_for,
        "legal_mask": legal_masks,
        "determinize": determinizes,
        "sample": samples,
    }
    if name not in one:
        raise SystemExit(f"--call: one of {', '.join(one)}, not {name!r}")
    for _ in range(reps + 1):
        one[name]()
    return reps * len(pairs)


def main() -> None:
    if sys.argv[1] == "--call":
        name, rules, seats, reps = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        print(f"calls {calls(name, rules, seats, reps)}")
        return
    rules, seats, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    run(rules, seats, 2)  # warm-up: the deck's tables, the interned actions
    steps, digest = run(rules, seats, games)
    print(f"steps {steps} digest {digest}")


if __name__ == "__main__":
    main()
