"""UNO Flex! flex sides and Power Cards: F-14, F-15, F-16 (docs/RULES.md)."""

from __future__ import annotations

import pytest

from tests.helpers import deal, hand, legal, run, top
from unoengine import Color, IllegalActionError, apply
from unoengine.core.events import PowerFlipped

# -- F-14: flex side only while green, must match, turns the Power Card red -----------


def test_f14_flex_side_play_turns_power_red() -> None:
    state = deal("flex", [["R3"], ["G2|Y"], ["R6"]], top="Y7")
    assert "G2|Y@flex" in legal(state, 1)
    step = apply(state, 1, "G2|Y@flex")
    assert step.state.power == (True, False, True)
    assert top(step.state) == "G2|Y"


def test_f14_flex_side_refused_while_red() -> None:
    # seat 1 plays a flex side (red), and on its next turn holds another card
    # whose flex side would match
    state = deal("flex", [["G6"], ["G2|Y", "B3|G"], ["G4"]], top="Y7")
    state = run(state, "1 G2|Y@flex", "2 G4", "0 G6")
    assert state.to_act == 1 and state.power == (True, False, True)
    assert "B3|G@flex" not in legal(state, 1)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "B3|G@flex")
    assert e.value.rule == "F-14"


def test_f14_flex_side_must_match() -> None:
    # B3|G: flex side green 3 on yellow 7 matches neither colour nor number
    state = deal("flex", [["R3"], ["B3|G"], ["R6"]], top="Y7")
    assert "B3|G@flex" not in legal(state, 1)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "B3|G@flex")
    assert e.value.rule == "F-14"
    # the normal side's match does not make the flex side playable: B7|G on Y7
    state = deal("flex", [["R3"], ["B7|G"], ["R6"]], top="Y7")
    plays = legal(state, 1)
    assert "B7|G" in plays  # normal side blue 7 matches by number
    assert "B7|G@flex" in plays  # flex side green 7 matches by number too
    state = deal("flex", [["R3"], ["Y3|R"], ["R6"]], top="Y7")
    plays = legal(state, 1)
    assert "Y3|R" in plays and "Y3|R@flex" not in plays  # red 3 does not match yellow 7


def test_f14_cards_without_flex_side_have_no_flex_play() -> None:
    state = deal("flex", [["R3"], ["Y5!", "WAF", "Y2"], ["R6"]], top="Y7")
    for action in ("Y5!@flex", "WAF@flex:r", "Y2@flex"):
        with pytest.raises(IllegalActionError) as e:
            apply(state, 1, action)
        assert e.value.rule == "F-3"


def test_f14_reading_flex_side_of_an_action_keeps_its_symbol() -> None:
    # the flex side of a Flex Skip matches a Skip (any colour), and is a Skip of its own colour
    state = deal("flex", [["GS|Y", "G3"], ["RS"], ["R6"]], top="R7")
    state = run(state, "1 RS")
    assert state.to_act == 0
    plays = legal(state, 0)
    assert "GS|Y@flex" in plays  # flex side yellow Skip matches the red Skip by symbol
    assert "GS|Y" in plays
    assert "G3" not in plays
    # and the flex side of a Flex Reverse on a number card matches only by its colour
    state = deal("flex", [["R3"], ["GR|Y", "BR|G"], ["R6"]], top="Y7")
    plays = legal(state, 1)
    assert "GR|Y@flex" in plays
    assert "GR|Y" not in plays
    assert "BR|G@flex" not in plays and "BR|G" not in plays


# -- F-15: the rulebook's example ------------------------------------------------------


def test_f15_rulebook_example_next_player_matches_normal_side() -> None:
    # F-15: top yellow 7; G2|Y played for its flex side (yellow 2 matches yellow);
    # the next player must then match green 2.
    state = deal("flex", [["R3"], ["G2|Y"], ["Y8", "G6", "R2", "B3|G", "Y3|R"]], top="Y7")
    state = run(state, "1 G2|Y@flex")
    assert top(state) == "G2|Y"
    assert state.color is Color.GREEN
    assert state.to_act == 2
    plays = legal(state, 2)
    assert "G6" in plays  # green
    assert "R2" in plays  # number 2
    assert "B3|G@flex" in plays  # flex side green 3
    assert "Y8" not in plays  # the flex side's yellow does not stand
    assert "Y3|R" not in plays
    with pytest.raises(IllegalActionError) as e:
        apply(state, 2, "Y8")
    assert e.value.rule == "F-9"


# -- F-16: the three reasons Power Cards flip ----------------------------------------


