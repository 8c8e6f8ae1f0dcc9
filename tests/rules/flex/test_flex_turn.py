"""UNO Flex! turns: F-9 … F-13 (docs/RULES.md)."""

from __future__ import annotations

import pytest

from tests.helpers import deal, hand, legal, run, top
from unoengine import Color, GameState, IllegalActionError, Play, apply, legal_actions
from unoengine.core.events import Reshuffled

# -- F-9: matching --------------------------------------------------------------------


def test_f9_colour_number_and_wilds_match() -> None:
    state = deal("flex", [["R3"], ["Y3", "B7", "FWA", "R+2", "GS", "WAF"]], top="Y7")
    plays = legal(state, 1)
    assert "Y3" in plays  # colour
    assert "B7" in plays  # number
    assert "FWA:r" in plays and "FWA:b" in plays  # wilds always match
    assert "WAF:g" in plays
    assert "R+2" not in plays
    assert "GS" not in plays
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "R+2")
    assert e.value.rule == "F-9"


def test_f9_symbol_matches_symbol() -> None:
    # seat 1 plays a yellow Skip: seat 2 is skipped; seat 0 may match the Skip symbol
    state = deal("flex", [["BS", "BS|G", "B4"], ["YS"], ["R3"]], top="Y7")
    state = run(state, "1 YS")
    assert state.to_act == 0
    plays = legal(state, 0)
    assert "BS" in plays
    assert "BS|G" in plays  # the normal side of a Flex Skip is a Skip
    assert "B4" not in plays


def test_f9_named_colour_of_a_wild_is_matched() -> None:
    state = deal("flex", [["B4", "R4"], ["FWA"]], top="Y7")
    state = run(state, "1 FWA:b")
    assert state.color is Color.BLUE
    plays = legal(state, 0)
    assert "B4" in plays
    assert "R4" not in plays


# -- F-10: draw when nothing matches; the drawn card may be played ---------------------


def test_f10_no_match_draw_and_play_drawn_card() -> None:
    state = deal("flex", [["R3"], ["R4"], ["R6"]], top="Y7", draw=["B7"])
    assert legal(state, 1) == ["draw"]
    state = run(state, "1 draw")
    assert hand(state, 1)[-1] == "B7"
    assert legal(state, 1) == ["B7", "pass"]
    state = run(state, "1 B7")
    assert top(state) == "B7"
    assert state.to_act == 2


def test_f10_drawn_card_playable_for_its_flex_side_while_green() -> None:
    # G2|Y: normal side green 2 does not match yellow 7, flex side yellow 2 does
    state = deal("flex", [["R3"], ["R4"], ["R6"]], top="Y7", draw=["G2|Y"])
    state = run(state, "1 draw")
    assert legal(state, 1) == ["G2|Y@flex", "pass"]
    state = run(state, "1 G2|Y@flex")
    assert state.power == (True, False, True)
    assert state.color is Color.GREEN
    assert state.to_act == 2


def test_f10_drawn_card_flex_side_not_playable_while_red() -> None:
    # seat 1 turns red first (F-14), then draws a card playable only for its flex side
    state = deal("flex", [["G6"], ["G2|Y"], ["G4"]], top="Y7", draw=["B3|G"])
    state = run(state, "1 G2|Y@flex", "2 G4", "0 G6")
    assert state.power == (True, False, True)
    state = run(state, "1 draw")
    assert hand(state, 1)[-1] == "B3|G"
    assert legal(state, 1) == ["pass"]
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "B3|G@flex")
    assert e.value.rule == "F-14"


def test_f10_drawer_may_keep_a_playable_drawn_card() -> None:
    state = deal("flex", [["R3"], ["R4"], ["R6"]], top="Y7", draw=["Y2"])
    state = run(state, "1 draw", "1 pass")
    assert "Y2" in hand(state, 1)
    assert top(state) == "Y7"
    assert state.to_act == 2


# -- F-11: a player may draw instead of playing; only the drawn card then ----------------


def test_f11_draw_instead_of_playing_then_only_the_drawn_card() -> None:
    state = deal("flex", [["R3"], ["Y3", "FWA"], ["R6"]], top="Y7", draw=["B7"])
    assert "Y3" in legal(state, 1)
    state = run(state, "1 draw")
    assert legal(state, 1) == ["B7", "pass"]
    for action in ("Y3", "FWA:r"):
        with pytest.raises(IllegalActionError) as e:
            apply(state, 1, action)
        assert e.value.rule == "F-11"


def test_f11_unplayable_drawn_card_only_pass() -> None:
    state = deal("flex", [["R3"], ["Y3"], ["R6"]], top="Y7", draw=["B2"])
    state = run(state, "1 draw")
    assert legal(state, 1) == ["pass"]
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "Y3")
    assert e.value.rule == "F-11"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "draw")
    assert e.value.rule == "F-11"


# -- F-12: empty draw pile, as C-10 ----------------------------------------------------


def _keep_drawing(state: GameState) -> tuple[GameState, GameState, int]:
    """Every seat draws each turn (playing the drawn card when it can) until a reshuffle."""
    for _ in range(400):
        seat = state.to_act
        assert seat is not None
        kind = state.pending.kind
        if kind == "turn":
            action = "draw"
        else:
            # play the drawn card only if it is a plain number card (no imposed draws)
            plays = [str(a) for a in legal_actions(state, seat) if isinstance(a, Play) and not a.card.is_action]
            action = plays[0] if plays else "pass"
        step = apply(state, seat, action)
        reshuffles = [e for e in step.events if isinstance(e, Reshuffled)]
        if reshuffles:
            assert not reshuffles[0].turned_over
            return state, step.state, reshuffles[0].cards
        state = step.state
    raise AssertionError("no reshuffle")


def test_f12_empty_draw_pile_reshuffles_discards_under_top_card() -> None:
    before, after, count = _keep_drawing(deal("flex", [["R3"], ["R4"]], top="Y7"))
    assert before.draw_pile == ()
    assert before.pending.kind == "turn"  # the reshuffle came from a turn's draw
    assert after.discard_pile == (before.discard_pile[-1],)  # the top card stays
    assert count == len(before.discard_pile) - 1
    assert len(after.draw_pile) == count - 1  # the drawer took one card of the new pile
    # cards are conserved (G-3)
    everything = [c for h in after.hands for c in h] + list(after.draw_pile) + list(after.discard_pile)
    assert sorted(everything) == list(range(104))


# -- F-13: the turn ends after playing or after drawing -------------------------------


def test_f13_turn_passes_on_after_play_and_after_draw() -> None:
    state = deal("flex", [["R3", "Y2"], ["Y3"], ["R6"]], top="Y7", draw=["B1!", "Y4"])
    state = run(state, "1 Y3")
    assert state.to_act == 2
    state = run(state, "2 draw", "2 pass")
    assert state.to_act == 0
    state = run(state, "0 draw")
    assert hand(state, 0)[-1] == "Y4"
    state = run(state, "0 Y4")
    assert state.to_act == 1
    assert state.pending.kind == "turn"
