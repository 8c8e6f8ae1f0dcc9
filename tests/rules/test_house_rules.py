"""House rules H-1 … H-11 (docs/RULES.md "House rules"): scenarios and their interactions."""

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


# -- H-11 teams --------------------------------------------------------------------

TEAMS: dict[str, Any] = {"teams": "pairs"}


def test_h11_pairs_are_played_with_4_or_6_seats_in_classic_and_flex_and_duo_refuses_it() -> None:
    for rules, seats in (("classic", 4), ("classic", 6), ("flex", 4), ("flex", 6)):
        assert new_game(rules, seats, seed=1, options=TEAMS).game.house[-1].rule == "H-11"
    for seats in (2, 3, 5, 7):
        with pytest.raises(InvalidNotationError, match="'teams' \\(H-11\\): pairs are played with 4 or 6 seats"):
            new_game("classic", seats, seed=1, options=TEAMS)
    with pytest.raises(InvalidNotationError, match="'teams' \\(H-11\\)"):
        new_game("duo", 2, seed=1, options=TEAMS)
    assert new_game("classic", 3, seed=1, options={"teams": "none"}).seats == 3
    from unoengine.server.protocol import ProtocolError, parse_settings  # uno serve's create-table path

    assert parse_settings({"rules": "classic", "seats": 4, "options": TEAMS})[0].options == (("teams", "pairs"),)
    with pytest.raises(ProtocolError, match="'teams' \\(H-11\\): pairs are played with 4 or 6 seats"):
        parse_settings({"rules": "classic", "seats": 3, "options": TEAMS})


def test_h11_partners_sit_opposite() -> None:
    from unoengine.core.house.teams import partner

    assert [partner(4, seat) for seat in range(4)] == [2, 3, 0, 1]
    assert [partner(6, seat) for seat in range(6)] == [3, 4, 5, 0, 1, 2]


def test_h11_a_round_won_by_a_partner_scores_the_opponents_cards_for_both_partners() -> None:
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["Y4"]], top="R5", options=TEAMS)
    state = shrink(state, 1, 1)
    points = state.tables.points
    opponents = sum(points[card] for seat in (0, 2) for card in state.hands[seat])
    state = run(state, "1 R6")  # seat 1 goes out: seat 3's cards do not count
    assert state.round_scores[-1] == (0, opponents, 0, opponents)
    assert state.scores == (0, opponents, 0, opponents) and state.outcome is None
    plain = run(shrink(deal("classic", [["B1"], ["R6"], ["G3"], ["Y4"]], top="R5"), 1, 1), "1 R6")
    assert plain.scores[1] > opponents and plain.scores[3] == 0  # without teams seat 3's cards count


def test_h11_the_first_team_to_reach_the_target_wins_and_the_winner_is_the_seat_that_went_out() -> None:
    options = {**TEAMS, "target_score": 1}
    over = run(shrink(deal("classic", [["B1"], ["R6"], ["G3"], ["Y4"]], top="R5", options=options), 1, 1), "1 R6")
    assert over.outcome is not None and over.outcome.winner == 1 and over.scores[1] == over.scores[3] >= 1
    single = run(
        shrink(
            deal("classic", [["B1"], ["R6"], ["G3"], ["Y4"]], top="R5", options={**TEAMS, "single_round": True}), 1, 1
        ),
        "1 R6",
    )
    assert single.outcome is not None and single.outcome.winner == 1 and single.scores[3] == single.scores[1]


