"""The rules every rule set shares (docs/RULES.md G-1 … G-6) and Readings R-5, R-7."""

from __future__ import annotations

import random

import pytest

from tests.helpers import deal, duo_deal, hand, legal, run
from unoengine import (
    GameState,
    IllegalActionError,
    Play,
    Termination,
    apply,
    format_card,
    legal_actions,
    new_game,
    redact,
    replay,
    state_to_json,
    view_for,
)
from unoengine.core.events import CardsDrawn, HandShown
from unoengine.core.record import first_deck, record_of


def conserved(state: GameState) -> bool:
    every = [card for h in state.hands for card in h] + list(state.draw_pile) + list(state.discard_pile)
    return sorted(every) == list(range(len(state.tables.cards)))


def trim(state: GameState, seat: int, keep: int) -> GameState:
    """Leave ``seat`` with its first ``keep`` cards; the rest go under the draw pile."""
    hands = list(state.hands)
    extra = hands[seat][keep:]
    hands[seat] = hands[seat][:keep]
    return state._replace(hands=tuple(hands), draw_pile=extra + state.draw_pile)


def exhaust(state: GameState) -> GameState:
    """Move every card of both piles but the top card into the hands (G-6 set-up), keeping G-3."""
    top = state.discard_pile[-1]
    rest = state.draw_pile + state.discard_pile[:-1]
    hands = [list(h) for h in state.hands]
    for index, card in enumerate(rest):
        hands[index % state.seats].append(card)
    out = state._replace(
        hands=tuple(tuple(h) for h in hands), draw_pile=(), discard_pile=(top,), public_bottom=0, blocked=0
    )
    assert conserved(out)
    return out


# -- G-1 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "seats"), [("classic", 4), ("duo", 2), ("flex", 3)])
def test_g1_same_seed_and_same_actions_give_the_same_game(rules: str, seats: int) -> None:
    def play(seed: int) -> list[tuple[GameState, tuple[object, ...]]]:
        state = new_game(rules, seats, seed=seed, options={"single_round": True})
        rng = random.Random(99)
        out: list[tuple[GameState, tuple[object, ...]]] = [(state, ())]
        while not state.is_over and len(out) < 400:
            assert state.to_act is not None
            action = rng.choice(legal_actions(state, state.to_act))
            transition = apply(state, state.to_act, action)
            state = transition.state
            out.append((state, transition.events))
        return out

    assert play(12) == play(12)
    assert new_game(rules, seats, seed=12) == new_game(rules, seats, seed=12)
    assert new_game(rules, seats, seed=12).draw_pile != new_game(rules, seats, seed=13).draw_pile


def test_g1_an_explicit_deck_order_fixes_the_deal() -> None:
    seeded = new_game("classic", 3, seed=31)
    deck = [format_card(card) for card in first_deck(seeded)]
    stacked = new_game("classic", 3, seed=31, deck=deck)
    other_seed = new_game("classic", 3, seed=32, deck=deck)
    cards = seeded.tables.cards
    for state in (stacked, other_seed):
        assert [[cards[c] for c in h] for h in state.hands] == [[cards[c] for c in h] for h in seeded.hands]
        assert [cards[c] for c in state.draw_pile] == [cards[c] for c in seeded.draw_pile]


def test_g1_a_record_replays_to_the_same_game() -> None:
    start = new_game("flex", 4, seed=8)
    rng = random.Random(8)
    state = start
    taken = []
    for _ in range(150):
        if state.is_over:
            break
        assert state.to_act is not None
        action = rng.choice(legal_actions(state, state.to_act))
        taken.append((state.to_act, action))
        state = apply(state, state.to_act, action).state
    assert replay(record_of(start, taken)) == state


def test_g1_r7_shuffle_number_n_uses_seed_colon_n() -> None:
    """R-7: shuffle 0 is random.Random(f"{seed}:0").shuffle over the canonical deck order."""
    seed = 2024
    state = new_game("classic", 2, seed=seed, dealer=0)
    order = list(range(len(state.tables.cards)))
    random.Random(f"{seed}:0").shuffle(order)
    # C-2: one card at a time from the dealer's left (seat 1), 7 rounds.
    assert state.hands[1] == tuple(order[0:14:2])
    assert state.hands[0] == tuple(order[1:14:2])
    assert state.shuffles >= 1


