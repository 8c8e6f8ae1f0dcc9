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
from unoengine.core.cards import format_card
from unoengine.rl.encoding import ENCODING_VERSION, Encoding


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


def observation_block() -> str:
    """Every rule set's observation layout: one column of sizes per rule set (``n``: the seat count)."""
    from unoengine.core.rules import RULESETS

    names = list(RULESETS)
    layouts = {name: (Encoding(name, 2), Encoding(name, RULESETS[name].seats.stop - 1)) for name in names}
    order: list[str] = []
    docs: dict[str, str] = {}
    for name in names:  # each rule set's own pieces go in after the piece they follow in its layout
        previous: str | None = None
        for piece in layouts[name][0].pieces:
            if piece.name not in docs:
                order.insert(0 if previous is None else order.index(previous) + 1, piece.name)
                docs[piece.name] = piece.doc
            previous = piece.name

    def size(name: str, piece_name: str) -> str:
        small, large = layouts[name]
        sizes = {piece.name: piece.size for piece in small.pieces}
        if piece_name not in sizes:
            return "—"
        if piece_name == "history":
            return f"h × {len(small.kinds)}"
        if piece_name == "discards":
            return f"d × {len(small.kinds)}"
        grown = {piece.name: piece.size for piece in large.pieces}[piece_name]
        return "n" if grown != sizes[piece_name] else str(sizes[piece_name])

    titles = [RULESETS[name].title for name in names]
    totals = ", ".join(
        f"{RULESETS[name].title} {layouts[name][0].size} at 2 seats"
        + ("" if layouts[name][1].seats == 2 else f" ({layouts[name][1].size} at {layouts[name][1].seats})")
        for name in names
    )
    lines = [
        f"`ENCODING_VERSION = {ENCODING_VERSION}`. Floats without history or discards: {totals}. "
        f"`n`: the seat count; `h`: `history`; `d`: 1 with `discards=True`, else 0. "
        f"Pieces in this order, a rule set's absent ones left out "
        f"(`Encoding(rules, seats).pieces` gives the starts).",
        "",
        f"| piece | {' | '.join(titles)} | what |",
        "|---|" + "---:|" * len(names) + "---|",
    ]
    lines += [f"| `{p}` | {' | '.join(size(name, p) for name in names)} | {docs[p]} |" for p in order]
    lines += [
        "",
        "The card kinds of each rule set, in order (the per-kind pieces), and its decisions (the `pending` order):",
        "",
    ]
    for name in names:
        encoding = layouts[name][0]
        kinds = " ".join(format_card(card) for card in encoding.kinds)
        lines.append(
            f"- {RULESETS[name].title} ({len(encoding.kinds)} kinds): `{kinds}`; decisions: "
            f"{', '.join(encoding.decisions)}."
        )
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
