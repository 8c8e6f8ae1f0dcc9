"""Classic UNO: UNO call and catch, end of round, scoring (C-18 … C-21, Reading R-1)."""

from __future__ import annotations

import pytest

from tests.helpers import hand, legal, run, top
from tests.rules.classic._arrange import all_cards, arrange, simple_move
from unoengine import IllegalActionError, Termination, apply, format_card, new_game, view_for
from unoengine.core.events import Caught, RoundEnded, RoundStarted

# -- C-18: UNO and the catch ------------------------------------------------------------------


def test_c18_a_player_left_with_one_card_who_did_not_call_is_caught_and_draws_two() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4", "Y5"]], top="R5", draw=["G8", "G9"], to_act=1)
    state = run(state, "1 R7")
    assert state.unsafe == 1
    assert "catch 1" in legal(state, 0)
    assert "catch 1" in legal(state, 2)
    assert "uno" in legal(state, 1)
    transition = apply(state, 0, "catch 1")  # any other seat may catch, not only the next one
    after = transition.state
    assert Caught(0, 1) in transition.events
    assert hand(after, 1) == ["G2", "G8", "G9"]
    assert after.unsafe is None
    assert after.to_act == 2  # a catch does not change whose turn it is
    with pytest.raises(IllegalActionError) as e:
        apply(after, 2, "catch 1")
    assert e.value.rule == "C-19"


def test_c18_every_time_a_player_gets_down_to_one_card() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "R6"], ["R3", "Y4", "Y5"]], top="R5", draw=["R8", "B3", "B4"], to_act=1)
    state = run(state, "1 R7", "1 uno", "2 R3", "0 R1")
    assert state.to_act == 1
    state = run(state, "1 draw", "1 R8")  # one card left again (R6), no call
    assert state.unsafe == 1
    state = run(state, "2 catch 1")
    assert hand(state, 1) == ["R6", "B3", "B4"]


def test_c18_reading_the_window_closes_after_the_next_action() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    state = run(state, "1 R7", "2 R3")
    assert state.unsafe is None
    for seat in (0, 2):
        assert "catch 1" not in legal(state, seat)
        with pytest.raises(IllegalActionError) as e:
            apply(state, seat, "catch 1")
        assert e.value.rule == "C-19"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "uno")  # too late to call, and no need to
    assert e.value.rule == "C-19"


def test_c18_reading_a_draw_also_closes_the_window() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["B3", "Y4", "Y5"]], top="R5", to_act=1)
    state = run(state, "1 R7", "2 draw")
    with pytest.raises(IllegalActionError):
        apply(state, 0, "catch 1")


def test_c18_reading_the_window_is_open_during_the_next_players_decision() -> None:
    # After a Skip the next player to act is two seats on; the window is still open.
    state = arrange([["R1", "B1", "B2"], ["RS", "G2"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    state = run(state, "1 RS")
    assert state.to_act == 0
    state = run(state, "2 catch 1")
    assert len(state.hands[1]) == 3


# -- C-19: calling UNO ------------------------------------------------------------------------


def test_c19_uno_with_the_second_to_last_card_cannot_be_caught() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    assert legal(state, 1) == ["R7", "R7 uno", "draw"]
    state = run(state, "1 R7 uno")
    assert state.unsafe is None
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 1")
    assert e.value.rule == "C-19"
    assert "called" in e.value.reason


def test_c19_uno_just_after_the_card_before_anyone_catches() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    state = run(state, "1 R7", "1 uno")
    assert state.unsafe is None
    assert state.to_act == 2  # the call is not a turn
    with pytest.raises(IllegalActionError) as e:
        apply(state, 2, "catch 1")
    assert e.value.rule == "C-19"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "uno")  # already called
    assert e.value.rule == "C-19"


def test_c19_a_catch_of_a_player_with_more_than_one_card_is_refused() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 2")
    assert e.value.rule == "C-19"
    assert "3 cards" in e.value.reason
    state = run(state, "1 R7")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 2")
    assert e.value.rule == "C-19"


def test_c19_a_call_by_a_seat_without_exactly_one_card_is_refused() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    state = run(state, "1 R7")
    for seat in (0, 2):
        with pytest.raises(IllegalActionError) as e:
            apply(state, seat, "uno")
        assert e.value.rule == "C-19"
        assert "3 cards" in e.value.reason


def test_c19_a_seat_cannot_catch_itself() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    state = run(state, "1 R7")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "catch 1")
    assert e.value.rule == "C-19"


def test_c19_a_play_with_uno_that_does_not_leave_one_card_is_refused() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2", "G3"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "R7 uno")
    assert e.value.rule == "C-19"
    # The last card leaves none: ` uno` is refused too.
    state = arrange([["R1", "B1", "B2"], ["R7"], ["R3", "Y4", "Y5"]], top="R5", to_act=1)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "R7 uno")
    assert e.value.rule == "C-19"


