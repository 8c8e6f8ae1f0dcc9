"""UNO Show 'Em No Mercy (docs/RULES.md N-1 … N-28): scenarios and random games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from tests.helpers import hand, legal, run, top
from tests.rules.classic._arrange import arrange as arrange_classic
from unoengine import Color, GameState, IllegalActionError, apply, legal_actions, new_game, parse_card
from unoengine.core.actions import format_action, parse_action
from unoengine.core.cards import format_card
from unoengine.core.events import KnockedOut, event_to_json
from unoengine.core.notation import format_state, parse_state
from unoengine.core.rules import RULESETS, find_rules
from unoengine.core.rules.nomercy import NO_MERCY, NO_MERCY_DECK, no_mercy_points
from unoengine.core.state import DrawStack, Turn
from unoengine.core.views import view_for, view_to_json
from unoengine.play.narrator import Names, narrate


def arrange(
    hands: Sequence[Sequence[str]],
    top: str,
    draw: Sequence[str] = (),
    *,
    to_act: int,
    color: str | None = None,
    under: Sequence[str] = (),
    direction: int = 1,
    pending: Any = None,
    out: Sequence[int] = (),
    options: dict[str, Any] | None = None,
) -> GameState:
    """A No Mercy state with exactly these cards where they are named; the rest of the deck lies under the draw
    pile's named cards (``draw``, top first); ``out``: seats knocked out of the round (N-22)."""
    state = arrange_classic(
        hands, top, draw, to_act=to_act, color=color, under=under, direction=direction, options=options, rules="nomercy"
    )
    return state._replace(
        power=tuple(seat not in out for seat in range(len(hands))),
        pending=pending if pending is not None else Turn(to_act),
    )


def moves(state: GameState, seat: int) -> list[str]:
    """The seat's legal actions in notation, without the UNO window's (``uno``, ``catch N``)."""
    return [text for text in legal(state, seat) if text != "uno" and not text.startswith("catch")]


def count_cards(state: GameState) -> int:
    return sum(len(h) for h in state.hand_bytes) + len(state.draw_bytes) + len(state.discard_bytes)


# -- N-1, N-2: the deck ------------------------------------------------------------------------


def test_n1_the_deck_has_168_cards() -> None:
    counts = Counter(format_card(card) for card in NO_MERCY_DECK)
    assert len(NO_MERCY_DECK) == 168
    assert sum(1 for card in NO_MERCY_DECK if card.is_wild) == 24
    for c in "RYGB":
        assert sum(n for text, n in counts.items() if text.startswith(c)) == 36
        assert counts[f"{c}0"] == 2 and counts[f"{c}9"] == 2
        assert (counts[f"{c}+2"], counts[f"{c}+4"], counts[f"{c}S"]) == (3, 2, 3)
        assert (counts[f"{c}SE"], counts[f"{c}R"], counts[f"{c}DA"]) == (2, 3, 3)
    assert (counts["WR+4"], counts["W+6"], counts["W+10"], counts["WCR"]) == (8, 4, 4, 8)
    assert "W" not in counts and "W+4" not in counts


def test_n1_notation_round_trips_and_does_not_clash() -> None:
    old = {"R7", "YS", "BR", "G+2", "W", "W+4", "WAF", "FW+2", "FWA", "FW+4"}
    new = {format_card(card) for card in NO_MERCY_DECK}
    for text in new | old:
        assert format_card(parse_card(text)) == text
        assert format_card(parse_card(text.lower())) == text
    assert len({parse_card(text) for text in new | old}) == len(new | old)
    for text in ("WCR", "W+10:g", "RSE uno", "WR+4:b uno", "RDA", "R7>2"):
        assert format_action(parse_action(text)) == text


def test_n1_card_words() -> None:
    assert parse_card("R+4").words == "red Draw Four"
    assert parse_card("GSE").words == "green Skip Everyone"
    assert parse_card("BDA").words == "blue Discard All"
    assert parse_card("WR+4").words == "Wild Reverse Draw Four"
    assert parse_card("W+6").words == "Wild Draw Six"
    assert parse_card("W+10").words == "Wild Draw Ten"
    assert parse_card("WCR").words == "Wild Color Roulette"


