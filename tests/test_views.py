"""Views (G-2): what a seat, another seat and a spectator see; ``redact`` on events."""

from __future__ import annotations

from tests.helpers import deal, duo_deal, run
from unoengine import (
    Color,
    GameState,
    PlayerView,
    apply,
    legal_actions,
    new_game,
    parse_action,
    parse_card,
    redact,
    view_for,
)
from unoengine.core.events import ActionTaken, CardsDrawn, HandShown, RoundEnded
from unoengine.core.state import ChallengeWindow


def kinds(state: GameState, ids: tuple[int, ...]) -> tuple[object, ...]:
    return tuple(state.tables.cards[card] for card in ids)


def test_views_are_an_allow_list_without_secrets() -> None:
    fields = set(PlayerView._fields)
    for secret in ("hands", "seed", "shuffles", "deck", "tables", "legal_wd4", "blocked_cards"):
        assert secret not in fields
    assert {"hand", "hand_sizes", "draw_pile", "discard_pile", "legal"} <= fields


def test_own_seat_sees_its_hand_and_its_legal_actions() -> None:
    state = new_game("classic", 3, seed=4)
    for seat in range(3):
        view = view_for(state, seat)
        assert view.seat == seat
        assert view.hand == kinds(state, state.hands[seat])
        assert view.legal == legal_actions(state, seat)
        assert view.hand_sizes == (7, 7, 7)
        assert view.draw_pile == len(state.draw_pile)
        assert view.top == state.tables.cards[state.top]  # type: ignore[index]
        assert view.color is state.color
        assert view.discard_pile == kinds(state, state.discard_pile)
        assert view.to_act == state.to_act
        assert view.pending == "turn"
        assert view.rules == "classic"
        assert view.seats == 3


def test_other_seats_see_sizes_not_cards() -> None:
    state = new_game("classic", 3, seed=4)
    view = view_for(state, 2)
    assert view.hand == kinds(state, state.hands[2])
    assert view.hand != kinds(state, state.hands[1])
    assert view.hand_sizes[1] == len(state.hands[1])
    assert view.legal == ()  # seat 2 is not to act and nobody can be caught


def test_spectator_sees_no_hand_and_no_actions() -> None:
    state = new_game("flex", 4, seed=8)
    view = view_for(state, None)
    assert view.seat is None
    assert view.hand == ()
    assert view.legal == ()
    assert view.drawn_card is None
    assert view.draft_card is None
    assert view.hand_sizes == (7, 7, 7, 7)
    assert view.power == (True, True, True, True)


def test_drawn_card_is_shown_to_the_drawer_only() -> None:
    state = deal("classic", [["B3"], ["G4"]], top="R5", draw=["Y9"])
    state = run(state, "1 draw")
    drawer = view_for(state, 1)
    assert drawer.drawn_card == parse_card("Y9")
    assert drawer.pending == "drawn"
    assert parse_card("Y9") in drawer.hand
    assert view_for(state, 0).drawn_card is None
    assert view_for(state, None).drawn_card is None
    assert view_for(state, 0).hand_sizes == (7, 8)


def test_draft_card_is_shown_to_the_drafter_only() -> None:
    state = new_game("duo", 2, seed=3, dealer=0)
    assert state.pending.kind == "draft"
    looked = state.tables.cards[state.draw_pile[-1]]
    drafter = view_for(state, 0)
    assert drafter.draft_card == looked
    assert drafter.top is None
    assert view_for(state, 1).draft_card is None
    assert view_for(state, None).draft_card is None
    state = apply(state, 0, "reject").state
    # the rejected card lies face up on the draft discard pile: public
    assert view_for(state, 1).discard_pile == (looked,)
    assert view_for(state, None).discard_pile == (looked,)
    assert view_for(state, 1).draft_card == state.tables.cards[state.draw_pile[-1]]


def test_draft_discards_under_the_draw_pile_stay_public() -> None:
    """D-4, R-9: the 14 draft discards are under the draw pile, in a known order."""
    state = duo_deal([["R1"], ["B2"]], top="G5")
    assert state.public_bottom == 14
    expected = kinds(state, state.draw_pile[:14])
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert view.draw_pile_known == expected
        assert len(view.draw_pile_known) == 14
    assert view_for(new_game("classic", 2, seed=1), 0).draw_pile_known == ()


