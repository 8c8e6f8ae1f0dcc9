"""A bot's win rate against another, heads-up, seats swapped over the same deals, with a 95% Wilson interval.

Runs ``unoengine.play.simulate.simulate`` (what ``uno simulate`` runs) twice over the same
seeds: ``BOT,OTHER`` and ``OTHER,BOT``, one round per game. Games that nobody
wins (a blocked round, G-6) count as not won.

    python examples/evaluate_bot.py ppo heuristic --deals 5000
    # the same games with the CLI:
    uno simulate --rules classic --seats 2 --bot ppo,heuristic --games 5000 --seed 0 --json
    uno simulate --rules classic --seats 2 --bot heuristic,ppo --games 5000 --seed 0 --json
"""

from __future__ import annotations

import argparse
import json
import math

from unoengine.play.simulate import simulate


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for ``z = 1.96``)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bot")
    p.add_argument("other")
    p.add_argument("--rules", default="classic")
    p.add_argument("--deals", type=int, default=5000, help="deals; each is played twice, seats swapped")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    first = simulate(args.rules, 2, args.deals, [args.bot, args.other], args.seed)
    second = simulate(args.rules, 2, args.deals, [args.other, args.bot], args.seed)
    wins = first.wins[0] + second.wins[1]
    games = first.games + second.games
    low, high = wilson(wins, games)
    result = {
        "bot": args.bot,
        "other": args.other,
        "rules": args.rules,
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "as_seat_0": round(first.wins[0] / first.games, 4),
        "as_seat_1": round(second.wins[1] / second.games, 4),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.bot} vs {args.other} ({args.rules}, heads-up, {games} games, seats swapped over {args.deals} "
            f"deals): {100 * wins / games:.1f}% [95% Wilson {100 * low:.1f}–{100 * high:.1f}%]"
        )


if __name__ == "__main__":
    main()