def test_n2_wilds_play_on_anything_but_not_on_a_pending_draw() -> None:
    state = arrange([["WCR", "W+10", "B1"], ["G1", "G2", "G3"]], top="R3", to_act=0)
    assert {"WCR", "W+10:g"} <= set(moves(state, 0))
    state = arrange([["R+2", "B1", "B2"], ["WCR", "W+10", "G3"]], top="R3", to_act=0)
    state = run(state, "0 R+2")
    assert "WCR" not in moves(state, 1) and "W+10:g" in moves(state, 1)
    assert "accept" not in moves(state, 1) and "challenge" not in moves(state, 1)


def test_n27_points() -> None:
    assert [no_mercy_points(parse_card(t)) for t in ("R7", "R0", "R+4", "RSE", "RDA", "W+10", "WCR")] == [
        7,
        0,
        20,
        20,
        20,
        50,
        50,
    ]


def test_n1_registered_as_nomercy() -> None:
    assert RULESETS["nomercy"] is NO_MERCY
    assert find_rules("No_Mercy") is NO_MERCY
    assert NO_MERCY.rule_letter == "N"
    assert NO_MERCY.seats == range(2, 11)


# -- N-3 … N-5, N-20, N-26: set-up and options --------------------------------------------


def test_n4_action_cards_turned_first_are_covered_until_a_number_card() -> None:
    cards = [format_card(card) for card in NO_MERCY_DECK]
    first = ["WCR", "GSE", "R+2", "B5"]
    for text in first:
        cards.remove(text)
    state = new_game("nomercy", 2, seed=0, deck=[*cards[:14], *first, *cards[14:]])
    assert [format_card(state.tables.cards[c]) for c in state.discard_pile] == first
    assert state.color is Color.BLUE
    assert state.pending == Turn(1)
    assert len(hand(state, 0)) == len(hand(state, 1)) == 7


def test_n3_n5_seven_each_and_the_dealers_left_plays_first() -> None:
    state = new_game("nomercy", 4, seed=11, dealer=2)
    assert [len(h) for h in state.hand_bytes] == [7, 7, 7, 7]
    assert state.pending == Turn(3) and state.direction == 1
    assert len(state.draw_pile) + len(state.discard_pile) == 168 - 28
    state = new_game("nomercy", 3, seed=1, options={"hand_size": 10})
    assert [len(h) for h in state.hand_bytes] == [10, 10, 10]


def test_n20_only_uno_penalty_and_hand_size_are_house_options() -> None:
    names = NO_MERCY.option_names
    assert {"uno_penalty", "hand_size", "single_round", "target_score", "round_action_limit"} == names
    for name, value in (("stack_draw", "mixed"), ("seven_zero", True), ("draw_until_playable", True)):
        with pytest.raises(Exception, match=name):
            new_game("nomercy", 2, seed=0, options={name: value})


def test_n26_one_round_by_default() -> None:
    assert NO_MERCY.default_options.single_round is True


# -- N-6 … N-10: a turn ------------------------------------------------------------------------


def test_n6_each_kind_is_its_own_symbol() -> None:
    state = arrange([["B+4", "B+2", "BSE", "Y5"], ["R1"]], top="R+4", to_act=0)
    plays = moves(state, 0)
    assert "B+4" in plays and "B+2" not in plays and "BSE" not in plays


def test_n8_the_roulette_names_no_colour_other_wilds_do() -> None:
    state = arrange([["WCR", "W+6", "Y5"], ["R1"]], top="R3", to_act=0)
    plays = moves(state, 0)
    assert "WCR" in plays and "WCR:g" not in plays
    assert {"W+6:r", "W+6:y", "W+6:g", "W+6:b"} <= set(plays) and "W+6" not in plays
    with pytest.raises(IllegalActionError, match="N-8"):
        apply(state, 0, "WCR:g")


def test_n7_one_card_per_turn() -> None:
    state = arrange([["R5", "R6", "B1"], ["G1", "G2", "G3"], ["Y1", "Y2"]], top="R3", to_act=0)
    state = run(state, "0 R5")
    assert state.pending == Turn(1)


