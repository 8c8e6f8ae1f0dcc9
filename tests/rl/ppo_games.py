"""The shipped ``ppo`` bot's choices over official Classic heads-up games (tests/rl/test_ppo_weights.py).

``ppo_games()`` plays each game with the bot at both seats (its most likely action, no reactions out of
turn) and returns every action taken, in notation, through the public API only. ``python -m tests.rl.ppo_games``
writes them to ``ppo_games.json`` beside it: run it when new weights are shipped, never to make a change of the
core, the encoding or the policy pass.
"""

from __future__ import annotations

import json
import random

from unoengine import apply, format_action, legal_actions, new_game, view_for
from unoengine.rl.policy import PPOBot

GAMES = 20
MAX_STEPS = 400


def ppo_games(games: int = GAMES) -> list[list[str]]:
    """The actions of ``games`` official Classic heads-up games (seeds 0 …), ``MAX_STEPS`` at most each."""
    out: list[list[str]] = []
    bot = PPOBot(random.Random(0))
    for seed in range(games):
        state = new_game("classic", 2, seed=seed, options={"single_round": True})
        taken: list[str] = []
        while state.outcome is None and len(taken) < MAX_STEPS:
            seat = state.to_act
            assert seat is not None
            action = bot.choose(view_for(state, seat), legal_actions(state, seat))
            taken.append(f"{seat} {format_action(action)}")
            state = apply(state, seat, action).state
        out.append(taken)
    return out


if __name__ == "__main__":
    from pathlib import Path

    lines = ",\n".join(json.dumps(game) for game in ppo_games())
    Path(__file__).with_name("ppo_games.json").write_text(f"[\n{lines}\n]\n")
