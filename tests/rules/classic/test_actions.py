"""Classic UNO: the action cards (C-12 … C-17, Reading R-6)."""

from __future__ import annotations

import pytest

from tests.helpers import hand, legal, run, top
from tests.rules.classic._arrange import all_cards, arrange
from unoengine import Color, IllegalActionError, InvalidNotationError, apply, new_game, redact, view_for
from unoengine.core.events import ChallengeResolved, HandShown

# -- C-12: Reverse -------------------------------------------------------------------------


def test_c12_reverse_changes_the_direction_with_three_players() -> None:
    state = arrange([["R1", "R2"], ["RR", "B1"], ["R3", "R4"]], top="R5", to_act=1)
    state = run(state, "1 RR")
    assert state.direction == -1
    assert state.to_act == 0
    state = run(state, "0 R1")
    assert state.to_act == 2  # counter-clockwise: 0 -> 2


def test_c12_two_reverses_restore_clockwise_play() -> None:
    state = arrange([["GR", "B9"], ["RR", "B1"], ["R3", "B2"], ["R4", "B3"]], top="R5", to_act=1)
    state = run(state, "1 RR", "0 GR")
    assert state.direction == 1
    assert state.to_act == 1


def test_c12_two_players_a_reverse_works_as_a_skip() -> None:
    state = arrange([["R1", "R2"], ["RR", "R7", "B1"]], top="R5", to_act=1)
    state = run(state, "1 RR")
    assert state.to_act == 1  # the player who played it plays again
    state = run(state, "1 R7")
    assert state.to_act == 0


def test_c12_r12_two_players_a_reverse_also_flips_the_direction() -> None:
    state = arrange([["R1", "R2"], ["RR", "GR", "B1"]], top="R5", to_act=1)
    state = run(state, "1 RR")
    assert (state.direction, state.to_act) == (-1, 1)
    assert view_for(state, 0).direction == -1
    state = run(state, "1 GR")
    assert (state.direction, state.to_act) == (1, 1)


# -- C-13: Skip ------------------------------------------------------------------------------


def test_c13_skip_the_next_player_misses_their_turn() -> None:
    state = arrange([["R1", "R2"], ["RS", "B1"], ["R3", "R4"]], top="R5", to_act=1)
    state = run(state, "1 RS")
    assert state.to_act == 0  # seat 2 skipped
    assert hand(state, 2) == ["R3", "R4"]


def test_c13_skip_follows_the_current_direction() -> None:
    state = arrange([["R1", "R2"], ["RS", "B1"], ["R3", "R4"], ["R6"]], top="R5", to_act=1, direction=-1)
    state = run(state, "1 RS")
    assert state.to_act == 3  # seat 0 skipped


def test_c13_two_players_skip_plays_again() -> None:
    state = arrange([["R1", "R2"], ["RS", "B1"]], top="R5", to_act=1)
    assert run(state, "1 RS").to_act == 1


# -- C-14: Draw Two ---------------------------------------------------------------------------


def test_c14_draw_two_next_player_draws_two_and_misses_their_turn() -> None:
    state = arrange([["R1", "R2"], ["R+2", "B1"], ["G+2", "Y4"]], top="R5", draw=["B7", "Y8"], to_act=1)
    state = run(state, "1 R+2")
    assert hand(state, 2) == ["G+2", "Y4", "B7", "Y8"]
    assert state.to_act == 0
    # No stacking in Classic: seat 2 may not answer with its own Draw Two.
    with pytest.raises(IllegalActionError):
        apply(state, 2, "G+2")


# -- C-15: Wild ---------------------------------------------------------------------------------


def test_c15_wild_names_the_colour_and_play_passes_on() -> None:
    state = arrange([["R1", "R2"], ["W", "B1", "B2"], ["G3", "R4", "B7"]], top="R5", to_act=1)
    state = run(state, "1 W:g")
    assert top(state) == "W"
    assert state.color is Color.GREEN
    assert state.to_act == 2
    assert legal(state, 2) == ["G3", "draw"]


# -- C-16: Wild Draw Four (strict) ----------------------------------------------------------------


def test_c16_wild_draw_four_next_player_draws_four_and_misses_the_turn() -> None:
    state = arrange([["R1", "R2"], ["W+4", "B1"], ["G3", "Y4"]], top="R5", draw=["B2", "B3", "B4", "B6"], to_act=1)
    state = run(state, "1 W+4:y")
    assert hand(state, 2) == ["G3", "Y4", "B2", "B3", "B4", "B6"]
    assert state.color is Color.YELLOW
    assert state.to_act == 0


