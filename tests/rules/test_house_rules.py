"""House rules H-1 … H-8 (docs/RULES.md "House rules"): scenarios and their interactions."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import deal, deal_order, duo_deal, hand, legal, run, shrink, top
from unoengine import (
    CLASSIC,
    DUO,
    IllegalActionError,
    InvalidNotationError,
    apply,
    format_record,
    new_game,
    parse_record,
    record_of,
    replay,
    view_for,
)
from unoengine.core.events import HandsSwapped
from unoengine.core.rules.stacking import StackHandler
from unoengine.play.table import reaction_order, window_open

STACK: dict[str, Any] = {"stack_draw": "mixed"}


# -- H-1 stacking ------------------------------------------------------------------


def test_h1_none_is_the_printed_draw_two() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["G+2"]], top="R5")
    state = run(state, "1 R+2")
    assert state.pending.kind == "turn" and state.to_act == 0 and len(state.hands[2]) == 9


def test_h1_draw_two_stacks_and_the_player_who_will_not_add_draws_the_total() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["G+2"]], top="R5", options={"stack_draw": "draw_two"})
    state = run(state, "1 R+2")
    assert (state.pending.kind, state.to_act, state.pending.total) == ("stack", 2, 2)
    assert "G+2" in legal(state, 2) and legal(state, 2)[-1] == "draw"
    state = run(state, "2 G+2")
    assert (state.to_act, state.pending.total) == (0, 4)
    before = len(state.hands[0])
    state = run(state, "0 draw")
    assert len(state.hands[0]) == before + 4
    assert state.pending.kind == "turn" and state.to_act == 1  # the drawer lost the turn


def test_h1_a_seat_with_nothing_to_add_is_asked_too() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["G3"]], top="R5", options={"stack_draw": "draw_two"})
    state = run(state, "1 R+2")
    assert state.pending.kind == "stack"
    assert all(action.startswith(("R+2", "G+2", "B+2", "Y+2")) for action in legal(state, 2)[:-1])
    with pytest.raises(IllegalActionError, match="H-1 seat 2 adds a Draw Two to the stack"):
        apply(state, 2, "G3")


def test_h1_draw_two_mode_does_not_stack_a_wild_draw_four() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["W+4", "Y3"]], top="R5", options={"stack_draw": "draw_two"})
    state = run(state, "1 R+2")
    assert not [a for a in legal(state, 2) if a.startswith("W+4")]


def test_h1_same_stacks_each_kind_on_its_own_kind_only() -> None:
    options = {"stack_draw": "same", "wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["R+2"], ["W+4", "G+2"]], top="R5", options=options)
    state = run(state, "1 R+2")
    assert "G+2" in legal(state, 2) and not [a for a in legal(state, 2) if a.startswith("W+4")]


def test_h1_mixed_wild_draw_four_on_a_draw_two_and_the_last_stacker_names_the_colour() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["W+4", "B3"]], top="R5", options=STACK)
    state = run(state, "1 R+2")
    assert "W+4:g" in legal(state, 2)  # strict (H-6): seat 2 holds no red card
    state = run(state, "2 W+4:g")
    assert (state.pending.kind, state.to_act, state.pending.total, state.color.letter) == ("stack", 0, 6, "g")


def test_h1_h6_strict_keeps_a_bluffing_wild_draw_four_out_of_the_stack() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["W+4", "R3"]], top="R5", options=STACK)
    state = run(state, "1 R+2")
    assert not [a for a in legal(state, 2) if a.startswith("W+4")]


def test_h1_c17_the_victim_of_a_wild_draw_four_may_accept_challenge_or_stack() -> None:
    options = {"stack_draw": "draw_four", "wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["W+4", "R7"], ["W+4", "G3"]], top="R5", options=options)
    state = run(state, "1 W+4:b")
    assert state.pending.kind == "challenge"
    choices = legal(state, 2)
    assert "W+4:y" in choices and choices[-2:] == ["accept", "challenge"]
    state = run(state, "2 W+4:y")  # stacking accepts the first card's legality
    assert (state.pending.kind, state.to_act, state.pending.draws) == ("challenge", 0, 8)
    before = len(state.hands[0])
    state = run(state, "0 accept")
    assert len(state.hands[0]) == before + 8 and state.to_act == 1


def test_h1_c17_a_successful_challenge_settles_only_the_last_wild_draw_four() -> None:
    options = {"stack_draw": "mixed", "wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["R+2"], ["W+4", "R3"]], top="R5", options=options)
    state = run(state, "1 R+2", "2 W+4:y")  # seat 2 held red: an illegal Wild Draw Four
    assert (state.pending.kind, state.pending.draws) == ("challenge", 6)
    player, challenger = len(state.hands[2]), len(state.hands[0])
    state = run(state, "0 challenge")
    assert len(state.hands[2]) == player + 4  # the bluffer draws 4 for the last card
    assert len(state.hands[0]) == challenger + 2  # the challenger draws the rest of the stack
    assert state.to_act == 0  # and then plays (C-17)


def test_h1_c17_a_failed_challenge_draws_the_total_plus_two() -> None:
    options = {"stack_draw": "mixed", "wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["R+2"], ["W+4", "B3"]], top="R5", options=options)
    state = run(state, "1 R+2", "2 W+4:y")
    challenger = len(state.hands[0])
    state = run(state, "0 challenge")
    assert len(state.hands[0]) == challenger + 8 and state.to_act == 1


def test_h1_c11_a_total_larger_than_both_piles_is_drawn_as_far_as_the_cards_go() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["G+2"], ["Y4"]], top="R5", options={"stack_draw": "draw_two"})
    # leave one card in the draw pile: the rest goes to seat 3 (cards are conserved)
    hands = list(state.hands)
    hands[3] = hands[3] + state.draw_pile[1:]
    state = state._replace(hands=tuple(hands), draw_pile=state.draw_pile[:1])
    state = run(state, "1 R+2", "2 G+2")
    assert state.pending.total == 4
    before = len(state.hands[3])
    state = run(state, "3 draw")  # 1 card in the pile, 2 under the top card: 3 of 4
    assert len(state.hands[3]) == before + 3 and state.to_act == 0
    assert sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard_pile) == 108


def test_h1_c20_a_round_won_on_the_stacked_card_gives_the_total_to_the_next_player() -> None:
    options = {"stack_draw": "draw_two", "single_round": True}
    state = deal("classic", [["B1"], ["R+2"], ["G+2"]], top="R5", options=options)
    state = shrink(state, 2, 1)
    state = run(state, "1 R+2")
    before = len(state.hands[0])
    state = run(state, "2 G+2")
    assert state.outcome is not None and state.outcome.winner == 2
    assert len(state.hands[0]) == before + 4


def test_h1_h3_no_jump_in_while_a_stack_is_pending() -> None:
    options = {"stack_draw": "draw_two", "jump_in": True}
    state = deal("classic", [["R+2"], ["R+2"], ["G4"]], top="R5", options=options)
    state = run(state, "1 R+2")
    assert legal(state, 0) == []
    with pytest.raises(IllegalActionError, match="H-3 a seat jumps in only on a normal turn"):
        apply(state, 0, "R+2")


def test_h1_d13_duo_volley_is_the_shared_stacking_decision_and_duo_refuses_stack_draw() -> None:
    stacking = new_game("classic", 2, seed=1, options={"stack_draw": "same"}).game
    assert type(DUO.handlers["volley"]) is StackHandler and type(stacking.handlers["stack"]) is StackHandler
    assert "stack" not in CLASSIC.handlers, "H-1's decision is the house rule's: a game without it has none"
    with pytest.raises(InvalidNotationError, match=r"'stack_draw' \(H-1\) is not available in UNO Duo"):
        new_game("duo", 2, seed=1, options={"stack_draw": "draw_two"})
    with pytest.raises(InvalidNotationError, match=r"'stack_draw' \(H-1\) is not available in UNO Flex!"):
        new_game("flex", 3, seed=1, options={"stack_draw": "mixed"})


def test_h1_d13_a_volley_draw_two_as_second_to_last_card_calls_uno() -> None:
    start = duo_deal([["B+2", "G7"], ["R+2", "Y3"]], top="R5", player1=0)
    assert start.to_act == 1  # D-6: Player 2 plays first
    start = shrink(start, 0, 2)
    state = run(start, "1 R+2")
    assert (state.pending.kind, state.pending.total) == ("volley", 2)
    assert {"B+2", "B+2 uno"} <= set(legal(state, 0))
    called = run(state, "0 B+2 uno")
    assert (called.pending.kind, called.to_act, called.pending.total, called.unsafe) == ("volley", 1, 4, None)
    assert hand(called, 0) == ["G7"]
    forgot = run(state, "0 B+2")
    assert forgot.unsafe == 0 and "catch 0" in legal(forgot, 1)


# -- H-2 seven-zero ----------------------------------------------------------------


SEVEN: dict[str, Any] = {"seven_zero": True}


def test_h2_a_seven_names_the_seat_to_swap_with_and_swaps() -> None:
    state = deal("classic", [["B1"], ["R7", "G3"], ["Y4"]], top="R5", options=SEVEN)
    assert "R7>0" in legal(state, 1) and "R7>2" in legal(state, 1) and "R7" not in legal(state, 1)
    mine, theirs = hand(state, 1), hand(state, 2)
    step = apply(state, 1, "R7>2")
    state = step.state
    mine.remove("R7")
    assert hand(state, 1) == theirs and hand(state, 2) == mine
    assert state.to_act == 2
    assert HandsSwapped(1, 2, (1, 2)) in step.events


def test_h2_a_seven_without_a_target_or_with_uno_is_refused() -> None:
    state = deal("classic", [["B1"], ["R7", "G3"], ["Y4"]], top="R5", options=SEVEN)
    with pytest.raises(IllegalActionError, match="H-2 a 7 names the seat to swap hands with, as R7>2"):
        apply(state, 1, "R7")
    with pytest.raises(IllegalActionError, match="H-2 seat 1 cannot swap hands with seat 1"):
        apply(state, 1, "R7>1")
    with pytest.raises(IllegalActionError, match="G-4 'G3>2' is not a play of Classic UNO"):
        apply(state, 1, "G3>2")
    plain = deal("classic", [["B1"], ["R7", "G3"], ["Y4"]], top="R5")
    with pytest.raises(IllegalActionError, match="G-4 'R7>2' is not a play of Classic UNO"):
        apply(plain, 1, "R7>2")


def test_h2_a_zero_passes_every_hand_on_in_the_direction_of_play() -> None:
    state = deal("classic", [["B1"], ["R0", "G3"], ["Y4"]], top="R5", options=SEVEN)
    hands = [hand(state, seat) for seat in range(3)]
    hands[1].remove("R0")
    state = run(state, "1 R0")
    assert [hand(state, seat) for seat in range(3)] == [hands[2], hands[0], hands[1]]
    assert state.to_act == 2


def test_h2_c20_winning_on_a_seven_ends_the_round_before_the_swap() -> None:
    state = deal("classic", [["B1"], ["R7"], ["Y4"]], top="R5", options={**SEVEN, "single_round": True})
    state = shrink(state, 1, 1)
    theirs = hand(state, 2)
    state = run(state, "1 R7>2")
    assert state.outcome is not None and state.outcome.winner == 1
    assert hand(state, 2) == theirs and state.hands[1] == ()


def test_h2_c18_a_seat_left_with_one_card_after_a_swap_must_call_uno() -> None:
    state = deal("classic", [["B1"], ["R7", "G3"], ["Y4"]], top="R5", options=SEVEN)
    state = shrink(state, 1, 2)
    assert "R7>2 uno" not in legal(state, 1)
    state = run(state, "1 R7>0")  # seat 1 gives its last card (G3) to seat 0
    assert hand(state, 0) == ["G3"] and state.unsafe == 0
    assert "catch 0" in legal(state, 2) and "uno" in legal(state, 0)
    caught = run(state, "2 catch 0")
    assert len(caught.hands[0]) == 3


# -- H-3 jump-in -------------------------------------------------------------------


JUMP: dict[str, Any] = {"jump_in": True}


def test_h3_a_seat_not_to_act_jumps_in_with_the_identical_card_and_play_goes_on_from_it() -> None:
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["R6", "Y2"]], top="R5", options=JUMP)
    state = run(state, "1 R6")
    assert state.to_act == 2 and window_open(state)
    assert legal(state, 3) == ["R6"] and legal(state, 0) == []
    assert reaction_order(state) == [3, 0, 1]
    state = run(state, "3 R6")
    assert state.to_act == 0 and top(state) == "R6"  # seat 2 lost its turn


def test_h3_the_jumpers_card_acts_from_the_jumper() -> None:
    state = deal("classic", [["B1"], ["RS"], ["G3"], ["RS", "Y2"], ["Y7"]], top="R5", options=JUMP)
    state = run(state, "1 RS")
    assert state.to_act == 3
    state = run(state, "3 RS")  # seat 4 is skipped: seat 0 plays
    assert state.to_act == 0


def test_h3_wilds_never_jump_in_and_only_identical_cards_do() -> None:
    state = deal("classic", [["B1"], ["W", "R6"], ["G3"], ["W", "G6"]], top="R5", options=JUMP)
    state = run(state, "1 W:g")
    assert legal(state, 3) == []
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["G6", "Y2"]], top="R5", options=JUMP)
    state = run(state, "1 R6")
    with pytest.raises(
        IllegalActionError, match=r"H-3 seat 3 may jump in only with a card identical to the top card \(R6\)"
    ):
        apply(state, 3, "G6")


def test_h3_a_jump_in_refusal_says_the_actual_reason() -> None:
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["G6", "Y2"]], top="R5", options=JUMP)
    state = run(state, "1 R6")  # seat 2 is to act; seat 3 holds no R6
    with pytest.raises(IllegalActionError) as refused:
        apply(state, 3, "R6")
    message = str(refused.value)
    assert "H-3 seat 3 holds no R6 to jump in with: it is seat 2's turn" in message
    assert "identical" not in message  # the card is identical to the top card: not the reason
    with pytest.raises(IllegalActionError, match=r"not Y2: it is seat 2's turn"):
        apply(state, 3, "Y2")  # held, but not identical to the top card
    with pytest.raises(IllegalActionError, match=r"only a wild card names a colour; write R6"):
        apply(deal("classic", [["B1"], ["G6"], ["G3"], ["R6", "Y2"]], top="R6", options=JUMP), 3, "R6:g")


def test_h3_c18_no_jump_in_while_the_uno_window_is_open() -> None:
    state = deal("classic", [["B1"], ["R6", "G2"], ["G3"], ["R6", "Y2"]], top="R5", options=JUMP)
    state = shrink(state, 1, 2)
    state = run(state, "1 R6")
    assert state.unsafe == 1
    assert legal(state, 3) == ["catch 1"]


def test_h3_without_the_option_nobody_jumps_in() -> None:
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["R6", "Y2"]], top="R5")
    state = run(state, "1 R6")
    assert legal(state, 3) == [] and not window_open(state)
    with pytest.raises(IllegalActionError, match="G-4 it is seat 2's decision"):
        apply(state, 3, "R6")


def test_h3_a_record_holds_a_jump_in_as_an_ordinary_play_and_replays_it() -> None:
    hands = [["B1"], ["R6"], ["G3"], ["R6", "Y2"]]
    start = deal("classic", hands, top="R5", options=JUMP)
    record = record_of(start, [(1, "R6"), (3, "R6")], deck=deal_order("classic", hands, "R5", options=JUMP))
    assert dict(record.options) == {**dict(record_of(new_game("classic", 4, seed=0), []).options), "jump_in": True}
    text = format_record(record)
    assert '"jump_in": true' in text and '{"seat": 3, "action": "R6"}' in text
    final = replay(parse_record(text))
    assert final.to_act == 0 and top(final) == "R6"


def test_h2_h3_a_seven_jumps_in_with_its_target() -> None:
    state = deal("classic", [["B1"], ["R7"], ["G3"], ["R7", "Y2"]], top="R5", options={**JUMP, **SEVEN})
    state = run(state, "1 R7>2")
    assert "R7>0" in legal(state, 3) and "R7" not in legal(state, 3)


# -- H-4 forced play, H-5 draw to match ----------------------------------------------


def test_h4_a_seat_that_can_play_may_not_draw() -> None:
    state = deal("classic", [["B1"], ["R6", "G3"], ["G3"]], top="R5", options={"forced_play": True})
    assert "draw" not in legal(state, 1)
    with pytest.raises(IllegalActionError, match="H-4 seat 1 can play a card and may not draw"):
        apply(state, 1, "draw")


def test_h4_a_playable_drawn_card_must_be_played() -> None:
    state = deal("classic", [["B1"], ["G3"], ["G3"]], top="R5", draw=["R9"], options={"forced_play": True})
    state = shrink(state, 1, 1)
    state = run(state, "1 draw")
    assert legal(state, 1) == ["R9", "R9 uno"]
    with pytest.raises(IllegalActionError, match="H-4 the drawn card can be played and must be played"):
        apply(state, 1, "pass")


def test_h4_c22_with_draw_until_playable_the_found_card_must_be_played() -> None:
    options = {"forced_play": True, "draw_until_playable": True}
    state = deal("classic", [["B1"], ["G3"], ["G3"]], top="R5", draw=["Y1", "B2", "R9"], options=options)
    state = shrink(state, 1, 1)
    state = run(state, "1 draw")
    assert legal(state, 1) == ["R9"]


def test_h5_draw_to_match_draws_again_until_a_card_fits_and_may_play_it() -> None:
    options = {"draw_to_match": True}
    state = deal("classic", [["B1"], ["G3"], ["G3"]], top="R5", draw=["Y1", "B2", "R9"], options=options)
    state = shrink(state, 1, 1)
    state = run(state, "1 draw")
    assert legal(state, 1) == ["draw", "pass"]
    state = run(state, "1 draw")
    assert hand(state, 1)[-1] == "B2" and legal(state, 1) == ["draw", "pass"]
    state = run(state, "1 draw")
    assert legal(state, 1) == ["R9", "pass"]
    with pytest.raises(IllegalActionError, match="H-5 the drawn card can be played"):
        apply(state, 1, "draw")
    state = run(state, "1 R9")
    assert top(state) == "R9" and state.to_act == 2


def test_h4_h5_with_forced_play_a_drawn_card_that_does_not_fit_is_followed_by_another_draw() -> None:
    """H-4's Reading with H-5: no pass while a card can be drawn; the card that fits must be played."""
    options = {"draw_to_match": True, "forced_play": True}
    state = deal("classic", [["B1"], ["G3"], ["G3"]], top="R5", draw=["Y1", "R9"], options=options)
    state = shrink(state, 1, 1)
    state = run(state, "1 draw")
    assert legal(state, 1) == ["draw"]
    with pytest.raises(IllegalActionError, match="H-4 the drawn card does not fit: with forced play, draw again"):
        apply(state, 1, "pass")
    state = run(state, "1 draw")
    assert legal(state, 1) == ["R9"]
    with pytest.raises(IllegalActionError, match="H-4 the drawn card can be played and must be played"):
        apply(state, 1, "pass")


