"""How much a bot's choices gain over the ``heuristic``'s, measured on decisions rather than games.

Plays ``--games`` heads-up Classic rounds of ``heuristic`` self-play (seeds 5000…);
at every decision with more than one sensible move (``own_choices``) it estimates
each candidate's value (the chance of winning the round) on ``--rollouts`` paired
rollouts to the round's end with the ``heuristic``'s policy, on deals of the hidden
cards consistent with the seat's view (apart from any bot). Then, for every bot
spec given, a fresh bot chooses at each of those decisions; its *gain* is the sum
of the value of its move less the value of the heuristic's, per game. Slow (the
estimates take minutes): run it with ``nice``.

    .venv/bin/python scripts/decision_gain.py ismcts:read=false,iterations=40 ismcts:read=false,iterations=80
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from unoengine import apply, new_game, view_for
from unoengine.bots.base import make_bot
from unoengine.bots.ismcts import WHOLE, own_choices, roll_out
from unoengine.core.actions import Action
from unoengine.core.determinize import Determinizer
from unoengine.core.engine import apply_unchecked
from unoengine.core.views import PlayerView

Decision = tuple[PlayerView, tuple[Action, ...], Action, dict[Action, float]]
"""A view, its legal actions, the heuristic's move and every candidate's estimated value."""


def decisions(games: int, rollouts: int) -> list[Decision]:
    """The decisions of ``games`` heuristic self-play rounds, each candidate valued on paired whole rollouts."""
    found: list[Decision] = []
    for game in range(games):
        state = new_game("classic", 2, seed=5000 + game, options={"single_round": True})
        bots = [make_bot("heuristic", random.Random(seat)) for seat in range(2)]
        rng = random.Random(77 + game)
        while not state.is_over:
            seat = state.pending.seat
            assert seat is not None
            view = view_for(state, seat)
            move = bots[seat].choose(view, view.legal)
            choices = own_choices(view.legal)
            if len(choices) > 1 and move in choices:
                sampler = Determinizer(view)
                wins = dict.fromkeys(choices, 0)
                for _ in range(rollouts):
                    deal, seed = sampler.sample(rng), rng.getrandbits(32)
                    for choice in choices:
                        end = roll_out(apply_unchecked(deal, seat, choice), random.Random(seed), WHOLE, deal.round)
                        wins[choice] += end.outcome is not None and end.outcome.winner == seat
                found.append((view, view.legal, move, {choice: wins[choice] / rollouts for choice in choices}))
            state = apply(state, seat, move).state
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+", help="bot specs to measure")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rollouts", type=int, default=400)
    args = parser.parse_args(argv)
    found = decisions(args.games, args.rollouts)
    print(f"{len(found)} decisions with more than one sensible move in {args.games} games")
    for spec in args.bots:
        gain = seconds = 0.0
        moved = worse = 0
        for index, (view, legal, move, values) in enumerate(found):
            bot = make_bot(spec, random.Random(index))
            started = time.process_time()
            choice = bot.choose(view, legal)
            seconds += time.process_time() - started
            if choice != move:
                moved += 1
                difference = values.get(choice, 0.0) - values[move]
                gain += difference
                worse += difference < 0
        print(
            f"{spec}: gain {gain / args.games:+.3f} a game, {moved} moves unlike the heuristic's "
            f"({worse} worse), {1000 * seconds / len(found):.1f} ms a decision",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
