"""``uno analyze`` and :mod:`unoengine.analysis` (docs/REVIEW.md): known positions, fairness, jobs, golden JSON, CLI.

Budgets are small (a few dozen deals a decision) to keep the file fast; the known
positions are clear enough to be read at that budget.

The golden review (tests/analysis/golden/review-classic-2.json, of tests/golden/classic-2.record.json)
is regenerated with
``.venv/bin/python -m tests.analysis.test_review`` after an intended change; review the diff.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from unoengine import format_card, new_game, view_for
from unoengine.analysis import THRESHOLDS, accuracy_of, analyze, decisions_of, mark_of
from unoengine.bots.ismcts import rollout_action
from unoengine.cli.main import cli
from unoengine.core.actions import format_action, parse_action
from unoengine.core.engine import apply, deck_order, legal_actions
from unoengine.core.record import Record, first_deck, format_record, parse_record, record_of

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GOLDEN_RECORD = GOLDEN / "classic-2.record.json"
GOLDEN_REVIEW = Path(__file__).resolve().parent / "golden" / "review-classic-2.json"
GOLDEN_ITERATIONS = 16

SEAT1 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
SEAT0 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]


def arranged(hand0: Sequence[str], hand1: Sequence[str], starter: str, draw: Sequence[str] = ()) -> list[str]:
    """A Classic 2-seat deck (dealer 0) dealing these hands and starter, ``draw`` on top of the draw pile."""
    deck = [format_card(card) for card in first_deck(new_game("classic", 2, seed=0))]
    top: list[str] = []
    for first, second in zip(hand1, hand0, strict=True):  # one card at a time from the dealer's left: seat 1 first
        top += [first, second]
    top += [starter, *draw]
    for card in top:
        deck.remove(card)
    return top + deck


def arranged_record(actions: Sequence[tuple[int, str]], draw: Sequence[str] = ("G5", "G6")) -> Record:
    deck = arranged(SEAT0, SEAT1, "R9", draw)
    return Record("classic", 2, 0, (("single_round", True),), 0, tuple(deck), tuple(actions))


def down_to_two() -> list[tuple[int, str]]:
    """Both seats play their reds in turn until seat 1 holds R6 and R7, seat 0 R6 and R7 (seat 1 to act)."""
    actions: list[tuple[int, str]] = []
    for number in range(1, 6):
        actions += [(1, f"R{number}"), (0, f"R{number}")]
    return actions


def review(record: Record, index: int, iterations: int = 48) -> dict[str, object]:
    found = [d for d in analyze(record, iterations=iterations).decisions if d.index == index]
    assert found, f"decision {index} was not reviewed: {decisions_of(record)}"
    return found[0].to_json()


# -- known positions ----------------------------------------------------------------------------


def test_not_playing_the_last_card_is_a_blunder() -> None:
    record = arranged_record([*down_to_two(), (1, "R6 uno"), (0, "R6"), (1, "draw")])
    got = review(record, 12)
    assert got["action"] == "draw"
    assert got["best"] == "R7"
    assert got["best_win"] == 1.0
    assert got["mark"] == "blunder"


def test_playing_the_last_card_gets_no_mark() -> None:
    record = arranged_record([*down_to_two(), (1, "R6 uno"), (0, "R6"), (1, "R7")])
    got = review(record, 12)
    assert got["action"] == got["best"] == "R7"
    assert got["win"] == got["best_win"] == 1.0
    assert got["mark"] is None


def test_going_down_to_one_card_without_calling_uno_is_marked() -> None:
    record = arranged_record([*down_to_two(), (1, "R6"), (0, "catch 1")])
    got = review(record, 10)
    assert got["action"] == "R6"
    assert got["best"] in ("R6 uno", "R7 uno")
    assert got["mark"] in ("mistake", "blunder")


def test_calling_uno_just_after_the_play_is_the_same_move() -> None:
    record = arranged_record([*down_to_two(), (1, "R6"), (1, "uno"), (0, "R6")])
    got = review(record, 10)
    assert got["action"] == "R6"
    assert got["mark"] is None
    assert 11 not in decisions_of(record)  # the call itself is not a decision


def test_a_decision_with_one_sensible_move_is_not_reviewed() -> None:
    # Seat 1 draws G5 on R6: it cannot play it, so `pass` is its only move.
    record = arranged_record([*down_to_two(), (1, "R6 uno"), (0, "R6"), (1, "draw"), (1, "pass")], draw=("G5",))
    indices = decisions_of(record)
    assert 12 in indices
    assert 13 not in indices
    assert all(
        d.mark is None for d in analyze(record, [0], iterations=8).decisions if d.seat == 0 and d.best == d.action
    )


def test_marks_and_accuracy() -> None:
    assert mark_of(0.0) is None
    assert mark_of(THRESHOLDS["inaccuracy"]) == "inaccuracy"
    assert mark_of(THRESHOLDS["mistake"]) == "mistake"
    assert mark_of(THRESHOLDS["blunder"]) == "blunder"
    assert mark_of(1.0) == "blunder"
    assert accuracy_of([]) == 100.0
    assert accuracy_of([0.0]) == 100.0
    assert accuracy_of([1.0]) == 0.0
    assert 0 < accuracy_of([0.1]) < 100


# -- fairness ----------------------------------------------------------------------------------


def played_record(seed: int, actions: int) -> Record:
    """A heads-up game of the heuristic policy, cut after ``actions`` actions (an unfinished game), with its deck."""
    start = new_game("classic", 2, seed=seed, options={"single_round": True})
    rng = random.Random(seed)
    state = start
    taken: list[tuple[int, str]] = []
    while state.outcome is None and len(taken) < actions:
        seat = state.pending.seat
        assert seat is not None
        action = rollout_action(state, seat, legal_actions(state, seat), rng)
        taken.append((seat, format_action(action)))
        state = apply(state, seat, action).state
    return record_of(start, taken, deck=True)


def resampled(record: Record, seat: int, rng: random.Random) -> Record:
    """The record with the cards ``seat`` never sees dealt afresh: the same actions, another deck.

    A card is seen by ``seat`` when it is in its hand or in the discard pile at any point of the
    game. The cards of the deck that are never seen (the other hands' cards that are never played,
    the draw pile's cards nobody draws, or that the other seats draw and keep) are shuffled among
    their places; every other card stays where it was. The seat's view is then the same before
    each of its actions (checked), so its review must be the same.
    """
    assert record.deck is not None
    start = record.start()
    ids = deck_order(start.tables, list(record.deck), start.rules)
    seen: set[int] = set()
    state = start
    for acting, text in record.actions:
        seen.update(state.hand_bytes[seat])
        seen.update(state.discard_pile)
        state = apply(state, acting, parse_action(text)).state
    seen.update(state.hand_bytes[seat])
    seen.update(state.discard_pile)
    places = [place for place, card in enumerate(ids) if card not in seen]
    cards = [record.deck[place] for place in places]
    rng.shuffle(cards)
    deck = list(record.deck)
    for place, card in zip(places, cards, strict=True):
        deck[place] = card
    return Record(record.rules, record.seats, record.seed, record.options, record.dealer, tuple(deck), record.actions)


def views(record: Record, seat: int) -> list[object]:
    out: list[object] = []
    state = record.start()
    for acting, text in record.actions:
        if acting == seat:
            out.append(view_for(state, seat))
        state = apply(state, acting, parse_action(text)).state
    return out


@pytest.mark.parametrize("seat", [0, 1])
def test_the_review_of_a_seat_uses_only_its_view(seat: int) -> None:
    record = played_record(5, 40)
    other = resampled(record, seat, random.Random(1))
    assert other.deck != record.deck  # something hidden did change …
    assert views(other, seat) == views(record, seat)  # … and the seat could not tell
    mine = analyze(record, [seat], iterations=12, seed=3)
    theirs = analyze(other, [seat], iterations=12, seed=3)
    assert mine.decisions
    assert mine == theirs


def test_a_decisions_review_does_not_depend_on_the_seats_chosen() -> None:
    record = played_record(6, 30)
    both = analyze(record, iterations=8, seed=2)
    alone = analyze(record, [1], iterations=8, seed=2)
    assert alone.decisions == tuple(d for d in both.decisions if d.seat == 1)


# -- jobs, determinism, golden ---------------------------------------------------------------


def test_jobs_two_gives_the_same_review_as_one() -> None:
    record = played_record(7, 30)
    calls: list[tuple[int, int]] = []
    one = analyze(record, iterations=8, seed=4)
    two = analyze(record, iterations=8, seed=4, jobs=2, progress=lambda done, total: calls.append((done, total)))
    assert one == two
    total = len(decisions_of(record))
    assert calls == [(done, total) for done in range(1, total + 1)]


def golden_json() -> str:
    record = parse_record(GOLDEN_RECORD.read_text(encoding="utf-8"))
    return json.dumps(analyze(record, iterations=GOLDEN_ITERATIONS, seed=0).to_json(), indent=1) + "\n"


def test_golden_review() -> None:
    expected = GOLDEN_REVIEW.read_text(encoding="utf-8")
    assert golden_json() == expected, "run `.venv/bin/python -m tests.analysis.test_review` and review the diff"


def test_the_analysis_package_does_no_io() -> None:
    source = Path(__file__).resolve().parents[2] / "src" / "unoengine" / "analysis"
    for path in source.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for word in ("open(", "print(", "import os", "pathlib", "sys.std"):
            assert word not in text, f"{path.name} does I/O ({word})"


# -- the command -------------------------------------------------------------------------------


def test_cli_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = played_record(8, 16)
    path.write_text(format_record(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["analyze", str(path), "--iterations", "4", "--json", "--seat", "0"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["rules", "seats", "decisions", "players"]
    assert data == analyze(record, [0], iterations=4).to_json()
    table = CliRunner().invoke(cli, ["analyze", "-", "--iterations", "4"], input=format_record(record))
    assert table.exit_code == 0, table.output
    assert "accuracy" in table.stdout


@pytest.mark.parametrize(
    ("args", "text", "needle"),
    [
        (["missing.json"], None, "cannot read"),
        (["-"], "{not json", "record refused"),
        (["-", "--seat", "2"], "GOOD", "--seat 2 is not a seat"),
        (["-", "--jobs", "0"], "GOOD", "--jobs must be"),
        (["-", "--iterations", "0"], "GOOD", "--iterations must be"),
        (["-"], "ILLEGAL", "action 0"),
    ],
)
def test_cli_refuses_bad_input(tmp_path: Path, args: list[str], text: str | None, needle: str) -> None:
    good = format_record(played_record(9, 4))
    data = good if text == "GOOD" else text
    if text == "ILLEGAL":
        data = format_record(Record("classic", 2, 0, actions=((0, "W+4:r"),)))
    result = CliRunner().invoke(cli, ["analyze", *args], input=data)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr


if __name__ == "__main__":
    GOLDEN_REVIEW.write_text(golden_json(), encoding="utf-8")
    print(f"wrote {GOLDEN_REVIEW}")
