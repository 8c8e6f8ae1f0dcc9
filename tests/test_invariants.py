"""Properties of the engine over random legal playouts (Hypothesis).

Each example is a game (rule set, seat count, seed, options) played by a seeded
``random.Random``: the seat to act takes a uniformly random legal action, and
now and then another seat takes an out-of-turn ``uno`` or ``catch N``. The
properties are the shared rules G-1 (determinism), G-2 (no leak through views),
G-3 (conservation), G-4 (refusals leave the state unchanged), G-5 (running
totals), plus replay, notation round trips and termination.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from unoengine import (
    Action,
    CallUno,
    Catch,
    GameState,
    IllegalActionError,
    InvalidNotationError,
    Play,
    apply,
    format_action,
    format_card,
    format_record,
    legal_actions,
    new_game,
    parse_action,
    parse_card,
    parse_record,
    record_of,
    replay,
    view_for,
)
from unoengine.core.events import Event
from unoengine.core.options import PRESETS, preset_options
from unoengine.core.rules import find_rules
from unoengine.core.rules.duo import Draft
from unoengine.core.state import DrawnCardChoice
from unoengine.play.table import window_open

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"
RULE_IDS = frozenset(re.findall(r"\*\*([CDFHGR]-\d+)\*\*", RULES_MD.read_text(encoding="utf-8")))

CAP = 3000
"""Steps after which a uniformly random playout is cut short."""

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Game(NamedTuple):
    rules: str
    seats: int
    seed: int
    options: dict[str, Any]


@st.composite
def games(draw: st.DrawFn, single_round: bool | None = None) -> Game:
    """A rule set, a seat count it allows, a seed and some options."""
    rules = draw(st.sampled_from(["classic", "duo", "flex"]))
    allowed = find_rules(rules).seats
    seats = draw(st.integers(allowed.start, allowed.stop - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    options: dict[str, Any] = {}
    single = draw(st.booleans()) if single_round is None else single_round
    options["single_round"] = single
    if not single:
        options["target_score"] = draw(st.sampled_from([20, 60, 150]))
    if draw(st.booleans()):
        options["draw_until_playable"] = True
    if rules == "classic":
        options["wild_draw_four"] = draw(st.sampled_from(["strict", "challenge"]))
    if rules == "duo":
        options["duo_deck"] = draw(st.sampled_from(["standard112", "standard108"]))
    house(draw, rules, seats, options)
    return Game(rules, seats, seed, options)


def house(draw: st.DrawFn, rules: str, seats: int, options: dict[str, Any]) -> None:
    """Random house rules (H-1 … H-11) or a preset, as far as the rule set has them."""
    ruleset = find_rules(rules)
    if draw(st.booleans()):
        options.update(preset_options(ruleset, draw(st.sampled_from(sorted(PRESETS)))))
        if options.get("draw_until_playable") and options.get("draw_to_match"):
            del options["draw_until_playable"]  # H-5: the two cannot both be on
    if draw(st.integers(0, 3)) == 0:
        return
    if rules == "classic":
        options["stack_draw"] = draw(st.sampled_from(["none", "draw_two", "draw_four", "same", "mixed"]))
        options["seven_zero"] = draw(st.booleans())
        options["jump_in"] = draw(st.booleans())
        options["deflect"] = draw(st.sampled_from(["none", "skip", "reverse", "both"]))
        options["multi_play"] = draw(st.booleans())
    else:
        options["wild_draw_four"] = draw(st.sampled_from(["strict", "challenge"]))
    options["forced_play"] = draw(st.booleans())
    if not options.get("draw_until_playable"):
        options["draw_to_match"] = draw(st.booleans()) or bool(options.get("draw_to_match"))
    options["uno_penalty"] = draw(st.integers(0, 4))
    options["hand_size"] = draw(st.integers(1, min(9, (len(ruleset.make_deck(ruleset.options(None))) - 20) // seats)))
    if rules != "duo" and seats in (4, 6):
        options["teams"] = draw(st.sampled_from(["none", "pairs"]))  # H-11: 4 or 6 seats


class Playout(NamedTuple):
    start: GameState
    steps: list[tuple[int, Action]]
    states: list[GameState]
    """``states[i]`` is the state before ``steps[i]``; the last is the final state."""
    events: list[tuple[Event, ...]]


Policy = Callable[[GameState, int, tuple[Action, ...], random.Random], Action]


def uniform(state: GameState, seat: int, actions: tuple[Action, ...], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(actions)


def eager(state: GameState, seat: int, actions: tuple[Action, ...], rng: random.Random) -> Action:
    """A `random`-like bot: plays a card when it can (mostly), otherwise any legal action."""
    plays = [action for action in actions if isinstance(action, Play)]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    return rng.choice(actions)


def choose(state: GameState, rng: random.Random, policy: Policy) -> tuple[int, Action]:
    """The seat to act takes an action; sometimes another seat calls UNO, catches or jumps in first."""
    seat = state.to_act
    assert seat is not None
    if window_open(state) and rng.random() < 0.3:  # C-18's UNO window, H-3's jump-in
        others = [other for other in range(state.seats) if other != seat and legal_actions(state, other)]
        if others:
            other = rng.choice(others)
            return other, rng.choice(legal_actions(state, other))
    return seat, policy(state, seat, legal_actions(state, seat), rng)


def playout(game: Game, policy: Policy = uniform, cap: int = CAP) -> Playout:
    start = new_game(game.rules, game.seats, seed=game.seed, options=game.options)
    rng = random.Random(game.seed)
    state = start
    steps: list[tuple[int, Action]] = []
    states = [start]
    events: list[tuple[Event, ...]] = []
    while not state.is_over and len(steps) < cap:
        seat, action = choose(state, rng, policy)
        transition = apply(state, seat, action)
        state = transition.state
        steps.append((seat, action))
        states.append(state)
        events.append(transition.events)
    return Playout(start, steps, states, events)


def kinds(state: GameState) -> tuple[Any, ...]:
    """The state with every physical card id replaced by its card kind.

    Two physical cards of one kind are interchangeable (cards.py): a deck given as
    notation may number them differently from the seed's shuffle.
    """
    cards = state.tables.cards

    def named(ids: tuple[int, ...]) -> tuple[str, ...]:
        return tuple(format_card(cards[card]) for card in ids)

    pending: Any = state.pending
    if type(pending) is DrawnCardChoice and pending.card is not None:
        pending = (pending.kind, pending.seat, format_card(cards[pending.card]))
    return (
        tuple(named(hand) for hand in state.hands),  # (a state's hands and piles hold card ids only)
        named(state.draw_pile),
        named(state.discard_pile),
        state._replace(
            hands=((),) * len(state.hands),
            draw_pile=(),
            discard_pile=(),
            pending=None,
            known=tuple((viewer, holder, format_card(cards[card])) for viewer, holder, card in state.known),
        ),
        pending,
    )


# -- G-3 ----------------------------------------------------------------------------


@SETTINGS
@given(games())
def test_g3_cards_are_conserved_after_every_action(game: Game) -> None:
    run = playout(game)
    for index, state in enumerate(run.states):
        held = [card for hand in state.hands for card in hand]
        every = sorted(held + list(state.draw_pile) + list(state.discard_pile))
        assert every == list(range(len(state.tables.cards))), f"after step {index}: {state!r}"


# -- G-1 ----------------------------------------------------------------------------


@SETTINGS
@given(games())
def test_g1_same_seed_and_actions_give_the_same_game(game: Game) -> None:
    first = playout(game)
    state = new_game(game.rules, game.seats, seed=game.seed, options=game.options)
    assert state == first.start
    for index, (seat, action) in enumerate(first.steps):
        transition = apply(state, seat, action)
        state = transition.state
        assert state == first.states[index + 1], f"step {index}"
        assert transition.events == first.events[index], f"step {index}"
    assert playout(game) == first


# -- records and replay ---------------------------------------------------------------


@SETTINGS
@given(games(), st.booleans())
def test_replay_of_the_record_gives_the_live_state(game: Game, deck: bool) -> None:
    run = playout(game)
    record = record_of(run.start, run.steps, deck=deck)
    assert parse_record(format_record(record)) == record
    final = replay(record)
    if deck:
        # The deck is written as notation: equal up to which physical card of a kind is which.
        assert kinds(final) == kinds(run.states[-1])
    else:
        assert final == run.states[-1]


# -- legal actions --------------------------------------------------------------------


@SETTINGS
@given(games())
def test_r1_r10_the_acting_seat_always_has_an_action_and_others_only_uno_or_catch(game: Game) -> None:
    run = playout(game)
    for index, (seat, action) in enumerate(run.steps):
        if isinstance(action, CallUno | Catch):
            # out-of-turn actions do not change whose decision is pending
            assert run.states[index + 1].pending == run.states[index].pending, (seat, action)
    for state in run.states:
        if state.is_over:
            assert state.to_act is None
            assert all(legal_actions(state, seat) == () for seat in range(state.seats))
            continue
        assert state.to_act is not None
        assert legal_actions(state, state.to_act), repr(state)
        for seat in range(state.seats):
            actions = legal_actions(state, seat)
            assert len(set(actions)) == len(actions), f"duplicates for seat {seat}: {actions}"
            if seat != state.to_act:
                jumps = [action for action in actions if isinstance(action, Play)]
                assert all(isinstance(action, CallUno | Catch) for action in actions if action not in jumps)
                if jumps:  # H-3: only on a normal turn with no UNO window, only the top card's twin
                    assert state.options.jump_in and state.pending.kind == "turn" and state.unsafe is None
                    assert all(
                        format_card(action.card) == format_card(state.tables.cards[state.discard_pile[-1]])
                        for action in jumps
                        if isinstance(action, Play)
                    )
            if state.unsafe is None:
                assert not any(isinstance(action, CallUno | Catch) for action in actions), (seat, actions)
            elif seat == state.unsafe:
                # the one seat that can be caught may call, whoever is to act
                assert actions[-1] == CallUno(), (seat, actions)
            elif state.options.teams == "pairs" and (seat + state.seats // 2) % state.seats == state.unsafe:
                assert not any(isinstance(action, CallUno | Catch) for action in actions), (seat, actions)  # H-11
            else:
                assert actions[-1] == Catch(state.unsafe), (seat, actions)


# -- G-4 ----------------------------------------------------------------------------

POOL = [
    "R7",
    "G0",
    "B9",
    "YS",
    "BR",
    "G+2",
    "W",
    "W:g",
    "W+4:b",
    "W+4:r uno",
    "R5!",
    "G2|Y@flex",
    "RS|B@flex",
    "R+2|B@flex",
    "WAF:y",
    "FWA@flex:r",
    "FW+2@flex:r>1",
    "FW+4@flex:y>3",
    "FW+4:g",
    "R7 uno",
    "draw",
    "pass",
    "uno",
    "catch 0",
    "catch 1",
    "catch 2",
    "catch 9",
    "accept",
    "challenge",
    "keep",
    "reject",
    "color g",
    "R10",
    "X7",
    "W:x",
    "",
    "catch",
    "play",
]


def snapshot(state: GameState) -> tuple[Any, ...]:
    return (tuple(state), repr(state))


@SETTINGS
@given(games(single_round=True))
def test_g4_illegal_actions_are_refused_and_the_state_is_unchanged(game: Game) -> None:
    run = playout(game, cap=400)
    rng = random.Random(game.seed ^ 0x5EED)
    for state in run.states[:: max(1, len(run.states) // 60)]:
        before = snapshot(state)
        for _ in range(6):
            seat = rng.randrange(state.seats)
            legal = legal_actions(state, seat)
            if rng.random() < 0.5:
                text = rng.choice(POOL)
                try:
                    if parse_action(text) in legal:
                        continue
                except InvalidNotationError:
                    with pytest.raises(InvalidNotationError):
                        apply(state, seat, text)
                    assert snapshot(state) == before
                    continue
                attempt: Action | str = text
            else:
                other = rng.randrange(state.seats)
                borrowed = [action for action in legal_actions(state, other) if action not in legal]
                if not borrowed:
                    continue
                attempt = rng.choice(borrowed)
            with pytest.raises(IllegalActionError) as error:
                apply(state, seat, attempt)
            assert error.value.rule in RULE_IDS, str(error.value)
            assert error.value.reason, str(error.value)
            assert snapshot(state) == before
        # the state still plays on as before the refusals
        if not state.is_over:
            assert state.to_act is not None
            action = legal_actions(state, state.to_act)[0]
            assert apply(state, state.to_act, action) == apply(state, state.to_act, action)


# -- G-5 ----------------------------------------------------------------------------


@SETTINGS
@given(games(single_round=False))
def test_g5_running_totals_are_the_sums_of_the_round_scores(game: Game) -> None:
    run = playout(game)
    for state in run.states:
        totals = [sum(deltas[seat] for deltas in state.round_scores) for seat in range(state.seats)]
        assert list(state.scores) == totals
        assert len(state.round_scores) == state.round - (0 if state.is_over else 1)


# -- termination ----------------------------------------------------------------------


@SETTINGS
@given(games(single_round=True))
def test_single_round_games_with_random_play_end(game: Game) -> None:
    run = playout(game, policy=eager, cap=CAP)
    final = run.states[-1]
    assert final.is_over, f"not over after {CAP} steps: {final!r}"
    assert final.outcome is not None
    assert final.pending.kind == "game_over"
    if final.outcome.winner is not None:
        assert final.hands[final.outcome.winner] == ()


# -- G-2 ----------------------------------------------------------------------------


def resample(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """Permute the card ids hidden from ``seat`` among their positions.

    Hidden: the other seats' hands, and the draw pile except its publicly known
    bottom cards (D-4, D-10) and except the card a drafting seat looks at (D-3).
    """
    hands = [list(hand) for hand in state.hands]
    draw = list(state.draw_pile)
    known = min(state.public_bottom, len(draw))
    end = len(draw)
    if type(state.pending) is Draft and state.pending.seat == seat:
        end -= 1
    hidden = [card for other, hand in enumerate(hands) if other != seat for card in hand] + draw[known:end]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    relabel = dict(zip(hidden, shuffled, strict=True))
    hands = [hand if other == seat else [relabel[card] for card in hand] for other, hand in enumerate(hands)]
    draw = draw[:known] + [relabel[card] for card in draw[known:end]] + draw[end:]
    pending: Any = state.pending
    if type(pending) is DrawnCardChoice and pending.card in relabel:
        pending = pending._replace(card=relabel[pending.card])
    return state._replace(hands=tuple(tuple(hand) for hand in hands), draw_pile=tuple(draw), pending=pending)


@SETTINGS
@given(games())
def test_g2_views_do_not_depend_on_hidden_cards(game: Game) -> None:
    run = playout(game, cap=1500)
    rng = random.Random(game.seed ^ 0xC0FFEE)
    for state in run.states[:: max(1, len(run.states) // 150)]:
        seat: int | None = rng.choice([*range(state.seats), None])
        view = view_for(state, seat)
        for _ in range(2):
            other = resample(state, seat, rng)
            assert view_for(other, seat) == view, f"seat {seat} sees a hidden card in {state!r}"


def test_g2_resampling_does_change_hidden_cards() -> None:
    """The leak test is not vacuous: resampling moves cards the seat cannot see."""
    state = new_game("classic", 3, seed=1)
    other = resample(state, 0, random.Random(2))
    assert other.hands[0] == state.hands[0]
    assert other.hands[1:] != state.hands[1:]
    assert other.draw_pile != state.draw_pile
    cards = state.tables.cards
    assert [cards[c] for c in other.hands[1]] != [cards[c] for c in state.hands[1]]
    assert view_for(other, 1) != view_for(state, 1)


# -- notation round trips ---------------------------------------------------------------


def all_decks() -> Iterator[tuple[str, dict[str, Any]]]:
    yield "classic", {}
    yield "duo", {"duo_deck": "standard112"}
    yield "duo", {"duo_deck": "standard108"}
    yield "flex", {}


@pytest.mark.parametrize(("rules", "options"), list(all_decks()))
def test_every_card_of_every_deck_round_trips(rules: str, options: dict[str, Any]) -> None:
    ruleset = find_rules(rules)
    for card in ruleset.make_deck(ruleset.options(options)):
        assert parse_card(format_card(card)) == card
        assert format_card(parse_card(format_card(card).lower())) == format_card(card)


@SETTINGS
@given(games())
def test_every_legal_action_seen_round_trips(game: Game) -> None:
    run = playout(game, cap=1500)
    seen: set[Action] = set()
    for state in run.states[:: max(1, len(run.states) // 200)]:
        for seat in range(state.seats):
            seen.update(legal_actions(state, seat))
    seen.update(action for _, action in run.steps)
    for action in seen:
        text = format_action(action)
        assert parse_action(text) == action, text
        assert parse_action(text.lower()) == action, text
