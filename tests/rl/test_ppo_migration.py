"""The shipped ppo weights, migrated to observation layout 4 (H-10's ``more``), play exactly as before."""

from __future__ import annotations

import json
from pathlib import Path

from tests.rl.ppo_games import ppo_games
from unoengine.rl.encoding import ENCODING_VERSION
from unoengine.rl.policy import shipped_policy


def test_the_migrated_weights_are_for_this_layout() -> None:
    policy = shipped_policy()
    assert policy.meta["encoding_version"] == ENCODING_VERSION == 4
    assert policy.meta["inputs"] == policy.encoding.labels()
    assert policy.usable and policy.layers[0][0].shape[0] == policy.encoding.size
    more = policy.encoding.labels().index("pending:more")
    assert not policy.layers[0][0][more].any(), "the network never met 'more': its input has no weight"


def test_the_ppo_bot_plays_the_same_actions_as_before_the_migration() -> None:
    before = json.loads((Path(__file__).with_name("ppo_games_v3.json")).read_text())
    assert ppo_games() == before