def test_h11_a_team_total_ends_the_game_in_random_play() -> None:
    import random

    from unoengine import legal_actions

    for seed, seats in ((1, 4), (2, 6), (3, 4)):
        state = new_game(
            "classic" if seed != 3 else "flex",
            seats,
            seed=seed,
            options={**TEAMS, "target_score": 150, "single_round": False},
        )
        rng = random.Random(seed)
        while state.outcome is None:
            seat = state.to_act
            assert seat is not None
            state = apply(state, seat, rng.choice(legal_actions(state, seat))).state
        winner = state.outcome.winner
        assert winner is not None and state.scores[winner] >= 150
        for seat in range(seats):
            assert state.scores[seat] == state.scores[(seat + seats // 2) % seats]
            if seat not in (winner, (winner + seats // 2) % seats):
                assert state.scores[seat] < 150


def test_h11_a_seat_may_not_catch_its_partner_but_its_opponents_may() -> None:
    state = deal("classic", [["B1"], ["R6", "G2"], ["G3"], ["Y4"]], top="R5", options=TEAMS)
    state = run(shrink(state, 1, 2), "1 R6")  # no " uno": seat 1 may be caught
    assert "catch 1" not in legal(state, 3) and "catch 1" in legal(state, 2) and "catch 1" in legal(state, 0)
    assert 3 not in reaction_order(state) and window_open(state)
    with pytest.raises(IllegalActionError, match="H-11"):
        apply(state, 3, "catch 1")
    caught = run(state, "2 catch 1")
    assert len(caught.hands[1]) == 3


def test_h11_a_view_shows_no_partner_cards() -> None:
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["Y4"]], top="R5", options=TEAMS)
    hands = list(state.hands)
    other = state._replace(  # the partner (seat 3) holds other cards; the rest is the same
        hands=(*hands[:3], state.draw_pile[:7]), draw_pile=hands[3] + state.draw_pile[7:]
    )
    assert other.hands[3] != state.hands[3]
    assert view_for(state, 1) == view_for(other, 1)
    assert view_for(state, 3) != view_for(other, 3)
    assert dict(view_for(state, 1).options)["teams"] == "pairs"  # the teams are public


def test_h11_a_record_with_teams_replays(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from unoengine.cli.main import cli

    hands = [["B1"], ["R6"], ["R3"], ["Y4"]]
    order = deal_order("classic", hands, "R5", options=TEAMS)
    record = record_of(new_game("classic", 4, seed=0, deck=order, options=TEAMS), [(1, "R6"), (2, "R3")], deck=order)
    text = format_record(record)
    assert '"teams": "pairs"' in text
    final = replay(parse_record(text))
    assert final.to_act == 3 and top(final) == "R3"
    path = tmp_path / "teams.json"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert '"teams": "pairs"' in result.stdout


# -- H-9 deflect -------------------------------------------------------------------


def test_h9_a_skip_of_the_current_colour_passes_the_total_to_the_next_seat() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["RS", "G3"], ["Y4"]], top="R5", options={"deflect": "skip"})
    state = run(state, "1 R+2")
    assert (state.pending.kind, state.to_act, state.pending.total) == ("stack", 2, 2)
    assert legal(state, 2) == ["RS", "draw"]
    state = run(state, "2 RS")
    assert (state.pending.kind, state.to_act, state.pending.total) == ("stack", 3, 2)
    before = len(state.hands[3])
    state = run(state, "3 draw")
    assert len(state.hands[3]) == before + 2
    assert (state.pending.kind, state.to_act) == ("turn", 0)


def test_h9_a_reverse_sends_the_total_back_and_reverses_the_direction() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["RR", "G3"], ["Y4"]], top="R5", options={"deflect": "reverse"})
    state = run(state, "1 R+2", "2 RR")
    assert (state.pending.kind, state.to_act, state.pending.total, state.direction) == ("stack", 1, 2, -1)
    state = run(state, "1 draw")
    assert (state.pending.kind, state.to_act) == ("turn", 0)


@pytest.mark.parametrize("card", ["RS", "RR"])
def test_h9_both_with_two_seats_sends_the_total_to_the_other_seat(card: str) -> None:
    state = deal("classic", [["RS", "RR", "G3"], ["R+2"]], top="R5", options={"deflect": "both"})
    state = run(state, "1 R+2")
    assert legal(state, 0)[:2] == ["RS", "RR"] and legal(state, 0)[-1] == "draw"
    state = run(state, f"0 {card}")
    assert (state.pending.kind, state.to_act, state.pending.total) == ("stack", 1, 2)
    state = run(state, "1 draw")
    assert (state.pending.kind, state.to_act) == ("turn", 0)


def test_h9_h1_a_stacked_total_is_deflected_whole() -> None:
    options = {"deflect": "both", "stack_draw": "mixed"}
    state = deal("classic", [["B1", "Y+2"], ["R+2"], ["G+2"], ["GS"]], top="R5", options=options)
    state = run(state, "1 R+2", "2 G+2")
    assert "GS" in legal(state, 3)
    state = run(state, "3 GS")
    assert (state.pending.kind, state.to_act, state.pending.total) == ("stack", 0, 4)
    assert legal(shrink(state, 0, 2), 0) == ["draw"]  # a deflected total is not stacked on (the top is a Skip)