def test_n9_draw_until_playable_then_must_play_it() -> None:
    state = arrange([["B1", "B2"], ["R1", "G1"]], top="R3", draw=["Y4", "B6", "R9", "G2"], to_act=0)
    state = run(state, "0 draw")
    assert hand(state, 0) == ["B1", "B2", "Y4", "B6", "R9"]
    assert state.pending.kind == "drawn"
    assert moves(state, 0) == ["R9"]
    with pytest.raises(IllegalActionError, match="N-9"):
        apply(state, 0, "pass")
    assert view_for(state, 0).words.prompt == "You drew red 9: play it"  # no "or keep it and pass"
    state = run(state, "0 R9")
    assert state.to_act == 1


def test_n9_a_player_holding_a_playable_card_may_still_draw() -> None:
    state = arrange([["R1", "B2"], ["R1", "G1"]], top="R3", draw=["R7"], to_act=0)
    assert "draw" in moves(state, 0)


def test_n10_both_piles_out_only_pass() -> None:
    state = arrange([["B1", "B2"], ["G1", "G5"]], top="R3", to_act=0)
    rest = state.draw_pile
    state = state._replace(hands=(state.hands[0] + rest, state.hands[1]), draw_pile=())
    # the seat now holds far more than 25 cards: only the shape of the draw matters here
    state = run(state, "0 draw")
    assert state.pending.kind == "drawn" and moves(state, 0) == ["pass"]


# -- N-11 … N-14: action cards ------------------------------------------------------------------


def test_n11_skip_and_reverse() -> None:
    state = arrange([["RS", "B1"], ["R1", "G1"], ["R2", "G2"]], top="R3", to_act=0)
    assert run(state, "0 RS").to_act == 2
    state = arrange([["RR", "B1"], ["R1", "G1"], ["R2", "G2"]], top="R3", to_act=0)
    state = run(state, "0 RR")
    assert (state.direction, state.to_act) == (-1, 2)


def test_n11_two_players_reverse_is_a_skip() -> None:
    state = arrange([["RR", "B1"], ["R1", "G1"]], top="R3", to_act=0)
    assert run(state, "0 RR").to_act == 0


def test_n12_draw_two_next_player_faces_the_total() -> None:
    state = arrange([["R+2", "B1"], ["G1", "G2"], ["Y1", "Y2"]], top="R3", draw=["B7", "B8"], to_act=0)
    state = run(state, "0 R+2")
    assert state.pending == DrawStack(1, 2)
    assert moves(state, 1) == ["draw"]
    state = run(state, "1 draw")
    assert hand(state, 1) == ["G1", "G2", "B7", "B8"]
    assert state.to_act == 2


def test_n13_skip_everyone_plays_again() -> None:
    state = arrange([["RSE", "B1", "B2"], ["R1", "G1"], ["R2", "G2"]], top="R3", to_act=0)
    state = run(state, "0 RSE")
    assert state.pending == Turn(0)


def test_n14_discard_all_puts_the_colour_under_it() -> None:
    state = arrange([["B1", "RDA", "R5", "WCR", "RS"], ["G1", "G2"]], top="R3", to_act=0)
    state = run(state, "0 RDA")
    assert hand(state, 0) == ["B1", "WCR"]
    assert [format_card(state.tables.cards[c]) for c in state.discard_pile] == ["R3", "R5", "RS", "RDA"]
    assert top(state) == "RDA" and state.to_act == 1


def test_n14_discard_all_uno_judges_the_hand_after_the_discards() -> None:
    state = arrange([["B1", "RDA", "R5", "R6"], ["G1", "G2"]], top="R3", to_act=0)
    assert "RDA uno" in moves(state, 0)
    state = run(state, "0 RDA")
    assert state.unsafe == 0
    state = run(state, "1 catch 0")
    assert len(hand(state, 0)) == 3


def test_n14_n25_discard_all_emptying_the_hand_wins() -> None:
    state = arrange([["RDA", "R5", "R6"], ["G1", "G2"]], top="R3", to_act=0)
    state = run(state, "0 RDA")
    assert state.is_over and state.outcome.winner == 0


