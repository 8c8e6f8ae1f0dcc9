"""Classic UNO: a turn (C-7 … C-11) and the house rule draw_until_playable (C-22)."""

from __future__ import annotations

import pytest

from tests.helpers import deal, hand, legal, run, top
from tests.rules.classic._arrange import all_cards, arrange
from unoengine import Color, GameState, IllegalActionError, apply, new_game
from unoengine.core.events import CardsDrawn, Reshuffled
from unoengine.core.state import Turn

# -- C-7: matching -------------------------------------------------------------------------


def test_c7_colour_number_and_symbol_matches_are_playable() -> None:
    state = arrange([["R9", "B5", "G7", "W", "W+4"], ["B1"]], top="R5", to_act=0)
    plays = legal(state, 0)
    assert "R9" in plays  # colour
    assert "B5" in plays  # number
    assert "G7" not in plays
    assert {"W:r", "W:y", "W:g", "W:b"} <= set(plays)  # a Wild at any time
    state = arrange([["YS", "GR", "B+2", "RS"], ["B1"]], top="RS", to_act=0)
    assert legal(state, 0) == ["YS", "RS", "draw"]  # Skip on Skip, and colour
    state = arrange([["YS", "GR", "B+2"], ["B1"]], top="R+2", to_act=0)
    assert legal(state, 0) == ["B+2", "draw"]  # Draw Two on Draw Two
    state = arrange([["YS", "GR", "B+2"], ["B1"]], top="BR", to_act=0)
    assert legal(state, 0) == ["GR", "B+2", "draw"]  # Reverse on Reverse, and colour


def test_c7_a_number_does_not_match_a_symbol() -> None:
    state = arrange([["Y2", "G0"], ["B1"]], top="R+2", to_act=0)
    assert legal(state, 0) == ["draw"]


def test_c7_illegal_play_is_refused_naming_c7_and_the_state_is_unchanged() -> None:
    state = arrange([["G7", "R1"], ["B1"]], top="R5", to_act=0)
    before = state
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "G7")
    assert e.value.rule == "C-7"
    assert state == before


def test_c7_on_a_wild_the_named_colour_is_matched() -> None:
    state = arrange([["G3", "R3", "W+4"], ["B1"]], top="W", color="g", to_act=0)
    assert state.color is Color.GREEN
    plays = legal(state, 0)
    assert "G3" in plays
    assert "R3" not in plays
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "R3")
    assert e.value.rule == "C-7"
    state = run(state, "0 G3")
    assert top(state) == "G3"


def test_c7_after_a_played_wild_the_next_player_matches_its_colour() -> None:
    state = arrange([["W", "R1", "R3"], ["B1", "R2", "Y9"], ["G1"]], top="R5", to_act=0)
    state = run(state, "0 W:b")
    assert state.color is Color.BLUE
    assert legal(state, 1) == ["B1", "draw"]


# -- C-8: drawing ----------------------------------------------------------------------------


def test_c8_nobody_is_obliged_to_play() -> None:
    state = arrange([["R1", "R2"], ["B1"]], top="R5", draw=["G9"], to_act=0)
    assert "draw" in legal(state, 0)
    state = run(state, "0 draw")
    assert state.pending.kind == "drawn"
    assert hand(state, 0) == ["R1", "R2", "G9"]
    assert legal(state, 0) == ["pass"]  # G9 is not playable
    state = run(state, "0 pass")
    assert state.to_act == 1
    assert hand(state, 0) == ["R1", "R2", "G9"]


def test_c8_a_playable_drawn_card_may_be_played_straight_away() -> None:
    state = arrange([["B1", "G2"], ["B1"], ["Y1"]], top="R5", draw=["R8"], to_act=0)
    state = run(state, "0 draw")
    assert legal(state, 0) == ["R8", "pass"]
    after = run(state, "0 R8")
    assert top(after) == "R8"
    assert hand(after, 0) == ["B1", "G2"]
    assert after.to_act == 1