def test_h9_with_stack_draw_none_the_decision_offers_only_deflects_and_draw() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["RS", "R+2", "G3"], ["Y4"]], top="R5", options={"deflect": "skip"})
    state = shrink(run(state, "1 R+2"), 2, 3)
    assert legal(state, 2) == ["RS", "draw"]
    with pytest.raises(IllegalActionError, match=r"H-9 seat 2 passes the draw total \(2\) on or draws it"):
        apply(state, 2, "R+2")


def test_h9_c17_deflecting_a_wild_draw_four_accepts_it_and_the_next_seat_cannot_challenge() -> None:
    options = {"deflect": "both", "wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["W+4", "R7"], ["RS", "G3"], ["Y4"]], top="R5", options=options)
    state = run(state, "1 W+4:r")
    assert state.pending.kind == "challenge" and legal(state, 2) == ["RS", "accept", "challenge"]
    state = run(state, "2 RS")
    assert (state.pending.kind, state.to_act, state.pending.total) == ("stack", 3, 4)
    assert "challenge" not in legal(state, 3)
    with pytest.raises(IllegalActionError):
        apply(state, 3, "challenge")


def test_h9_c20_a_deflect_on_the_last_card_ends_the_round_and_the_next_seat_draws() -> None:
    options = {"deflect": "skip", "single_round": True}
    state = deal("classic", [["B1"], ["R+2"], ["RS"], ["Y4"]], top="R5", options=options)
    state = shrink(run(state, "1 R+2"), 2, 1)
    state = run(state, "2 RS")
    assert state.pending.kind == "game_over" and state.round_winner == 2
    assert len(state.hands[3]) == 9 and len(state.hands[0]) == 7


def test_h9_a_deflected_total_is_deflected_again() -> None:
    options = {"deflect": "skip", "stack_draw": "mixed"}
    state = deal("classic", [["B1"], ["R+2"], ["RS"], ["RS", "R+2"]], top="R5", options=options)
    state = run(state, "1 R+2", "2 RS")
    assert "RS" in legal(state, 3) and "R+2" not in legal(state, 3)
    state = run(state, "3 RS")
    assert (state.pending.kind, state.to_act, state.pending.total) == ("stack", 0, 2)


def test_h9_refusals_name_the_rule() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["GS", "RR"], ["Y4"]], top="R5", options={"deflect": "skip"})
    state = run(state, "1 R+2")
    with pytest.raises(IllegalActionError, match="H-9 only a Skip of red passes the draw total on"):
        apply(state, 2, "GS")
    with pytest.raises(IllegalActionError, match="H-9 with deflect skip, a Reverse does not pass the draw total on"):
        apply(state, 2, "RR")
    both = deal("classic", [["B1"], ["R+2"], ["GS", "RR"], ["Y4"]], top="R5", options={"deflect": "both"})
    assert "RR" in legal(run(both, "1 R+2"), 2)


def test_h9_c18_uno_after_deflecting_with_two_cards() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["RS", "G3"], ["Y4"]], top="R5", options={"deflect": "skip"})
    state = shrink(run(state, "1 R+2"), 2, 2)
    assert legal(state, 2) == ["RS", "RS uno", "draw"]
    assert "catch 2" in legal(run(state, "2 RS"), 3)
    called = run(state, "2 RS uno")
    assert "catch 2" not in legal(called, 3) and called.to_act == 3


def test_h9_duo_and_flex_refuse_it() -> None:
    for rules in ("duo", "flex"):
        with pytest.raises(InvalidNotationError, match="deflect"):
            new_game(rules, 2, seed=0, options={"deflect": "skip"})


