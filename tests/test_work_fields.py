"""The engine's scratch copy ``Work`` round-trips every field of ``GameState``.

``Work.__init__`` and ``Work.freeze`` name the state's fields by hand; these
properties catch a field left out, misspelt or swapped with another.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from tests.test_invariants import SETTINGS, Game, games
from unoengine import GameState, apply_unchecked, legal_actions, new_game
from unoengine.core.cards import Color
from unoengine.core.state import FIELDS, ChallengeWindow, Outcome, Termination
from unoengine.core.work import Work


def round_trips(state: GameState) -> None:
    work = Work(state, None)
    assert work.freeze() == state
    for name in FIELDS:
        got = getattr(work, name)
        value = getattr(state, HELD.get(name, name))  # the hands and piles as the bytes both hold them
        assert (tuple(got) if isinstance(got, list) else got) == value, name


HELD = {"hands": "hand_bytes", "draw_pile": "draw_bytes", "discard_pile": "discard_bytes"}


@SETTINGS
@given(game=games(), steps=st.integers(0, 600))
def test_work_round_trips_playout_states(game: Game, steps: int) -> None:
    state = new_game(game.rules, game.seats, seed=game.seed, options=game.options)
    rng = random.Random(game.seed)
    round_trips(state)
    for _ in range(steps):
        seat = state.to_act
        if seat is None:
            break
        actions = legal_actions(state, seat)
        state = apply_unchecked(state, seat, actions[rng.randrange(len(actions))])
        round_trips(state)


def test_work_round_trips_a_state_with_a_distinct_value_in_every_field() -> None:
    base = new_game("classic", 3, seed=1)
    state = GameState(
        game=base.game,
        seed=101,
        shuffles=102,
        round=103,
        dealer=104,
        hands=((1, 2), (3,), (4, 5, 6)),
        draw_pile=(7, 8),
        discard_pile=(9,),
        color=Color.BLUE,
        direction=-1,
        power=(True, False, True),
        pending=ChallengeWindow(2, 1, True, 4, 0, 2, 0),
        unsafe=105,
        blocked=106,
        public_bottom=107,
        scores=(108, 109, 110),
        round_scores=((111, 0, 0),),
        round_winner=112,
        outcome=Outcome(Termination.TARGET_SCORE, 113, (114, 0, 0)),
        steps=115,
    )
    values = [value for value in state if not isinstance(value, bool)]
    assert len({repr(value) for value in values}) == len(values)  # every field is told apart
    round_trips(state)
