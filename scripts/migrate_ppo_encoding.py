"""Migrate the shipped ``ppo`` weights from observation layout version 3 to version 4 (H-10's ``more``).

Version 4 adds the decision kind ``more`` to Classic's ``pending`` one-hot. The network never met it, so
the migration inserts one zero input row at its index in the first layer (``W0``: inputs × hidden): every
observation of a game without H-10 gives the same activations as before, and the bot plays the same
actions (tests/rl/test_ppo_migration.py compares them with ``tests/rl/ppo_games_v3.json``). The meta's
``encoding_version`` and ``inputs`` (the input labels) are rewritten; the other arrays are copied as
they are (float16).

Usage: ``.venv/bin/python scripts/migrate_ppo_encoding.py [PATH]`` (default: the shipped weights).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from unoengine.rl.encoding import ENCODING_VERSION, Encoding
from unoengine.rl.policy import WEIGHTS


def migrate(path: Path) -> None:
    """Rewrite the weights at ``path`` (version 3) for the current layout (version 4)."""
    with np.load(path, allow_pickle=False) as data:
        arrays: dict[str, Any] = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays["meta"]))
    if meta.get("encoding_version") == ENCODING_VERSION:
        print(f"{path}: already encoding version {ENCODING_VERSION}")
        return
    assert meta["encoding_version"] == 3 and ENCODING_VERSION == 4, "this script migrates version 3 to 4"
    encoding = Encoding(meta["rules"], int(meta["seats"]), history=int(meta.get("history", 0)))
    labels = encoding.labels()
    new = labels.index("pending:more")
    old_inputs: list[str] = meta["inputs"]
    assert labels[:new] + labels[new + 1 :] == old_inputs, "the layouts differ by more than the 'more' entry"
    weight = arrays["W0"]
    arrays["W0"] = np.insert(weight, new, np.zeros(weight.shape[1], weight.dtype), axis=0)
    meta["encoding_version"] = ENCODING_VERSION
    meta["inputs"] = labels
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)
    print(f"{path}: input {new} (pending:more) added; encoding version {ENCODING_VERSION}")


if __name__ == "__main__":
    migrate(Path(sys.argv[1]) if len(sys.argv) > 1 else WEIGHTS)