# -- N-15, N-16: stacking -----------------------------------------------------------------------


def test_n15_stack_equal_or_higher_value_any_colour() -> None:
    state = arrange([["R+4", "B1", "B2"], ["G+2", "B+4", "W+6", "WCR", "RS", "G3"], ["Y1", "Y2"]], top="R3", to_act=0)
    state = run(state, "0 R+4")
    assert state.pending == DrawStack(1, 4)
    plays = moves(state, 1)
    assert "B+4" in plays and "W+6:g" in plays and "draw" in plays
    assert "G+2" not in plays and "WCR" not in plays and "RS" not in plays
    state = run(state, "1 W+6:g")
    assert state.pending == DrawStack(2, 10) and state.color is Color.GREEN
    state = run(state, "2 draw")
    assert len(hand(state, 2)) == 12
    assert state.to_act == 0


def test_n16_wild_reverse_draw_four_reverses_and_targets_the_new_next() -> None:
    state = arrange([["WR+4", "B1"], ["G1", "G2"], ["Y1", "Y2"]], top="R3", to_act=0)
    state = run(state, "0 WR+4:y")
    assert state.direction == -1 and state.pending == DrawStack(2, 4)


def test_n16_stacked_reverse_sends_the_total_back() -> None:
    state = arrange([["R+4", "B1"], ["WR+4", "G2"], ["Y1", "Y2"]], top="R3", to_act=0)
    state = run(state, "0 R+4", "1 WR+4:b")
    assert state.direction == -1 and state.pending == DrawStack(0, 8)


def test_n24_two_players_wild_reverse_draw_four_its_player_draws() -> None:
    state = arrange([["WR+4", "B1"], ["G1", "G2"]], top="R3", draw=["Y1", "Y2", "Y3", "Y4"], to_act=0)
    state = run(state, "0 WR+4:g")
    assert hand(state, 0) == ["B1", "Y1", "Y2", "Y3", "Y4"]
    assert state.pending == Turn(1)


# -- N-17: the roulette ------------------------------------------------------------------------------


def test_n17_roulette_victim_names_colour_and_turns_cards() -> None:
    state = arrange(
        [["WCR", "B1"], ["G1", "G2"], ["Y1", "Y2"]], top="R3", draw=["R1", "W+6", "B4", "G7", "G8"], to_act=0
    )
    state = run(state, "0 WCR")
    assert state.pending.kind == "roulette" and state.to_act == 1
    assert moves(state, 1) == ["color r", "color y", "color g", "color b"]
    state = run(state, "1 color g")
    assert hand(state, 1) == ["G1", "G2", "R1", "W+6", "B4", "G7"]
    assert state.color is Color.GREEN and top(state) == "WCR"
    assert state.to_act == 2


# -- N-18: 7 and 0 ----------------------------------------------------------------------------------


def test_n18_seven_swaps_with_a_seat_in_the_round() -> None:
    state = arrange([["R7", "B1"], [], ["Y1", "Y2", "Y3"]], top="R3", to_act=0, out=[1])
    assert [p for p in moves(state, 0) if p.startswith("R7")] == ["R7>2"]
    (seven,) = [info for info in view_for(state, 0).actions if info.notation == "R7>2"]
    assert seven.aim == "Swap hands with whom?"  # not Flex's "Who must draw?"
    with pytest.raises(IllegalActionError, match="N-18"):
        apply(state, 0, "R7>1")
    state = run(state, "0 R7>2")
    assert hand(state, 0) == ["Y1", "Y2", "Y3"] and hand(state, 2) == ["B1"]


def test_n18_zero_passes_hands_among_seats_in_the_round() -> None:
    state = arrange([["R0", "B1"], [], ["Y1", "Y2"], ["G1", "G2", "G3"]], top="R3", to_act=0, out=[1])
    state = run(state, "0 R0")
    assert hand(state, 1) == []
    assert hand(state, 2) == ["B1"] and hand(state, 3) == ["Y1", "Y2"] and hand(state, 0) == ["G1", "G2", "G3"]
    assert state.to_act == 2


