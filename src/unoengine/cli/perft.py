"""``uno perft``: count a position's action sequences, split them by first action, or check a perft file.

- ``uno perft STATE --depth N`` prints ``perft D COUNT`` for D = 1..N (the
  lines of a perft file), and the time and nodes/s of each on stderr;
- ``uno perft STATE --depth N --divide`` prints each first action's count
  (``SEAT ACTION: COUNT``) and the total, to find where two implementations
  disagree;
- ``uno perft --file FILE`` checks every count of a perft file (docs/NOTATION.md,
  "Perft files"), up to ``--max-nodes``; a count that differs is reported with the
  ``divide`` of its position, and the exit status is 1. A file's depths are
  bounded as ``--depth`` is (:data:`DEPTHS`): another is refused before any count.

Ctrl-C stops a count promptly: the top of the tree is walked here, in Python, and
only subtrees of at most :data:`CHUNK_DEPTH` actions are counted by the core's
(possibly compiled) :func:`~unoengine.core.perft.perft`, so the interrupt is seen
between them; the command then prints ``Interrupted`` and exits with status 130.
"""

from __future__ import annotations

import sys
import time

import click

from unoengine.cli.arguments import AsciiInt
from unoengine.cli.common import CONTEXT, fail
from unoengine.cli.files import FileRefusedError, read_text
from unoengine.core.actions import format_action
from unoengine.core.engine import apply_unchecked
from unoengine.core.errors import InvalidNotationError
from unoengine.core.notation import parse_state
from unoengine.core.perft import moves, parse_perft, perft
from unoengine.core.state import GameState

DEPTHS = range(1, 31)
"""The depths ``uno perft`` counts, given by ``--depth`` or by a perft file (1-30)."""

CHUNK_DEPTH = 3
"""The deepest subtree counted in one call of the core's ``perft``; the levels above are walked here."""

EXIT_INTERRUPTED = 130
"""Exit status of a count stopped by Ctrl-C (128 + SIGINT, as a shell reports it)."""


def counted(state: GameState, depth: int) -> int:
    """``perft(state, depth)``, in chunks of at most :data:`CHUNK_DEPTH` levels (a Ctrl-C is seen between them)."""
    if depth <= CHUNK_DEPTH:
        return perft(state, depth)
    return sum(counted(apply_unchecked(state, seat, action), depth - 1) for seat, action in moves(state))


def _state(text: str) -> GameState:
    try:
        return parse_state(text)
    except InvalidNotationError as error:
        fail(f"error: not a state: {error}")


def _divide_lines(state: GameState, depth: int) -> list[str]:
    """``divide(state, depth)`` as lines (``SEAT ACTION: COUNT``, then ``total N``), counted in chunks."""
    split = [
        ((seat, action), 1 if depth == 1 else counted(apply_unchecked(state, seat, action), depth - 1))
        for seat, action in moves(state)
    ]
    lines = [f"{seat} {format_action(action)}: {count}" for (seat, action), count in split]
    return [*lines, f"total {sum(count for _, count in split)}"]


@click.command("perft", context_settings=CONTEXT)
@click.argument("state", required=False, metavar="STATE")
@click.option("--depth", "-d", type=AsciiInt(digits=2, low=DEPTHS.start, high=DEPTHS.stop - 1), default=3,
              show_default=True,
              help="The depth (actions in a sequence).")  # fmt: skip
@click.option("--divide", "split", is_flag=True, help="Count per first action (SEAT ACTION: COUNT) at --depth.")
@click.option("--file", "file", metavar="FILE", help="Check every count of a perft file instead.")
@click.option("--max-nodes", type=AsciiInt(low=1), default=1_000_000, show_default=True,
              help="With --file: skip counts above this.")  # fmt: skip
def perft_command(state: str | None, depth: int, split: bool, file: str | None, max_nodes: int) -> None:
    """Count the action sequences of STATE (state notation) to --depth, every seat's actions included.

    Chance is fixed by the state's draw pile and seed. With --file, check the
    counts of a perft file (docs/NOTATION.md, "Perft files"): exit status 1 if
    one differs, with the divide of its position; a file's depths are 1-30 as
    --depth's. Ctrl-C stops it: 'Interrupted', exit status 130.
    """
    try:
        _perft_command(state, depth, split, file, max_nodes)
    except KeyboardInterrupt:
        click.echo("Interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)


def _perft_command(state: str | None, depth: int, split: bool, file: str | None, max_nodes: int) -> None:
    if (state is None) == (file is None):
        fail("error: give a STATE or --file FILE (one of them)")
    if file is not None:
        _check_file(file, max_nodes)
        return
    assert state is not None
    position = _state(state)
    if split:
        click.echo("\n".join(_divide_lines(position, depth)))
        return
    for level in range(1, depth + 1):
        started = time.perf_counter()
        count = counted(position, level)
        seconds = time.perf_counter() - started
        rate = f", {count / seconds:,.0f} nodes/s" if seconds > 0 else ""
        click.echo(f"perft {level} {count}")
        click.echo(f"  depth {level}: {seconds * 1000:.1f} ms{rate}", err=True)


def _check_file(file: str, max_nodes: int) -> None:
    try:
        cases = parse_perft(read_text(file))
    except FileRefusedError as error:
        fail(f"error: cannot read {error}")
    except InvalidNotationError as error:
        fail(f"error: {file}: {error}")
    for case in cases:
        for depth, _ in case.counts:
            if depth not in DEPTHS:
                fail(
                    f"error: {file} line {case.line} ({case.id}): perft depth {depth} is out of range "
                    f"(expected from {DEPTHS.start} to {DEPTHS.stop - 1}, as --depth)"
                )
    checked = skipped = 0
    wrong: list[str] = []
    for case in cases:
        try:
            position = case.position()
        except InvalidNotationError as error:
            fail(f"error: {file} line {case.line} ({case.id}): not a state: {error}")
        for depth, expected in case.counts:
            if expected > max_nodes:
                skipped += 1
                continue
            got = counted(position, depth)
            checked += 1
            if got != expected:
                wrong.append(f"{case.id} perft {depth}: {got}, the file says {expected}")
                if depth > 1:
                    wrong += [f"  {line}" for line in _divide_lines(position, depth)]
    for line in wrong:
        click.echo(line)
    summary = f"{checked} counts of {len(cases)} positions checked, {skipped} above --max-nodes skipped"
    if wrong:
        fail(f"{summary}: {sum(1 for line in wrong if not line.startswith(' '))} differ", 1)
    click.echo(f"{summary}: all agree")
