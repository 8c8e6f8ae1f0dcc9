"""Audit of rule fidelity: edge cases of docs/RULES.md and docs/NOTATION.md.

Each test asserts the rulebook's behaviour. States are stacked with the helpers;
``trim`` shortens a hand (the cards go under the draw pile) so that a scenario can
reach a player's last cards quickly, keeping every card (G-3).
"""

from __future__ import annotations

import random

from tests.helpers import deal, duo_deal, duo_order, first_play, hand, legal, run, top
from unoengine import GameState, apply, legal_actions, new_game, redact, replay, view_for
from unoengine.core.events import CardsDrawn, HandShown, RoundEnded
from unoengine.core.record import Record, record_of
from unoengine.core.rules.duo import Draft
from unoengine.core.state import DrawnCardChoice


def conserved(state: GameState) -> bool:
    every = [card for h in state.hands for card in h] + list(state.draw_pile) + list(state.discard_pile)
    return sorted(every) == list(range(len(state.tables.cards)))


def trim(state: GameState, sizes: dict[int, int]) -> GameState:
    """Leave each seat with its first ``sizes[seat]`` cards; the rest go under the draw pile."""
    hands = list(state.hands)
    under: tuple[int, ...] = ()
    for seat, keep in sizes.items():
        under += hands[seat][keep:]
        hands[seat] = hands[seat][:keep]
    out = state._replace(hands=tuple(hands), draw_pile=under + state.draw_pile)
    assert conserved(out)
    return out


def empty_piles(state: GameState, into: int) -> GameState:
    """Move the whole draw pile into one hand (both piles then hold only the top card)."""
    hands = list(state.hands)
    hands[into] += state.draw_pile + state.discard_pile[:-1]
    out = state._replace(
        hands=tuple(hands), draw_pile=(), discard_pile=state.discard_pile[-1:], public_bottom=0, blocked=0
    )
    assert conserved(out)
    return out


# -- C-20: the last card is an action card, in every rule set ----------------------------