def test_c19_the_drawn_card_may_be_played_with_uno() -> None:
    state = arrange([["R1", "B1", "B2"], ["G2"], ["R3", "Y4", "Y5"]], top="R5", draw=["R9"], to_act=1)
    state = run(state, "1 draw")
    assert legal(state, 1) == ["R9", "R9 uno", "pass"]
    state = run(state, "1 R9 uno")
    assert state.unsafe is None
    assert hand(state, 1) == ["G2"]


def test_r1_at_most_one_seat_can_be_caught() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["R3", "Y4"]], top="R5", to_act=1)
    state = run(state, "1 R7", "2 R3")
    assert state.unsafe == 2
    assert "catch 1" not in legal(state, 0)
    assert legal(state, 0)[-1] == "catch 2"
    assert "uno" not in legal(state, 1)
    assert "uno" in legal(state, 2)
    assert view_for(state, 0).unsafe == 2


def test_r1_a_caught_seat_whose_window_closed_needs_no_call() -> None:
    state = arrange([["R1", "B1", "B2"], ["R7", "G2"], ["B3", "Y4", "Y5"]], top="R5", to_act=1)
    state = run(state, "1 R7", "2 draw", "2 pass", "0 R1")
    assert len(state.hands[1]) == 1
    assert state.unsafe is None
    assert "uno" not in legal(state, 1)


# -- C-20: the end of a round ---------------------------------------------------------------


SINGLE = {"single_round": True}


def test_c20_the_round_ends_the_moment_a_hand_is_empty() -> None:
    state = arrange([["R1", "B1"], ["R7"], ["R3", "Y4"]], top="R5", to_act=1, options=SINGLE)
    state = run(state, "1 R7")
    assert state.is_over
    assert state.round_winner == 1
    assert state.pending.kind == "game_over"
    assert state.outcome is not None
    assert state.outcome.winner == 1
    assert state.outcome.termination is Termination.ROUND_WON
    assert legal(state, 0) == []
    with pytest.raises(IllegalActionError):
        apply(state, 0, "draw")


def test_c20_a_last_draw_two_is_drawn_before_the_scoring() -> None:
    state = arrange([["R1", "B1"], ["R+2"], ["R3", "Y4"]], top="R5", draw=["G9", "YS"], to_act=1, options=SINGLE)
    state = run(state, "1 R+2")
    assert state.is_over
    assert hand(state, 2) == ["R3", "Y4", "G9", "YS"]
    # C-21: 1 + 1 (seat 0) + 3 + 4 + 9 + 20 (seat 2)
    assert state.scores == (0, 38, 0)


def test_c20_a_last_wild_draw_four_is_drawn_with_no_challenge() -> None:
    options = {"single_round": True, "wild_draw_four": "challenge"}
    state = arrange(
        [["R1", "B1"], ["W+4"], ["R3", "Y4"]], top="R5", draw=["G9", "YS", "B0", "W"], to_act=1, options=options
    )
    state = run(state, "1 W+4:g")
    assert state.is_over
    assert state.pending.kind == "game_over"
    assert hand(state, 2) == ["R3", "Y4", "G9", "YS", "B0", "W"]
    assert state.scores == (0, 2 + 7 + 9 + 20 + 0 + 50, 0)


def test_c20_a_new_round_is_dealt_when_the_target_is_not_reached() -> None:
    state = arrange([["R1", "B1"], ["R7"], ["R3", "Y4"]], top="R5", to_act=1)
    transition = apply(state, 1, "R7")
    after = transition.state
    assert not after.is_over
    assert after.round == 2
    assert after.round_winner == 1
    ended = [event for event in transition.events if isinstance(event, RoundEnded)]
    assert [(e.round, e.winner, e.deltas) for e in ended] == [(1, 1, (0, 9, 0))]
    # the hands are shown for scoring: the 9 points are seat 0's R1, B1 and seat 2's R3, Y4
    assert [[format_card(after.tables.cards[c]) for c in h] for h in ended[0].hands] == [["R1", "B1"], [], ["R3", "Y4"]]
    assert RoundStarted(2, 1) in transition.events
    assert all_cards(after) == list(range(108))
    assert sorted(len(h) for h in after.hands)[:2] == [7, 7]


# -- C-21: scoring ------------------------------------------------------------------------------