def test_f16_rule1_last_green_turns_red_then_all_green() -> None:
    state = deal("flex", [["Y2|R", "R8"], ["G2|Y"]], top="Y7")
    step = apply(state, 1, "G2|Y@flex")  # flex side yellow 2 on yellow 7
    assert step.state.power == (True, False)
    state = step.state
    # seat 0: Y2|R, flex side red 2 matches the green 2 by number
    step = apply(state, 0, "Y2|R@flex")
    assert step.state.power == (True, True)
    flips = [e for e in step.events if isinstance(e, PowerFlipped)]
    assert flips[-1].power == (True, True)


def test_f16_rule1_not_all_red_nothing_turns_green() -> None:
    state = deal("flex", [["Y4|R"], ["G2|Y"], ["Y3|R", "G3"]], top="Y7")
    state = run(state, "1 G2|Y@flex")
    assert state.power == (True, False, True)
    state = run(state, "2 G3")
    assert state.power == (True, False, True)
    # a flex side is not available to make everyone red here; seat 0 draws
    state = run(state, "0 draw", "0 pass")
    state = run(state, "1 draw", "1 pass")
    # seat 2: Y3|R flex side red 3 matches green 3 by number
    state = run(state, "2 Y3|R@flex")
    assert state.power == (True, False, False)
    assert state.to_act == 0


def test_f16_rule1_everyone_red_with_three_players() -> None:
    state = deal("flex", [["B2|G"], ["G2|Y"], ["R2|B"]], top="Y7")
    state = run(state, "1 G2|Y@flex")  # yellow 2 on yellow 7
    state = run(state, "2 R2|B@flex")  # blue 2 on green 2
    assert state.power == (True, False, False)
    step = apply(state, 0, "B2|G@flex")  # green 2 on red 2: the last green turns red
    assert step.state.power == (True, True, True)
    assert PowerFlipped((True, True, True)) in step.events


def test_f16_rule2_flip_card_flips_own_power_green_to_red() -> None:
    state = deal("flex", [["R3"], ["Y5!"], ["R6"]], top="Y7")
    step = apply(state, 1, "Y5!")
    assert step.state.power == (True, False, True)
    assert PowerFlipped((True, False, True)) in step.events
    assert step.state.to_act == 2


def test_f16_rule2_flip_card_flips_own_power_red_to_green() -> None:
    state = deal("flex", [["G6"], ["G2|Y", "G1!"], ["G4"]], top="Y7")
    state = run(state, "1 G2|Y@flex", "2 G4", "0 G6")
    assert state.power == (True, False, True)
    state = run(state, "1 G1!")
    assert state.power == (True, True, True)


def test_f16_rule2_flip_card_making_all_red_turns_all_green() -> None:
    state = deal("flex", [["G9!"], ["G2|Y"]], top="Y7")
    state = run(state, "1 G2|Y@flex")
    assert state.power == (True, False)
    step = apply(state, 0, "G9!")  # seat 0 flips to red: all red, so all green
    assert step.state.power == (True, True)


def test_f16_rule2_flip_is_compulsory_even_on_drawn_card() -> None:
    state = deal("flex", [["R3"], ["R4"], ["R6"]], top="Y7", draw=["Y9!"])
    state = run(state, "1 draw", "1 Y9!")
    assert state.power == (True, False, True)


def test_f16_rule3_wild_all_flip_flips_every_power_card() -> None:
    state = deal("flex", [["R3"], ["G2|Y"], ["WAF"]], top="Y7")
    state = run(state, "1 G2|Y@flex")
    assert state.power == (True, False, True)
    step = apply(state, 2, "WAF:r")
    assert step.state.power == (False, True, False)
    assert PowerFlipped((False, True, False)) in step.events


def test_f16_reading_wild_all_flip_when_all_green_changes_nothing() -> None:
    state = deal("flex", [["R3"], ["WAF"], ["R6"]], top="Y7")
    step = apply(state, 1, "WAF:b")
    assert step.state.power == (True, True, True)
    flips = [e.power for e in step.events if isinstance(e, PowerFlipped)]
    assert flips == [(False, False, False), (True, True, True)]
    assert step.state.color is Color.BLUE


def test_f16_flex_side_of_flip_card_does_not_exist() -> None:
    state = deal("flex", [["R3"], ["Y1!"], ["R6"]], top="Y7")
    assert [p for p in legal(state, 1) if p.startswith("Y1!")] == ["Y1!"]
    assert hand(state, 1)[0] == "Y1!"
