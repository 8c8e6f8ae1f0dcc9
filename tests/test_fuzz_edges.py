"""Fuzzing the edges: whatever comes in, a result or a documented refusal, never a traceback.

- ``uno replay`` of random bytes, random JSON and mutated valid records either
  succeeds or exits with status 2 and one escaped line of bounded length;
- ``parse_record``/``replay`` of the same raise only :class:`RecordError` or
  :class:`ReplayError`;
- every ``parse_*`` of random text (and of what is not text) raises only
  :class:`InvalidNotationError`;
- ``apply`` of random (seat, action) values returns a transition or raises only
  :class:`IllegalActionError` or :class:`InvalidNotationError`.

A few thousand examples in all (about half a minute). The memory bound of large
inputs is checked in tests/test_bad_notation_and_records.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoengine import (
    Action,
    Card,
    GameState,
    IllegalActionError,
    InvalidNotationError,
    Play,
    RecordError,
    ReplayError,
    Transition,
    apply,
    format_record,
    legal_actions,
    new_game,
    parse_action,
    parse_card,
    parse_record,
    record_of,
    replay,
)
from unoengine.bots.base import make_bot
from unoengine.cli.common import LINE_LIMIT
from unoengine.cli.main import cli
from unoengine.core.cards import COLORS, Color, Rank
from unoengine.core.errors import MESSAGE_LIMIT
from unoengine.core.rules import RULESETS


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# -- valid records to mutate ---------------------------------------------------------------


@cache
def base_records() -> tuple[str, ...]:
    """A few complete games of every rule set, as record text (some with their deck written out)."""
    texts: list[str] = []
    for rules, seats, seed in (("classic", 3, 1), ("duo", 2, 2), ("flex", 4, 3), ("classic", 2, 4)):
        state = new_game(rules, seats, seed=seed, options={"single_round": True})
        start = state
        bots = [make_bot("random", random.Random(f"{seed}:{seat}")) for seat in range(seats)]
        actions: list[tuple[int, Action]] = []
        while state.outcome is None and len(actions) < 2000:
            seat = state.to_act
            assert seat is not None
            action = bots[seat].choose(None, legal_actions(state, seat))
            actions.append((seat, action))
            state = apply(state, seat, action).state
        texts.append(format_record(record_of(start, actions, deck=seed % 2 == 0)))
    return tuple(texts)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)

NOTATION_TEXT = st.text(alphabet="RYGBWSF+!|@flex:ryg>0123456789 unocatchdrwpsakejtl\t\n\x1b\u0663", max_size=30)
"""Text close to notation (its letters, digits and signs, a tab, an escape, a non-ASCII digit)."""

ANY_TEXT = st.text(max_size=40) | NOTATION_TEXT


def mutations(data: dict[str, Any]) -> st.SearchStrategy[Any]:
    """One structural change of a parsed record: a field, an action, a deck card."""
    keys = sorted(data)
    actions = data.get("actions", [])
    change_field = st.tuples(st.sampled_from([*keys, "extra", "\x1b]2;x\x07"]), JSON).map(
        lambda pair: {**data, pair[0]: pair[1]}
    )
    drop_field = st.sampled_from(keys).map(lambda key: {k: v for k, v in data.items() if k != key})
    strategies = [change_field, drop_field, JSON]
    if actions:
        index = st.integers(0, len(actions) - 1)
        new_action = st.fixed_dictionaries({"seat": st.integers(-3, 12) | st.integers(), "action": ANY_TEXT}) | JSON
        strategies.append(
            st.tuples(index, new_action).map(
                lambda pair: {**data, "actions": [*actions[: pair[0]], pair[1], *actions[pair[0] + 1 :]]}
            )
        )
        strategies.append(index.map(lambda cut: {**data, "actions": actions[:cut] + actions[cut + 1 :]}))
        strategies.append(
            st.randoms(use_true_random=False).map(lambda rng: {**data, "actions": rng.sample(actions, len(actions))})
        )
    if "deck" in data:
        position = st.integers(0, len(data["deck"]) - 1)
        strategies.append(
            st.tuples(position, ANY_TEXT | JSON).map(
                lambda pair: {**data, "deck": [*data["deck"][: pair[0]], pair[1], *data["deck"][pair[0] + 1 :]]}
            )
        )
    return st.one_of(strategies)


@st.composite
def mutated_records(draw: st.DrawFn) -> str | bytes:
    """A valid record, changed: in its structure, or as text (cut, spliced, a byte changed)."""
    text = draw(st.sampled_from(base_records()))
    how = draw(st.sampled_from(["structure", "cut", "splice", "byte", "same"]))
    if how == "structure":
        return json.dumps(draw(mutations(json.loads(text))))
    if how == "same":
        return text
    where = draw(st.integers(0, len(text)))
    if how == "cut":
        return text[:where]
    if how == "splice":
        return text[:where] + draw(ANY_TEXT) + text[where + draw(st.integers(0, 20)) :]
    raw = bytearray(text.encode())
    raw[min(where, len(raw) - 1)] = draw(st.integers(0, 255))
    return bytes(raw)


RANDOM_INPUT = st.binary(max_size=300) | JSON.map(json.dumps)
RECORD_INPUT = RANDOM_INPUT | mutated_records() | mutated_records()


# -- uno replay ----------------------------------------------------------------------------


def replay_cli(data: str | bytes) -> Result:
    return CliRunner().invoke(cli, ["replay", "-", "--json"], input=data)


def assert_result_or_one_line(result: Result) -> None:
    """Exit 0, or exit 2 and one escaped line of bounded length on stderr; never a traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        assert result.stderr == ""
        json.loads(result.stdout)
        return
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    error = result.stderr
    assert error.endswith("\n") and error.count("\n") == 1, error
    line = error[:-1]
    assert len(line) <= LINE_LIMIT, len(line)
    assert all(char.isprintable() for char in line), line
    assert line.startswith(("record refused: ", "action ")), line


