"""Perft: the counts of tests/perft/*.perft, checked three ways.

1. Every count of every file is :func:`perft` of its position (the fast depths
   here, every depth behind the ``slow`` marker): legal-move generation and
   ``apply`` of every rule set and house rule must not change a count.
2. A naive count written here (every seat's ``legal_actions``, the checked
   ``apply`` of each, no counting shortcut at the leaves) agrees with the file on
   every case up to :data:`NAIVE_LIMIT`, so the file is not just the code
   agreeing with itself.
3. Two tiny positions are counted by hand below, move by move.
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from unoengine import GameState, InvalidNotationError, apply, format_action, legal_actions, new_game, parse_state
from unoengine.cli.main import cli
from unoengine.cli.perft import CHUNK_DEPTH, counted
from unoengine.core.notation import format_state
from unoengine.core.options import parse_options
from unoengine.core.perft import PerftCase, divide, moves, parse_perft, perft
from unoengine.core.rules import find_rules

PERFT_DIR = Path(__file__).resolve().parent / "perft"
FAST_LIMIT = 20_000
"""Counts up to this are checked in the default run; larger ones only with ``-m slow``."""
NAIVE_LIMIT = 3_000
"""Counts up to this are also checked by :func:`naive`."""


def cases() -> list[PerftCase]:
    out: list[PerftCase] = []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        out += parse_perft(path.read_text(encoding="utf-8"))
    return out


CASES = cases()


def depth_params(fast: bool) -> list[object]:
    out: list[object] = []
    for case in CASES:
        for depth, count in case.counts:
            if (count <= FAST_LIMIT) == fast:
                marks = () if fast else (pytest.mark.slow,)
                out.append(pytest.param(case, depth, count, id=f"{case.id}-{depth}", marks=marks))
    return out


def test_the_files_cover_every_rule_set_and_decision() -> None:
    """Classic 2 and 4 seats, Duo, Flex, house rules; every pending decision kind; deep enough."""
    assert len(CASES) >= 30
    positions = [case.position() for case in CASES]
    kinds = {state.pending.kind for state in positions}
    assert kinds >= {"turn", "drawn", "challenge", "stack", "draft", "color", "volley", "dump", "game_over"}
    assert {(state.rules.name, state.seats) for state in positions} >= {
        ("classic", 2),
        ("classic", 4),
        ("duo", 2),
        ("flex", 4),
    }
    assert any(state.unsafe is not None for state in positions)  # the UNO window
    assert any(state.options.seven_zero for state in positions) and any(state.options.jump_in for state in positions)
    assert any(state.power and not all(state.power) for state in positions)  # a red Power Card
    texts = {format_action(a) for state in positions for _, a in moves(state)}
    assert any(">" in text for text in texts) and any("@flex" in text for text in texts) and "catch 0" in texts
    assert max(depth for case in CASES for depth, _ in case.counts) >= 5


@pytest.mark.parametrize(("case", "depth", "count"), depth_params(fast=True))
def test_perft(case: PerftCase, depth: int, count: int) -> None:
    assert perft(case.position(), depth) == count


@pytest.mark.parametrize(("case", "depth", "count"), depth_params(fast=False))
def test_perft_deep(case: PerftCase, depth: int, count: int) -> None:
    assert perft(case.position(), depth) == count


def naive(state: GameState, depth: int) -> int:
    """Every seat's legal actions, each applied with the checking ``apply``, to the depth; no shortcut."""
    if depth == 0:
        return 1
    return sum(
        naive(apply(state, seat, action).state, depth - 1)
        for seat in reversed(range(state.seats))
        for action in legal_actions(state, seat)
    )


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_naive_count_agrees_with_the_file(case: PerftCase) -> None:
    position = parse_state(case.state)
    checked = [(depth, count) for depth, count in case.counts if count <= NAIVE_LIMIT]
    assert checked, "every case has a depth the naive count can check"
    for depth, count in checked:
        assert naive(position, depth) == count, f"{case.id} depth {depth}"


