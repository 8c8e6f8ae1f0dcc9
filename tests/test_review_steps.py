"""``play.review.review_steps``: a record step by step with every hand face up, built through the view function."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from unoengine.bots.base import make_bot
from unoengine.core.record import ReplayError, replay
from unoengine.core.views import view_for
from unoengine.play.review import review_steps
from unoengine.play.table import Table


def played(rules: str, seats: int, seed: int) -> Table:
    bots = [make_bot("heuristic", random.Random(seat)) for seat in range(seats)]
    table = Table.new(rules, seats, seed=seed, controllers=list(bots))
    while not table.is_over and table.bot_step() is not None:
        pass
    return table


@pytest.mark.parametrize(("rules", "seats"), [("classic", 3), ("duo", 2), ("flex", 4)])
def test_one_step_a_action_after_the_deal_with_every_hand_as_its_seat_sees_it(rules: str, seats: int) -> None:
    record = played(rules, seats, 9).record()
    steps = review_steps(record)
    assert len(steps) == len(record.actions) + 1
    assert steps[0].index is None and steps[0].action is None
    assert [(step.index, step.seat, step.action) for step in steps[1:]] == [
        (index, seat, action) for index, (seat, action) in enumerate(record.actions)
    ]
    last = replay(record)
    assert [list(hand) for hand in steps[-1].hands] == [
        [str(card) for card in view_for(last, seat).hand] for seat in range(seats)
    ]
    assert steps[-1].view.seat is None and steps[-1].view.outcome is not None
    assert any(step.lines for step in steps[1:])
    json = steps[-1].to_json()
    assert set(json) == {"index", "seat", "action", "lines", "hands", "view"}


def test_an_unfinished_game_is_reviewed_up_to_its_last_action_with_the_names_given() -> None:
    record = played("classic", 2, 3).record()
    cut = replace(record, actions=record.actions[:10])
    steps = review_steps(cut, ["Ann", "Bob"])
    assert len(steps) == 11 and steps[-1].view.outcome is None
    assert any("Ann" in line or "Bob" in line for step in steps for line in step.lines)


def test_a_record_with_a_refused_action_is_refused_as_replay_refuses_it() -> None:
    record = played("classic", 2, 3).record()
    bad = record.with_action(record.actions[0][0], "R99")
    with pytest.raises(ReplayError):
        review_steps(bad)
