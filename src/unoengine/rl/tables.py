"""The generated tables of docs/RL.md: every action id and the observation layout.

``python -m unoengine.rl.tables --write docs/RL.md`` rewrites the blocks between
the ``<!-- name:begin -->`` and ``<!-- name:end -->`` markers; a test checks that
the document holds what this module makes, so that the document cannot drift
from the core's action table (``ACTION_IDS_VERSION``) or the encoding
(``ENCODING_VERSION``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from unoengine.core.action_ids import ACTION_IDS_VERSION, BLOCKS, NUM_ACTIONS, table_digest, table_notation
from unoengine.rl.encoding import DECISIONS, ENCODING_VERSION, Encoding


def actions_block() -> str:
    """Every id with its block and notation."""
    block_of = {index: name for name, ids in BLOCKS.items() for index in ids}
    lines = [
        f"`ACTION_IDS_VERSION = {ACTION_IDS_VERSION}`, `NUM_ACTIONS = {NUM_ACTIONS}`, digest `{table_digest()}`.",
        "",
        "| id | block | action |",
        "|---:|---|---|",
    ]
    lines += [f"| {index} | {block_of[index]} | `{text}` |" for index, text in enumerate(table_notation())]
    return "\n".join(lines)


def observation_block(rules: str = "classic", seats: int = 4, history: int = 2) -> str:
    """The observation pieces, for one example game (sizes with ``seats`` and ``history`` in words)."""
    encoding = Encoding(rules, seats, history=history)
    lines = [
        f"`ENCODING_VERSION = {ENCODING_VERSION}`. Example: {rules}, {seats} seats, `history={history}`: "
        f"{encoding.size} floats. `DECISIONS` (the `pending` one-hot order): {', '.join(DECISIONS)}.",
        "",
        "| piece | start | size | what |",
        "|---|---:|---:|---|",
    ]
    lines += [f"| `{p.name}` | {p.start} | {p.size} | {p.doc} |" for p in encoding.pieces]
    return "\n".join(lines)


BLOCK_MAKERS = {"actions": actions_block, "observation": observation_block}


def fill(text: str) -> str:
    """``text`` with every generated block rewritten."""
    for name, make in BLOCK_MAKERS.items():
        pattern = re.compile(rf"(<!-- {name}:begin -->\n).*?(\n<!-- {name}:end -->)", re.S)
        text = pattern.sub(lambda match, make=make: match.group(1) + make() + match.group(2), text)  # type: ignore[misc]
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the generated tables of docs/RL.md.")
    parser.add_argument("--write", type=Path, help="the document to rewrite in place")
    args = parser.parse_args()
    if args.write is None:
        for name, make in BLOCK_MAKERS.items():
            print(f"<!-- {name}:begin -->\n{make()}\n<!-- {name}:end -->\n")
        return
    args.write.write_text(fill(args.write.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main()