def test_g1_r7_refill_uses_the_next_shuffle_number() -> None:
    """R-7, C-10: a refill shuffles the discard pile less its top card, bottom first."""
    state = deal("classic", [["B1"], ["G4"]], top="R5")
    # put 6 cards of seat 0 on the discard pile under the top card, and empty the draw pile
    discard = state.hands[0][1:] + state.discard_pile
    hands = (state.hands[0][:1], state.hands[1] + state.draw_pile)
    state = state._replace(hands=hands, draw_pile=(), discard_pile=discard)
    assert conserved(state)
    n = state.shuffles
    after = apply(state, 1, "draw").state
    rest = list(discard[:-1])
    random.Random(f"{state.seed}:{n}").shuffle(rest)
    assert after.shuffles == n + 1
    assert after.hands[1][-1] == rest[-1]  # the top of the new draw pile is its end
    assert after.draw_pile == tuple(rest[:-1])
    assert after.discard_pile == discard[-1:]


def test_g1_the_duo_cut_does_not_shift_the_shuffles() -> None:
    """R-7: the cut has its own stream; naming Player 1 does not change the deck order."""
    cut = new_game("duo", 2, seed=77)
    named = new_game("duo", 2, seed=77, dealer=1 - cut.dealer)
    assert cut.draw_pile == named.draw_pile
    assert new_game("duo", 2, seed=77).dealer == cut.dealer


# -- G-2 ------------------------------------------------------------------------------


def test_g2_a_view_holds_only_the_seats_own_hand() -> None:
    state = new_game("classic", 3, seed=5)
    cards = state.tables.cards
    view = view_for(state, 0)
    assert list(view.hand) == [cards[c] for c in state.hands[0]]
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.draw_pile == len(state.draw_pile)
    # swap the hidden cards between seats 1 and 2 and the draw pile: seat 0 sees no difference
    pool = list(state.hands[1] + state.hands[2] + state.draw_pile)
    random.Random(1).shuffle(pool)
    other = state._replace(hands=(state.hands[0], tuple(pool[:7]), tuple(pool[7:14])), draw_pile=tuple(pool[14:]))
    assert view_for(other, 0) == view
    assert view_for(other, 1) != view_for(state, 1)


def test_g2_a_challenged_hand_is_shown_to_the_challenger_only() -> None:
    options = {"wild_draw_four": "challenge"}
    state = deal("classic", [["B1"], ["W+4", "R2"], ["G7"]], top="R5", options=options)
    state = run(state, "1 W+4:g")
    events = apply(state, 2, "challenge").events
    shown = next(event for event in events if type(event) is HandShown)
    assert redact(shown, 2).cards is not None
    assert redact(shown, 0).cards is None
    assert redact(shown, 1).cards is None
    assert redact(shown, None).cards is None


def test_g2_drawn_cards_are_seen_by_the_drawer_only() -> None:
    state = deal("classic", [["B1"], ["G4"]], top="R5", draw=["Y2"])
    events = apply(state, 1, "draw").events
    drawn = next(event for event in events if type(event) is CardsDrawn)
    assert redact(drawn, 1).cards == drawn.cards
    assert redact(drawn, 0).cards is None
    assert redact(drawn, 0).number == 1
    after = apply(state, 1, "draw").state
    assert view_for(after, 1).drawn_card is not None
    assert view_for(after, 0).drawn_card is None


# -- G-3 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "seats"), [("classic", 5), ("duo", 2), ("flex", 8)])
def test_g3_the_deck_is_conserved_through_a_whole_game(rules: str, seats: int) -> None:
    state = new_game(rules, seats, seed=3, options={"target_score": 1000, "single_round": False})
    rng = random.Random(3)
    rounds = {state.round}
    for _ in range(3000):
        assert conserved(state), repr(state)
        if state.is_over:
            break
        assert state.to_act is not None
        actions = legal_actions(state, state.to_act)
        plays = [a for a in actions if isinstance(a, Play)]
        state = apply(state, state.to_act, rng.choice(plays or list(actions))).state
        rounds.add(state.round)
    assert conserved(state)
    assert len(rounds) > 1  # several deals were checked


def test_g3_the_deck_is_conserved_through_a_refill() -> None:
    state = deal("classic", [["B1"], ["G4"]], top="R5")
    discard = state.hands[0][1:] + state.discard_pile
    state = state._replace(
        hands=(state.hands[0][:1], state.hands[1] + state.draw_pile), draw_pile=(), discard_pile=discard
    )
    assert conserved(state)
    after = apply(state, 1, "draw").state
    assert conserved(after)
    assert len(after.draw_pile) == 5