def test_h5_c22_draw_to_match_and_draw_until_playable_cannot_both_be_on() -> None:
    with pytest.raises(InvalidNotationError, match="cannot both be on"):
        new_game("classic", 2, seed=1, options={"draw_to_match": True, "draw_until_playable": True})


def test_h5_duo_and_flex_have_draw_to_match() -> None:
    for rules, seats in (("duo", 2), ("flex", 3)):
        assert new_game(rules, seats, seed=1, options={"draw_to_match": True}).options.draw_to_match


# -- H-6 no bluff ------------------------------------------------------------------


def test_h6_no_bluff_in_duo_offers_no_wild_draw_four_while_holding_the_colour() -> None:
    state = duo_deal([["B1"], ["W+4", "R3"]], top="R5", player1=0, options={"wild_draw_four": "strict"})
    assert state.to_act == 1
    assert not [a for a in legal(state, 1) if a.startswith("W+4")]
    with pytest.raises(IllegalActionError, match="D-18 a Wild Draw Four may not be played while holding a red card"):
        apply(state, 1, "W+4:g")


def test_h6_classic_strict_is_its_default() -> None:
    assert CLASSIC.default_options.wild_draw_four == "strict"


# -- H-7 penalty, H-8 hand size ----------------------------------------------------


def test_h7_uno_penalty_is_the_number_of_cards_a_caught_seat_draws() -> None:
    state = deal("classic", [["B1"], ["R6", "G2"], ["G3"]], top="R5", options={"uno_penalty": 4})
    state = shrink(state, 1, 2)
    state = run(state, "1 R6", "2 catch 1")
    assert len(state.hands[1]) == 5


