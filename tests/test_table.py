"""The headless Table: versions, submit refusals, bot steps, reactions, history, JSON forms."""

from __future__ import annotations

import json
import random

import pytest

from unoengine import GameState, IllegalActionError, InvalidNotationError, apply, parse_action, replay
from unoengine.bots import Bot, make_bot
from unoengine.core.events import (
    EVENT_TYPES,
    ActionTaken,
    CardsDrawn,
    Caught,
    RoundStarted,
    event_to_json,
    redact,
)
from unoengine.core.views import view_to_json
from unoengine.play import StaleVersionError, Table, reaction_order


def bots(names: list[str], seed: int = 0) -> list[Bot | None]:
    return [make_bot(name, random.Random(f"{seed}:{seat}")) for seat, name in enumerate(names)]


def test_submit_advances_the_version_and_the_record() -> None:
    table = Table.new("classic", 2, seed=3, options={"single_round": True})
    seat = table.state.to_act
    assert seat is not None
    step = table.submit(seat, "draw", expected_version=0)
    assert (step.version, table.version) == (1, 1)
    assert step.action == parse_action("draw")
    assert table.record().actions == ((seat, "draw"),)
    assert replay(table.record()) == table.state


def test_refusals_leave_the_table_unchanged() -> None:
    table = Table.new("classic", 3, seed=5)
    before = (table.state, table.version)
    seat = table.state.to_act
    assert seat is not None
    other = (seat + 1) % 3
    with pytest.raises(IllegalActionError) as refused:
        table.submit(other, "draw")
    assert refused.value.rule == "G-4"
    with pytest.raises(StaleVersionError) as stale:
        table.submit(seat, "draw", expected_version=7)
    assert (stale.value.expected, stale.value.current) == (7, 0)
    with pytest.raises(InvalidNotationError):
        table.submit(seat, "fold")
    with pytest.raises(IllegalActionError):
        table.submit(seat, "catch 1")
    assert (table.state, table.version) == before
    assert table.steps_since(0) == []


def test_bots_play_until_an_external_seat_must_decide() -> None:
    table = Table.new("flex", 3, seed=8, controllers=[None, *bots(["heuristic", "random"])])
    for _ in range(200):
        table.run_bots()
        if table.is_over:
            break
        seat = table.waiting_for()
        assert seat == 0
        legal = [action for action in table.legal(0) if str(action) != "uno" and not str(action).startswith("catch")]
        table.submit(0, legal[0], expected_version=table.version)
    assert replay(table.record()) == table.state


def open_window(seats: int) -> GameState:
    """A state of a random game in which a seat has just forgotten to call UNO (C-18)."""
    for seed in range(100):
        table = Table.new("classic", seats, seed=seed, controllers=bots(["random"] * seats, seed))
        while (step := table.bot_step()) is not None:
            if step.state.unsafe is not None and step.state.outcome is None:
                return step.state
    raise AssertionError("no UNO window in 100 games")


def test_reactions_are_offered_once_in_order() -> None:
    """C-18: catchers first in turn order from the seat to act, then the seat that forgot."""
    state = open_window(3)
    unsafe, to_act = state.unsafe, state.to_act
    assert unsafe is not None and to_act is not None
    order = reaction_order(state)
    assert order[-1] == unsafe and order[0] == (to_act if to_act != unsafe else (to_act + 1) % 3)
    assert sorted(order) == [0, 1, 2]
    table = Table(state, bots(["heuristic"] * 3))
    step = table.bot_step()
    assert step is not None
    assert (step.seat, str(step.action)) == (order[0], f"catch {unsafe}")
    assert table.state.unsafe is None


def test_a_declined_window_is_not_offered_again() -> None:
    state = open_window(2)
    unsafe = state.unsafe
    assert unsafe is not None
    catcher = 1 - unsafe
    controllers: list[Bot | None] = [None, None]
    controllers[unsafe] = make_bot("random", random.Random(1))  # the random bot never reacts
    table = Table(state, controllers)
    if state.to_act == catcher:
        assert table.waiting_for() == catcher
    assert table.bot_step() is None or table.state.unsafe is None
    if table.state.unsafe is not None:
        held = len(table.state.hands[unsafe])
        table.submit(catcher, f"catch {unsafe}")
        assert len(table.state.hands[unsafe]) == held + 2


