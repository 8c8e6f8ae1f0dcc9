"""The narrator (play/narrator.py): one seat's sentences about each step, from its views and redacted events."""

from __future__ import annotations

import random

from tests.helpers import deal, run, shrink
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


def step_lines(state: GameState, step: str, reader: int) -> list[str]:
    """The reader's lines about one ``"SEAT ACTION"`` step."""
    seat, _, action = step.partition(" ")
    transition = apply(state, int(seat), action)
    return lines_for(state, transition.events, transition.state, reader)


def test_h3_a_jump_in_is_told_as_a_jump_in_not_as_a_play() -> None:
    state = deal("classic", [["B1"], ["R6"], ["G3"], ["R6", "Y2"]], top="R5", options={"jump_in": True})
    assert step_lines(state, "1 R6", 0)[0] == "Bot 1 played red 6"  # on its turn: an ordinary play
    state = run(state, "1 R6")
    assert state.to_act == 2
    assert step_lines(state, "3 R6", 2)[0] == "Bot 3 jumped in with red 6"  # it was seat 2's turn
    assert step_lines(state, "3 R6", 3)[0] == "You jumped in with red 6"
    for rules in ("classic", "flex"):  # without H-3 every play is on its turn: none is told as a jump-in
        for before, events, after in steps(rules, 4, 400):
            assert not any("jumped in" in line for line in lines_for(before, events, after))


def test_h2_a_zero_passes_every_hand_on_and_says_how_many_each_now_holds() -> None:
    state = deal("classic", [["B1", "B2"], ["R0", "G3", "G4"], ["Y4"]], top="R5", options={"seven_zero": True})
    state = shrink(shrink(shrink(state, 0, 2), 1, 3), 2, 1)
    lines = step_lines(state, "1 R0", 0)  # clockwise: seat 0's 2 go to seat 1, seat 1's 2 to seat 2, seat 2's 1 to 0
    assert "Every hand passed on (clockwise): you now hold 1, Bot 1 holds 2, Bot 2 holds 2" in lines
    assert "Every hand passed on (clockwise): you now hold 2, Bot 0 holds 1, Bot 1 holds 2" in step_lines(
        state, "1 R0", 2
    )


def test_h2_a_seven_says_whose_hands_were_swapped_and_their_new_sizes() -> None:
    state = deal("classic", [["B1"], ["R7", "G3"], ["Y4", "Y5", "Y6"]], top="R5", options={"seven_zero": True})
    state = shrink(shrink(state, 1, 2), 2, 3)
    assert "Bot 1 swapped hands with Bot 2: Bot 1 now holds 3, Bot 2 holds 1" in step_lines(state, "1 R7>2", 0)
    assert "Bot 1 swapped hands with you: you now hold 1, Bot 1 holds 3" in step_lines(state, "1 R7>2", 2)
    assert "You swapped hands with Bot 2: you now hold 3, Bot 2 holds 1" in step_lines(state, "1 R7>2", 1)


def test_c22_drawing_until_a_card_fits_is_one_line() -> None:
    draw = ["B2", "B3", "Y4", "G6", "R9"]  # four that do not fit a red 5, then one that does
    state = deal("classic", [["B1"], ["B7"], ["G3"]], top="R5", draw=draw, options={"draw_until_playable": True})
    state = shrink(state, 1, 1)
    assert "Bot 1 drew 5" in step_lines(state, "1 draw", 0)
    assert step_lines(state, "1 draw", 1) == ["You drew blue 2, blue 3, yellow 4, green 6, red 9"]


def test_h9_a_deflecting_play_says_whom_it_passed_the_draw_total_to() -> None:
    state = deal("classic", [["B1"], ["R+2"], ["RS", "G3"], ["Y4"]], top="R5", options={"deflect": "skip"})
    state = run(state, "1 R+2")
    assert step_lines(state, "2 RS", 3)[0] == "Bot 2 played red Skip and passed the draw total (2) to you"
    assert step_lines(state, "2 RS", 0) == ["Bot 2 played red Skip and passed the draw total (2) to Bot 3"]


def test_a_spectator_is_told_who_won_the_game_not_that_their_team_won() -> None:
    """Defect: without teams, no seat's partner is ``None``, which is a spectator's reader: "your team won"."""
    from unoengine.core.events import GameEnded

    for rules in ("classic", "duo"):
        state = new_game(find_rules(rules), 2, seed=4)
        after = view_for(state, None)
        names = Names(("Ann", "Bob"), None)
        (line,) = narrate(after, (GameEnded(1, (0, 60)),), after, names, state.tables.cards)
        assert line == "Game over: Bob won", line
