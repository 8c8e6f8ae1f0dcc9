"""The compiled observation writer equals the view-based encoding, per rule set, and leaks nothing.

``Encoding.observe_state`` (the :class:`~unoengine.rl.observe.Writer` the environments use, reading the
state) must give the vector ``Encoding.observe(view_for(state, seat))`` gives (the reference, reading the
view only) for every seat of every state of many games, house rules included; and dealing the hidden
cards again (``determinize``) must change neither.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from unoengine.core.action_ids import NUM_ACTIONS, ruleset_kinds
from unoengine.core.cards import format_card
from unoengine.core.determinize import determinize
from unoengine.core.engine import apply_unchecked, legal_actions, new_game
from unoengine.core.notation import parse_state
from unoengine.core.rules import find_rules
from unoengine.core.state import GameState
from unoengine.core.views import view_for
from unoengine.rl.encoding import ENCODING_VERSION, Encoding
from unoengine.rl.match import Match
from unoengine.rl.observe import write_mask

GAMES: list[tuple[str, int, dict[str, Any], int, bool]] = [
    ("classic", 2, {}, 0, False),
    ("classic", 2, {}, 0, True),
    ("classic", 3, {"stack_draw": "draw_two", "seven_zero": True}, 2, True),
    ("classic", 4, {"jump_in": True, "draw_until_playable": True}, 0, False),
    ("classic", 2, {"single_round": False, "target_score": 60}, 1, True),
    ("duo", 2, {}, 3, False),
    ("duo", 2, {"duo_deck": "standard108"}, 0, True),
    ("flex", 2, {}, 0, True),
    ("flex", 5, {}, 2, False),
    ("nomercy", 2, {}, 0, True),
    ("nomercy", 4, {"single_round": False, "target_score": 200, "uno_penalty": 4}, 1, False),
]
"""(rules, seats, options, ``history``, ``discards``)."""


def states(rules: str, seats: int, options: dict[str, Any], seed: int) -> list[GameState]:
    """Every state of a few random games (every seat's legal actions, out-of-turn ones too)."""
    rng = random.Random(seed)
    out = []
    for game in range(3):
        state = new_game(rules, seats, seed=seed * 10 + game, options={"single_round": True, **options})
        out.append(state)
        while state.outcome is None and len(out) < 600 * (game + 1):
            choices = [(seat, action) for seat in range(seats) for action in legal_actions(state, seat)]
            seat, action = rng.choice(choices)
            state = apply_unchecked(state, seat, action)
            out.append(state)
    return out


@pytest.mark.parametrize(("rules", "seats", "options", "history", "discards"), GAMES)
def test_the_fast_writer_equals_the_view_encoding(
    rules: str, seats: int, options: dict[str, Any], history: int, discards: bool
) -> None:
    encoding = Encoding(rules, seats, history=history, discards=discards)
    checked = 0
    for state in states(rules, seats, options, seed=seats + history + 7 * discards):
        for seat in range(seats):
            fast = encoding.observe_state(state, seat)
            reference = encoding.observe(view_for(state, seat))
            np.testing.assert_array_equal(fast, reference, err_msg=f"seat {seat}\n{encoding.describe(reference)}")
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(("rules", "seats", "options", "history", "discards"), GAMES[::2])
def test_resampling_hidden_cards_changes_no_fast_observation(
    rules: str, seats: int, options: dict[str, Any], history: int, discards: bool
) -> None:
    encoding = Encoding(rules, seats, history=history, discards=discards)
    rng = random.Random(3)
    moved = 0
    for state in states(rules, seats, options, seed=5)[::7]:
        for seat in range(seats):
            view = view_for(state, seat)
            fast = encoding.observe_state(state, seat)
            other = determinize(view, rng)
            moved += other.hands != state.hands
            np.testing.assert_array_equal(fast, encoding.observe_state(other, seat))
    assert moved > 10


@pytest.mark.parametrize("rules", ["classic", "duo", "flex"])
def test_a_layout_holds_only_its_rule_sets_kinds_and_decisions(rules: str) -> None:
    ruleset = find_rules(rules)
    encoding = Encoding(rules, 2)
    sizes = {piece.name: piece.size for piece in encoding.pieces}
    assert sizes["hand"] == sizes["top"] == sizes["drawn_card"] == len(ruleset_kinds(ruleset))
    assert set(encoding.decisions) == set(ruleset.decisions)
    assert ("power" in sizes) == bool(ruleset.round_flags(2))
    assert ("draft_card" in sizes) == ("draft" in ruleset.decisions)
    assert ("stack" in sizes) == ("stack" in ruleset.decisions)
    assert encoding.size == sum(sizes.values())
    assert ENCODING_VERSION == 4


@pytest.mark.parametrize("seats", [2, 4, 10])
def test_the_no_mercy_layout(seats: int) -> None:
    """No Mercy's own kinds and decisions; its per-seat flags are the seats in the round (N-22), named so; no
    challenge (N-2: none is ever pending there); the stack total (N-15) as H-1's."""
    ruleset = find_rules("nomercy")
    encoding = Encoding("nomercy", seats)
    pieces = {piece.name: piece for piece in encoding.pieces}
    assert encoding.seat_flags == "in_round" and "power" not in pieces
    assert pieces["in_round"].size == seats
    assert pieces["in_round"].doc == "seat still in the round (1) or knocked out (0), relative seats"
    assert set(encoding.decisions) == set(ruleset.decisions) - {"challenge"}
    assert {"roulette", "stack", "drawn"} <= set(encoding.decisions)
    assert "challenger_of" not in pieces and pieces["stack"].size == 1
    kinds = {format_card(card) for card in encoding.kinds}
    assert {"R+4", "RSE", "RDA", "WR+4", "W+6", "W+10", "WCR"} <= kinds and len(kinds) == 68
    assert "W" not in kinds and "W+4" not in kinds
    assert encoding.size == sum(piece.size for piece in encoding.pieces)
    names = [piece.name for piece in encoding.pieces]
    assert names.index("in_round") == names.index("draw_pile") + 1  # where Flex has its Power Cards


def test_no_mercy_observes_the_stack_the_roulette_and_the_seats_in_the_round() -> None:
    """Both builders: the stack's total, the roulette's victim, a knocked-out seat (relative to the observer)."""
    stack = parse_state("nomercy/4 hands=R7,R0,B5/-/G1,Y3/B6,B8,Y9 discard=R3,W+6 color=r power=GRGG pending=stack:2,6")
    encoding = Encoding("nomercy", 4)
    for seat in (0, 2, 3):
        observed = encoding.observe_state(stack, seat)
        np.testing.assert_array_equal(observed, encoding.observe(view_for(stack, seat)))
        assert encoding.piece(observed, "stack").tolist() == [6.0]
        assert [bool(value) for value in encoding.piece(observed, "in_round")] == [
            (seat + k) % 4 != 1 for k in range(4)
        ]
        assert encoding.piece(observed, "pending").tolist() == [float(kind == "stack") for kind in encoding.decisions]
        assert encoding.piece(observed, "to_act").tolist() == [float((seat + k) % 4 == 2) for k in range(4)]
    assert "in_round: me 1, +1 1, +2 1" in encoding.describe(encoding.observe_state(stack, 2))
    roulette = parse_state("nomercy/3 hands=R7,G9,B1/G5,Y2/B3,R9,G+2 discard=R4,WCR color=b pending=roulette:1")
    three = Encoding("nomercy", 3)
    victim = three.observe_state(roulette, 1)
    np.testing.assert_array_equal(victim, three.observe(view_for(roulette, 1)))
    assert three.describe(victim).splitlines()[-2:] == ["to_act: me", "pending: roulette"]
    assert three.piece(victim, "stack").tolist() == [0.0]


def test_classic_heads_up_is_less_than_half_the_old_layout() -> None:
    assert Encoding("classic", 2).size < 504 // 2


def test_describe_reads_naturally() -> None:
    encoding = Encoding("classic", 2)
    state = new_game("classic", 2, seed=3)
    text = encoding.describe(encoding.observe_state(state, 0))
    assert "direction: +1" in text
    assert "hand_sizes: me 7, +1 7" in text
    assert "pending: turn" in text


def test_the_mask_writer_marks_the_offered_ids() -> None:
    match = Match("flex", 3)
    rng = random.Random(1)
    match.reset(4)
    while not match.is_over:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        write_mask(match.ids, mask.data)
        assert set(np.flatnonzero(mask)) == set(match.choice_ids)
        match.take(rng.choice(match.choices))


def test_the_discards_piece_counts_the_discard_pile_by_kind() -> None:
    """``discards=True`` adds one count per card kind of the (public) discard pile, after every other piece;
    without it the layout is the version's default one, entry for entry."""
    plain, counted = Encoding("classic", 2), Encoding("classic", 2, discards=True)
    assert counted.size == plain.size + len(plain.kinds)
    assert [piece.name for piece in counted.pieces][-1] == "discards"
    state = next(state for state in states("classic", 2, {}, seed=11) if len(state.discard_pile) > 5)
    view = view_for(state, 0)
    vector = counted.observe_state(state, 0)
    pile = counted.piece(vector, "discards")
    assert pile.sum() == len(view.discard_pile)
    for card in set(view.discard_pile):
        assert pile[counted.kinds.index(card)] == view.discard_pile.count(card)
    np.testing.assert_array_equal(vector[: plain.size], plain.observe_state(state, 0))
    line = next(line for line in counted.describe(vector).splitlines() if line.startswith("discards: "))
    assert all(format_card(card) in line for card in view.discard_pile)
