"""Game records (docs/NOTATION.md "Game records", "Refusals", "The referee's view")."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import deal_order
from unoengine import (
    Action,
    GameState,
    IllegalActionError,
    Record,
    RecordError,
    ReplayError,
    apply,
    format_card,
    format_record,
    legal_actions,
    new_game,
    parse_card,
    parse_record,
    record_of,
    replay,
    state_to_json,
)
from unoengine.core.rules import find_rules

NOTATION_MD = Path(__file__).resolve().parents[1] / "docs" / "NOTATION.md"


def canonical_deck(rules: str, options: dict[str, Any] | None = None) -> list[str]:
    ruleset = find_rules(rules)
    return [format_card(card) for card in ruleset.make_deck(ruleset.options(options))]


def random_game(rules: str, seats: int, seed: int, steps: int) -> tuple[GameState, list[tuple[int, Action]], GameState]:
    start = new_game(rules, seats, seed=seed, options={"single_round": True})
    rng = random.Random(seed)
    state = start
    taken: list[tuple[int, Action]] = []
    while not state.is_over and len(taken) < steps:
        assert state.to_act is not None
        action = rng.choice(legal_actions(state, state.to_act))
        taken.append((state.to_act, action))
        state = apply(state, state.to_act, action).state
    return start, taken, state


def record_text(**fields: Any) -> str:
    data: dict[str, Any] = {"format": "unoengine-record/1", "rules": "classic", "seats": 2, "seed": 1}
    data.update(fields)
    return json.dumps({key: value for key, value in data.items() if value is not ...})


def refuse(text: str | bytes) -> RecordError:
    """The record is refused, when it is read or at the latest when it is set up."""
    with pytest.raises(RecordError) as error:
        replay(parse_record(text))
    assert str(error.value)
    return error.value


# -- round trips ---------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "seats"), [("classic", 3), ("duo", 2), ("flex", 4)])
@pytest.mark.parametrize("deck", [False, True])
def test_record_round_trips_through_json(rules: str, seats: int, deck: bool) -> None:
    start, taken, final = random_game(rules, seats, seed=11, steps=120)
    record = record_of(start, taken, deck=deck)
    text = format_record(record)
    assert parse_record(text) == record
    assert parse_record(text.encode()) == record
    assert format_record(parse_record(text)) == text
    data = json.loads(text)
    assert data["format"] == "unoengine-record/1"
    assert data["rules"] == rules
    assert data["seats"] == seats
    assert data["seed"] == 11
    assert len(data["actions"]) == len(taken)
    assert ("deck" in data) is deck
    if deck:
        assert sorted(data["deck"]) == sorted(canonical_deck(rules))
    assert replay(record).round == final.round


def test_record_has_one_action_per_line() -> None:
    start, taken, _ = random_game("classic", 2, seed=3, steps=10)
    lines = format_record(record_of(start, taken)).splitlines()
    assert sum(1 for line in lines if '"action"' in line) == len(taken)


def test_record_with_action_appends() -> None:
    start = new_game("classic", 2, seed=5)
    record = record_of(start, [])
    assert record.actions == ()
    longer = record.with_action(1, "draw").with_action(1, "pass")
    assert longer.actions == ((1, "draw"), (1, "pass"))
    assert parse_record(format_record(longer)) == longer


def test_record_keeps_options_and_dealer() -> None:
    start = new_game("classic", 4, seed=9, options={"wild_draw_four": "challenge", "target_score": 100}, dealer=2)
    record = record_of(start, [])
    again = parse_record(format_record(record))
    assert dict(again.options)["wild_draw_four"] == "challenge"
    assert dict(again.options)["target_score"] == 100
    assert again.dealer == 2
    assert again.start() == start


def test_the_notation_example_record_is_read() -> None:
    text = NOTATION_MD.read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert example is not None
    record = parse_record(example.group(1))
    assert record.rules == "classic"
    assert record.seats == 3
    assert record.seed == 7
    assert record.dealer == 0
    assert dict(record.options) == {"wild_draw_four": "strict", "target_score": 500}
    assert record.actions == ((1, "R7"), (2, "draw"))


def test_a_record_without_optional_keys_is_read() -> None:
    record = parse_record('{"rules": "duo", "seats": 2, "seed": 4}')
    assert record == Record(rules="duo", seats=2, seed=4)
    assert replay(record) == new_game("duo", 2, seed=4)


def test_a_given_deck_is_dealt_from_the_top() -> None:
    deck = canonical_deck("classic")
    record = parse_record(record_text(deck=deck, dealer=0))
    state = replay(record)
    cards = state.tables.cards
    # C-2: one card at a time from the dealer's left: seat 1 gets deck[0], seat 0 deck[1], ...
    assert format_card(cards[state.hands[1][0]]) == deck[0]
    assert format_card(cards[state.hands[0][0]]) == deck[1]
    assert [format_card(cards[c]) for c in state.hands[1]] == deck[0:14:2]


# -- refusals of the record itself -----------------------------------------------------


def test_unknown_keys_are_refused() -> None:
    error = refuse(record_text(players=2))
    assert "players" in str(error)


def test_unknown_rule_set_is_refused() -> None:
    error = refuse(record_text(rules="uno attack"))
    assert "uno attack" in str(error)


@pytest.mark.parametrize(
    "options",
    [
        {"house_rule": True},
        {"duo_deck": "standard108"},  # a Duo option, not Classic's
        {"target_score": "500"},
        {"single_round": 1},
        {"wild_draw_four": "sometimes"},
        {"target_score": 0},
    ],
)
def test_unknown_or_bad_options_are_refused(options: dict[str, Any]) -> None:
    error = refuse(record_text(options=options))
    assert next(iter(options)) in str(error)


@pytest.mark.parametrize(("rules", "seats"), [("classic", 1), ("classic", 11), ("duo", 3), ("flex", 9), ("flex", 0)])
def test_seat_counts_the_rule_set_does_not_allow_are_refused(rules: str, seats: int) -> None:
    refuse(record_text(rules=rules, seats=seats))


@pytest.mark.parametrize("dealer", [-1, 2, 5])
def test_a_dealer_that_is_not_a_seat_is_refused(dealer: int) -> None:
    refuse(record_text(dealer=dealer))


@pytest.mark.parametrize(
    "field",
    [
        {"seats": "2"},
        {"seats": 2.0},
        {"seed": "7"},
        {"seed": 1.5},
        {"seed": True},
        {"seed": None},
        {"rules": 3},
        {"options": []},
        {"deck": "R5 G7"},
        {"deck": [1, 2]},
        {"actions": {}},
        {"actions": [{"seat": 1}]},
        {"actions": [{"seat": "1", "action": "draw"}]},
        {"actions": [{"seat": 1, "action": "draw", "note": "x"}]},
        {"actions": [[1, "draw"]]},
        {"dealer": "0"},
        {"format": "unoengine-record/2"},
        {"format": "pgn"},
    ],
)
def test_fields_of_the_wrong_type_are_refused(field: dict[str, Any]) -> None:
    refuse(record_text(**field))


@pytest.mark.parametrize("key", ["rules", "seats", "seed"])
def test_required_keys_are_required(key: str) -> None:
    error = refuse(record_text(**{key: ...}))
    assert key in str(error)


@pytest.mark.parametrize(
    "text",
    ["", "{", '{"rules": "classic",', "not json", "[]", "42", "null", '"record"', b"\xff\xfe\x00", "{'rules': 1}"],
)
def test_corrupt_json_is_refused(text: str | bytes) -> None:
    with pytest.raises(RecordError):
        parse_record(text)


def test_records_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse_record("{")


# -- the deck -------------------------------------------------------------------------


def test_missing_card_is_refused() -> None:
    deck = canonical_deck("classic")
    deck.remove("R7")
    error = refuse(record_text(deck=deck))
    assert "R7" in str(error)


def test_extra_card_is_refused() -> None:
    deck = [*canonical_deck("classic"), "R7"]
    error = refuse(record_text(deck=deck))
    assert "R7" in str(error)


def test_card_swapped_for_a_duplicate_is_refused() -> None:
    deck = canonical_deck("classic")
    deck[deck.index("G0")] = "G1"
    refuse(record_text(deck=deck))


def test_card_of_another_rule_set_is_refused() -> None:
    deck = canonical_deck("classic")
    deck[deck.index("G2")] = "G2|Y"
    error = refuse(record_text(deck=deck))
    assert "G2|Y" in str(error)


def test_flex_deck_with_a_plain_wild_is_refused() -> None:
    deck = canonical_deck("flex")
    deck[deck.index("WAF")] = "W"
    refuse(record_text(rules="flex", deck=deck))


def test_duo_112_deck_in_classic_is_refused() -> None:
    refuse(record_text(deck=canonical_deck("duo")))


def test_duo_108_deck_is_accepted_only_with_its_option() -> None:
    deck = canonical_deck("classic")
    assert sorted(deck) == sorted(canonical_deck("duo", {"duo_deck": "standard108"}))
    refuse(record_text(rules="duo", deck=deck))
    replay(parse_record(record_text(rules="duo", deck=deck, options={"duo_deck": "standard108"})))


def test_deck_entry_that_is_not_a_card_is_refused() -> None:
    deck = canonical_deck("classic")
    deck[0] = "XX"
    error = refuse(record_text(deck=deck))
    assert "XX" in str(error)


def test_deck_in_any_case_and_spacing_is_accepted() -> None:
    deck = [text.lower() if index % 2 else f" {text} " for index, text in enumerate(canonical_deck("classic"))]
    state = replay(parse_record(record_text(deck=deck)))
    assert [format_card(c) for c in state.tables.cards] == canonical_deck("classic")
    assert parse_card(deck[1]) == state.tables.cards[state.hands[0][0]]


# -- refused actions (docs/NOTATION.md "Refusals") --------------------------------------


def test_replay_error_carries_index_action_rule_and_reason() -> None:
    start = new_game("classic", 2, seed=21, options={"single_round": True})
    seat = start.to_act
    assert seat is not None
    other = 1 - seat
    record = record_of(start, [(seat, "draw"), (seat, "pass"), (seat, "draw")])
    with pytest.raises(ReplayError) as error:
        replay(record)
    failure = error.value
    assert failure.index == 2
    assert failure.action == "draw"
    assert failure.rule == "G-4"
    assert str(other) in failure.reason
    assert str(failure) == f"action 2 'draw' refused: G-4 {failure.reason}"
    assert isinstance(failure, ValueError)


def test_replay_error_names_the_rule_that_forbids_the_action() -> None:
    # Seat 1 (the dealer's left, C-6) holds G4, which does not match R5 (C-7).
    deck = deal_order("classic", [["B3"], ["G4"]], top="R5")
    start = new_game("classic", 2, seed=21, deck=deck)
    with pytest.raises(IllegalActionError) as direct:
        apply(start, 1, "G4")
    record = Record(rules="classic", seats=2, seed=21, deck=tuple(deck), actions=((1, "G4"),))
    with pytest.raises(ReplayError) as error:
        replay(parse_record(format_record(record)))
    assert error.value.index == 0
    assert error.value.action == "G4"
    assert error.value.rule == direct.value.rule == "C-7"
    assert error.value.reason == direct.value.reason
    assert str(error.value) == f"action 0 'G4' refused: C-7 {direct.value.reason}"


def test_record_of_a_game_dealt_from_a_given_deck_replays_that_game() -> None:
    """G-1: a game started from an explicit deck order is recorded with that deck."""
    deck = deal_order("classic", [["B3"], ["G4"]], top="R5")
    start = new_game("classic", 2, seed=21, deck=deck)
    actions = [(1, "draw"), (1, "pass")]
    live = start
    for seat, action in actions:
        live = apply(live, seat, action).state
    record = record_of(start, actions, deck=deck)
    assert record.deck is not None
    assert list(record.deck) == deck
    assert replay(record) == live
    for with_deck in (False, True):  # the seed alone would deal another game: refused
        with pytest.raises(ValueError, match="not dealt from its seed"):
            record_of(start, actions, deck=with_deck)


def test_replay_error_for_text_that_is_not_an_action() -> None:
    start = new_game("classic", 2, seed=21)
    seat = start.to_act
    assert seat is not None
    with pytest.raises(ReplayError) as error:
        replay(record_of(start, [(seat, "draw"), (seat, "fold")]))
    assert error.value.index == 1
    assert error.value.action == "fold"
    assert error.value.rule == "G-4"
    assert "fold" in error.value.reason


def test_replay_error_for_a_seat_that_does_not_exist() -> None:
    start = new_game("classic", 2, seed=21)
    with pytest.raises(ReplayError) as error:
        replay(record_of(start, [(7, "draw")]))
    assert error.value.index == 0
    assert error.value.rule == "G-4"


def test_replay_error_after_the_game_is_over() -> None:
    start, taken, final = random_game("duo", 2, seed=2, steps=5000)
    assert final.is_over
    with pytest.raises(ReplayError) as error:
        replay(record_of(start, [*taken, (0, "draw")]))
    assert error.value.index == len(taken)
    assert error.value.rule == "G-4"


# -- the referee's view (state_to_json) ---------------------------------------------------


def referee_table() -> list[tuple[list[str], str]]:
    """The rows of NOTATION.md's referee table: (keys, description)."""
    text = NOTATION_MD.read_text(encoding="utf-8")
    section = text.split("## The referee's view of a state", 1)[1].split("\n## ", 1)[0]
    rows: list[tuple[list[str], str]] = []
    for line in section.splitlines():
        if not line.startswith("|") or line.startswith(("|---", "| key")):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        keys = re.findall(r"`([a-z_]+)`", cells[0])
        rows.append((keys, cells[1]))
    return rows