def test_c8_only_the_drawn_card_may_be_played() -> None:
    state = arrange([["R1", "W"], ["B1"]], top="R5", draw=["R8"], to_act=0)
    state = run(state, "0 draw")
    assert legal(state, 0) == ["R8", "pass"]
    for other in ("R1", "W:g"):
        with pytest.raises(IllegalActionError) as e:
            apply(state, 0, other)
        assert e.value.rule == "C-8"


def test_c8_drawn_card_playable_or_pass_the_drawer_chooses_to_pass() -> None:
    state = arrange([["B1"], ["B2"]], top="R5", draw=["R8"], to_act=0)
    state = run(state, "0 draw", "0 pass")
    assert hand(state, 0) == ["B1", "R8"]
    assert state.to_act == 1
    assert top(state) == "R5"


def test_c8_an_unplayable_drawn_card_is_refused() -> None:
    state = arrange([["B1"], ["B2"]], top="R5", draw=["G9"], to_act=0)
    state = run(state, "0 draw")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "G9")
    assert e.value.rule in ("C-7", "C-8")


def test_c8_pass_on_a_turn_and_draw_after_drawing_are_refused() -> None:
    state = arrange([["B1"], ["B2"]], top="R5", draw=["G9"], to_act=0)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "pass")
    assert e.value.rule == "C-8"
    state = run(state, "0 draw")
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "draw")
    assert e.value.rule == "C-8"


def test_c8_reading_decide_after_a_draw_that_yields_nothing() -> None:
    # Reading (C-8, C-11): both piles empty, the drawer still decides: only `pass`.
    state = arrange([["B1"], ["B2"], ["G3"]], top="R5", to_act=0, rest_to=2)
    assert state.draw_pile == ()
    state = run(state, "0 draw")
    assert state.pending.kind == "drawn"
    assert state.pending.card is None  # type: ignore[union-attr]
    assert hand(state, 0) == ["B1"]
    assert legal(state, 0) == ["pass"]
    state = run(state, "0 pass")
    assert state.to_act == 1


# -- C-9: naming a colour ----------------------------------------------------------------------


def test_c9_a_wild_names_one_of_the_four_colours() -> None:
    state = arrange([["W", "W+4", "B1"], ["B2"]], top="R5", to_act=0)
    assert [a for a in legal(state, 0) if a.startswith("W:")] == ["W:r", "W:y", "W:g", "W:b"]
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "W")
    assert e.value.rule == "C-9"
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "W+4")
    assert e.value.rule == "C-9"
    assert run(state, "0 W:y").color is Color.YELLOW
    assert run(state, "0 W+4:g").color is Color.GREEN


def test_c9_a_coloured_card_names_no_colour() -> None:
    state = arrange([["R7"], ["B2"]], top="R5", to_act=0)
    with pytest.raises(IllegalActionError) as e:
        apply(state, 0, "R7:g")
    assert e.value.rule == "C-9"


# -- C-10: the draw pile runs out ----------------------------------------------------------------


def _empty_draw_pile(state: GameState) -> GameState:
    """Move the whole draw pile under the discard pile's top card (cards conserved)."""
    return state._replace(draw_pile=(), discard_pile=state.draw_pile + state.discard_pile)


def test_c10_the_top_card_stays_and_the_rest_is_shuffled_into_the_draw_pile() -> None:
    state = _empty_draw_pile(arrange([["B1"], ["B2"]], top="R5", to_act=0))
    assert all_cards(state) == list(range(108))
    old_discard = state.discard_pile
    kept = state.top
    transition = apply(state, 0, "draw")
    after = transition.state
    assert after.discard_pile == (kept,)
    assert top(after) == "R5"
    assert len(after.draw_pile) == len(old_discard) - 2  # one card less the kept top, one drawn
    assert len(after.hands[0]) == 2
    assert all_cards(after) == list(range(108))
    reshuffled = [e for e in transition.events if isinstance(e, Reshuffled)]
    assert reshuffled == [Reshuffled(len(old_discard) - 1, False)]
    # Shuffled: neither the old order nor the old order turned over.
    refilled = (*after.draw_pile, after.hands[0][-1])
    assert refilled != old_discard[:-1]
    assert refilled != old_discard[-2::-1]


