"""UNO Duo: the deck (D-1), the cut (D-2, R-3), the draft (D-3, D-4) and the
alternation of Player 1 from round to round (D-5, D-7)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.helpers import duo_deal, first_play, hand, legal, rest_of_deck, run, top
from unoengine import (
    GameState,
    IllegalActionError,
    InvalidNotationError,
    Rank,
    apply,
    format_card,
    new_game,
    parse_card,
    redact,
    view_for,
)
from unoengine.core.events import CardsDrawn
from unoengine.core.rules.duo import cut_rank

# -- D-1 the deck ----------------------------------------------------------------------


def _counts(state: GameState) -> Counter[str]:
    return Counter(format_card(card) for card in state.tables.cards)


def test_d1_deck_has_112_cards_with_8_wilds_and_4_wild_draw_fours() -> None:
    state = new_game("duo", 2, seed=1)
    counts = _counts(state)
    assert len(state.tables.cards) == 112
    assert counts["W"] == 8
    assert counts["W+4"] == 4
    for color in "RYGB":
        assert counts[f"{color}0"] == 1
        for number in range(1, 10):
            assert counts[f"{color}{number}"] == 2
        for symbol in ("S", "R", "+2"):
            assert counts[f"{color}{symbol}"] == 2
        assert sum(n for text, n in counts.items() if text[0] == color) == 25


def test_d1_deck_is_conserved_through_the_draft() -> None:
    # G-3 with the 112 cards: hands, draw pile and discard pile hold the whole deck.
    state = new_game("duo", 2, seed=5)
    for _ in range(14):
        state = apply(state, state.to_act, "keep").state  # type: ignore[arg-type]
    cards = [*state.hands[0], *state.hands[1], *state.draw_pile, *state.discard_pile]
    assert sorted(cards) == list(range(112))


def test_d1_option_standard108_plays_with_the_108_cards() -> None:
    state = new_game("duo", 2, seed=1, options={"duo_deck": "standard108"})
    counts = _counts(state)
    assert len(state.tables.cards) == 108
    assert counts["W"] == 4
    assert counts["W+4"] == 4
    assert len(rest_of_deck("duo", [], {"duo_deck": "standard108"})) == 108


def test_d1_a_108_card_deck_is_refused_without_the_option() -> None:
    deck108 = rest_of_deck("duo", [], {"duo_deck": "standard108"})
    with pytest.raises(InvalidNotationError):
        new_game("duo", 2, seed=0, deck=deck108, dealer=0)
    # With the option the same deck is accepted.
    state = new_game("duo", 2, seed=0, deck=deck108, dealer=0, options={"duo_deck": "standard108"})
    assert state.pending.kind == "draft"


def test_d1_unknown_duo_deck_is_refused() -> None:
    with pytest.raises(InvalidNotationError):
        new_game("duo", 2, seed=0, options={"duo_deck": "standard110"})


def test_d1_wild_draw_four_is_challenged_by_default_and_h6_strict_is_a_house_rule() -> None:
    # D-18: Duo plays the Wild Draw Four with the challenge; H-6 (no bluff) is the house rule strict.
    assert new_game("duo", 2, seed=0).options.wild_draw_four == "challenge"
    assert new_game("duo", 2, seed=0, options={"wild_draw_four": "strict"}).options.wild_draw_four == "strict"
    with pytest.raises(InvalidNotationError):
        new_game("duo", 2, seed=0, options={"wild_draw_four": "never"})
    state = new_game("duo", 2, seed=0, options={"wild_draw_four": "challenge"})
    assert state.options.wild_draw_four == "challenge"


def test_d1_duo_is_for_exactly_two_players() -> None:
    for seats in (1, 3, 4):
        with pytest.raises(InvalidNotationError):
            new_game("duo", seats, seed=0)


# -- D-2 the cut, R-3 ------------------------------------------------------------------


def test_d2_the_cut_decides_player1_when_no_dealer_is_given() -> None:
    player1s = []
    for seed in range(40):
        state = new_game("duo", 2, seed=seed)
        assert state.pending.kind == "draft"
        assert state.pending.seat == state.dealer  # Player 1 drafts first (D-3)
        player1s.append(state.dealer)
    assert set(player1s) == {0, 1}  # the cut is random: either seat may win it


def test_d2_the_cut_is_deterministic_by_seed() -> None:
    for seed in range(20):
        first = new_game("duo", 2, seed=seed)
        again = new_game("duo", 2, seed=seed)
        assert first.dealer == again.dealer
        assert first == again


def test_d2_a_given_dealer_overrides_the_cut() -> None:
    for seed in range(10):
        cut = new_game("duo", 2, seed=seed).dealer
        for player1 in (0, 1):
            state = new_game("duo", 2, seed=seed, dealer=player1)
            assert state.dealer == player1
            assert state.pending.kind == "draft"
            assert state.pending.seat == player1
        overridden = new_game("duo", 2, seed=seed, dealer=1 - cut)
        assert overridden.pending.seat == 1 - cut


def test_d2_cut_rank_numbers_by_number_action_cards_above_nine() -> None:
    # D-2 Reading: number cards rank by their number, action cards rank above 9.
    for number in range(10):
        assert cut_rank(parse_card(f"G{number}")) == number
    for text in ("RS", "YR", "B+2", "W", "W+4"):
        assert cut_rank(parse_card(text)) > 9
    assert cut_rank(parse_card("RS")) == cut_rank(parse_card("W+4"))  # all action cards tie


def test_r3_the_cut_does_not_change_the_order_of_the_deck() -> None:
    # the cut draws its cards at random from the full deck but leaves the deck's
    # order alone: with or without a cut, the same seed gives the same deck.
    for seed in range(10):
        cut = new_game("duo", 2, seed=seed)
        given0 = new_game("duo", 2, seed=seed, dealer=0)
        given1 = new_game("duo", 2, seed=seed, dealer=1)
        assert cut.draw_pile == given0.draw_pile == given1.draw_pile
        assert cut.shuffles == given0.shuffles == given1.shuffles
        assert cut.hands == ((), ())


def test_r3_a_game_with_a_cut_equals_the_game_with_that_player1_given() -> None:
    for seed in range(10):
        cut = new_game("duo", 2, seed=seed)
        assert new_game("duo", 2, seed=seed, dealer=cut.dealer) == cut


# -- D-3 the draft ---------------------------------------------------------------------

# A stacked deck (top first): the first 28 cards are the draft's, the 29th the first card.
DRAFT = [
    "R1", "R2", "Y1", "Y2", "G1", "G2", "B1", "B2",
    "R3", "R4", "Y3", "Y4", "G3", "G4", "B3", "B4",
    "R5", "R6", "Y5", "Y6", "G5", "G6", "B5", "B6",
    "R7", "R8", "Y7", "Y8",
]  # fmt: skip
FIRST = "G9"


def _draft_deck() -> list[str]:
    used = [*DRAFT, FIRST]
    return [*used, *rest_of_deck("duo", used)]


def _draft_game(player1: int = 0) -> GameState:
    return new_game("duo", 2, seed=3, deck=_draft_deck(), dealer=player1)


def _names(cards: tuple[object, ...]) -> list[str]:
    return [format_card(card) for card in cards]  # type: ignore[arg-type]


def test_d3_player1_drafts_first_then_the_players_alternate() -> None:
    for player1 in (0, 1):
        state = _draft_game(player1)
        seats = []
        for _ in range(14):
            assert state.pending.kind == "draft"
            seats.append(state.pending.seat)
            state = apply(state, state.pending.seat, "keep").state  # type: ignore[arg-type]
        assert seats == [player1, 1 - player1] * 7


def test_d3_keep_puts_the_card_in_hand_and_the_next_card_on_the_draft_discard() -> None:
    state = _draft_game()
    assert legal(state, 0) == ["keep", "reject"]
    state = apply(state, 0, "keep").state
    assert hand(state, 0) == ["R1"]
    assert _names(view_for(state, 1).discard_pile) == ["R2"]
    assert len(state.draw_pile) == 110


def test_d3_reject_discards_the_card_and_the_drafter_keeps_the_next() -> None:
    state = _draft_game()
    state = apply(state, 0, "reject").state
    assert hand(state, 0) == ["R2"]
    assert _names(view_for(state, 0).discard_pile) == ["R1"]
    state = apply(state, 1, "keep").state
    assert hand(state, 1) == ["Y1"]
    state = apply(state, 0, "reject").state
    assert hand(state, 0) == ["R2", "G2"]
    assert _names(view_for(state, None).discard_pile) == ["R1", "Y2", "G1"]


def test_d3_draft_discards_are_public_and_the_looked_at_card_is_seen_by_the_drafter_only() -> None:
    state = _draft_game()
    assert view_for(state, 0).draft_card == parse_card("R1")
    assert view_for(state, 1).draft_card is None
    assert view_for(state, None).draft_card is None
    state = apply(state, 0, "keep").state
    # Seat 1 now looks at Y1; seat 0 does not see it.
    assert view_for(state, 1).draft_card == parse_card("Y1")
    assert view_for(state, 0).draft_card is None
    assert view_for(state, None).draft_card is None
    # The draft discard (R2) is seen by everyone.
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert _names(view.discard_pile) == ["R2"]
        assert view.top is None  # there is no top card during the draft
    assert view_for(state, 0).hand == (parse_card("R1"),)
    assert view_for(state, 1).hand == ()


def test_d3_the_kept_card_is_hidden_from_the_opponent_in_the_events() -> None:
    state = _draft_game()
    transition = apply(state, 0, "keep")
    drawn = [e for e in transition.events if type(e) is CardsDrawn]
    assert len(drawn) == 1 and drawn[0].seat == 0
    assert [format_card(transition.state.tables.cards[c]) for c in drawn[0].cards or ()] == ["R1"]
    assert redact(drawn[0], 0).cards == drawn[0].cards
    assert redact(drawn[0], 1).cards is None
    assert redact(drawn[0], None).cards is None


def test_d3_only_the_drafter_acts_and_only_with_keep_or_reject() -> None:
    state = _draft_game()
    for action in ("draw", "pass", "R1", "color g"):
        with pytest.raises(IllegalActionError) as error:
            apply(state, 0, action)
        assert error.value.rule == "D-3"
    with pytest.raises(IllegalActionError) as error:
        apply(state, 1, "keep")
    assert error.value.rule == "G-4"
    assert legal(state, 1) == []


# -- D-4 the end of the draft ----------------------------------------------------------

PATTERN = [
    "keep", "reject", "reject", "keep", "keep", "keep", "reject",
    "reject", "keep", "reject", "keep", "keep", "reject", "keep",
]  # fmt: skip


def _expected_draft(player1: int) -> tuple[list[list[str]], list[str]]:
    hands: list[list[str]] = [[], []]
    discards: list[str] = []
    for step, action in enumerate(PATTERN):
        seat = player1 if step % 2 == 0 else 1 - player1
        looked, following = DRAFT[2 * step], DRAFT[2 * step + 1]
        kept, discarded = (looked, following) if action == "keep" else (following, looked)
        hands[seat].append(kept)
        discards.append(discarded)
    return hands, discards


def _run_draft(player1: int) -> GameState:
    state = _draft_game(player1)
    for action in PATTERN:
        state = apply(state, state.pending.seat, action).state  # type: ignore[arg-type]
    return state


def test_d4_after_the_draft_each_hand_has_7_and_the_14_discards_go_under_the_draw_pile() -> None:
    for player1 in (0, 1):
        state = _run_draft(player1)
        hands, discards = _expected_draft(player1)
        assert hand(state, 0) == hands[0]
        assert hand(state, 1) == hands[1]
        assert len(state.hands[0]) == len(state.hands[1]) == 7
        assert top(state) == FIRST  # D-6: the next card begins the discard pile
        assert [format_card(state.tables.cards[c]) for c in state.discard_pile] == [FIRST]
        assert len(state.draw_pile) == 112 - 14 - 1  # the 14 draft discards are back in it
        # Face down under the draw pile, not shuffled: bottom first is the last discarded.
        bottom = [format_card(state.tables.cards[c]) for c in state.draw_pile[:14]]
        assert bottom == discards[::-1]
        # The rest of the draw pile is the deck after the first card, in order.
        rest = [format_card(state.tables.cards[c]) for c in reversed(state.draw_pile[14:])]
        assert rest == _draft_deck()[29:]


def test_d4_the_draft_discards_are_a_publicly_known_bottom() -> None:
    state = _run_draft(0)
    _, discards = _expected_draft(0)
    assert state.public_bottom == 14
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert _names(view.draw_pile_known) == discards[::-1]  # bottom first
        assert view.draw_pile == 97
        assert _names(view.discard_pile) == [FIRST]


def test_d4_the_draft_discards_are_drawn_in_discard_order_after_the_rest() -> None:
    state = _run_draft(0)
    _, discards = _expected_draft(0)
    drawn: list[str] = []
    while state.draw_pile:
        seat = state.to_act
        assert seat is not None and state.pending.kind == "turn"
        before = len(state.hands[seat])
        state = apply(state, seat, "draw").state
        drawn.append(format_card(state.tables.cards[state.hands[seat][before]]))
        state = apply(state, seat, "pass").state
    assert drawn[:-14] == _draft_deck()[29:]
    assert drawn[-14:] == discards  # the first card discarded is drawn first


# -- D-5 / D-7 Player 1 alternates -----------------------------------------------------


def _expected_first(state: GameState) -> tuple[str, int]:
    """D-6: what the first card asks of whom (pending kind, seat), Player 1 = state.dealer."""
    player1 = state.dealer
    player2 = 1 - player1
    face = state.tables.cards[state.discard_pile[-1]]
    if face.rank in (Rank.SKIP, Rank.DRAW_TWO):
        return "turn", player1
    if face.rank in (Rank.WILD, Rank.WILD_DRAW_FOUR):
        return "color", player1
    if face.rank is Rank.REVERSE:
        holds = any(state.tables.cards[c].color is face.color for c in state.hands[player2])
        return ("dump" if holds else "turn"), player2
    return "turn", player2


def test_d5_d7_player1_alternates_from_round_to_round() -> None:
    state = new_game("duo", 2, seed=11, dealer=0, options={"target_score": 60})
    player1s = [state.dealer]
    firsts = 0
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 20000
        before = state
        state = apply(state, before.to_act, first_play(before)).state  # type: ignore[arg-type]
        if state.round != before.round:
            # D-5: a new round; the other seat is Player 1 and drafts first.
            assert state.round == before.round + 1
            assert state.dealer == 1 - before.dealer
            assert state.pending.kind == "draft" and state.pending.seat == state.dealer
            player1s.append(state.dealer)
        elif before.pending.kind == "draft" and state.pending.kind != "draft":
            # D-7 with D-6: the play starts with Player 2 (or Player 1 after a Skip,
            # a Draw Two or a wild first card).
            assert (state.pending.kind, state.pending.seat) == _expected_first(state)
            firsts += 1
    assert len(player1s) >= 3
    assert player1s == [i % 2 for i in range(len(player1s))]
    assert firsts == len(player1s)


def test_d7_player2_plays_first_in_each_round() -> None:
    # Round 1 with Player 1 = seat 0: seat 1 plays first; next round seat 0 plays first.
    state = _run_draft(0)
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    state = _run_draft(1)
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)


def test_d7_the_next_round_is_drafted_and_opened_the_other_way_round() -> None:
    # Round 1: Player 1 is seat 0 and seat 1 plays first (and goes out with Skips).
    state = duo_deal(
        [["B1", "B2", "B3", "B4", "B5", "B6", "B7"], ["RS", "RS", "YS", "YS", "GS", "GS", "G1"]],
        top="R5",
    )
    assert (state.pending.kind, state.pending.seat) == ("turn", 1)
    state = run(state, "1 RS", "1 RS", "1 YS", "1 YS", "1 GS", "1 GS uno", "1 G1")
    # Round 2: seat 1 is Player 1 (drafts first) and seat 0 is Player 2.
    assert state.round == 2 and state.dealer == 1
    seats = []
    for _ in range(14):
        seats.append(state.pending.seat)
        state = apply(state, state.pending.seat, "keep").state  # type: ignore[arg-type]
    assert seats == [1, 0] * 7
    assert (state.pending.kind, state.pending.seat) == _expected_first(state)
    # With seed 0 the second round's first card is a number card: Player 2 (seat 0) plays.
    assert state.tables.cards[state.discard_pile[-1]].rank is Rank.NUMBER
    assert (state.pending.kind, state.pending.seat) == ("turn", 0)
