"""The ``ppo`` bot: NumPy only, legal actions, refused by name in a game it was not trained for."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from unoengine.bots.base import BOTS, BotError, make_bot
from unoengine.bots.heuristic import HeuristicBot
from unoengine.core.engine import apply_unchecked, new_game
from unoengine.core.views import view_for
from unoengine.play.simulate import simulate
from unoengine.rl.policy import WEIGHTS, Policy, PPOBot, shipped_policy


def test_the_shipped_weights_load_and_fit_the_tables() -> None:
    policy = shipped_policy()
    assert WEIGHTS.stat().st_size < 1_000_000
    assert policy.usable and policy.rules == "classic" and policy.seats == 2
    assert "turn" in policy.decisions


def test_registered_as_ppo() -> None:
    assert "ppo" in BOTS
    assert isinstance(make_bot("ppo", random.Random(0)), PPOBot)


def test_plays_legal_games_in_the_game_it_was_trained_for() -> None:
    result = simulate("classic", 2, games=3, bot=["ppo", "heuristic"], seed=1)
    assert result.games == 3


@pytest.mark.parametrize(("rules", "seats"), [("classic", 4), ("classic", 3), ("duo", 2), ("flex", 3)])
def test_refuses_by_name_a_game_it_was_not_trained_for(rules: str, seats: int) -> None:
    message = f"ppo was trained for classic with 2 seats; it cannot play {rules} with {seats} seats"
    bot = PPOBot(random.Random(0))
    state = new_game(rules, seats, seed=2)
    view = view_for(state, state.to_act)
    with pytest.raises(ValueError, match=message):
        bot.choose(view, view.legal)
    with pytest.raises(ValueError, match=message):
        bot.check_game(rules, seats)
    with pytest.raises(ValueError, match=message):
        PPOBot(random.Random(0), rules=rules, seats=seats)
    with pytest.raises(BotError, match=message):  # no game is played by another bot in its place
        simulate(rules, seats, games=1, bot=["ppo"] + ["heuristic"] * (seats - 1), seed=1)


def test_the_cli_refuses_ppo_in_four_seats() -> None:
    """Before any game is played: exit 2, as for any argument the command refuses."""
    from click.testing import CliRunner

    from unoengine.cli.main import cli

    result = CliRunner().invoke(cli, ["simulate", "--seats", "4", "--bot", "ppo,heuristic,heuristic,heuristic"])
    assert result.exit_code == 2
    assert "ppo was trained for classic with 2 seats; it cannot play classic with 4 seats" in result.output


def test_a_decision_kind_it_never_met_is_the_heuristics_and_counted() -> None:
    """Classic heads-up with the challenge option: a challenge (not among its decisions) is played as the heuristic."""
    bot = PPOBot(random.Random(0))
    assert "challenge" not in bot.policy.decisions
    state = _until_challenge()
    view = view_for(state, state.to_act)
    assert bot.choose(view, view.legal) == HeuristicBot(random.Random(0)).choose(view, view.legal)
    assert bot.handed_over == 1


def _until_challenge() -> Any:
    """A Classic heads-up state where a Wild Draw Four may be challenged (heuristic bots play until one is)."""
    for seed in range(200):
        state = new_game("classic", 2, seed=seed, options={"wild_draw_four": "challenge"})
        bots = [HeuristicBot(random.Random(seed)), HeuristicBot(random.Random(seed + 1))]
        while state.to_act is not None:
            if state.pending.kind == "challenge":
                return state
            seat = state.to_act
            view = view_for(state, seat)
            state = apply_unchecked(state, seat, bots[seat].choose(view, view.legal))
    raise AssertionError("no Wild Draw Four challenge in 200 games")


def test_a_policy_for_another_action_table_is_not_used(tmp_path: object) -> None:
    policy = shipped_policy()
    unnamed = {key: value for key, value in policy.meta.items() if key not in ("inputs", "actions")}
    other = Policy({**unnamed, "action_ids_version": -1}, policy.layers)  # no names to fit it by
    assert not other.usable
    state = new_game("classic", 2, seed=2)
    assert not other.trained_for(view_for(state, state.to_act))


def test_save_and_load_round_trip(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "p.npz"
    policy = shipped_policy()
    policy.save(path)
    again = Policy.load(path)
    observation = np.ones(policy.encoding.size, np.float32)
    np.testing.assert_allclose(again.logits(observation), policy.logits(observation), rtol=1e-3, atol=1e-3)
    with pytest.raises(ValueError, match="not a policy file"):
        np.savez(path, x=np.zeros(2))
        Policy.load(path)


def test_runs_without_torch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from unoengine.play.simulate import simulate\n"
        "r = simulate('classic', 2, games=2, bot=['ppo', 'heuristic'], seed=0)\n"
        "print(r.games)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "2"


def test_uno_simulate_plays_ppo() -> None:
    import json

    from click.testing import CliRunner

    from unoengine.cli.main import cli

    result = CliRunner().invoke(
        cli, ["simulate", "--rules", "classic", "--seats", "2", "--bot", "ppo,heuristic", "--games", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["ppo", "heuristic"]


def test_weights_of_another_action_table_are_fitted_by_name() -> None:
    """A grown table (a new ACTION_IDS_VERSION) keeps the policy: outputs and inputs follow their names."""
    from unoengine.core.action_ids import NUM_ACTIONS, table_notation

    policy = shipped_policy()
    names = list(table_notation())
    inputs = policy.encoding.labels()
    # the same network as if its table had lacked the last id and its layout the last input entry,
    # and had listed the ids in reverse
    weight, bias = policy.layers[-1]
    order = list(range(NUM_ACTIONS - 1))[::-1]
    first_weight, first_bias = policy.layers[0]
    meta = {**policy.meta, "action_ids_version": -1, "actions": [names[i] for i in order], "inputs": inputs[:-1]}
    layers = [(first_weight[:-1], first_bias), *policy.layers[1:-1], (weight[:, order], bias[order])]
    other = Policy(meta, layers)
    assert other.usable and other.known == frozenset(range(NUM_ACTIONS - 1))
    observation = np.zeros(policy.encoding.size, np.float32)
    observation[:10] = 1.0
    np.testing.assert_allclose(other.logits(observation)[:-1], policy.logits(observation)[:-1], rtol=1e-4, atol=1e-4)
    state = new_game("classic", 2, seed=6)
    view = view_for(state, state.to_act)
    assert PPOBot(random.Random(0), policy=other).choose(view, view.legal) == PPOBot(random.Random(0)).choose(
        view, view.legal
    )