def test_h11_the_narrator_names_the_winning_team() -> None:
    from unoengine.play.narrator import Names, narrate

    state = shrink(deal("classic", [["B1"], ["R6"], ["G3"], ["Y4"]], top="R5", options=TEAMS), 1, 1)
    step = apply(state, 1, "R6")
    lines = {
        reader: narrate(
            view_for(state, reader),
            step.events,
            view_for(step.state, reader),
            Names.bots(4, reader),
            state.tables.cards,
        )
        for reader in (3, 0)
    }
    assert any(line.startswith("Round 1 won by your team (") for line in lines[3]), lines[3]
    assert any(line.startswith("Round 1 won by Team B (") for line in lines[0]), lines[0]


# -- H-10 multi-play ---------------------------------------------------------------


MULTI: dict[str, Any] = {"multi_play": True}


def multi(hands: list[list[str]], draw: tuple[str, ...] = (), keep: int | None = None, **options: Any) -> Any:
    """A Classic game with multi-play on ``R5``; seat 1 holds only its named cards (or its first ``keep``)."""
    state = deal("classic", hands, top="R5", draw=draw, options={**MULTI, **options})
    return shrink(state, 1, len(hands[1]) if keep is None else keep)


def test_h10_two_cards_of_the_same_number_in_one_turn_the_last_sets_the_colour() -> None:
    state = multi([["B1"], ["R6", "G6", "B2"], ["G3"]])
    state = run(state, "1 R6")
    assert (state.pending.kind, state.to_act, state.pending.number) == ("more", 1, 6)
    assert legal(state, 1) == ["G6", "G6 uno", "pass"]
    state = run(state, "1 G6 uno")
    assert (state.pending.kind, state.to_act, state.color.word) == ("turn", 2, "green")
    assert top(state) == "G6" and hand(state, 1) == ["B2"]


def test_h10_three_cards_in_the_order_the_player_chooses() -> None:
    state = multi([["B1"], ["R6", "G6", "Y6", "B6", "B2"], ["G3"]])
    state = run(state, "1 R6", "1 B6", "1 G6")
    assert state.pending.kind == "more" and legal(state, 1) == ["Y6", "Y6 uno", "pass"]
    state = run(state, "1 Y6 uno")
    assert (state.pending.kind, state.to_act, state.color.word, top(state)) == ("turn", 2, "yellow", "Y6")


def test_h10_pass_ends_the_turn_and_without_the_option_the_turn_ends_at_once() -> None:
    state = run(multi([["B1"], ["R6", "G6", "B2"], ["G3"]]), "1 R6")
    state = run(state, "1 pass")
    assert (state.pending.kind, state.to_act, state.color.word) == ("turn", 2, "red")
    assert "G6" in hand(state, 1)
    plain = shrink(deal("classic", [["B1"], ["R6", "G6", "B2"], ["G3"]], top="R5"), 1, 3)
    assert run(plain, "1 R6").pending.kind == "turn"


def test_h10_a_drawn_number_card_may_be_followed_by_more() -> None:
    state = multi([["B1"], ["G6", "B2"], ["G3"]], draw=("R6",))
    state = run(state, "1 draw", "1 R6")
    assert state.pending.kind == "more" and legal(state, 1) == ["G6", "G6 uno", "pass"]


def test_h10_action_cards_are_not_multi_played() -> None:
    state = multi([["B1"], ["RS", "GS", "B2"], ["G3"], ["Y4"]])
    state = run(state, "1 RS")
    assert (state.pending.kind, state.to_act) == ("turn", 3)
    state = multi([["B1"], ["R+2", "G+2", "B2"], ["G3"], ["Y4"]])
    assert run(state, "1 R+2").pending.kind == "turn"


def test_h10_h2_a_seven_or_a_zero_ends_the_turn() -> None:
    options = {"seven_zero": True}
    state = multi([["B1"], ["R7", "G7", "B2"], ["G3"]], **options)
    state = run(state, "1 R7>2")
    assert state.pending.kind == "turn" and state.to_act == 2
    state = multi([["B1"], ["R0", "G0", "B2"], ["G3"]], **options)
    assert run(state, "1 R0").pending.kind == "turn"
    state = run(multi([["B1"], ["R6", "G6", "G7", "B2"], ["G3"]], **options), "1 R6")
    assert legal(state, 1) == ["G6", "pass"]