def test_hand_count_of_a_two_card_position() -> None:
    """Seat 0 holds R7, G2 on R5 (red); seat 1 holds B3, Y9; the draw pile's top is R0 (``draw=*``).

    Depth 1 (3): ``R7``, ``R7 uno``, ``draw``; seat 1 has nothing.
    Depth 2 (6):
      after ``R7`` seat 0 holds one card uncalled: seat 1 ``draw`` (B3, Y9 do not
      match), seat 1 ``catch 0``, seat 0 ``uno`` (3); after ``R7 uno``, seat 1
      ``draw`` (1); after ``draw`` seat 0 holds R0 drawn: play ``R0`` or ``pass`` (2).
    Depth 3 (8):
      ``R7`` ``draw``: seat 1 drew R0, plays it or passes (2); ``R7`` ``catch 0``:
      seat 0 draws 2, seat 1 still must ``draw`` (1); ``R7`` ``uno``: seat 1 ``draw``
      (1); ``R7 uno`` ``draw``: R0 or pass (2); ``draw`` ``R0``: seat 1 ``draw`` (1);
      ``draw`` ``pass``: seat 1 ``draw`` (1).
    """
    position = parse_state("classic/2 hands=R7,G2/B3,Y9 discard=R5 color=r pending=turn:0")
    assert [perft(position, depth) for depth in (0, 1, 2, 3)] == [1, 3, 6, 8]
    split = {f"{seat} {format_action(action)}": count for (seat, action), count in divide(position, 3).items()}
    assert split == {"0 R7": 4, "0 R7 uno": 2, "0 draw": 2}


def test_hand_count_of_a_wild() -> None:
    """Seat 0 holds W, G2 on R5 (red); seat 1 holds B3; the draw pile's top is R0.

    Depth 1 (9): the Wild naming each of four colours, with and without ``uno``
    (it leaves one card), and ``draw``.
    Depth 2 (20):
      after ``W:c`` (no call) seat 0 can be caught: seat 1 ``draw`` or ``catch 0``,
      seat 0 ``uno``, and seat 1 ``B3`` (its last card: no ``uno`` to call) when c
      is blue: 3 + 3 + 3 + 4 = 13;
      after ``W:c uno``: seat 1 ``draw``, and ``B3`` when blue: 1 + 1 + 1 + 2 = 5;
      after ``draw`` (R0 drawn, red on red): ``R0`` or ``pass``: 2.
    """
    position = parse_state("classic/2 hands=W,G2/B3 discard=R5 color=r pending=turn:0")
    assert [perft(position, depth) for depth in (1, 2)] == [9, 20]
    assert [format_action(action) for _, action in moves(position)] == [
        "W:r",
        "W:r uno",
        "W:y",
        "W:y uno",
        "W:g",
        "W:g uno",
        "W:b",
        "W:b uno",
        "draw",
    ]
    split = {format_action(action): count for (_, action), count in divide(position, 2).items()}
    assert split == {
        **{f"W:{c}": 3 for c in "ryg"},
        **{f"W:{c} uno": 1 for c in "ryg"},
        "W:b": 4,
        "W:b uno": 2,
        "draw": 2,
    }


NO_MERCY_BY_HAND: dict[str, tuple[int, ...]] = {
    "nomercy-2-stack": (6, 33),
    "nomercy-3-roulette": (4, 7, 9),
    "nomercy-2-discard-all": (5, 13),
    "nomercy-4-skip-everyone": (3, 7),
    "nomercy-4-seven-zero-knocked-out": (4, 7),
    "nomercy-3-mercy": (2, 2, 3),
    "nomercy-2-reverse": (6, 18),
    "nomercy-3-reverse-stack": (5, 23),
    "nomercy-3-drawn": (4, 36),
}
"""The No Mercy counts from depth 1 counted by hand: the reasoning of each is beside its case in
tests/perft/nomercy.perft (the rules N-9 ... N-24 it exercises, move by move)."""


def test_the_files_cover_no_mercy() -> None:
    """No Mercy at 2, 3 and 4 seats: a stack, a roulette, a knocked-out seat, a seat at 24 cards, and its cards."""
    positions = [case.position() for case in CASES if case.id.startswith("nomercy-")]
    assert {state.seats for state in positions} >= {2, 3, 4}
    assert all(state.rules.name == "nomercy" for state in positions)
    assert {state.pending.kind for state in positions} >= {"turn", "drawn", "stack", "roulette"}
    assert any(not all(state.power) for state in positions)  # N-22: a seat out of the round
    assert any(24 in map(len, state.hands) for state in positions)  # N-21: one card from the Mercy Rule
    texts = {format_action(action) for state in positions for _, action in moves(state)}
    assert {"G+4", "WR+4:b", "GDA uno", "BSE", "R7>3", "R0", "color y"} <= texts


