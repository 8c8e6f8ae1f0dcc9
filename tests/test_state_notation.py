"""The one-line state notation (docs/NOTATION.md, "State notation"): exact round trips,
refusals of malformed text, and positions built from it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import random_moves
from unoengine import (
    GameState,
    InvalidNotationError,
    apply,
    format_state,
    legal_actions,
    new_game,
    parse_state,
)
from unoengine.core.rules import RULESETS

# -- random playouts of every rule set ---------------------------------------------------

OPTION_CHOICES: dict[str, dict[str, list[Any]]] = {
    "classic": {
        "wild_draw_four": ["strict", "challenge"],
        "draw_until_playable": [False, True],
        "single_round": [False, True],
        "target_score": [500, 40],
    },
    "duo": {
        "draw_until_playable": [False, True],
        "single_round": [False, True],
        "target_score": [200, 30],
        "duo_deck": ["standard112", "standard108"],
    },
    "flex": {
        "draw_until_playable": [False, True],
        "single_round": [False, True],
        "target_score": [500, 40],
    },
    "nomercy": {
        "single_round": [False, True],
        "target_score": [500, 40],
    },
}
SEATS = {"classic": range(2, 11), "duo": range(2, 3), "flex": range(2, 9), "nomercy": range(2, 11)}


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int]:
    """A rule set, a seat count, options and a seed."""
    rules = draw(st.sampled_from(sorted(OPTION_CHOICES)))
    seats = draw(st.sampled_from(list(SEATS[rules])))
    options = {name: draw(st.sampled_from(values)) for name, values in OPTION_CHOICES[rules].items()}
    return rules, seats, options, draw(st.integers(0, 2**64))


def playout(rules: str, seats: int, options: dict[str, Any], seed: int, steps: int = 400) -> Iterator[GameState]:
    """The states of a random game: legal actions at random, out-of-turn ``uno`` and ``catch`` included."""
    for state, _, _ in random_moves(rules, seats, options, seed, steps):
        yield state


def round_trips(state: GameState) -> None:
    text = format_state(state)
    assert "\n" not in text
    back = parse_state(text)
    assert back == state, text
    assert tuple(back) == tuple(state)
    assert format_state(back) == text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_every_reachable_state_round_trips(game: tuple[str, int, dict[str, Any], int]) -> None:
    rules, seats, options, seed = game
    for state in playout(rules, seats, options, seed):
        round_trips(state)


DECISION_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 3, {"wild_draw_four": "challenge", "single_round": False, "target_score": 40}),
    ("duo", 2, {"single_round": False, "target_score": 30}),
    (
        "classic",
        4,
        {"stack_draw": "mixed", "wild_draw_four": "challenge", "seven_zero": True, "jump_in": True, "multi_play": True},
    ),
    ("nomercy", 4, {"single_round": False, "target_score": 40}),
]
"""Classic and Duo set up so that seeded playouts reach every decision kind (the challenge window, the house rules'
stack and more included); each test adds its own Flex game."""


def test_every_kind_of_decision_round_trips() -> None:
    """Seeded playouts until every decision kind (Duo's and the challenge window included) was seen."""
    seen: set[str] = set()
    configs = [
        *DECISION_CONFIGS,
        ("flex", 4, {"single_round": False, "target_score": 40, "draw_until_playable": True}),
    ]
    wanted = {*(kind for rules in RULESETS.values() for kind in rules.decisions), "outcome", "round_scores", "unsafe"}
    for seed in range(80):
        for rules, seats, options in configs:
            for state in playout(rules, seats, options, seed, steps=300):
                round_trips(state)
                seen.add(state.pending.kind)
                if state.outcome is not None:
                    seen.add("outcome")
                if state.round_scores:
                    seen.add("round_scores")
                if state.unsafe is not None:
                    seen.add("unsafe")
        if seen >= wanted:
            break
    assert seen >= wanted


def test_repr_shows_the_notation_and_parse_reads_it() -> None:
    state = new_game("flex", 3, seed=11)
    text = format_state(state)
    assert repr(state) == f"GameState.parse({text!r})"
    assert GameState.parse(text) == state
    assert text.startswith("flex/3 opts=- seed=11 shuffles=1 round=1 dealer=0 hands=")


def test_twins_carry_their_copy_number() -> None:
    state = new_game("classic", 2, seed=3)
    names = format_state(state).split(" hands=")[1].split()[0]
    tokens = [token for hand in names.split("/") for token in hand.split(",")]
    ids = [card for hand in state.hands for card in hand]
    for token, card in zip(tokens, ids, strict=True):
        twin = [other for other in range(card) if state.tables.cards[other] == state.tables.cards[card]]
        assert token.endswith(f"#{len(twin)}") if twin else "#" not in token


# -- refusals ------------------------------------------------------------------------

VALID = format_state(new_game("duo", 2, seed=2))
SAMPLES = [
    format_state(new_game("classic", 4, seed=9, options={"wild_draw_four": "challenge"})),
    format_state(new_game("flex", 5, seed=9, options={"single_round": False})),
    format_state(new_game("duo", 2, seed=9, options={"duo_deck": "standard108", "target_score": 50})),
]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_garbage_is_refused_with_invalid_notation_only(text: str) -> None:
    try:
        state = parse_state(text)
    except InvalidNotationError:
        return
    round_trips(state)


ALPHABET = "classicduoflex/0123456789=,:#/-+ RYGBWSAF|!*_xq\n"


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_edited_notations_are_refused_or_round_trip(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from([VALID, SAMPLES[0], SAMPLES[1], SAMPLES[2]]))
    text = base
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 12)))
        insert = data.draw(st.text(alphabet=ALPHABET, max_size=6))
        text = text[:start] + insert + text[end:]
    try:
        state = parse_state(text)
    except InvalidNotationError:
        return
    round_trips(state)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "empty"),
        ("chess/2 hands=-/- discard=- pending=turn:0", "unknown rules"),
        ("classic/11 hands=- discard=R5 pending=turn:0", "seats"),
        ("classic/2 hands=R7,R7/- discard=R5 color=r pending=turn:0", "R7#1"),
        ("classic/2 hands=R7/B3 discard=R5 draw=G1 color=r pending=turn:0", "in no hand or pile"),
        ("classic/2 hands=R7/B3 discard=R5 color=r pending=turn:2", "pending turn seat"),
        ("classic/2 hands=R7/B3 discard=R5 color=r pending=draft:0,0", "unknown decision 'draft'"),
        ("classic/2 hands=R7/B3 discard=R5 color=r pending=turn:0 bogus=1", "bogus"),
        ("classic/2 hands=R7/B3 discard=R5 color=r", "missing field 'pending'"),
        ("classic/2 hands=R7/B3 discard=R5 color=r pending=turn:0 seed=" + "9" * 41, "seed"),
        ("classic/2 hands=R7/B3 discard=R5 color=r pending=turn:0 power=GG", "power"),
        ("classic/2 hands=R7/B3 discard=R5|B color=r pending=turn:0", "not a card of Classic UNO"),
        ("classic/2 hands=R7/B3 discard=R5#2 color=r pending=turn:0", "numbered #0 to #1"),
        ("classic/2 opts=colour:red hands=R7/B3 discard=R5 color=r pending=turn:0", "opts"),
        ("classic/2 hands=R7/B3 discard=R5 color=r pending=turn:0 outcome=won:0:1,2", "outcome"),
        ("classic/2 hands=R7/B3 discard=R5 color=r pending=drawn:0,B3", "not in the drawer's hand"),
    ],
)
def test_refusals_name_the_bad_part(text: str, named: str) -> None:
    with pytest.raises(InvalidNotationError) as caught:
        parse_state(text)
    assert named in str(caught.value)