def test_the_referee_table_is_found() -> None:
    keys = [key for row_keys, _ in referee_table() for key in row_keys]
    assert {"rules", "to_act", "pending", "hands", "power", "volley", "game_winner"} <= set(keys)


def expected_keys(rules: str) -> set[str]:
    out: set[str] = set()
    for keys, description in referee_table():
        only = re.match(r"`?(\w+)`? only", description)
        if only is None or only.group(1).lower() == rules:
            out.update(keys)
    return out


def pending_kinds() -> set[str]:
    for keys, description in referee_table():
        if keys == ["pending"]:
            return set(re.findall(r"`([a-z_]+)`", description))
    raise AssertionError("no pending row")


@pytest.mark.parametrize(("rules", "seats"), [("classic", 3), ("duo", 2), ("flex", 4), ("nomercy", 4)])
def test_state_to_json_has_every_key_of_the_referee_table(rules: str, seats: int) -> None:
    start, taken, final = random_game(rules, seats, seed=5, steps=5000)
    state = start
    expected = expected_keys(rules)
    kinds = pending_kinds()
    seen: set[str] = set()
    for seat, action in [*taken, (None, None)]:
        data = state_to_json(state)
        json.dumps(data)  # JSON-ready
        missing = expected - set(data)
        assert not missing, f"{rules}: missing keys {sorted(missing)}"
        assert data["rules"] == rules
        assert data["seats"] == seats
        assert data["round"] >= 1
        assert data["pending"] in kinds
        seen.add(data["pending"])
        assert data["to_act"] == state.to_act
        assert data["direction"] in (1, -1)
        assert len(data["hands"]) == seats
        assert [len(hand) for hand in data["hands"]] == [len(hand) for hand in state.hands]
        for hand in data["hands"]:
            for card in hand:
                assert format_card(parse_card(card)) == card
        assert data["draw_pile"] == len(state.draw_pile)
        assert data["discard_pile"] == len(state.discard_pile)
        if data["pending"] == "draft":
            assert data["top"] is None
            assert data["color"] is None
        else:
            assert format_card(parse_card(data["top"])) == data["top"]
            assert data["color"] in ("r", "y", "g", "b")
        if rules == "flex":
            assert set(data["power"]) <= {"green", "red"}
            assert len(data["power"]) == seats
        if rules == "duo":
            assert isinstance(data["volley"], int)
            assert data["volley"] >= 0
            assert (data["volley"] > 0) == (data["pending"] == "volley")
        assert len(data["scores"]) == seats
        if seat is None:
            break
        assert action is not None
        state = apply(state, seat, action).state
    assert state == final
    final_data = state_to_json(final)
    assert final_data["pending"] == "game_over"
    assert final_data["to_act"] is None
    assert final_data["game_winner"] == final.outcome.winner  # type: ignore[union-attr]
    assert final_data["round_winner"] == final.round_winner
    assert "turn" in seen and "drawn" in seen


def test_state_to_json_game_winner_is_null_while_the_game_goes_on() -> None:
    data = state_to_json(new_game("classic", 2, seed=1))
    assert data["game_winner"] is None
    assert data["round_winner"] is None
    assert data["round"] == 1
    assert data["scores"] == [0, 0]
    assert "power" not in data or data["power"] == []