def test_c16_strict_refuses_while_holding_the_current_colour() -> None:
    state = arrange([["R1", "R2"], ["W+4", "R7"], ["G3"]], top="R5", to_act=1)
    assert not any(a.startswith("W+4") for a in legal(state, 1))
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "W+4:g")
    assert e.value.rule == "C-16"
    assert "red" in e.value.reason


def test_c16_strict_current_colour_is_the_named_colour_of_a_wild() -> None:
    state = arrange([["R1"], ["W+4", "G7", "R3"], ["G3"]], top="W", color="g", to_act=1)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "W+4:b")
    assert e.value.rule == "C-16"
    state = arrange([["R1"], ["W+4", "R3"], ["G3"]], top="W", color="g", to_act=1)
    assert "W+4:b" in legal(state, 1)


def test_c16_reading_a_number_or_symbol_match_does_not_forbid_it() -> None:
    state = arrange([["R1", "R2"], ["W+4", "B5"], ["G3"]], top="R5", to_act=1)
    assert "W+4:b" in legal(state, 1)
    state = run(state, "1 W+4:b")
    assert top(state) == "W+4"
    state = arrange([["R1", "R2"], ["W+4", "BS"], ["G3"]], top="RS", to_act=1)
    assert "W+4:b" in legal(state, 1)


def test_c16_reading_a_plain_wild_does_not_forbid_it() -> None:
    state = arrange([["R1", "R2"], ["W+4", "W", "W+4"], ["G3"]], top="R5", to_act=1)
    assert "W+4:r" in legal(state, 1)
    state = run(state, "1 W+4:r")
    assert len(state.hands[2]) == 5


def test_r6_legal_actions_offer_a_wild_draw_four_only_when_legal() -> None:
    illegal = arrange([["R1"], ["W+4", "R7", "W"], ["G3"]], top="R5", to_act=1)
    legal_now = arrange([["R1"], ["W+4", "B7", "W"], ["G3"]], top="R5", to_act=1)
    assert [a for a in legal(illegal, 1) if a.startswith("W+4")] == []
    assert [a for a in legal(legal_now, 1) if a.startswith("W+4")] == ["W+4:r", "W+4:y", "W+4:g", "W+4:b"]
    with pytest.raises(IllegalActionError) as e:
        apply(illegal, 1, "W+4:r")
    assert e.value.rule == "C-16"


def test_r6_a_drawn_wild_draw_four_is_not_playable_while_holding_the_colour() -> None:
    state = arrange([["R1"], ["R7", "B1"], ["G3"]], top="R5", draw=["W+4"], to_act=1)
    state = run(state, "1 draw")
    assert legal(state, 1) == ["pass"]
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "W+4:g")
    assert e.value.rule == "C-16"


# -- C-17: the challenge option ----------------------------------------------------------------------

CHALLENGE = {"wild_draw_four": "challenge"}


def test_c17_strict_is_the_default_and_the_option_is_checked() -> None:
    assert new_game("classic", 2, seed=0).options.wild_draw_four == "strict"
    with pytest.raises(InvalidNotationError):
        new_game("classic", 2, seed=0, options={"wild_draw_four": "sometimes"})


def test_c17_a_bluff_may_be_played_and_the_next_player_decides() -> None:
    state = arrange([["R1"], ["W+4", "R7", "B9"], ["G3"]], top="R5", to_act=1, options=CHALLENGE)
    assert "W+4:g" in legal(state, 1)
    state = run(state, "1 W+4:g")
    assert state.pending.kind == "challenge"
    assert state.to_act == 2
    assert legal(state, 2) == ["accept", "challenge"]
    with pytest.raises(IllegalActionError) as e:
        apply(state, 2, "draw")
    assert e.value.rule == "C-16"
    view = view_for(state, 2)
    assert view.challenger_of == 1
    assert view.pending == "challenge"