def test_non_text_is_refused() -> None:
    with pytest.raises(InvalidNotationError):
        parse_state(7)  # type: ignore[arg-type]


# -- positions built from notation ------------------------------------------------------


def test_a_classic_position_from_notation_then_uno_and_catch() -> None:
    state = parse_state("classic/2 hands=R7,W+4/B3,G2 discard=R5 color=r pending=turn:0 seed=4")
    assert len(state.draw_pile) == 108 - 5
    state = apply(state, 0, "R7").state
    assert state.unsafe == 0
    assert state.to_act == 1
    assert "catch 0" in [str(action) for action in legal_actions(state, 1)]
    state = apply(state, 1, "catch 0").state
    assert len(state.hands[0]) == 3
    assert " unsafe=- " in format_state(state)


def test_a_challenge_window_from_notation() -> None:
    text = (
        "classic/3 opts=wild_draw_four:challenge hands=R7,G2/B3/Y4 discard=R5,W+4 color=g"
        " pending=challenge:1,0,false,4,2,1,2 steps=12"
    )
    state = parse_state(text)
    after = apply(state, 1, "challenge").state
    assert len(after.hands[0]) == 2 + 4  # an illegal Wild Draw Four: the player draws 4
    assert after.pending.kind == "turn" and after.to_act == 1
    assert after.steps == 13


def test_a_duo_volley_from_notation() -> None:
    state = parse_state("duo/2 hands=R+2,G5,B1/G+2,Y7 discard=B+2 color=b pending=volley:0,2 bottom=0")
    state = apply(state, 0, "R+2").state
    assert format_state(state).split(" pending=")[1].split()[0] == "volley:1,4"
    state = apply(state, 1, "G+2").state
    state = apply(state, 0, "draw").state
    assert len(state.hands[0]) == 2 + 6
    assert state.to_act == 1


def test_uno_replay_state_prints_the_final_state() -> None:
    from click.testing import CliRunner

    from unoengine import parse_record, replay
    from unoengine.cli.main import cli

    path = "tests/golden/duo-2.record.json"
    result = CliRunner().invoke(cli, ["replay", path, "--state"])
    assert result.exit_code == 0, result.output
    with open(path, encoding="utf-8") as file:
        final = replay(parse_record(file.read()))
    assert result.stdout == format_state(final) + "\n"
    assert parse_state(result.stdout) == final
