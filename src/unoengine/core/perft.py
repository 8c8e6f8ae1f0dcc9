"""Perft: count the action sequences of a given depth from a position (legal-move generation checked).

As chess programs do (Stockfish's ``go perft``, python-chess's ``perft``
files), :func:`perft` walks the whole tree of legal actions to a depth and
counts its leaves; :func:`divide` splits the count by the first action, which
narrows a disagreement between two implementations down to one action.

What is counted: at every node, every legal action of **every** seat
(:func:`~unoengine.legal_actions` of each seat, the seat to decide first, then
the others in seat order), so the out-of-turn actions of C-18 (``uno``,
``catch N``) and H-3 (jump-in plays) are branches like any other. Chance is
not a branch: a draw takes the top of the draw pile and a reshuffle uses the
state's seeded generator (G-1), exactly as :func:`~unoengine.apply` does, so a
position (with its seed and draw pile) fixes its counts. A finished game has no
actions: it adds nothing past depth 0.

>>> from unoengine import parse_state
>>> position = parse_state("classic/2 hands=R7,G2/B3,Y9 discard=R5 color=r pending=turn:0")
>>> perft(position, 1), perft(position, 2)
(3, 6)
>>> {f"{seat} {action}": count for (seat, action), count in divide(position, 2).items()}
{'0 R7': 3, '0 R7 uno': 1, '0 draw': 2}

Files of positions and their counts (``tests/perft/*.perft``) are read by
:func:`parse_perft`; the format is in docs/NOTATION.md ("Perft files").

This module is pure (no I/O) and typed for mypyc; it reads the core only
through its public functions.
"""

from __future__ import annotations

from dataclasses import dataclass

from unoengine.core.actions import Action
from unoengine.core.cards import Seat
from unoengine.core.engine import apply_unchecked, legal_actions
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.notation import MAX_DIGITS, parse_state
from unoengine.core.state import GameState, is_int

Move = tuple[Seat, Action]
"""One branch of the tree: a seat and one of its legal actions."""


def moves(state: GameState) -> list[Move]:
    """Every legal action of every seat now: the seat to decide first, then the others in seat order."""
    seats = state.seats
    first = state.to_act
    out: list[Move] = []
    if first is not None:
        for action in legal_actions(state, first):
            out.append((first, action))
    for seat in range(seats):
        if seat != first:
            for action in legal_actions(state, seat):
                out.append((seat, action))
    return out


def _count(state: GameState) -> int:
    """The number of legal actions of every seat (depth 1: no action is applied)."""
    total = 0
    for seat in range(state.seats):
        total += len(legal_actions(state, seat))
    return total


def _perft(state: GameState, depth: int) -> int:
    if depth == 1:
        return _count(state)
    total = 0
    for seat, action in moves(state):
        total += _perft(apply_unchecked(state, seat, action), depth - 1)
    return total


def _check_depth(depth: object) -> int:
    if not is_int(depth) or depth < 0:
        raise ValueError(f"a perft depth is an integer of at least 0, not {excerpt(depth)}")
    return depth


def perft(state: GameState, depth: object) -> int:
    """The number of action sequences of ``depth`` actions from ``state`` (1 for depth 0).

    Raises:
        ValueError: ``depth`` is not an integer of at least 0.
    """
    levels = _check_depth(depth)  # ``object``: a depth that is not an int is refused here, in both builds
    if levels == 0:
        return 1
    return _perft(state, levels)


def divide(state: GameState, depth: object) -> dict[Move, int]:
    """:func:`perft` split by the first action: ``{(seat, action): count}``, in :func:`moves` order.

    The counts add up to ``perft(state, depth)``; each is ``perft`` of the
    position after that action at ``depth - 1``.

    Raises:
        ValueError: ``depth`` is not an integer of at least 1.
    """
    levels = _check_depth(depth)
    if levels == 0:
        raise ValueError("divide needs a depth of at least 1")
    out: dict[Move, int] = {}
    for seat, action in moves(state):
        after = apply_unchecked(state, seat, action)
        out[(seat, action)] = 1 if levels == 1 else _perft(after, levels - 1)
    return out


# -- perft files ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PerftCase:
    """One position of a perft file: its id, its state notation and its counts by depth."""

    id: str
    state: str
    counts: tuple[tuple[int, int], ...]
    """``(depth, count)`` pairs, in the order of the file."""
    line: int
    """The line of the file where the case begins (its ``id``)."""

    def position(self) -> GameState:
        """The case's state.

        Raises:
            InvalidNotationError: the notation is not a state.
        """
        return parse_state(self.state)


def parse_perft(text: str) -> list[PerftCase]:
    """The cases of a perft file (docs/NOTATION.md, "Perft files").

    A depth or count has at most :data:`~unoengine.core.notation.MAX_DIGITS` digits
    (``int()`` of thousands of digits would be refused by Python, or slow).

    Raises:
        InvalidNotationError: a line that is not part of the format, named by its number.
    """
    cases: list[PerftCase] = []
    blocks: list[tuple[int, str, list[tuple[int, str, str]]]] = []  # (line, id, [(line, key, value)])
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "id":
            if not value or value in seen:
                raise InvalidNotationError(f"perft line {number}: an id must be given once: {excerpt(value)}")
            seen.add(value)
            blocks.append((number, value, []))
        elif not blocks:
            raise InvalidNotationError(f"perft line {number}: {excerpt(key)} before any id line")
        elif key in ("state", "perft"):
            blocks[-1][2].append((number, key, value))
        else:
            raise InvalidNotationError(f"perft line {number}: unknown key {excerpt(key)} (id, state, perft)")
    for start, case_id, items in blocks:
        states = [value for _, key, value in items if key == "state"]
        if len(states) != 1 or not states[0]:
            raise InvalidNotationError(f"perft line {start}: case {case_id!r} needs exactly one state line")
        counts: list[tuple[int, int]] = []
        for number, key, value in items:
            if key != "perft":
                continue
            depth_text, _, count_text = value.partition(" ")
            count_text = count_text.strip()
            if not (depth_text.isascii() and depth_text.isdigit() and count_text.isascii() and count_text.isdigit()):
                raise InvalidNotationError(f"perft line {number}: not 'perft DEPTH COUNT': {excerpt(value)}")
            if max(len(depth_text), len(count_text)) > MAX_DIGITS:
                raise InvalidNotationError(
                    f"perft line {number}: a depth or count has at most {MAX_DIGITS} digits: {excerpt(value)}"
                )
            counts.append((int(depth_text), int(count_text)))
        cases.append(PerftCase(case_id, states[0], tuple(counts), start))
    return cases