# -- N-19: UNO ------------------------------------------------------------------------------------


def test_n19_uno_caught_draws_the_penalty() -> None:
    state = arrange([["R5", "B1"], ["G1", "G2", "G3"]], top="R3", to_act=0, options={"uno_penalty": 4})
    assert "R5 uno" in moves(state, 0)
    state = run(state, "0 R5", "1 catch 0")
    assert len(hand(state, 0)) == 5 and state.power == (True, True)


# -- N-21 … N-23: the Mercy Rule ------------------------------------------------------------------


def test_n21_knock_out_at_25_cards_hand_under_the_discard_pile() -> None:
    big = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"] * 2 + ["Y1", "Y2", "Y3", "Y4"]  # 22
    state = arrange([["R+4", "G1"], big, ["Y5", "Y6"]], top="R3", to_act=0)
    before = count_cards(state)
    state = run(state, "0 R+4", "1 draw")
    assert state.power == (True, False, True)
    assert hand(state, 1) == []
    under = [format_card(state.tables.cards[c]) for c in state.discard_pile[:25]]
    assert under[:22] == big and len(under) == 25
    assert top(state) == "R+4"
    assert state.to_act == 2
    assert count_cards(state) == before
    # N-22: seat 1 is skipped from now on
    state = run(state, "2 draw") if "draw" in moves(state, 2) else state
    assert state.to_act != 1


def test_n21_knock_out_is_a_public_event_the_view_and_the_narrator_name() -> None:
    big = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"] * 2 + ["Y1", "Y2", "Y3", "Y4"]  # 22
    state = arrange([["R+4", "G1"], big, ["Y5", "Y6"]], top="R3", to_act=0)
    state = run(state, "0 R+4")
    transition = apply(state, 1, "draw")
    assert KnockedOut(1, 25) in transition.events
    data = view_to_json(view_for(transition.state, 2))
    assert data["in_round"] == [True, False, True]
    assert data["power"] == []  # Flex's Power Cards only
    knocked = next(event for event in transition.events if isinstance(event, KnockedOut))
    assert event_to_json(knocked, transition.state) == {"type": "knocked_out", "seat": 1, "cards": 25}
    for reader, expected in ((1, "You hold 25 cards"), (2, "Bot 1 holds 25 cards")):
        lines = narrate(
            view_for(state, reader),
            transition.events,
            view_for(transition.state, reader),
            Names.bots(3, reader),
            state.tables.cards,
        )
        assert any(line.startswith(expected) and "Mercy Rule" in line for line in lines), lines


def test_n27_the_winner_scores_the_hands_knocked_out_of_the_round() -> None:
    big = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"] * 2 + ["Y1", "Y2", "Y3", "Y4", "W+6"]  # 23
    state = arrange([["R+2", "R4"], big, ["R3", "G7", "G8"]], top="R5", to_act=0, options={"single_round": False})
    state = run(state, "0 R+2 uno", "1 draw")  # seat 1 draws 2: 25 cards, out (N-21)
    assert state.power == (True, False, True)
    under = [state.tables.cards[card] for card in state.discard_pile[:25]]  # its hand, the two drawn included
    assert [format_card(card) for card in under[:23]] == big
    knocked = sum(no_mercy_points(card) for card in under)
    assert state.aside == knocked
    assert f"aside={knocked}" in format_state(state)
    assert parse_state(format_state(state)) == state
    state = run(state, "2 R3", "0 R4")  # seat 0 goes out
    assert state.round_scores[0] == (15 + knocked, 0, 0)
    assert state.aside == 0  # the next round's deal clears it


def test_n22_a_knocked_out_seat_does_not_catch() -> None:
    state = arrange([["R5", "B1"], [], ["Y1", "Y2", "Y3"]], top="R3", to_act=0, out=[1])
    state = run(state, "0 R5")
    assert state.unsafe == 0
    assert legal(state, 1) == [] and "catch 0" in legal(state, 2)
    with pytest.raises(IllegalActionError, match="N-22"):
        apply(state, 1, "catch 0")


