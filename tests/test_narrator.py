"""The narrator (play/narrator.py): one seat's sentences about each step, from its views and redacted events."""

from __future__ import annotations

import random

from unoengine.core.actions import Play
from unoengine.core.cards import Rank
from unoengine.core.engine import apply, legal_actions, new_game
from unoengine.core.events import ActionTaken, CardsDrawn, Event, redact
from unoengine.core.rules import find_rules
from unoengine.core.state import GameState
from unoengine.core.views import view_for
from unoengine.play.narrator import Names, first_card, name_seats, narrate

NAMES = Names.bots(3, reader=0)


def steps(rules: str, seed: int, count: int = 300) -> list[tuple[GameState, tuple[Event, ...], GameState]]:
    """A random game's steps: the state before, the events, the state after."""
    state, rng, out = new_game(find_rules(rules), 3, seed=seed), random.Random(seed), []
    while not state.is_over and len(out) < count:
        seat = state.to_act
        assert seat is not None
        transition = apply(state, seat, rng.choice(legal_actions(state, seat)))
        out.append((state, transition.events, transition.state))
        state = transition.state
    return out


def lines_for(before: GameState, events: tuple[Event, ...], after: GameState, reader: int = 0) -> list[str]:
    names = Names.bots(before.seats, reader)
    return narrate(view_for(before, reader), events, view_for(after, reader), names, before.tables.cards)


def test_skipped_turns_are_told_with_you_grammar() -> None:
    told, seen = 0, []
    for before, events, after in steps("classic", 1):
        plays = [e for e in events if isinstance(e, ActionTaken) and isinstance(e.action, Play)]
        if not plays or after.round != before.round or after.pending.kind != "turn":
            continue
        played = plays[0]
        assert isinstance(played.action, Play)
        lines = lines_for(before, events, after)
        seen += lines
        if played.action.card.rank is Rank.SKIP:
            victim = (played.seat + before.direction) % 3
            actor = NAMES.subject(played.seat)
            verb = "skip" if played.seat == 0 else "skips"
            assert f"{actor} {verb} {NAMES.object(victim)}" in lines
            told += 1
        elif played.action.card.rank is Rank.NUMBER:
            assert not any(" skip" in line for line in lines), lines
    assert told >= 3, "the game played too few Skips to test"
    assert any(line.endswith(" skips you") for line in seen), "no bot skipped the reader"


def test_the_reader_is_you_and_others_are_their_names() -> None:
    assert NAMES.subject(0) == "You" and NAMES.possessive(0) == "Your" and NAMES.object(0) == "you"
    assert NAMES.subject(2) == "Bot 2" and NAMES.possessive(2) == "Bot 2's"


def test_f7_the_first_card_names_the_action_cards_turned_and_covered() -> None:
    covered = 0
    for seed in range(40):
        view = view_for(new_game(find_rules("flex"), 3, seed=seed), 0)
        line = first_card(view, NAMES)
        assert line is not None and line.startswith("Round 1: the first card is ")
        if len(view.discard_pile) > 1:
            covered += 1
            assert "turned first and covered" in line
        else:
            assert "covered" not in line
    assert covered, "no seed turned an action card first"


def test_every_later_round_names_its_first_card() -> None:
    rounds = [after.round for before, _, after in steps("classic", 3, 3000) if after.round != before.round]
    lines = [
        line
        for before, events, after in steps("classic", 3, 3000)
        if after.round != before.round and not after.is_over
        for line in lines_for(before, events, after)
    ]
    assert rounds, "the game never reached a second round"
    for number in rounds[:-1]:
        assert any(line.startswith(f"Round {number}: the first card is ") for line in lines), number


def test_g2_the_narrator_tells_no_more_than_the_readers_view() -> None:
    # Whatever the caller passes, events are redacted for the reader: another seat's drawn cards stay hidden.
    for before, events, after in steps("flex", 2, 200):
        for reader in range(3):
            raw = lines_for(before, events, after, reader)
            redacted = lines_for(before, tuple(redact(e, reader) for e in events), after, reader)
            assert raw == redacted
            for event in events:
                if isinstance(event, CardsDrawn) and event.seat != reader and event.cards:
                    name = f"Bot {event.seat}"
                    assert f"{name} drew {len(event.cards)}" in raw


def test_a_refusal_about_the_reader_agrees_with_you_in_both_verbs() -> None:
    """D-15's refusal: "seat 0 plays its red cards one by one or declines with 'pass'"."""
    text = "seat 0 plays its red cards one by one or declines with 'pass', not 'G7'"
    assert name_seats(text, NAMES) == "you play your red cards one by one or decline with 'pass', not 'G7'"
    other = name_seats(text.replace("seat 0", "seat 1"), NAMES)
    assert other.startswith("Bot 1 plays its red cards one by one or declines")