# -- G-4 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "seat", "action", "rule"),
    [
        (lambda: deal("classic", [["B1"], ["G4"]], top="R5"), 0, "B1", "G-4"),  # not seat 0's turn
        (lambda: deal("classic", [["B1"], ["G4"]], top="R5"), 1, "G4", "C-7"),  # does not match
        (lambda: deal("classic", [["B1"], ["W"]], top="R5"), 1, "W", "C-9"),  # a wild names a colour
        (lambda: deal("classic", [["B1"], ["G4"]], top="R5"), 1, "pass", "C-8"),  # nothing drawn
        (lambda: deal("classic", [["B1"], ["G4"]], top="R5"), 7, "draw", "G-4"),  # no such seat
        (lambda: deal("classic", [["B1"], ["G4"]], top="R5"), 1, "keep", "C-8"),  # not a Classic decision
        (lambda: duo_deal([["B1"], ["G4"]], top="R5"), 1, "G4", "D-8"),
        (lambda: new_game("duo", 2, seed=1, dealer=0), 0, "draw", "D-3"),
        (lambda: deal("flex", [["B2"], ["G3"]], top="R4"), 1, "G3", "F-9"),
    ],
)
def test_g4_refusals_name_the_rule_and_leave_the_state_unchanged(
    make: object, seat: int, action: str, rule: str
) -> None:
    state = make()  # type: ignore[operator]
    before = (tuple(state), repr(state))
    with pytest.raises(IllegalActionError) as error:
        apply(state, seat, action)
    assert error.value.rule == rule
    assert error.value.reason
    assert str(error.value) == f"{rule} {error.value.reason}"
    assert (tuple(state), repr(state)) == before


def test_g4_a_catch_of_a_seat_that_called_is_refused_with_a_reason() -> None:
    state = deal("classic", [["B1"], ["R7", "R8"]], top="R5")
    state = trim(state, 1, 2)
    state = run(state, "1 R7 uno")
    with pytest.raises(IllegalActionError) as error:
        apply(state, 0, "catch 1")
    assert error.value.rule == "C-19"
    assert "1" in error.value.reason


# -- G-5 ------------------------------------------------------------------------------


def go_out(state: GameState) -> GameState:
    """The seat to act is left with one playable card and plays it (ending the round)."""
    for _ in range(20):
        seat = state.to_act
        assert seat is not None
        plays = [a for a in legal_actions(state, seat) if isinstance(a, Play) and not a.uno]
        if state.pending.kind == "turn" and plays:
            action = plays[0]
            kind = state.tables.kind_index[action.card]
            card = next(c for c in state.hands[seat] if state.tables.kind_of[c] == kind)
            hands = list(state.hands)
            hands[seat] = (card,)
            extra = tuple(c for c in state.hands[seat] if c != card)
            state = state._replace(hands=tuple(hands), draw_pile=extra + state.draw_pile)
            assert conserved(state)
            return apply(state, seat, action).state
        state = apply(state, seat, legal_actions(state, seat)[-1]).state
    raise AssertionError("no playable card found")


def test_g5_running_totals_and_the_history_of_round_scores_are_kept_and_shown() -> None:
    state = deal("classic", [["B1"], ["R7"]], top="R5", options={"target_score": 10_000})
    assert state.scores == (0, 0)
    assert state.round_scores == ()
    state = trim(state, 1, 1)
    loser_points = sum(state.tables.points[c] for c in state.hands[0])
    state = run(state, "1 R7")
    assert state.round == 2
    assert state.round_scores == ((0, loser_points),)
    assert state.scores == (0, loser_points)
    assert state.round_winner == 1
    first = state.scores
    state = go_out(state)
    assert state.round == 3
    assert len(state.round_scores) == 2
    assert tuple(a + b for a, b in zip(*state.round_scores, strict=True)) == state.scores
    assert sum(state.scores) > sum(first)
    for seat in (0, 1, None):
        view = view_for(state, seat)
        assert view.scores == state.scores
        assert view.round_scores == state.round_scores
    data = state_to_json(state)
    assert data["scores"] == list(state.scores)
    assert data["round_winner"] == state.round_winner


# -- G-6 ------------------------------------------------------------------------------


def blocked_start(rules: str, single_round: bool) -> GameState:
    options = {"single_round": single_round}
    if rules == "duo":
        state = duo_deal([["B1"], ["G4"]], top="R5", options=options)
    elif rules == "flex":
        state = deal("flex", [["B2"], ["G3"], ["Y6"]], top="R4", options=options)
    else:
        state = deal("classic", [["B1"], ["G4"], ["Y3"]], top="R5", options=options)
    return exhaust(state)


def pass_around(state: GameState) -> GameState:
    """Each seat in turn draws nothing and passes."""
    for _ in range(state.seats):
        seat = state.to_act
        assert seat is not None
        assert state.pending.kind == "turn"
        before = len(state.hands[seat])
        state = apply(state, seat, "draw").state
        assert len(state.hands[seat]) == before  # nothing to draw (C-11)
        assert legal(state, seat) == ["pass"]
        state = apply(state, seat, "pass").state
        assert conserved(state)
    return state