@pytest.mark.parametrize("case_id", list(NO_MERCY_BY_HAND))
def test_no_mercy_counts_counted_by_hand(case_id: str) -> None:
    (case,) = [case for case in CASES if case.id == case_id]
    by_hand = NO_MERCY_BY_HAND[case_id]
    assert [dict(case.counts)[depth] for depth in range(1, len(by_hand) + 1)] == list(by_hand)
    assert [perft(case.position(), depth) for depth in range(1, len(by_hand) + 1)] == list(by_hand)


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    """A state some random actions into a game (any rule set, seat count, preset, seed; No Mercy has no preset)."""
    rules = draw(st.sampled_from(["classic", "duo", "flex", "nomercy"]))
    allowed = find_rules(rules).seats
    seats = draw(st.integers(allowed.start, min(allowed.stop - 1, 5)))
    preset = draw(st.sampled_from(["official", "mattel_house", "mobile", "party"]))
    seed = draw(st.integers(0, 2**32 - 1))
    state = new_game(rules, seats, seed=seed, options=parse_options(rules, {"single_round": True}, preset=preset))
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 80))):
        branches = moves(state)
        if not branches:
            break
        seat, action = branches[int(rng.random() * len(branches))]
        state = apply(state, seat, action).state
    return state


SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


@SETTINGS
@given(positions())
def test_depth_one_counts_every_seats_legal_actions(state: GameState) -> None:
    assert perft(state, 1) == sum(len(legal_actions(state, seat)) for seat in range(state.seats)) == len(moves(state))
    assert perft(state, 0) == 1


@SETTINGS
@given(positions(), st.integers(1, 2))
def test_divide_adds_up_to_perft(state: GameState, depth: int) -> None:
    split = divide(state, depth)
    assert list(split) == moves(state)
    assert sum(split.values()) == perft(state, depth)
    for (seat, action), count in split.items():
        assert count == perft(apply(state, seat, action).state, depth - 1)


def test_bad_depths_are_refused() -> None:
    state = parse_state("classic/2 hands=R7,G2/B3,Y9 discard=R5 color=r pending=turn:0")
    for depth in (-1, 1.0, True, "2", None):
        with pytest.raises(ValueError, match="perft depth"):
            perft(state, depth)
    with pytest.raises(ValueError, match="at least 1"):
        divide(state, 0)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("state classic/2 hands=R7/B3 discard=R5 pending=turn:0\n", "line 1: 'state' before any id line"),
        ("id a\nid a\n", "line 2: an id must be given once"),
        ("id a\nperft 1 3\n", "line 1: case 'a' needs exactly one state line"),
        ("id a\nstate x\nperft one 3\n", "line 3: not 'perft DEPTH COUNT'"),
        ("id a\nstate x\nperft 1\n", "line 3: not 'perft DEPTH COUNT'"),
        ("id a\nstate x\nfen y\n", "line 3: unknown key 'fen'"),
    ],
)
def test_a_bad_perft_file_is_refused_with_its_line(text: str, problem: str) -> None:
    with pytest.raises(InvalidNotationError, match=re.escape(problem)):
        parse_perft(text)


def test_a_perft_file_reads_ids_states_and_counts() -> None:
    text = "# a comment\n\nid tiny\n# why\nstate classic/2 hands=R7,G2/B3,Y9 discard=R5 color=r pending=turn:0\n"
    text += "perft 1 3\nperft 2 6\n"
    (case,) = parse_perft(text)
    assert (case.id, case.counts, case.line) == ("tiny", ((1, 3), (2, 6)), 3)
    assert perft(case.position(), 2) == 6


TINY = "classic/2 hands=R7,G2/B3,Y9 discard=R5 color=r pending=turn:0"


def test_uno_perft_counts_and_divides() -> None:
    runner = CliRunner()
    counted = runner.invoke(cli, ["perft", TINY, "--depth", "3"])
    assert counted.exit_code == 0 and counted.stdout.splitlines() == ["perft 1 3", "perft 2 6", "perft 3 8"]
    split = runner.invoke(cli, ["perft", TINY, "-d", "3", "--divide"])
    assert split.exit_code == 0 and split.stdout.splitlines() == ["0 R7: 4", "0 R7 uno: 2", "0 draw: 2", "total 8"]