def test_c17_accept_draws_four_and_misses_the_turn() -> None:
    state = arrange(
        [["R1", "R2"], ["W+4", "R7"], ["G3", "Y4"]],
        top="R5",
        draw=["B2", "B3", "B4", "B6"],
        to_act=1,
        options=CHALLENGE,
    )
    state = run(state, "1 W+4:g", "2 accept")
    assert hand(state, 2) == ["G3", "Y4", "B2", "B3", "B4", "B6"]
    assert state.to_act == 0
    assert state.color is Color.GREEN
    assert top(state) == "W+4"


def test_c17_successful_challenge_player_draws_four_challenger_takes_the_turn() -> None:
    state = arrange(
        [["R1", "R2"], ["W+4", "R7"], ["G3", "Y4", "B8"]],
        top="R5",
        draw=["B2", "B3", "B4", "B6"],
        to_act=1,
        options=CHALLENGE,
    )
    state = run(state, "1 W+4:g")
    transition = apply(state, 2, "challenge")
    after = transition.state
    assert hand(after, 1) == ["R7", "B2", "B3", "B4", "B6"]
    assert hand(after, 2) == ["G3", "Y4", "B8"]
    assert after.to_act == 2
    assert after.pending.kind == "turn"
    assert top(after) == "W+4"  # stays on the pile
    assert after.color is Color.GREEN  # the named colour stands
    assert legal(after, 2) == ["G3", "draw"]
    assert ChallengeResolved(2, 1, True) in transition.events
    assert all_cards(after) == list(range(108))


def test_c17_failed_challenge_challenger_draws_six_and_misses_the_turn() -> None:
    state = arrange(
        [["R1", "R2"], ["W+4", "B5", "W"], ["G3", "Y4"]],
        top="R5",
        draw=["B2", "B3", "B4", "B6", "Y1", "Y2"],
        to_act=1,
        options=CHALLENGE,
    )
    state = run(state, "1 W+4:y")
    transition = apply(state, 2, "challenge")
    after = transition.state
    assert hand(after, 2) == ["G3", "Y4", "B2", "B3", "B4", "B6", "Y1", "Y2"]
    assert hand(after, 1) == ["B5", "W"]
    assert after.to_act == 0
    assert top(after) == "W+4"
    assert after.color is Color.YELLOW
    assert ChallengeResolved(2, 1, False) in transition.events


def test_c17_the_hand_is_shown_to_the_challenger_only() -> None:
    state = arrange([["R1", "R2"], ["W+4", "R7", "B9"], ["G3", "Y4"]], top="R5", to_act=1, options=CHALLENGE)
    state = run(state, "1 W+4:g")
    shown_hand = state.hands[1]
    transition = apply(state, 2, "challenge")
    shown = [e for e in transition.events if isinstance(e, HandShown)]
    assert len(shown) == 1
    event = shown[0]
    assert (event.seat, event.to) == (1, 2)
    assert event.cards == shown_hand
    assert redact(event, 2) == event
    for other in (0, 1, None):
        hidden = redact(event, other)
        assert isinstance(hidden, HandShown)
        assert hidden.cards is None
        assert hidden.legal is None
    # Accepting shows nothing.
    accepted = apply(state, 2, "accept")
    assert not any(isinstance(e, HandShown) for e in accepted.events)


def test_c17_only_the_next_player_decides_on_the_challenge() -> None:
    state = arrange([["R1", "R2"], ["W+4", "R7"], ["G3", "Y4"]], top="R5", to_act=1, options=CHALLENGE)
    state = run(state, "1 W+4:g")
    for seat in (0, 1):
        with pytest.raises(IllegalActionError):
            apply(state, seat, "challenge")


def test_c17_the_current_colour_of_a_wild_top_decides_the_challenge() -> None:
    # Top W named green; the player held G7: the play was illegal, the challenge succeeds.
    state = arrange(
        [["R1", "R2"], ["W+4", "G7", "R3"], ["B3", "Y4", "B8"]], top="W", color="g", to_act=1, options=CHALLENGE
    )
    after = run(state, "1 W+4:r", "2 challenge")
    assert len(after.hands[1]) == 6
    assert after.to_act == 2
    assert after.color is Color.RED
    # Holding red only (not green) on the green Wild: legal, the challenger draws 6.
    state = arrange(
        [["R1", "R2"], ["W+4", "R7", "R3"], ["B3", "Y4", "B8"]], top="W", color="g", to_act=1, options=CHALLENGE
    )
    after = run(state, "1 W+4:r", "2 challenge")
    assert len(after.hands[2]) == 9
    assert after.to_act == 0
