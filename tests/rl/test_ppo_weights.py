"""The shipped ``ppo`` weights: made for this observation layout and action table by examples/train_expert.py
run with its defaults, and they play the recorded games (tests/rl/ppo_games.json)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from tests.rl.ppo_games import ppo_games
from unoengine.core.action_ids import ACTION_IDS_VERSION, NUM_ACTIONS, table_notation
from unoengine.rl.encoding import ENCODING_VERSION
from unoengine.rl.policy import shipped_policy

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_expert.py"
GAMES = Path(__file__).with_name("ppo_games.json")


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_expert", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_weights_are_made_for_this_layout_and_action_table() -> None:
    policy = shipped_policy()
    assert policy.meta["encoding_version"] == ENCODING_VERSION
    assert policy.meta["action_ids_version"] == ACTION_IDS_VERSION
    assert policy.meta["inputs"] == policy.encoding.labels()
    assert policy.meta["actions"] == list(table_notation())
    assert policy.usable and policy.known == frozenset(range(NUM_ACTIONS))  # nothing fitted by name


def test_the_shipped_weights_record_their_scripts_default_run() -> None:
    trained = shipped_policy().meta["trained"]
    module = script()
    defaults = vars(module.parser().parse_args([]))
    assert trained["script"] == "examples/train_expert.py"
    assert trained["args"] == {name: str(value) for name, value in defaults.items() if name not in module.UNRECORDED}
    assert "PPO" in trained["method"] and trained["minutes"] > 0


def test_the_ppo_bot_plays_the_recorded_games() -> None:
    assert ppo_games() == json.loads(GAMES.read_text())