def test_c20_classic_last_skip_reverse_or_wild_ends_the_round_with_nothing_to_draw() -> None:
    for last in ("RS", "RR", "W:g"):
        card = last.split(":")[0]
        state = deal("classic", [["R1"], [card, "R2"], ["R3"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4"])
        state = trim(state, {1: 2})
        state = run(state, "1 R2 uno", "2 R3", "0 R1", f"1 {last}")
        assert state.round == 2 and state.round_winner == 1
        # Nobody drew: the winner scores seats 0 and 2 as dealt (6 cards each).
        assert state.round_scores[0][1] > 0


def test_c20_classic_last_wild_draw_four_under_challenge_is_drawn_with_no_challenge() -> None:
    state = deal(
        "classic",
        [["R1"], ["W+4", "R2"], ["R3"]],
        top="R5",
        draw=["Y1", "Y2", "Y3", "Y4"],
        options={"wild_draw_four": "challenge"},
    )
    state = trim(state, {1: 2})
    state = run(state, "1 R2 uno", "2 R3", "0 R1")
    transition = apply(state, 1, "W+4:g")
    drawn = [e for e in transition.events if isinstance(e, CardsDrawn)]
    assert [(e.seat, len(e.cards or ())) for e in drawn] == [(2, 4)]
    assert transition.state.round == 2
    assert transition.state.round_winner == 1


def test_c20_duo_a_last_draw_two_in_a_volley_makes_the_loser_draw_the_total() -> None:
    # D-12, C-20 Reading: the total of a volley is drawn before the scoring.
    state = duo_deal([["R+2", "B9"], ["R7", "G+2"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4", "Y5"])
    state = trim(state, {1: 2})
    state = run(state, "1 R7 uno", "0 R+2")
    assert state.pending.kind == "volley"
    transition = apply(state, 1, "G+2")
    drawn = [e for e in transition.events if isinstance(e, CardsDrawn)]
    assert [(e.seat, len(e.cards or ())) for e in drawn] == [(0, 4)]
    ended = next(e for e in transition.events if isinstance(e, RoundEnded))
    assert ended.winner == 1 and len(ended.hands[0]) == 7 - 1 + 4


def test_c20_duo_a_last_wild_draw_four_is_drawn_with_no_challenge() -> None:
    state = duo_deal([["B9"], ["R7", "W+4"]], top="R5", draw=["Y1", "Y2", "Y3", "Y4"])
    state = trim(state, {1: 2})
    state = run(state, "1 R7 uno")
    # Seat 0 draws and passes, so that seat 1 plays its last card next.
    state = run(state, "0 draw", "0 pass")
    transition = apply(state, 1, "W+4:b")
    ended = next(e for e in transition.events if isinstance(e, RoundEnded))
    assert ended.winner == 1 and len(ended.hands[0]) == 7 + 1 + 4
    assert transition.state.round == 2


def test_c20_flex_last_flex_sides_impose_their_draws_before_the_scoring() -> None:
    # C-20 Reading: every draw a last card imposes is drawn, with no challenge.
    cases = {
        "FW+4@flex:g>2": {2: 4},
        "FW+4:g": {2: 4},
        "FW+2@flex:g>0": {0: 2},
        "FWA@flex:g": {2: 2, 0: 2},
    }
    for play, expected in cases.items():
        card = play.split("@")[0].split(":")[0]
        state = deal("flex", [["R4"], [card, "R2"], ["R3"]], top="R6", draw=["Y2", "Y3", "Y4", "Y6", "Y7", "Y8"])
        state = trim(state, {1: 2})
        state = run(state, "1 R2 uno", "2 R3", "0 R4")
        transition = apply(state, 1, play)
        drawn = {e.seat: len(e.cards or ()) for e in transition.events if isinstance(e, CardsDrawn)}
        assert drawn == expected, play
        assert transition.state.outcome is not None and transition.state.outcome.winner == 1
        ended = next(e for e in transition.events if isinstance(e, RoundEnded))
        assert [len(h) for h in ended.hands] == [6 + expected.get(0, 0), 0, 6 + expected.get(2, 0)]


def test_c20_flex_last_flex_draw_two_side_every_other_player_draws_one() -> None:
    state = deal("flex", [["R4"], ["G+2|Y", "Y2"], ["R3"]], top="Y6", draw=["B2", "B3", "B4", "B6"])
    state = trim(state, {1: 2})
    state = run(state, "1 Y2 uno", "2 draw", "2 pass", "0 draw", "0 pass")
    assert "G+2|Y@flex" in legal(state, 1)
    transition = apply(state, 1, "G+2|Y@flex")
    drawn = {e.seat: len(e.cards or ()) for e in transition.events if isinstance(e, CardsDrawn)}
    assert drawn == {2: 1, 0: 1}
    assert transition.state.outcome is not None and transition.state.outcome.winner == 1


# -- D-15: a dump that ends with the last card of the hand ------------------------------


def test_d15_dump_ending_with_the_last_card_a_draw_two_the_opponent_draws_and_it_counts() -> None:
    state = duo_deal([["B1"], ["RR", "R+2", "R3"]], top="R5", draw=["Y1", "Y2", "Y3"])
    state = trim(state, {1: 3})
    state = run(state, "1 RR", "1 R3 uno")
    assert legal(state, 1) == ["R+2"]
    transition = apply(state, 1, "R+2")
    ended = next(e for e in transition.events if isinstance(e, RoundEnded))
    assert ended.winner == 1
    assert len(ended.hands[0]) == 7 + 2
    assert transition.state.scores[0] == ended.deltas[0] > 0 and transition.state.scores[1] == 0


def test_d15_dump_ending_with_a_last_skip_ends_the_round() -> None:
    state = duo_deal([["B1"], ["RR", "RS"]], top="R5", draw=["Y1"])
    state = trim(state, {1: 2})
    state = run(state, "1 RR uno")
    assert state.pending.kind == "dump"
    state = run(state, "1 RS")
    assert state.round == 2 and state.round_winner == 1


def test_d15_a_catch_is_possible_during_a_dump_and_the_dump_goes_on() -> None:
    state = duo_deal([["B1"], ["RR", "R2", "R3"]], top="R5", draw=["Y1", "Y2", "Y3"])
    state = trim(state, {1: 3})
    state = run(state, "1 RR", "1 R2")  # no UNO call
    assert state.unsafe == 1
    assert legal(state, 0) == ["catch 1"]
    state = run(state, "0 catch 1")
    assert hand(state, 1) == ["R3", "Y1", "Y2"]
    assert (state.pending.kind, state.pending.seat) == ("dump", 1)
    assert legal(state, 1) == ["R3"]  # the dump must be completed
    state = run(state, "1 R3")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d15_dump_ending_with_a_reverse_offers_the_opponent_the_colour() -> None:
    state = duo_deal([["R4", "B1"], ["RR", "R2", "RR"]], top="R5", draw=["Y1"])
    state = trim(state, {1: 4})
    state = run(state, "1 RR", "1 R2", "1 RR uno")
    assert (state.pending.kind, state.pending.seat) == ("dump", 0)
    assert legal(state, 0) == ["R4", "pass"]


# -- D-3: no catch during a draft ---------------------------------------------------------


def test_d3_nothing_to_catch_during_a_draft() -> None:
    state = new_game("duo", 2, seed=5, dealer=0)
    assert state.pending.kind == "draft"
    assert legal(state, 1) == []
    assert legal(state, 0) == ["keep", "reject"]


# -- D-13: a volley when there is nothing left to draw ------------------------------------


def test_d13_volley_total_with_empty_piles_draws_what_there_is_and_ends_the_turn() -> None:
    state = duo_deal([["R+2", "B1"], ["R7", "G3"]], top="R5")
    state = empty_piles(state, 1)
    state = run(state, "1 R7", "0 R+2")
    assert state.pending.kind == "volley"
    before = len(state.hands[1])
    # D-10: R5 and R7 are turned over; the top R+2 stays. C-11: draw what there is.
    state = run(state, "1 draw")
    assert len(state.hands[1]) == before + 2
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
    assert conserved(state)


# -- C-17, D-18, F-25: a challenge after the player was caught for UNO ----------------


def _caught_after_a_bluff() -> GameState:
    """Seat 1 bluffs a Wild Draw Four (holding R2) as its second-to-last card and is caught."""
    state = deal(
        "classic",
        [["R1"], ["W+4", "R2", "R9"], ["R3"]],
        top="R5",
        draw=["Y1", "Y2", "Y3", "Y4", "Y6", "Y7"],
        options={"wild_draw_four": "challenge"},
    )
    state = trim(state, {1: 3})
    return run(state, "1 R9", "2 R3", "0 R1", "1 W+4:g", "0 catch 1")


def test_c17_challenge_after_a_catch_judges_the_hand_as_it_was_when_played() -> None:
    state = _caught_after_a_bluff()
    assert hand(state, 1) == ["R2", "Y1", "Y2"]
    transition = apply(state, 2, "challenge")
    # Illegal (held R2, of the current colour): the player draws 4, the challenger plays.
    assert len(transition.state.hands[1]) == 3 + 4
    assert (transition.state.pending.kind, transition.state.pending.seat) == ("turn", 2)


def test_d18_challenge_after_a_catch_a_legal_play_costs_the_challenger_six() -> None:
    state = duo_deal([["R9"], ["W+4", "R7", "Y2"]], top="R5", draw=["G1", "G2", "G3", "G4", "G6", "G7", "G8"])
    state = trim(state, {1: 3})
    state = run(state, "1 R7", "0 R9")
    # top R9: Y2 does not match, so W+4 is legal (D-18: no card legal on R9).
    state = run(state, "1 W+4:y", "0 catch 1")
    assert len(state.hands[1]) == 3
    state = run(state, "0 challenge")
    assert len(state.hands[0]) == 7 - 1 + 6
    # D-18 Reading: after a failed challenge the player of the card plays again.
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)


def test_f25_challenge_after_a_catch_target_never_loses_a_turn() -> None:
    state = deal(
        "flex",
        [["R4"], ["FW+4", "R2", "B3"], ["R3"]],
        top="R6",
        draw=["Y2", "Y3", "Y4", "Y6", "Y7", "Y8", "Y2|R", "Y3|R"],
    )
    state = trim(state, {1: 3})
    state = run(state, "1 R2")
    # Seat 1 holds FW+4 and B3; the colour is red: the flex-side play is legal.
    state = run(state, "2 R3", "0 R4", "1 FW+4@flex:b>0", "2 catch 1")
    assert len(state.hands[1]) == 3
    state = run(state, "0 challenge")
    assert len(state.hands[0]) == 6 + 6
    assert (state.pending.kind, state.pending.seat) == ("turn", 2)


# -- F-16 rule 1 with flex plays; F-20, F-21 with two players -------------------------


def test_f16_all_red_after_a_flex_play_turns_all_green() -> None:
    state = deal("flex", [["G2|Y", "B3"], ["G4|Y", "R6"]], top="Y7", draw=["B2", "B4"])
    state = state._replace(power=(False, True))
    state = run(state, "1 G4|Y@flex")
    assert state.power == (True, True)


def test_f20_two_players_flex_reverse_side_the_player_plays_again_once() -> None:
    state = deal("flex", [["R3"], ["RR|B", "R6", "B6"]], top="B7", draw=["Y2"])
    state = run(state, "1 RR|B@flex")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.direction == -1
    state = run(state, "1 R6")
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_f21_two_players_flex_skip_side_the_player_plays_again() -> None:
    state = deal("flex", [["R3"], ["RS|B", "R6"]], top="B7", draw=["Y2"])
    state = run(state, "1 RS|B@flex")
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.power == (True, False)


# -- F-7: several action cards turned in a row ------------------------------------------


def test_f7_every_action_card_turned_first_is_covered_until_a_number_card() -> None:
    state = deal("flex", [["R3"], ["B6"]], top="FW+4", draw=["WAF", "RS|B", "G+2", "FWA", "Y7|R"])
    assert top(state) == "Y7|R"
    assert len(state.discard_pile) == 6
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    assert state.power == (True, True) and len(state.hands[1]) == 7


# -- C-22 with Flex flex sides ------------------------------------------------------------


def test_c22_flex_a_flex_side_stops_the_draw_only_while_the_power_card_is_green() -> None:
    options = {"draw_until_playable": True}
    state = deal("flex", [["R3"], ["R6"]], top="Y7", draw=["B1!", "G5|Y", "B2"], options=options)
    green = run(state, "1 draw")
    assert hand(green, 1)[-1] == "G5|Y"
    assert legal(green, 1) == ["G5|Y@flex", "pass"]
    red = run(state._replace(power=(True, False)), "1 draw")
    assert len(red.hands[1]) == 7 + 10
    assert legal(red, 1) == ["pass"]


# -- C-18: the window across a Skip that lets the same player play again ---------------


def test_c18_window_across_a_two_player_skip() -> None:
    state = deal("classic", [["B1"], ["RS", "R2"]], top="R5", draw=["Y1", "Y2", "Y3"])
    state = trim(state, {1: 2})
    state = run(state, "1 RS")
    assert state.unsafe == 1 and state.pending.seat == 1
    assert legal(state, 1) == ["R2", "draw", "uno"]
    assert legal(state, 0) == ["catch 1"]
    caught = run(state, "0 catch 1")
    assert hand(caught, 1) == ["R2", "Y1", "Y2"] and caught.pending.seat == 1
    called = run(state, "1 uno")
    assert called.unsafe is None and legal(called, 0) == []
    won = run(state, "1 R2")
    assert won.round == 2 and won.round_winner == 1


def test_c18_window_across_a_skip_the_skipped_player_may_catch() -> None:
    state = deal("classic", [["B1"], ["RS", "R2"], ["G3"]], top="R5", draw=["Y1", "Y2", "Y3"])
    state = trim(state, {1: 2})
    state = run(state, "1 RS")
    assert state.pending.seat == 0 and state.unsafe == 1
    assert legal(state, 2) == ["catch 1"]
    state = run(state, "2 catch 1")
    assert len(state.hands[1]) == 3


# -- G-6: blocked rounds ----------------------------------------------------------------


def test_g6_blocked_round_deals_the_next_round_with_the_next_dealer() -> None:
    state = deal("classic", [["B1"], ["B2"]], top="R5", options={"target_score": 500})
    state = empty_piles(state, 0)
    state = run(state, "1 draw", "1 pass", "0 draw", "0 pass")
    assert state.round == 2 and state.round_winner is None
    assert state.round_scores == ((0, 0),) and state.scores == (0, 0)
    assert state.dealer == 1 and state.pending.seat == 0


def test_g6_blocked_round_ends_a_single_round_game_with_no_winner() -> None:
    state = duo_deal([["B1"], ["B2"]], top="R5", options={"single_round": True})
    state = empty_piles(state, 0)
    state = run(state, "1 draw", "1 pass", "0 draw", "0 pass")
    assert state.is_over and state.outcome is not None and state.outcome.winner is None


# -- D-20 / C-21: scoring, targets and rotation ------------------------------------------


def test_d20_default_target_is_200_and_reaching_it_loses() -> None:
    state = duo_deal([["B9"], ["R7"]], top="R5")
    assert state.options.target_score == 200
    state = state._replace(scores=(195, 0))
    state = trim(state, {1: 1})
    state = run(state, "1 R7")
    assert state.is_over and state.outcome is not None
    assert state.scores[0] >= 200 and state.outcome.winner == 1


def test_c21_reading_multi_round_dealer_rotation_and_first_player() -> None:
    state = new_game("classic", 3, seed=4, options={"target_score": 10_000})
    dealers = [state.dealer]
    firsts = [state.to_act]
    rng = random.Random(1)
    while state.round < 5:
        seat = state.to_act
        assert seat is not None
        before = state.round
        state = apply(state, seat, rng.choice(legal_actions(state, seat))).state
        if state.round != before:
            dealers.append(state.dealer)
            assert state.discard_pile and len(state.discard_pile) == 1
    assert dealers == [0, 1, 2, 0, 1]
    assert firsts[0] == 1


def test_d5_d7_player1_alternates_over_rounds() -> None:
    state = new_game("duo", 2, seed=8, dealer=0, options={"target_score": 10_000})
    seen = [(state.round, state.pending.kind, state.pending.seat)]
    while state.round < 4:
        seat = state.to_act
        assert seat is not None
        before = state.round
        state = apply(state, seat, first_play(state)).state
        if state.round != before:
            seen.append((state.round, state.pending.kind, state.pending.seat))
    assert seen == [(1, "draft", 0), (2, "draft", 1), (3, "draft", 0), (4, "draft", 1)]


# -- NOTATION: a Duo record with a given deck drafts from the top of the deck ---------------


def test_d3_record_with_a_given_deck_drafts_from_its_top() -> None:
    order = duo_order([["R1"], ["R2"]], top="R5", player1=1)
    start = new_game("duo", 2, seed=3, deck=order, dealer=1)
    assert isinstance(start.pending, Draft) and start.pending.seat == 1
    assert view_for(start, 1).draft_card is not None
    assert str(view_for(start, 1).draft_card) == order[0]
    actions = []
    state = start
    for _ in range(14):
        seat = state.to_act
        assert seat is not None
        actions.append((seat, "keep"))
        state = apply(state, seat, "keep").state
    assert hand(state, 1)[0] == "R2" and hand(state, 0)[0] == "R1" and top(state) == "R5"
    record = record_of(start, actions, deck=order)
    assert replay(record) == state
    assert replay(Record("duo", 2, 3, dealer=1, deck=tuple(order), actions=tuple(actions))) == state


# -- R-11 / G-2: the hands shown at the end of a round, and redaction ----------------------


def test_r11_round_end_hands_are_shown_to_every_seat() -> None:
    state = deal("classic", [["R1"], ["R2"], ["B3"]], top="R5")
    state = trim(state, {1: 1})
    transition = apply(state, 1, "R2")
    ended = next(e for e in transition.events if isinstance(e, RoundEnded))
    for seat in (0, 1, 2, None):
        shown = redact(ended, seat)
        assert isinstance(shown, RoundEnded) and shown.hands == ended.hands
        assert len(shown.hands[0]) == 7 and shown.hands[1] == ()


def test_g2_a_challenged_hand_shown_after_a_catch_goes_to_the_challenger_only() -> None:
    state = _caught_after_a_bluff()
    transition = apply(state, 2, "challenge")
    shown = next(e for e in transition.events if isinstance(e, HandShown))
    assert redact(shown, 2) == shown
    assert redact(shown, 0).cards is None and redact(shown, None).cards is None


def test_g2_views_do_not_depend_on_hidden_cards() -> None:
    rng = random.Random(3)
    for rules, seats in (("classic", 3), ("flex", 3), ("duo", 2)):
        state = new_game(rules, seats, seed=21)
        for _ in range(120):
            if state.is_over:
                break
            pending = state.pending
            if not isinstance(pending, Draft | DrawnCardChoice):
                other = 1
                known = min(state.public_bottom, len(state.draw_pile))
                if state.hands[other] and len(state.draw_pile) > known:
                    hands = list(state.hands)
                    pile = list(state.draw_pile)
                    h = list(hands[other])
                    h[0], pile[-1] = pile[-1], h[0]
                    hands[other] = tuple(h)
                    swapped = state._replace(hands=tuple(hands), draw_pile=tuple(pile))
                    assert view_for(swapped, 0) == view_for(state, 0)
            seat = state.to_act
            assert seat is not None
            state = apply(state, seat, rng.choice(legal_actions(state, seat))).state
