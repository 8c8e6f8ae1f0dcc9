"""UNO Duo: a turn (D-8, D-9), the turned-over draw pile (D-10), UNO (D-11) and the
end of a round (D-12). Player 1 is seat 0, so seat 1 (Player 2) plays first."""

from __future__ import annotations

import pytest

from tests.helpers import duo_deal, duo_order, hand, legal, run, top
from unoengine import Color, GameState, IllegalActionError, apply, format_card, view_for
from unoengine.core.events import Reshuffled

# Seat 1 empties its hand down to two cards with Skips (D-14: each Skip plays again).
SKIPS = ("1 RS", "1 RS", "1 YS", "1 YS", "1 GS")


def _cards(state: GameState, ids: tuple[int, ...]) -> list[str]:
    return [format_card(state.tables.cards[c]) for c in ids]


# -- D-8 matching ----------------------------------------------------------------------


def test_d8_colour_number_symbol_and_wilds_match() -> None:
    state = duo_deal([[], ["R9", "G5", "W", "W+4", "B1", "Y2", "BS"]], top="R5")
    plays = legal(state, 1)
    assert "R9" in plays  # colour
    assert "G5" in plays  # number
    assert "W:g" in plays and "W+4:b" in plays  # wilds, any time
    for card in ("B1", "Y2", "BS"):
        assert card not in plays
        with pytest.raises(IllegalActionError) as error:
            apply(state, 1, card)
        assert error.value.rule == "D-8"


def test_d8_symbol_on_symbol() -> None:
    state = duo_deal([[], ["RS", "GS", "B+2"]], top="R5")
    state = run(state, "1 RS")
    assert "GS" in legal(state, 1)
    assert "B+2" not in legal(state, 1)
    state = run(state, "1 GS")
    assert state.color is Color.GREEN


def test_d8_playing_is_never_compulsory() -> None:
    state = duo_deal([[], ["R9"]], top="R5", draw=["B2"])
    assert "draw" in legal(state, 1)
    state = run(state, "1 draw", "1 pass")
    assert hand(state, 1)[-1] == "B2"
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


# -- D-9 drawing -----------------------------------------------------------------------


def test_d9_a_playable_drawn_card_may_be_played() -> None:
    state = duo_deal([[], ["R9"]], top="R5", draw=["R2"])
    state = run(state, "1 draw")
    assert (state.pending.kind, state.pending.seat) == ("drawn", 1)
    assert view_for(state, 1).drawn_card is not None
    assert format_card(view_for(state, 1).drawn_card) == "R2"  # type: ignore[arg-type]
    assert view_for(state, 0).drawn_card is None
    assert legal(state, 1) == ["R2", "pass"]
    # Only the drawn card may be played.
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "R9")
    assert error.value.rule == "D-9"
    state = run(state, "1 R2")
    assert top(state) == "R2"
    assert len(state.hands[1]) == 7
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d9_a_playable_drawn_card_need_not_be_played() -> None:
    state = duo_deal([[], []], top="R5", draw=["R2"])
    state = run(state, "1 draw", "1 pass")
    assert hand(state, 1)[-1] == "R2"
    assert len(state.hands[1]) == 8
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d9_an_unplayable_drawn_card_joins_the_hand_and_the_turn_ends() -> None:
    state = duo_deal([[], ["R9"]], top="R5", draw=["B2"])
    state = run(state, "1 draw")
    assert legal(state, 1) == ["pass"]
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "B2")
    assert error.value.rule == "D-8"
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "draw")
    assert error.value.rule == "D-9"
    state = run(state, "1 pass")
    assert hand(state, 1)[-1] == "B2"
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


# -- D-10 the draw pile runs out -------------------------------------------------------


def _drain(state: GameState) -> GameState:
    """Both players draw and keep until the draw pile is empty."""
    while state.draw_pile:
        seat = state.to_act
        assert seat is not None and state.pending.kind == "turn"
        state = run(state, f"{seat} draw", f"{seat} pass")
    return state