@fuzz(400)
@given(RANDOM_INPUT)
def test_uno_replay_of_random_bytes_and_json_is_one_line(data: str | bytes) -> None:
    assert_result_or_one_line(replay_cli(data))


@fuzz(700)
@given(mutated_records())
def test_uno_replay_of_a_mutated_record_is_a_result_or_one_line(data: str | bytes) -> None:
    assert_result_or_one_line(replay_cli(data))


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "record.json"


@fuzz(500)
@given(data=st.binary(max_size=200) | st.text(max_size=200))
def test_uno_replay_of_random_bytes_from_a_file(record_file: Path, data: str | bytes) -> None:
    path = record_file
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(data)
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2)
    if result.exit_code == 2:
        assert result.stderr.count("\n") == 1 and len(result.stderr) <= LINE_LIMIT + 1


# -- parse_record and replay ---------------------------------------------------------------


@fuzz(800)
@given(RECORD_INPUT)
def test_parse_record_and_replay_raise_only_their_errors(data: str | bytes) -> None:
    try:
        record = parse_record(data)
    except RecordError as error:
        assert len(str(error)) <= MESSAGE_LIMIT + 100
        return
    try:
        state = replay(record)
    except (RecordError, ReplayError) as error:
        assert len(str(error)) <= MESSAGE_LIMIT + 100
        assert all(char.isprintable() for char in str(error))
        return
    assert isinstance(state, GameState)


# -- parse_* -------------------------------------------------------------------------------

PARSERS: list[Callable[[Any], object]] = [parse_card, parse_action, Color.parse, Card.parse]
NOT_TEXT = st.integers() | st.binary(max_size=5) | st.none() | st.floats() | st.lists(st.text(max_size=3), max_size=2)


@fuzz(1500)
@given(st.sampled_from(PARSERS), ANY_TEXT | NOT_TEXT)
def test_every_parse_raises_only_invalid_notation(parse: Callable[[Any], object], value: object) -> None:
    try:
        parsed = parse(value)
    except InvalidNotationError as error:
        message = str(error)
        assert len(message) <= MESSAGE_LIMIT
        assert all(char.isprintable() for char in message), message
        return
    assert isinstance(value, str) and value.isascii()
    assert parsed is not None


# -- apply ---------------------------------------------------------------------------------


@cache
def sample_states() -> tuple[GameState, ...]:
    """States along the base games: every rule set, many kinds of pending decision."""
    states: list[GameState] = []
    for text in base_records():
        record = parse_record(text)
        state = record.start()
        for index, (seat, action) in enumerate(record.actions):
            if index % 7 == 0:
                states.append(state)
            state = apply(state, seat, action).state
        states.append(state)
    return tuple(states)


CARDS = sorted({card for ruleset in RULESETS.values() for card in ruleset.make_deck(ruleset.options())}, key=str)

PLAYS = st.builds(
    Play,
    st.sampled_from(CARDS),
    st.none() | st.sampled_from(COLORS),
    st.booleans(),
    st.none() | st.integers(-2, 12) | st.integers(),
    st.booleans(),
)


@st.composite
def seat_and_action(draw: st.DrawFn) -> tuple[GameState, Any, Any]:
    state = draw(st.sampled_from(sample_states()))
    seat = draw(st.integers(-2, state.seats + 1) | st.integers() | st.sampled_from([None, "0", 1.0, True]))
    legal = [action for s in range(state.seats) for action in legal_actions(state, s)]
    action = draw(st.sampled_from(legal or [parse_action("draw")]) | PLAYS | NOTATION_TEXT | st.integers() | st.none())
    return state, seat, action


@fuzz(1500)
@given(seat_and_action())
def test_apply_of_random_seats_and_actions_raises_only_its_errors(case: tuple[GameState, Any, Any]) -> None:
    state, seat, action = case
    try:
        transition = apply(state, seat, action)
    except (IllegalActionError, InvalidNotationError) as error:
        assert len(str(error)) <= MESSAGE_LIMIT + 100
        return
    assert isinstance(transition, Transition)
    assert isinstance(seat, int) and 0 <= seat < state.seats
    assert transition.state.steps == state.steps + 1


def test_the_base_games_cover_every_rule_set_and_decision() -> None:
    kinds = {state.pending.kind for state in sample_states()}
    assert {"turn", "drawn", "game_over"} <= kinds
    assert {parse_record(text).rules for text in base_records()} == {"classic", "duo", "flex"}
    assert all(card.rank in Rank for card in CARDS)