def test_n21_knock_out_in_the_middle_of_the_draw_until_playable() -> None:
    big = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"] * 2 + ["Y1", "Y2", "Y3", "Y4", "Y5"]  # 23
    state = arrange([big, ["G1", "G2"], ["Y6", "Y7"]], top="R3", draw=["G4", "G5", "G6", "R9"], to_act=0)
    state = run(state, "0 draw")
    assert state.power == (False, True, True)
    assert state.pending == Turn(1)
    assert [format_card(state.tables.cards[c]) for c in state.draw_pile[-2:]] == ["R9", "G6"]


def test_n17_n21_knock_out_stops_the_roulette() -> None:
    big = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"] * 2 + ["Y1", "Y2", "Y3", "Y4", "Y5"]  # 23
    state = arrange([["WCR", "R1"], big, ["Y6", "Y7"]], top="R3", draw=["G4", "G5", "G6", "R9"], to_act=0)
    state = run(state, "0 WCR", "1 color r")
    assert state.power == (True, False, True) and state.to_act == 2
    assert state.color is Color.RED


def test_n10_a_refill_takes_the_knocked_out_hand_back() -> None:
    big = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"] * 2 + ["Y1", "Y2", "Y3", "Y4"]  # 22
    state = arrange([["R+4", "G1", "G2"], big, ["Y5", "Y6"]], top="R3", to_act=0)
    state = run(state, "0 R+4", "1 draw")
    state = state._replace(draw_pile=(), discard_pile=state.draw_pile + state.discard_pile)
    assert count_cards(state) == 168
    state = run(state, "2 draw")
    assert len(state.discard_pile) == 1 and count_cards(state) == 168


def test_n23_last_seat_in_the_round_wins() -> None:
    big = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"] * 2 + ["Y1", "Y2", "Y3"]  # 21
    state = arrange([["R+4", "G1"], big], top="R3", to_act=0)
    state = run(state, "0 R+4", "1 draw")
    assert state.is_over and state.outcome.winner == 0


def test_n24_two_players_skip_everyone_plays_again() -> None:
    state = arrange([["RSE", "B1"], ["G1", "G2"]], top="R3", to_act=0)
    state = run(state, "0 RSE")
    assert state.pending == Turn(0)


# -- N-25: the last card's effect is not applied ---------------------------------------------------


def test_n25_last_card_draw_is_not_applied() -> None:
    state = arrange([["W+10"], ["G1", "G2"]], top="R3", to_act=0)
    state = run(state, "0 W+10:g")
    assert state.is_over and state.outcome.winner == 0
    assert hand(state, 1) == ["G1", "G2"]


# -- N-28: every round ends --------------------------------------------------------------------------


def test_n28_round_action_limit_ends_the_round_with_no_winner() -> None:
    state = new_game("nomercy", 3, seed=3, options={"round_action_limit": 5})
    rng = random.Random(0)
    while not state.is_over:
        seat = state.to_act
        state = apply(state, seat, rng.choice(legal_actions(state, seat))).state
    assert state.steps == 5
    assert state.outcome.winner is None and state.outcome.termination.value == "blocked"


# -- random games: G-3 and termination ----------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_n28_random_games_conserve_cards_and_end(seats: int) -> None:
    for seed in range(8):
        rng = random.Random(seed * 31 + seats)
        state = new_game("nomercy", seats, seed=seed, options={"single_round": seed % 2 == 0, "target_score": 200})
        while not state.is_over:
            assert count_cards(state) == 168
            seat = state.to_act
            assert state.power[seat]
            for other in range(seats):
                if not state.power[other]:
                    assert not state.hand_bytes[other]
            if state.unsafe is not None and rng.random() < 0.3:
                catcher = rng.randrange(seats)
                extra = legal_actions(state, catcher)
                outs = [a for a in extra if format_action(a) in ("uno", f"catch {state.unsafe}")]
                if outs:
                    state = apply(state, catcher, rng.choice(outs)).state
                    continue
            state = apply(state, seat, rng.choice(legal_actions(state, seat))).state
        assert state.outcome is not None