def test_d10_the_discard_pile_is_turned_over_not_shuffled() -> None:
    state = duo_deal([["R2", "R4"], ["R7", "R8"]], top="R5")
    state = run(state, "1 R7", "0 R2", "1 R8", "0 R4")
    assert _cards(state, state.discard_pile) == ["R5", "R7", "R2", "R8", "R4"]
    state = _drain(state)
    assert state.draw_pile == ()
    shuffles = state.shuffles
    seat = state.to_act
    assert seat is not None
    transition = apply(state, seat, "draw")
    state = transition.state
    # The oldest discard (the first card, R5) is drawn first; the top card stays.
    assert hand(state, seat)[-1] == "R5"
    assert top(state) == "R4"
    assert _cards(state, state.discard_pile) == ["R4"]
    # The draw pile, top at the end: R7 next, then R2, then R8.
    assert _cards(state, state.draw_pile)[::-1] == ["R7", "R2", "R8"]
    assert state.shuffles == shuffles  # no shuffle
    assert any(type(e) is Reshuffled and e.turned_over for e in transition.events)
    # The order is public (D-10): everyone knows the draw pile, bottom first.
    assert state.public_bottom >= 3
    for viewer in (0, 1, None):
        assert [format_card(c) for c in view_for(state, viewer).draw_pile_known] == ["R8", "R2", "R7"]
    state = run(state, f"{seat} pass")
    other = 1 - seat
    state = run(state, f"{other} draw")
    assert hand(state, other)[-1] == "R7"
    state = run(state, f"{other} pass", f"{seat} draw")
    assert hand(state, seat)[-1] == "R2"
    assert top(state) == "R4"


def test_d10_a_wild_turned_over_keeps_its_place_in_the_order() -> None:
    state = duo_deal([["W"], ["R7", "G8"]], top="R5")
    state = run(state, "1 R7", "0 W:g", "1 G8")
    state = _drain(state)
    seat = state.to_act
    assert seat is not None
    state = run(state, f"{seat} draw")
    assert hand(state, seat)[-1] == "R5"
    assert top(state) == "G8"
    assert state.color is Color.GREEN
    assert _cards(state, state.draw_pile)[::-1] == ["R7", "W"]


def test_d10_the_drain_draws_the_deck_then_the_draft_discards_in_order() -> None:
    # D-4 and D-10 together: after the draw pile runs out, the discards come back in order.
    order = duo_order([[], []], top="R5")
    discards = order[1:28:2]
    state = duo_deal([[], []], top="R5")
    drawn: list[str] = []
    while state.draw_pile:
        seat = state.to_act
        assert seat is not None
        state = run(state, f"{seat} draw")
        drawn.append(hand(state, seat)[-1])
        state = run(state, f"{seat} pass")
    assert drawn[:-14] == order[29:]
    assert drawn[-14:] == discards


# -- D-11 UNO --------------------------------------------------------------------------


def _two_left() -> GameState:
    """Seat 1 holds R1 and G7, the colour is green and seat 1 plays."""
    state = duo_deal([["B3"], ["RS", "RS", "YS", "YS", "GS", "R1", "G7"]], top="R5", draw=["Y8", "Y9", "B8"])
    state = run(state, *SKIPS)
    assert hand(state, 1) == ["R1", "G7"]
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    return state


def test_d11_not_saying_uno_and_caught_draws_2() -> None:
    state = _two_left()
    state = run(state, "1 G7")
    assert state.unsafe == 1
    assert "catch 1" in legal(state, 0)
    assert "uno" in legal(state, 1)
    state = run(state, "0 catch 1")
    assert hand(state, 1) == ["R1", "Y8", "Y9"]
    assert state.unsafe is None
    # The catch takes no turn: seat 0 still plays.
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d11_uno_said_with_the_second_to_last_card_cannot_be_caught() -> None:
    state = _two_left()
    assert "G7 uno" in legal(state, 1)
    state = run(state, "1 G7 uno")
    assert state.unsafe is None
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "catch 1")
    assert error.value.rule == "D-11"


def test_d11_uno_said_just_after_the_play_cannot_be_caught() -> None:
    state = _two_left()
    state = run(state, "1 G7", "1 uno")
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "catch 1")
    assert error.value.rule == "D-11"
    assert len(state.hands[1]) == 1


def test_d11_the_window_closes_at_the_next_action() -> None:
    state = _two_left()
    state = run(state, "1 G7", "0 draw")
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "catch 1")
    assert error.value.rule == "D-11"
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "uno")
    assert error.value.rule == "D-11"


def test_d11_uno_with_a_wild_as_the_second_to_last_card() -> None:
    # "W:g uno" is the notation legal_actions offers (format_action) for a Wild played
    # with the UNO call; it must be accepted as text too (NOTATION.md: round-tripping).
    state = duo_deal([["B3"], ["RS", "RS", "YS", "YS", "GS", "R1", "W"]], top="R5")
    state = run(state, *SKIPS)
    assert hand(state, 1) == ["R1", "W"]
    assert "W:g uno" in legal(state, 1)
    state = apply(state, 1, "W:g uno").state
    assert state.unsafe is None
    assert state.color is Color.GREEN
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "catch 1")
    assert error.value.rule == "D-11"