def test_steps_since_and_history_bound() -> None:
    table = Table.new("classic", 2, seed=1, controllers=bots(["random", "random"]), history=4)
    for _ in range(6):
        assert table.bot_step() is not None
    assert [step.version for step in table.steps_since(3) or []] == [4, 5, 6]
    assert table.steps_since(1) is None  # older than the history: resync with a view
    assert table.steps_since(6) == []


def test_step_events_are_redacted_per_seat() -> None:
    table = Table.new("classic", 2, seed=2)
    seat = table.state.to_act
    assert seat is not None
    step = table.submit(seat, "draw")
    drawn = [event for event in step.events_for(1 - seat) if type(event) is CardsDrawn]
    assert drawn and drawn[0].cards is None and drawn[0].number == 1
    own = [event for event in step.events_for(seat) if type(event) is CardsDrawn]
    assert own[0].cards is not None
    message = step.to_json(1 - seat)
    assert message["v"] == 1 and message["action"] == "draw"
    assert {"type": "cards_drawn", "seat": seat, "cards": None, "count": 1} in message["events"]
    json.dumps(step.to_json(None))


def test_events_carry_actions_and_compare_by_type() -> None:
    assert Caught(1, 0) != RoundStarted(1, 0)
    assert Caught(1, 0) == Caught(1, 0)
    assert len({Caught(1, 0), RoundStarted(1, 0)}) == 2
    events = apply(Table.new("classic", 2, seed=2).state, 1, "draw").events
    assert isinstance(events[0], ActionTaken)
    assert events[0].action == parse_action("draw")
    assert len(EVENT_TYPES) == len({cls.__name__ for cls in EVENT_TYPES})


def test_view_json_has_every_field_and_the_options() -> None:
    table = Table.new("duo", 2, seed=3, dealer=0)
    view = table.view(0)
    data = view_to_json(view)
    assert set(view._fields) <= set(data)
    assert data["options"]["duo_deck"] == "standard112"
    assert data["legal"] == ["keep", "reject"]
    assert data["details"]["draft_card"] is not None
    assert data["draft_card"] == data["details"]["draft_card"]  # each detail under its own name too
    spectator = view_to_json(table.view(None))
    assert spectator["hand"] == [] and spectator["details"] == {} and spectator["legal"] == []
    json.dumps(data)


def test_event_json_of_every_event_type_in_real_games() -> None:
    seen: set[str] = set()
    for rules, seats in (("classic", 3), ("duo", 2), ("flex", 4)):
        for seed in range(6):
            options = {"wild_draw_four": "challenge"} if rules == "classic" else {}
            table = Table.new(rules, seats, seed=seed, options=options, controllers=bots(["heuristic"] * seats, seed))
            for step in table.run_bots():
                for seat in (*range(seats), None):
                    for event in step.events_for(seat):
                        data = event_to_json(event, step.state)
                        json.dumps(data)
                        seen.add(data["type"])
                        if data["type"] == "round_ended" and rules != "duo" and data["winner"] is not None:
                            # C-21, F-28: the winner scores the points of every card left, card by card
                            assert [len(p) for p in data["points"]] == [len(h) for h in data["hands"]]
                            assert data["deltas"][data["winner"]] == sum(map(sum, data["points"]))
                        assert event == redact(event, seat)
    assert {"action_taken", "cards_drawn", "round_ended", "game_ended", "round_started", "power_flipped"} <= seen


def test_a_table_from_a_record_keeps_its_last_steps() -> None:
    table = Table.new("classic", 3, seed=4, controllers=bots(["random"] * 3), history=8)
    for _ in range(20):
        table.bot_step()
    again = Table.from_record(table.record(), history=8)
    assert again.state == table.state and again.version == 20
    steps = again.steps_since(15)
    assert steps is not None
    assert [step.version for step in steps] == [16, 17, 18, 19, 20]
    assert [step.action for step in steps] == [action for _, action in table.actions[15:]]
    assert again.steps_since(5) is None


def test_bot_due_says_whether_a_bot_step_would_act() -> None:
    table = Table.new("classic", 2, seed=2, controllers=[None, make_bot("random", random.Random(1))])
    assert table.bot_due() == (table.state.to_act == 1)
    while table.bot_due():
        assert table.bot_step() is not None
    assert table.waiting_for() == 0 or table.is_over