def test_c10_a_wild_top_card_keeps_its_named_colour() -> None:
    state = _empty_draw_pile(arrange([["B1"], ["B2"]], top="W", color="g", to_act=0))
    after = run(state, "0 draw")
    assert top(after) == "W"
    assert after.color is Color.GREEN


def test_c10_wilds_that_go_back_lose_their_named_colour() -> None:
    # The draw pile is empty; a W played as green goes back under G1 when the pile is refilled.
    state = arrange([["W", "B1"], ["G1", "B2"], ["Y9"]], top="R5", to_act=0, rest_to=2)
    state = run(state, "0 W:g", "1 G1", "2 draw", "2 pass", "0 draw", "0 pass")
    assert state.draw_pile == ()
    assert top(state) == "G1"
    assert state.color is Color.GREEN
    assert all_cards(state) == list(range(108))
    holder = 0 if "W" in hand(state, 0) else 2
    assert "W" in hand(state, holder)
    assert "R5" in hand(state, 2 - holder)
    # Back in a hand, the Wild is a plain Wild again: its player names a colour (C-9).
    state = state._replace(pending=Turn(holder))
    wild_plays = [a for a in legal(state, holder) if a.startswith("W") and not a.endswith("uno")]
    assert wild_plays == ["W:r", "W:y", "W:g", "W:b"]


def _draw_heavy(state: GameState) -> str:
    """Always draw; play the drawn card when possible, else pass."""
    seat = state.to_act
    assert seat is not None
    if state.pending.kind == "turn":
        return "draw"
    return legal(state, seat)[0]


def test_c10_a_long_game_keeps_every_card_through_reshuffles() -> None:
    state = new_game("classic", 3, seed=5)
    reshuffles = 0
    for _ in range(400):
        seat = state.to_act
        assert seat is not None
        before_top = state.discard_pile[-1]
        action = _draw_heavy(state)
        transition = apply(state, seat, action)
        for event in transition.events:
            if isinstance(event, Reshuffled):
                reshuffles += 1
                assert not event.turned_over
                # C-10: only the top card stayed on the discard pile.
                assert len(transition.state.discard_pile) == 1
                if action == "draw":
                    assert transition.state.discard_pile == (before_top,)
        state = transition.state
        assert all_cards(state) == list(range(108))
    assert reshuffles >= 2


# -- C-11: not enough cards ------------------------------------------------------------------------


def test_c11_an_imposed_draw_takes_what_there_is() -> None:
    # Draw pile empty, discard pile: R5 only; R+2 goes on it, so only R5 can be drawn.
    state = arrange([["R+2", "B1"], ["G2"], ["Y3"]], top="R5", to_act=0, rest_to=2)
    assert state.draw_pile == ()
    transition = apply(state, 0, "R+2")
    after = transition.state
    assert hand(after, 1) == ["G2", "R5"]
    assert top(after) == "R+2"
    assert len(after.discard_pile) == 1
    assert after.draw_pile == ()
    assert after.to_act == 2  # play continues
    drawn = [e for e in transition.events if isinstance(e, CardsDrawn)]
    assert [e.number for e in drawn] == [1]
    assert all_cards(after) == list(range(108))


def test_c11_nothing_to_draw_at_all_and_play_goes_on() -> None:
    state = arrange([["R+2", "B1"], ["G2"], ["Y3"]], top="R5", to_act=0, rest_to=2)
    state = state._replace(hands=(state.hands[0], state.hands[1], state.hands[2] + state.discard_pile[:-1]))
    state = state._replace(discard_pile=state.discard_pile[-1:])
    state = run(state, "0 R+2")
    # The R5 under R+2 was the only card: seat 1 drew it; now a draw finds nothing.
    state = run(state, "2 draw")
    assert state.pending.card is None  # type: ignore[union-attr]
    state = run(state, "2 pass")
    assert state.to_act == 0
    assert all_cards(state) == list(range(108))