def test_d11_uno_refusals() -> None:
    state = _two_left()
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "uno")  # holds two cards
    assert error.value.rule == "D-11"
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "catch 1")  # seat 1 holds two cards
    assert error.value.rule == "D-11"
    state = duo_deal([[], ["R9"]], top="R5")
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "R9 uno")  # would keep 6 cards
    assert error.value.rule == "D-11"


# -- D-12 the end of a round -----------------------------------------------------------


def test_d12_the_round_ends_when_a_player_has_played_all_their_cards() -> None:
    state = duo_deal(
        [["B1", "B2", "B3", "B4", "B5", "B6", "B7"], ["RS", "RS", "YS", "YS", "GS", "GS", "G1"]],
        top="R5",
        options={"single_round": True},
    )
    state = run(state, *SKIPS, "1 GS uno", "1 G1")
    assert state.is_over
    assert state.round_winner == 1
    assert state.outcome is not None and state.outcome.winner == 1
    assert state.scores == (28, 0)
    assert legal(state, 0) == [] and legal(state, 1) == []


def test_d12_a_finished_round_deals_the_next_one() -> None:
    state = duo_deal(
        [["B1", "B2", "B3", "B4", "B5", "B6", "B7"], ["RS", "RS", "YS", "YS", "GS", "GS", "G1"]],
        top="R5",
    )
    state = run(state, *SKIPS, "1 GS uno", "1 G1")
    assert not state.is_over
    assert state.round == 2
    assert state.round_winner == 1
    assert state.scores == (28, 0)
    assert state.round_scores == ((28, 0),)
    assert (state.pending.kind, state.pending.seat) == ("draft", 1)  # D-5


def test_d12_a_last_draw_two_is_drawn_before_the_scoring() -> None:
    state = duo_deal(
        [["B1", "B2", "B3", "B4", "B5", "B6", "B7"], ["RS", "RS", "YS", "YS", "GS", "G9", "G+2"]],
        top="R5",
        draw=["Y1", "Y2", "Y3"],
        options={"single_round": True},
    )
    state = run(state, *SKIPS, "1 G9 uno", "0 draw", "0 pass", "1 G+2")
    # Seat 0 drew Y1 on its turn, then Y2 and Y3 for the Draw Two: no volley at this point.
    assert state.is_over and state.outcome is not None and state.outcome.winner == 1
    assert len(state.hands[0]) == 10
    assert state.scores == (28 + 1 + 2 + 3, 0)


def test_d12_a_pending_volley_is_drawn_before_the_scoring() -> None:
    state = duo_deal(
        [["G+2", "B1", "B2", "B3", "B4", "B5", "B6"], ["RS", "RS", "YS", "YS", "GS", "G1", "G+2"]],
        top="R5",
        draw=["Y1", "Y2", "Y3", "Y4", "Y5"],
        options={"single_round": True},
    )
    state = run(state, *SKIPS, "1 G1 uno", "0 G+2")
    assert (state.pending.kind, state.pending.seat) == ("volley", 1)
    state = run(state, "1 G+2")
    # The volley's total (4) is drawn by seat 0 and counts in the score.
    assert state.is_over and state.outcome is not None and state.outcome.winner == 1
    assert hand(state, 0) == ["B1", "B2", "B3", "B4", "B5", "B6", "Y1", "Y2", "Y3", "Y4"]
    assert state.scores == (21 + 10, 0)


def test_d12_a_last_wild_draw_four_is_drawn_with_no_challenge() -> None:
    state = duo_deal(
        [["B1", "B2", "B3", "B4", "B5", "B6", "B7"], ["RS", "RS", "YS", "YS", "GS", "G1", "W+4"]],
        top="R5",
        draw=["Y1", "Y2", "Y3", "Y4", "Y5"],
        options={"single_round": True},
    )
    state = run(state, *SKIPS, "1 G1 uno", "0 draw", "0 pass", "1 W+4:b")
    assert state.is_over
    assert state.pending.kind == "game_over"
    assert hand(state, 0)[-5:] == ["Y1", "Y2", "Y3", "Y4", "Y5"]
    assert len(state.hands[0]) == 7 + 1 + 4
    assert state.scores == (28 + 1 + 2 + 3 + 4 + 5, 0)


def test_r9_what_the_players_saw_stays_public_until_drawn() -> None:
    order = duo_order([[], []], top="R5")
    discards = order[1:28:2]
    state = duo_deal([[], []], top="R5")
    # D-4: the 14 draft discards, bottom first, for both players and a spectator.
    for viewer in (0, 1, None):
        assert [format_card(c) for c in view_for(state, viewer).draw_pile_known] == discards[::-1]
    state = _drain(state)
    assert view_for(state, 0).draw_pile_known == ()
