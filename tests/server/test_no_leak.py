"""No card of another seat's hand reaches a seat, except where the rules show it.

Whole games of each rule set are played over WebSockets by one client per seat and
a spectator; every message the server sends passes one function (``TableActor.send``)
and is recorded. Each game message must be exactly what the core builds for that
seat (``view_for`` and ``redact`` over the referee's replay), hidden cards appear only
in their owner's messages (a challenged hand only to its challenger, every hand at
scoring), and resampling the hidden cards of the referee's state leaves each view unchanged.
A step's ``lines`` are the narrator's from that seat's views and redacted events alone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.server.harness import Player, choose, create, join, live_server, my_turn
from unoengine.core.engine import apply
from unoengine.core.events import event_to_json, redact
from unoengine.core.record import Record
from unoengine.core.rules.duo import Draft
from unoengine.core.state import GameState
from unoengine.core.views import view_for, view_to_json
from unoengine.play.narrator import Names, narrate

GAMES = [
    ("classic", 3, {"target_score": 80, "wild_draw_four": "challenge"}),
    ("duo", 2, {"target_score": 60}),
    ("flex", 3, {}),
]


def states_of(record: Record) -> list[GameState]:
    state = record.start()
    states = [state]
    for seat, action in record.actions:
        state = apply(state, seat, action).state
        states.append(state)
    return states


def resampled(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """``state`` with every card ``seat`` cannot see shuffled among the places it cannot see."""
    others = [s for s in range(state.seats) if s != seat]
    bottom = min(state.public_bottom, len(state.draw_pile))
    # a Duo draft shows the drafting seat the top of the draw pile (D-3): that card is not hidden from it
    top = 1 if type(state.pending) is Draft and state.pending.seat == seat and state.draw_pile else 0
    pile = state.draw_pile[bottom : len(state.draw_pile) - top]
    hidden = [card for s in others for card in state.hands[s]] + list(pile)
    rng.shuffle(hidden)
    hands = list(state.hands)
    at = 0
    for s in others:
        size = len(state.hands[s])
        hands[s] = tuple(hidden[at : at + size])
        at += size
    draw = state.draw_pile[:bottom] + tuple(hidden[at:]) + state.draw_pile[len(state.draw_pile) - top :]
    return state._replace(hands=tuple(hands), draw_pile=draw)


async def play_whole_game(rules: str, seats: int, options: dict[str, Any], seed: int) -> tuple[Any, list[Any]]:
    async with live_server() as live:
        code, token = await create(live, rules=rules, seats=seats, options=options)
        players = [await Player.connect(live, code, token, seat=0)]
        for _ in range(1, seats):
            seat, other = await join(live, code, "P")
            players.append(await Player.connect(live, code, other, seat=seat))
        watcher = await Player.connect(live, code)
        await players[0].send({"type": "start", "token": token})
        for player in players:
            await player.expect("sync")
        rng = random.Random(seed)
        for _ in range(20_000):
            view = players[0].view
            if view is not None and view["outcome"] is not None:
                break
            moved = False
            for player in players:
                if my_turn(player):
                    assert player.view is not None
                    await player.act(choose(player.view, rng))
                    await player.expect("step", "error")
                    moved = True
            for player in players:
                await player.drain(0.002 if moved else 0.02)
        else:
            raise AssertionError("the game did not end")
        await watcher.drain()
        actor = live.server.actors[code]
        assert actor.table is not None
        return actor.table.record(), [item for item in live.sent if item[0] == code]


@pytest.mark.parametrize(("rules", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_message_to_a_seat_is_its_own_view_and_redacted_events(
    rules: str, seats: int, options: dict[str, Any]
) -> None:
    record, sent = await play_whole_game(rules, seats, options, seed=len(rules))
    states = states_of(record)
    rng = random.Random(0)
    checked = resamples = shown = told = 0
    lobby = next(message["table"] for _, _, message in reversed(sent) if message["type"] == "lobby")
    names = tuple(item["name"] for item in lobby["seats"])
    for _, seat, message in sent:
        kind = message["type"]
        if kind not in ("sync", "step", "steps"):
            assert "hand" not in str(message.keys()), message
            continue
        version = message["v"]
        assert message["view"] == view_to_json(view_for(states[version], seat))
        steps = [message] if kind == "step" else message.get("steps", [])
        for step in steps:
            v = step["v"]
            actor_seat, action = record.actions[v - 1]
            events = apply(states[v - 1], actor_seat, action).events
            assert step["events"] == [event_to_json(redact(event, seat), states[v]) for event in events]
            before, after = view_for(states[v - 1], seat), view_for(states[v], seat)
            redacted = [redact(event, seat) for event in events]
            cards = states[v].tables.cards
            assert step["lines"] == narrate(before, redacted, after, Names(names, seat), cards, timed_out=False)
            told += 1
            for event in step["events"]:
                if event["type"] == "cards_drawn" and event["cards"] is not None:
                    assert event["seat"] == seat
                if event["type"] == "hand_shown" and event["cards"] is not None:
                    assert event["to"] == seat
                    shown += 1
        checked += 1
        if checked % 3 == 0:
            for _ in range(2):
                other = resampled(states[version], seat, rng)
                assert view_to_json(view_for(other, seat)) == message["view"]
                resamples += 1
    assert checked > 50 and resamples > 10 and told > 50
    assert any(seat is None for _, seat, _ in sent), "the spectator's messages were checked too"