def test_c21_card_values() -> None:
    state = arrange([["R1"], ["B0", "G9", "YS", "BR", "R+2"], ["W", "W+4", "Y5"]], top="R5", to_act=0, options=SINGLE)
    state = run(state, "0 R1")
    assert state.scores == (0 + 9 + 20 + 20 + 20 + 50 + 50 + 5, 0, 0)
    assert state.round_scores == ((174, 0, 0),)


def test_c21_the_round_winner_scores_every_other_hand() -> None:
    state = arrange([["B1", "G2"], ["R7"], ["R3", "Y4"], ["W"]], top="R5", to_act=1, options=SINGLE)
    state = run(state, "1 R7")
    assert state.scores == (0, 1 + 2 + 3 + 4 + 50, 0, 0)


def test_c21_scores_accumulate_until_the_target_and_rounds_are_recorded() -> None:
    options = {"target_score": 100}
    state = arrange([["R1", "B1"], ["R7"], ["R3", "Y4"]], top="R5", to_act=1, options=options)
    state = run(state, "1 R7")
    assert state.scores == (0, 9, 0)
    assert state.round_scores == ((0, 9, 0),)
    assert state.dealer == 1  # Reading: the next dealer to the left
    # Round 2 (arranged, carrying the totals): seat 2 goes out, scoring 50 + 20 + 1.
    round2 = arrange([["W", "G+2"], ["B1"], ["R3"]], top="R5", to_act=2, dealer=1, options=options)
    state = round2._replace(scores=state.scores, round_scores=state.round_scores, round=2)
    state = run(state, "2 R3")
    assert state.scores == (0, 9, 71)
    assert state.round_scores == ((0, 9, 0), (0, 0, 71))
    assert not state.is_over
    assert state.dealer == 2
    # Round 3: seat 2 goes out again and passes 100.
    round3 = arrange([["YS", "R9"], ["B1"], ["R3"]], top="R5", to_act=2, dealer=2, options=options)
    state = round3._replace(scores=state.scores, round_scores=state.round_scores, round=3)
    state = run(state, "2 R3")
    assert state.is_over
    assert state.scores == (0, 9, 71 + 20 + 9 + 1)
    assert state.round_scores[-1] == (0, 0, 30)
    assert state.outcome is not None
    assert state.outcome.winner == 2
    assert state.outcome.termination is Termination.TARGET_SCORE
    assert state.outcome.scores == state.scores
    view = view_for(state, 0)
    assert view.scores == state.scores
    assert view.round_scores == state.round_scores


def test_c21_the_default_target_is_500() -> None:
    assert new_game("classic", 2, seed=0).options.target_score == 500


def test_c21_reading_next_dealer_wraps_around() -> None:
    state = arrange([["R1", "B1"], ["B7", "B8"], ["R7"]], top="R5", to_act=2, dealer=2)
    state = run(state, "2 R7")
    assert state.round == 2
    assert state.dealer == 0


def test_c21_a_whole_game_to_a_small_target() -> None:
    state = new_game("classic", 3, seed=21, options={"target_score": 150})
    dealers = [state.dealer]
    for _ in range(20000):
        if state.is_over:
            break
        seat = state.to_act
        assert seat is not None
        before = state.round
        state = apply(state, seat, simple_move(state)).state
        if state.round != before and not state.is_over:
            dealers.append(state.dealer)
    assert state.is_over
    assert len(state.round_scores) >= 2
    # Each round: only the winner scores; the totals are the sum of the history (G-5).
    for deltas in state.round_scores:
        assert sum(1 for d in deltas if d) <= 1
    assert state.scores == tuple(sum(column) for column in zip(*state.round_scores, strict=True))
    assert dealers == [n % 3 for n in range(len(dealers))]
    assert state.outcome is not None
    assert state.outcome.winner is not None
    assert state.scores[state.outcome.winner] >= 150
    assert top(state) is not None


def test_c19_a_drawn_card_played_with_uno_that_leaves_more_than_one_card_is_refused() -> None:
    state = arrange([["R1", "B1", "B2"], ["G2", "G3"], ["R3", "Y4", "Y5"]], top="R5", draw=["R9"], to_act=1)
    state = run(state, "1 draw")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 1, "R9 uno")
    assert e.value.rule == "C-19"


def test_r1_the_window_closes_also_at_the_callers_own_next_action() -> None:
    # Two players: after a Skip the same seat plays again; its own draw closes its window.
    state = arrange([["R1", "B1", "B2"], ["RS", "G2"]], top="R5", draw=["Y9"], to_act=1)
    state = run(state, "1 RS")
    assert state.to_act == 1
    assert state.unsafe == 1
    assert legal(state, 1)[-1] == "uno"
    state = run(state, "1 draw")
    assert state.unsafe is None
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "catch 1")
    assert e.value.rule == "C-19"
