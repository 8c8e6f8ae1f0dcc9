"""examples/train_expert.py (the shipped ``ppo`` weights' script): a tiny run of every step is reproducible from its
seed, its positions are reused from the cache, and a cache made for another action table (or, with
``--no-discards``, another observation layout) is not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from unoengine.core.action_ids import ACTION_IDS_VERSION
from unoengine.rl.encoding import Encoding
from unoengine.rl.policy import Policy

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_expert.py"
TINY = [
    *("--seed", "0", "--warm", "1000", "--warm-epochs", "1", "--games", "6", "--iterations", "4"),
    *("--epochs", "1", "--eval-deals", "6", "--ppo-updates", "2", "--ppo-critic-updates", "1"),
    *("--ppo-envs", "4", "--ppo-steps", "8", "--ppo-eval-every", "1"),
]


def train(cache: Path, out: Path, *extra: str) -> str:
    command = [sys.executable, str(SCRIPT), *TINY, "--cache", str(cache), "--out", str(out), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=240, check=True).stdout


def test_a_tiny_run_is_reproducible_from_its_seed_and_its_cache_is_keyed_by_the_layout(tmp_path: Path) -> None:
    cache = tmp_path / "positions.npz"
    first = train(cache, tmp_path / "a.npz")
    assert "(cached" not in first and "exported" in first
    warm = cache.with_name("positions-warm.npz")
    with np.load(warm) as saved:
        key = json.loads(str(saved["key"]))
        assert key["action_ids_version"] == ACTION_IDS_VERSION  # the layout is part of the key
        assert key["discards"] is True
    second = train(cache, tmp_path / "b.npz")
    assert second.count("(cached") == 2  # the warm start's positions and the expert's one chunk
    a, b = Policy.load(tmp_path / "a.npz"), Policy.load(tmp_path / "b.npz")
    assert a.usable and (a.rules, a.seats) == ("classic", 2) and "PPO" in a.meta["trained"]["method"]
    assert a.encoding.discards and a.meta["discards"] is True  # the discard pile's counts, by default
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        np.testing.assert_array_equal(wa, wb)
        np.testing.assert_array_equal(ba, bb)

    with np.load(warm) as saved:  # the same positions under another action table's key: made again
        other = {name: saved[name] for name in saved.files}
    other["key"] = np.array(json.dumps({**key, "action_ids_version": ACTION_IDS_VERSION - 1}, sort_keys=True))
    np.savez_compressed(warm, **other)
    third = train(cache, tmp_path / "c.npz")
    assert third.count("(cached") == 1  # only the expert's chunk

    plain = train(cache, tmp_path / "d.npz", "--no-discards")  # the default layout: positions of its own
    assert "(cached" not in plain
    d = Policy.load(tmp_path / "d.npz")
    assert not d.encoding.discards and d.layers[0][0].shape[0] == Encoding("classic", 2).size
