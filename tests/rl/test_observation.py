"""Observations: built from the view only (resampling hidden cards changes nothing), the layout, the mask."""

from __future__ import annotations

import random

import numpy as np
import pytest

from unoengine.core.action_ids import KINDS, NUM_ACTIONS, legal_mask, ruleset_kinds
from unoengine.core.determinize import determinize
from unoengine.core.engine import apply_unchecked, legal_actions, new_game
from unoengine.core.rules import find_rules
from unoengine.core.views import view_for
from unoengine.rl.encoding import DECISIONS, Encoding, legal_ids_of


def states(rules: str, seats: int, seed: int, every: int = 3) -> list:  # type: ignore[type-arg]
    rng = random.Random(seed)
    state = new_game(rules, seats, seed=seed, options={"single_round": True})
    out = [state]
    while state.outcome is None and len(out) < 400:
        seat = state.to_act
        state = apply_unchecked(state, seat, rng.choice(legal_actions(state, seat)))
        if state.steps % every == 0:
            out.append(state)
    return out


@pytest.mark.parametrize(("rules", "seats"), [("classic", 2), ("classic", 5), ("duo", 2), ("flex", 4)])
def test_resampling_hidden_cards_leaves_the_observation_unchanged(rules: str, seats: int) -> None:
    encoding = Encoding(rules, seats, history=3)
    rng = random.Random(7)
    checked = 0
    resampled = 0
    for state in states(rules, seats, seed=11):
        for seat in range(seats):
            view = view_for(state, seat)
            observation = encoding.observe(view)
            for _ in range(2):
                other = determinize(view, rng)
                resampled += other.hands != state.hands
                again = encoding.observe(view_for(other, seat))
                np.testing.assert_array_equal(observation, again)
                assert legal_mask(other, seat) == legal_mask(state, seat)
            checked += 1
    assert checked > 20
    assert resampled > checked  # the hidden cards did move


def test_the_layout_is_derived_from_the_core_tables() -> None:
    encoding = Encoding("classic", 4, history=2)
    sizes = {piece.name: piece.size for piece in encoding.pieces}
    kinds = ruleset_kinds(find_rules("classic"))
    assert sizes["hand"] == sizes["top"] == len(kinds) and set(kinds) <= set(KINDS)
    decisions = find_rules("classic").decisions
    assert sizes["pending"] == len(decisions) and set(encoding.decisions) == set(decisions)
    assert set(encoding.decisions) <= set(DECISIONS)
    assert sizes["hand_sizes"] == 4 and sizes["history"] == 2 * len(kinds)
    assert encoding.size == sum(sizes.values())
    starts = [piece.start for piece in encoding.pieces]
    assert starts == sorted(starts) and starts[0] == 0


def test_pieces_read_back() -> None:
    state = new_game("classic", 3, seed=9)
    encoding = Encoding("classic", 3)
    view = view_for(state, 2)
    obs = encoding.observe(view)
    assert encoding.piece(obs, "hand").sum() == 7
    assert list(encoding.piece(obs, "hand_sizes")) == [7, 7, 7]
    assert encoding.piece(obs, "to_act")[(state.to_act - 2) % 3] == 1
    assert encoding.piece(obs, "draw_pile")[0] == view.draw_pile
    text = encoding.describe(obs)
    assert "hand:" in text and "pending: turn" in text
    with pytest.raises(KeyError, match="no observation piece"):
        encoding.piece(obs, "hands")


def test_mask_is_the_legal_set() -> None:
    for state in states("flex", 3, seed=2, every=5):
        for seat in range(3):
            ids = legal_ids_of(view_for(state, seat))
            mask = np.frombuffer(legal_mask(state, seat), np.int8)
            assert mask.shape == (NUM_ACTIONS,)
            assert set(np.flatnonzero(mask)) == set(ids)