def test_uno_perft_checks_a_file_and_shows_the_divide_of_a_wrong_count(tmp_path: Path) -> None:
    good = tmp_path / "good.perft"
    good.write_text(f"id tiny\nstate {TINY}\nperft 1 3\nperft 2 6\nperft 3 8\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["perft", "--file", str(good)])
    assert result.exit_code == 0 and "3 counts of 1 positions checked" in result.stdout
    bad = tmp_path / "bad.perft"
    bad.write_text(f"id tiny\nstate {TINY}\nperft 2 7\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["perft", "--file", str(bad)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == ["tiny perft 2: 6, the file says 7", "  0 R7: 3"]
    assert result.stderr.strip().endswith("1 differ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nonsense"], "error: not a state: "),
        ([], "error: give a STATE or --file FILE (one of them)"),
        ([TINY, "--file", "x"], "error: give a STATE or --file FILE (one of them)"),
        (["--file", "/no/such/file.perft"], "error: cannot read /no/such/file.perft: no such file or directory"),
        ([TINY, "--depth", "0"], "Invalid value for '--depth'"),
    ],
)
def test_uno_perft_refuses_bad_input_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["perft", *args])
    assert result.exit_code == 2 and message in result.stderr


BUSY = format_state(
    new_game("classic", 4, seed=3, options=parse_options("classic", ["jump_in=true", "seven_zero=true"]))
)
"""A position whose deep counts take minutes (branching about 3)."""


def test_uno_perft_counts_in_chunks_as_the_core_counts() -> None:
    position = parse_state(BUSY)
    for depth in (1, CHUNK_DEPTH, CHUNK_DEPTH + 2):
        assert counted(position, depth) == perft(position, depth)
    split = CliRunner().invoke(cli, ["perft", BUSY, "-d", str(CHUNK_DEPTH + 2), "--divide"])
    expected = [
        f"{seat} {format_action(action)}: {n}" for (seat, action), n in divide(position, CHUNK_DEPTH + 2).items()
    ]
    assert split.exit_code == 0 and split.stdout.splitlines()[:-1] == expected


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("perft 2 " + "6" * 5000, "a depth or count has at most 40 digits"),
        ("perft " + "2" * 5000 + " 6", "a depth or count has at most 40 digits"),
        ("perft 999 6", "perft depth 999 is out of range (expected from 1 to 30, as --depth)"),
        ("perft 0 1", "perft depth 0 is out of range (expected from 1 to 30, as --depth)"),
    ],
)
def test_uno_perft_file_bounds_its_numbers_as_depth_in_one_line(tmp_path: Path, line: str, message: str) -> None:
    """A file's depth is 1-30 as --depth's, its numbers at most 40 digits: refused before any count (exit 2)."""
    file = tmp_path / "bounds.perft"
    file.write_text(f"id tiny\nstate {TINY}\nperft 1 3\n{line}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["perft", "--file", str(file), "--max-nodes", "9" * 18])
    assert result.exit_code == 2 and result.stdout == ""
    (error,) = result.stderr.splitlines()
    assert message in error and len(error) <= 500


@pytest.mark.parametrize("args", [["--depth", "30"], ["--depth", "30", "--divide"], ["--file"]])
def test_uno_perft_stops_promptly_on_ctrl_c(tmp_path: Path, args: list[str]) -> None:
    """SIGINT in the middle of a long count: 'Interrupted' and exit status 130, at once (not at the next depth)."""
    if args == ["--file"]:
        file = tmp_path / "long.perft"
        file.write_text(f"id busy\nstate {BUSY}\nperft 30 1\n", encoding="utf-8")
        command = ["--file", str(file), "--max-nodes", "9" * 18]
    else:
        command = [BUSY, *args]
    process = subprocess.Popen(
        [sys.executable, "-m", "unoengine.cli", "perft", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        if args == ["--depth", "30"]:  # each depth's time is a line on stderr: wait until deep in the count
            while "depth 9:" not in process.stderr.readline():
                assert process.poll() is None
        else:
            time.sleep(3.0)
        assert process.poll() is None
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 130
    assert err.splitlines()[-1] == "Interrupted"
    assert took < 1.5, f"took {took:.2f} s to stop"
