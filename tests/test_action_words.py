"""The view's ``actions`` and ``words``: every legal action with its fields and words, the decision in words.

Clients render decisions from these alone (tests/test_clients.py), so they must be
complete (one per legal action, in order, fields equal to the action's), worded for
every decision of every rule set, and leak nothing a seat may not see (G-2).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import deal, deal_order, duo_deal, run
from unoengine import apply, determinize, legal_actions, new_game, view_for
from unoengine.core.action_ids import action_id
from unoengine.core.action_words import GROUPS, past_words
from unoengine.core.actions import Catch, ChooseColor, Play, parse_action
from unoengine.core.rules import find_rules
from unoengine.core.views import view_to_json


def check_view(state: object, seat: int | None) -> None:
    """Every legal action has one entry, in order, with the action's own fields and some words."""
    view = view_for(state, seat)  # type: ignore[arg-type]
    data = view_to_json(view)
    assert [entry["action"] for entry in data["actions"]] == data["legal"]
    assert data["words"]["title"] and data["words"]["prompt"]
    for info, entry in zip(view.actions, data["actions"], strict=True):
        action = parse_action(entry["action"])
        assert action == info.action
        assert entry["group"] in GROUPS
        assert entry["words"] and entry["label"]
        assert entry["out_of_turn"] == (seat != view.to_act)
        assert seat is not None
        assert entry["id"] == action_id(action, seat, view.seats)
        if isinstance(action, Play):
            assert entry["type"] == "play"
            assert (entry["card"], entry["flex"], entry["target"], entry["uno"]) == (
                str(action.card),
                action.flex,
                action.target,
                action.uno,
            )
            assert entry["color"] == (action.color.letter if action.color else None)
            assert entry["group"] == ("react" if entry["out_of_turn"] else "hand")
        elif isinstance(action, Catch):
            assert (entry["type"], entry["seat"], entry["group"]) == ("catch", action.seat, "react")
        elif isinstance(action, ChooseColor):
            assert (entry["type"], entry["color"], entry["group"]) == ("color", action.color.letter, "choice")
        else:
            assert entry["type"] == str(action)