def test_h8_hand_size_is_the_deal() -> None:
    for rules, seats in (("classic", 4), ("flex", 3)):
        state = new_game(rules, seats, seed=3, options={"hand_size": 5})
        assert sum(map(len, state.hands)) in (5 * seats, 5 * seats + 2)  # C-4: a first Draw Two adds 2
    duo = new_game("duo", 2, seed=3, options={"hand_size": 4})
    steps = 0
    while duo.pending.kind == "draft":
        seat = duo.to_act
        assert seat is not None
        duo = apply(duo, seat, "keep").state
        steps += 1
    assert steps == 8
    with pytest.raises(InvalidNotationError, match="'hand_size' \\(H-8\\): 10 hands of 10 leave fewer than 20"):
        new_game("classic", 10, seed=1, options={"hand_size": 10})


def test_h2_g2_each_giver_knows_the_hand_it_gave_until_its_cards_are_played() -> None:
    state = deal("classic", [["B1"], ["R7", "R3"], ["Y4"]], top="R5", options=SEVEN)
    mine, theirs = hand(state, 1), hand(state, 2)
    mine.remove("R7")
    state = run(state, "1 R7>2")
    known = {seat: dict(view_for(state, seat).known) for seat in range(3)}
    assert [str(card) for card in known[1][2]] == mine  # seat 1 knows what it gave seat 2
    assert [str(card) for card in known[2][1]] == theirs  # and seat 2 what it gave seat 1
    assert known[0] == {}  # seat 0 saw nothing
    state = run(state, "2 R3")  # a known card played leaves what seat 1 knows
    mine.remove("R3")
    assert [str(card) for card in dict(view_for(state, 1).known)[2]] == mine


def test_h2_g2_a_zero_passes_what_is_known_on_with_the_hands() -> None:
    state = deal("classic", [["B1"], ["R0", "G3"], ["Y4"]], top="R5", options=SEVEN)
    hands = [hand(state, seat) for seat in range(3)]
    hands[1].remove("R0")
    state = run(state, "1 R0")  # seat 0's hand goes to 1, 1's to 2, 2's to 0
    for giver in range(3):
        assert [str(card) for card in dict(view_for(state, giver).known)[(giver + 1) % 3]] == hands[giver]
