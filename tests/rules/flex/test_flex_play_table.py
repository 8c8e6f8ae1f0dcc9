"""F-14: a turn's plays read Flex's play table, which folds the flex sides into the normal side's table.

``legal_actions`` reads one table entry per card (``RuleSet.play_table``); these
tests check that table against the plain composition it stands for: for every
kind of card in hand, in hand order, its normal side's plays, then its flex
side's (``side_plays``), while the seat's Power Card is green.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.test_invariants import SETTINGS
from unoengine import GameState, apply_unchecked, legal_actions, new_game
from unoengine.core import actions as A
from unoengine.core.rules.flex import FLEX, flex_side_plays
from unoengine.core.rules.tables import match_row
from unoengine.core.state import Turn


def composed_plays(state: GameState, seat: int) -> list[A.Action]:
    """A turn's card plays as normal side + flex side per kind in hand order (no table of flex sides)."""
    tables = state.tables
    hand = state.hands[seat]
    row = match_row(state)
    uno = len(hand) == 2
    normal = (tables.card_plays_uno if uno else tables.card_plays)[row]
    out: list[A.Action] = []
    seen: set[int] = set()
    for card in hand:
        kind = tables.kind_of[card]
        if kind in seen:
            continue
        seen.add(kind)
        out += normal[card]
        out += flex_side_plays(state, seat, kind, row, uno)
    return out


@SETTINGS
@given(seats=st.integers(2, 8), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300))
def test_f14_a_turns_plays_are_the_normal_and_flex_sides_of_each_kind_in_hand_order(
    seats: int, seed: int, steps: int
) -> None:
    state = new_game("flex", seats, seed=seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(steps):
        seat = state.to_act
        if seat is None:
            break
        actions = legal_actions(state, seat)
        if type(state.pending) is Turn:
            plays = [action for action in actions if type(action) is A.Play]
            assert plays == composed_plays(state, seat)
            checked += 1
        state = apply_unchecked(state, seat, actions[rng.randrange(len(actions))])
    assert checked or steps < 2 or state.to_act is None


def test_f14_a_rule_set_with_side_plays_must_give_their_play_table() -> None:
    with pytest.raises(ValueError, match="side_plays and play_table go together"):
        dataclasses.replace(FLEX, play_table=None)