def test_h10_h3_a_jump_in_is_one_card() -> None:
    state = multi([["B1"], ["R6", "B2", "B3"], ["G3"], ["R6", "G6", "Y2"]], jump_in=True)
    state = shrink(state, 3, 3)
    state = run(state, "1 R6", "3 R6")
    assert (state.pending.kind, state.to_act) == ("turn", 0) and "G6" in hand(state, 3)


def test_h10_c18_uno_per_card_and_a_catch_while_the_player_decides() -> None:
    state = multi([["B1"], ["R6", "G6", "Y6"], ["G3"]])
    state = run(state, "1 R6")
    assert legal(state, 1) == ["Y6", "Y6 uno", "G6", "G6 uno", "pass"]  # one kind at a time, in kind order
    state = run(state, "1 G6")  # one card left, no ' uno': the UNO window is open while seat 1 decides
    assert state.pending.kind == "more" and state.unsafe == 1
    assert "catch 1" in legal(state, 2)
    caught = run(state, "2 catch 1")
    assert len(caught.hands[1]) == 3 and caught.pending.kind == "more"


def test_h10_c20_winning_on_the_last_card_of_a_multi_play() -> None:
    state = multi([["B1"], ["R6", "G6"], ["G3"]], single_round=True)
    state = run(state, "1 R6 uno")
    assert state.pending.kind == "more" and legal(state, 1) == ["G6", "pass"]
    state = run(state, "1 G6")
    assert state.outcome is not None and state.outcome.winner == 1 and state.round_winner == 1


def test_h10_refusals_name_the_rule() -> None:
    state = run(multi([["B1"], ["R6", "G6", "R2", "B2"], ["G3"]]), "1 R6")
    with pytest.raises(IllegalActionError, match="H-10 after a 6, seat 1 plays another 6 or passes"):
        apply(state, 1, "R2")
    with pytest.raises(IllegalActionError, match="H-10 after a 6, seat 1 plays another 6 or passes"):
        apply(state, 1, "draw")
    with pytest.raises(IllegalActionError, match="G-4 seat 1 holds no Y6"):
        apply(state, 1, "Y6")


def test_h10_duo_and_flex_refuse_it() -> None:
    with pytest.raises(InvalidNotationError, match=r"multi_play.*Duo's colour dump \(D-15\)"):
        new_game("duo", 2, seed=0, options=MULTI)
    with pytest.raises(InvalidNotationError, match=r"multi_play.*Power Card \(F-14\)"):
        new_game("flex", 2, seed=0, options=MULTI)


def test_h10_the_state_notation_round_trips_a_more_decision() -> None:
    from unoengine import GameState, format_state

    state = run(multi([["B1"], ["R6", "G6", "B2"], ["G3"]]), "1 R6")
    text = format_state(state)
    assert "pending=more:1,6" in text and "multi_play:true" in text
    again = GameState.parse(text)
    assert again.pending == state.pending and legal(again, 1) == legal(state, 1)


def test_h10_the_words_of_the_more_decision() -> None:
    from unoengine.core.action_words import decision_words, describe_card
    from unoengine.core.cards import parse_card

    state = run(multi([["B1"], ["R6", "G6", "B2"], ["G3"]]), "1 R6")
    words = decision_words(view_for(state, 1), CLASSIC)
    assert (words.title, words.prompt) == ("More 6s", "More 6s: play another 6, or pass to end your turn")
    assert describe_card(CLASSIC, MULTI, parse_card("G6")).endswith("; more of the same number may follow")
    assert "more of" not in describe_card(CLASSIC, {**MULTI, "seven_zero": True}, parse_card("G7"))


def test_h10_a_record_of_a_multi_play_replays(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from unoengine.cli.main import cli

    hands = [["B1"], ["R6", "G6", "Y6", "B2", "B3", "B4", "B7"], ["G3"]]
    order = deal_order("classic", hands, "R5", options=MULTI)
    start = new_game("classic", 3, seed=0, deck=order, options=MULTI)
    record = record_of(start, [(1, "R6"), (1, "Y6"), (1, "G6"), (2, "G3"), (2, "pass")], deck=order)
    text = format_record(record)
    assert '"multi_play": true' in text and '{"seat": 1, "action": "Y6"}' in text
    final = replay(parse_record(text))
    assert top(final) == "G3" and final.to_act == 0
    path = tmp_path / "multi.json"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert '"multi_play": true' in result.stdout