@pytest.mark.parametrize("rules", ["classic", "duo", "flex"])
def test_g6_a_blocked_single_round_game_ends_with_no_winner(rules: str) -> None:
    state = blocked_start(rules, single_round=True)
    seats = state.seats
    # every seat but the last: the round goes on
    for _ in range(seats - 1):
        seat = state.to_act
        assert seat is not None
        state = run(state, f"{seat} draw", f"{seat} pass")
        assert not state.is_over
    assert state.blocked == seats - 1
    seat = state.to_act
    state = run(state, f"{seat} draw", f"{seat} pass")
    assert state.is_over
    assert state.outcome is not None
    assert state.outcome.termination is Termination.BLOCKED
    assert state.outcome.winner is None
    assert state.round_winner is None
    assert state.scores == (0,) * seats
    assert state.round_scores == ((0,) * seats,)
    assert state_to_json(state)["game_winner"] is None
    assert state_to_json(state)["round_winner"] is None


@pytest.mark.parametrize("rules", ["classic", "duo", "flex"])
def test_g6_a_blocked_round_is_not_scored_and_the_next_round_is_dealt(rules: str) -> None:
    state = blocked_start(rules, single_round=False)
    seats = state.seats
    dealer = state.dealer
    state = pass_around(state)
    assert not state.is_over
    assert state.round == 2
    assert state.round_winner is None
    assert state.round_scores == ((0,) * seats,)
    assert state.scores == (0,) * seats
    assert state.dealer != dealer
    assert state.blocked == 0
    assert conserved(state)
    if rules == "duo":
        assert state.pending.kind == "draft"
    else:
        assert all(len(h) == 7 for h in state.hands)


def test_g6_r5_a_play_resets_the_count() -> None:
    """R-5: a play between the passes resets the count of blocked seats."""
    state = exhaust(deal("classic", [["B1"], ["G4"], ["R6"]], top="R5", options={"single_round": True}))
    state = run(state, "1 draw", "1 pass")
    assert state.blocked == 1
    state = run(state, "2 R6")
    assert state.blocked == 0
    # the discard pile now has two cards: seat 0's draw refills with R5 and yields a card
    state = run(state, "0 draw")
    assert hand(state, 0)[-1] == "R5"
    state = run(state, "0 pass")
    assert state.blocked == 0
    # now nothing is left to draw: three seats must pass in turn
    state = run(state, "1 draw", "1 pass", "2 draw", "2 pass")
    assert state.blocked == 2
    assert not state.is_over
    state = run(state, "0 draw", "0 pass")
    assert state.is_over
    assert state.outcome is not None
    assert state.outcome.termination is Termination.BLOCKED


def test_g6_r5_a_draw_that_yields_a_card_resets_the_count() -> None:
    state = deal("classic", [["B1"], ["G4"]], top="R5", options={"single_round": True})
    # leave exactly one card in the draw pile
    state = exhaust(state)
    hands = list(state.hands)
    spare, hands[0] = hands[0][-1], hands[0][:-1]
    state = state._replace(hands=tuple(hands), draw_pile=(spare,))
    assert conserved(state)
    state = run(state, "1 draw", "1 pass")
    assert state.blocked == 0  # seat 1 drew a card
    state = run(state, "0 draw", "0 pass")
    assert state.blocked == 1
    assert not state.is_over
    state = run(state, "1 draw", "1 pass")
    assert state.is_over


def test_r7_the_shuffle_generator_is_seeded_as_random_random_seeds_it_from_text() -> None:
    """R-7: ``seeded_generator(text)`` is in the state of ``random.Random(text)`` (seeded from the
    text's int without ``random.py``), for game seeds and shuffle numbers and odd texts."""
    import random

    from unoengine.core.work import seeded_generator

    texts = [f"{seed}:{n}" for seed in (*range(2000), 2**31 - 1, 2**63, -7) for n in range(4)]
    for text in (*texts, "", "é:0", "x" * 300):
        assert seeded_generator(text).getstate() == random.Random(text).getstate()[1], text


def test_r7_shuffle_is_fisher_yates_as_cpython_shuffles() -> None:
    """R-7: our written-out shuffle gives exactly ``random.Random(f"{seed}:{n}").shuffle``."""
    import random

    from unoengine.core.work import shuffled

    for seed in range(300):
        for n in range(3):
            for size in (0, 1, 2, 3, 4, 5, 8, 9, 14, 16, 17, 64, 65, 104, 108, 112, 128, 129, 255):
                expected = list(range(size))
                random.Random(f"{seed}:{n}").shuffle(expected)
                assert shuffled(seed, n, list(range(size))) == expected