def test_challenge_window_shows_who_played_but_not_whether_it_was_legal() -> None:
    options = {"wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["W+4", "R2"], ["G7"]], top="R5", options=options)
    state = run(state, "1 W+4:g")
    pending = state.pending
    assert type(pending) is ChallengeWindow
    assert pending.seat == 2
    flipped = state._replace(pending=pending._replace(legal=not pending.legal))
    for seat in (0, 1, 2, None):
        view = view_for(state, seat)
        assert view.challenger_of == 1
        assert view.pending == "challenge"
        assert view.color is Color.GREEN
        assert view_for(flipped, seat) == view


def test_volley_total_is_public() -> None:
    state = duo_deal([["B+2"], ["R+2"]], top="R5")
    state = run(state, "1 R+2")
    for seat in (0, 1, None):
        assert view_for(state, seat).volley == 2
        assert view_for(state, seat).pending == "volley"
    assert str(view_for(state, 0).legal[-1]) == "draw"


def test_dump_colour_is_public() -> None:
    state = duo_deal([["B3"], ["RR", "R1", "R2"]], top="R5")
    state = run(state, "1 RR")
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert view.dump_color is Color.RED
        assert view.pending == "dump"


def test_unsafe_seat_is_public_and_others_may_catch() -> None:
    state = deal("classic", [["B1"], ["R7", "R8"]], top="R5")
    state = state._replace(hands=(state.hands[0], state.hands[1][:2]), draw_pile=state.hands[1][2:] + state.draw_pile)
    state = run(state, "1 R7")
    assert state.unsafe == 1
    for seat in (0, 1, None):
        assert view_for(state, seat).unsafe == 1
    assert [str(a) for a in view_for(state, 0).legal][-1] == "catch 1"
    assert "uno" in [str(a) for a in view_for(state, 1).legal]


def test_scores_and_outcome_are_public() -> None:
    state = deal("classic", [["B1"], ["R7"]], top="R5", options={"single_round": True})
    state = state._replace(hands=(state.hands[0], state.hands[1][:1]), draw_pile=state.hands[1][1:] + state.draw_pile)
    state = run(state, "1 R7")
    assert state.is_over
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert view.outcome == state.outcome
        assert view.scores == state.scores
        assert view.round_scores == state.round_scores
        assert view.round_winner == 1
        assert view.legal == ()
        assert view.to_act is None


# -- redact ---------------------------------------------------------------------------


def test_redact_cards_drawn() -> None:
    event = CardsDrawn(1, (5, 9))
    assert redact(event, 1) == event
    hidden = redact(event, 0)
    assert hidden == CardsDrawn(1, None, 2)
    assert hidden.number == 2
    assert redact(event, None) == CardsDrawn(1, None, 2)
    assert redact(hidden, 0) == hidden
    assert redact(CardsDrawn(1, ()), 0).number == 0


def test_redact_hand_shown_to_the_challenger_only() -> None:
    event = HandShown(seat=1, to=2, cards=(3, 4), legal=False)
    assert redact(event, 2) == event
    for seat in (0, 1, 3, None):
        assert redact(event, seat) == HandShown(1, 2, None, None)


def test_redact_leaves_public_events_alone() -> None:
    for event in (ActionTaken(0, parse_action("R7")), RoundEnded(1, 0, (10, 0))):
        for seat in (0, 1, None):
            assert redact(event, seat) == event


def test_redact_on_a_real_challenge() -> None:
    options = {"wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["W+4", "R2"], ["G7"]], top="R5", options=options)
    state = run(state, "1 W+4:g")
    events = apply(state, 2, "challenge").events
    shown = [event for event in events if type(event) is HandShown]
    assert len(shown) == 1
    assert shown[0].seat == 1
    assert shown[0].to == 2
    assert shown[0].cards is not None
    assert parse_card("R2") in kinds(state, shown[0].cards)
    assert redact(shown[0], 2) == shown[0]
    assert redact(shown[0], 0).cards is None
    assert redact(shown[0], None).cards is None
    drawn = [event for event in events if type(event) is CardsDrawn]
    assert drawn
    assert drawn[0].seat == 1  # the bluff was caught: the player draws 4 (C-17)
    assert redact(drawn[0], 1).cards == drawn[0].cards
    assert redact(drawn[0], 0).cards is None
    assert redact(drawn[0], 0).number == 4