@settings(max_examples=25, deadline=None)
@given(rules=st.sampled_from(["classic", "duo", "flex"]), seed=st.integers(0, 2**32), steps=st.integers(0, 250))
def test_every_legal_action_has_its_fields_and_words(rules: str, seed: int, steps: int) -> None:
    seats = find_rules(rules).seats
    state = new_game(rules, random.Random(seed).choice(list(seats)), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        for seat in (*range(state.seats), None):
            if seat is None:
                assert view_to_json(view_for(state, None))["actions"] == []
            else:
                check_view(state, seat)
        seat = state.to_act
        assert seat is not None
        state = apply(state, seat, rng.choice(legal_actions(state, seat))).state


@settings(max_examples=15, deadline=None)
@given(rules=st.sampled_from(["classic", "duo", "flex"]), seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_the_words_tell_no_hidden_card(rules: str, seed: int, steps: int) -> None:
    """G-2: a state with the unseen cards dealt anew gives the seat the same actions and words."""
    state = new_game(rules, min(find_rules(rules).seats), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        assert seat is not None
        state = apply(state, seat, rng.choice(legal_actions(state, seat))).state
    for seat in range(state.seats):
        view = view_for(state, seat)
        other = view_for(determinize(view, random.Random(seed + 1)), seat)
        assert view_to_json(other)["actions"] == view_to_json(view)["actions"]
        assert view_to_json(other)["words"] == view_to_json(view)["words"]


def words(state: object, seat: int) -> dict[str, str]:
    return view_to_json(view_for(state, seat))["words"]  # type: ignore[arg-type, no-any-return]


def by_action(state: object, seat: int) -> dict[str, dict[str, object]]:
    return {entry["action"]: entry for entry in view_to_json(view_for(state, seat))["actions"]}  # type: ignore[arg-type]


def test_a_turn_and_a_drawn_card_in_words() -> None:
    """C-7, C-8: the turn; after a draw, the drawn card is named to its drawer only."""
    state = deal("classic", [["R7"], ["B1", "G9"]], top="R5", draw=["Y3"])
    assert words(state, 1) == {"title": "Turn", "prompt": "Your turn: play a card or draw"}
    assert words(state, 0)["prompt"] == "Waiting for seat 1 (turn)"
    assert by_action(state, 1)["draw"]["words"] == "Draw a card"
    state = run(state, "1 draw")
    assert words(state, 1)["prompt"] == "You drew yellow 3: play it, or keep it and pass"
    assert "yellow 3" not in str(words(state, 0))
    assert by_action(state, 1)["pass"]["label"] == "Keep it"


def test_a_challenge_window_in_words() -> None:
    """C-17: the victim is asked to accept or challenge, with the count; its answers are choices."""
    state = deal("classic", [["B1"], ["W+4", "R2"], ["G7"]], top="R5", options={"wild_draw_four": "challenge"})
    state = run(state, "1 W+4:g")
    assert words(state, 2) == {
        "title": "Wild Draw Four",
        "prompt": "seat 1 played a Wild Draw Four on you: accept (draw 4) or challenge",
    }
    actions = by_action(state, 2)
    assert actions["accept"]["words"] == "Accept: draw 4 cards"
    assert {actions["accept"]["group"], actions["challenge"]["group"]} == {"choice"}


def test_wild_and_flex_plays_carry_their_colour_side_and_target() -> None:
    """F-14, F-22: a flex side with a colour and a target is one action with all three fields."""
    state = new_game("flex", 3, seed=0, deck=deal_order("flex", [["FW+2"], [], []], top="R3", dealer=2), dealer=2)
    actions = by_action(state, 0)
    entry = actions["FW+2@flex:r>2"]
    assert (entry["card"], entry["color"], entry["flex"], entry["target"]) == ("FW+2", "r", True, 2)
    assert entry["label"] == "Flex side, red, at seat 2"
    assert entry["words"].startswith("Play Flex Wild Draw Two on its flex side")


def test_duo_decisions_in_the_rule_sets_words() -> None:
    """D-3, D-13, D-15: Duo words its own decisions through its hook."""
    state = new_game("duo", 2, seed=3, dealer=0)
    assert words(state, 0)["title"] == "Draft"
    assert by_action(state, 0)["reject"]["label"] == "Reject it"
    state = duo_deal([["B+2"], ["R+2"]], top="R5")
    state = run(state, "1 R+2")
    assert words(state, 0) == {"title": "Draw Two volley", "prompt": "Draw Two volley: add a Draw Two, or take 2"}
    assert by_action(state, 0)["draw"]["label"] == "Take 2"
    state = duo_deal([["B3"], ["RR", "R1", "R2"]], top="R5")
    state = run(state, "1 RR")
    assert words(state, 1)["title"] == "Reverse dump"
    declined = by_action(state, 1)["pass"]  # D-15 is all or nothing: the pass declines the whole dump
    assert declined["label"] == "Decline the dump"
    assert declined["words"] == "Decline the dump: keep all your red cards"


def test_out_of_turn_actions_are_a_window() -> None:
    """C-18: the catch is out of turn, for the seat that may catch; its words say the penalty."""
    state = deal("classic", [["B1"], ["R7", "R8"]], top="R5")
    state = state._replace(hands=(state.hands[0], state.hands[1][:2]), draw_pile=state.hands[1][2:] + state.draw_pile)
    state = run(state, "1 R7")
    entry = by_action(state, 0)["catch 1"]
    assert (entry["group"], entry["seat"], entry["out_of_turn"]) == ("react", 1, False)
    assert entry["words"] == "Catch seat 1 without UNO: they draw 2"
    assert by_action(state, 1)["uno"]["group"] == "react"


def test_a_step_in_words() -> None:
    rules = find_rules("flex")
    assert past_words(rules, parse_action("FW+2@flex:r>2 uno")) == (
        "played Flex Wild Draw Two on its flex side, naming red, and seat 2 draws the cards, and called UNO"
    )
    assert past_words(rules, parse_action("R7 uno")) == "played red 7, and called UNO"
    assert past_words(rules, parse_action("catch 1")) == "caught seat 1"
    assert past_words(rules, parse_action("color g")) == "named the colour green"


def test_house_rule_actions_in_words() -> None:
    """H-1, H-2, H-3: a stack's total, a 7's swap and a jump-in, worded and grouped from the view alone."""
    from unoengine import new_game as game

    state = game(
        "classic",
        3,
        seed=0,
        deck=deal_order("classic", [["R7", "G5", "G5"], [], []], top="R5", dealer=2),
        dealer=2,
        options={"seven_zero": True, "jump_in": True},
    )
    swap = by_action(state, 0)["R7>2"]
    assert (swap["label"], swap["aim"]) == ("Swap with seat 2", "Swap hands with whom?")
    assert swap["words"] == "Play red 7, and swap hands with seat 2"
    assert past_words(find_rules("classic"), parse_action("R7>2")) == "played red 7, and swapped hands with seat 2"
    state = run(state, "0 G5")
    jump = by_action(state, 0)["G5"]
    assert (jump["group"], jump["out_of_turn"], jump["words"]) == ("react", True, "Jump in: play green 5")
    stack = game(
        "classic",
        3,
        seed=0,
        deck=deal_order("classic", [["R+2"], ["B+2"], []], top="R5", dealer=2),
        dealer=2,
        options={"stack_draw": "draw_two"},
    )
    stack = run(stack, "0 R+2")
    assert words(stack, 1) == {"title": "Draw stack", "prompt": "Draw stack: add a card to it, or take 2"}
    assert by_action(stack, 1)["draw"]["label"] == "Take 2"
    assert by_action(stack, 1)["B+2"]["group"] == "hand"
