"""Instructions a step under callgrind: the fixed loop the README's instruction counts come from.

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
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/instructions.py classic 2 300
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/instructions.py classic 2 0
    # instructions a step = (first "Collected" total - second) / steps printed by the first
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))

from unoengine import apply, legal_actions, new_game  # noqa: E402
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


def main() -> None:
    rules, seats, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    run(rules, seats, 2)  # warm-up: the deck's tables, the interned actions
    steps, digest = run(rules, seats, games)
    print(f"steps {steps} digest {digest}")


if __name__ == "__main__":
    main()