# -- C-22: draw_until_playable ----------------------------------------------------------------------

UNTIL = {"draw_until_playable": True}
DUD = ["B1", "G2", "Y3", "B4", "G6", "Y7", "B8", "G9", "Y1", "B2", "G3"]  # none matches R5


def test_c22_draws_until_a_playable_card() -> None:
    state = arrange([["B6"], ["B7"]], top="R5", draw=["B1", "G2", "Y3", "R9", "B2"], to_act=0, options=UNTIL)
    state = run(state, "0 draw")
    assert hand(state, 0) == ["B6", "B1", "G2", "Y3", "R9"]
    assert state.pending.kind == "drawn"
    assert legal(state, 0) == ["R9", "pass"]
    assert top(run(state, "0 R9")) == "R9"


def test_c22_a_wild_or_a_number_match_stops_the_draw() -> None:
    state = arrange([["B6"], ["B7"]], top="R5", draw=["B1", "W", "G2"], to_act=0, options=UNTIL)
    assert hand(run(state, "0 draw"), 0) == ["B6", "B1", "W"]
    state = arrange([["B6"], ["B7"]], top="R5", draw=["B1", "G5", "G2"], to_act=0, options=UNTIL)
    assert hand(run(state, "0 draw"), 0) == ["B6", "B1", "G5"]


def test_c22_at_most_ten_cards_the_last_is_the_drawn_card() -> None:
    state = arrange([["B6"], ["B7"]], top="R5", draw=DUD, to_act=0, options=UNTIL)
    state = run(state, "0 draw")
    assert hand(state, 0) == ["B6", *DUD[:10]]
    assert state.pending.card == state.hands[0][-1]  # type: ignore[union-attr]
    assert legal(state, 0) == ["pass"]
    assert len(state.draw_pile) == 108 - 1 - 11 - 1  # the other hand, this hand, the top card
    state = run(state, "0 pass")
    assert state.to_act == 1


def test_c22_imposed_draws_are_not_affected() -> None:
    state = arrange([["R+2", "B6"], ["B7"], ["Y2"]], top="R5", draw=DUD, to_act=0, options=UNTIL)
    state = run(state, "0 R+2")
    assert hand(state, 1) == ["B7", "B1", "G2"]  # exactly 2, though neither is playable
    assert state.to_act == 2


def test_c22_a_catch_penalty_is_not_affected() -> None:
    state = arrange([["R1", "B6"], ["B7"], ["Y2"]], top="R5", draw=DUD, to_act=0, options=UNTIL)
    state = run(state, "0 R1", "1 catch 0")
    assert hand(state, 0) == ["B6", "B1", "G2"]


def test_c22_off_by_default_one_card_is_drawn() -> None:
    state = arrange([["B6"], ["B7"]], top="R5", draw=DUD, to_act=0)
    assert hand(run(state, "0 draw"), 0) == ["B6", "B1"]


def test_c22_a_dealt_game_draws_between_one_and_ten_cards() -> None:
    state = deal("classic", [["B6"], ["B7"]], top="R5", options=UNTIL)
    state = run(state, "1 draw")
    assert state.pending.kind == "drawn"
    assert 2 <= len(state.hands[1]) - 6 <= 11


def test_c10_a_reshuffle_in_the_middle_of_an_imposed_draw() -> None:
    # One card left in the draw pile; the Draw Two's second card comes from the reshuffled discards.
    state = arrange([["R+2", "B1"], ["G2"], ["Y3"]], top="R5", draw=["B9"], under=["G7"], to_act=0, rest_to=2)
    assert len(state.draw_pile) == 1
    after = run(state, "0 R+2")
    assert hand(after, 1)[:2] == ["G2", "B9"]
    assert sorted(hand(after, 1)[2:]) in (["G7"], ["R5"])
    assert top(after) == "R+2"
    assert len(after.discard_pile) == 1
    assert len(after.draw_pile) == 1
    assert all_cards(after) == list(range(108))
