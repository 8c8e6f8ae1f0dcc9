"""``protocol.dumps`` (orjson) writes exactly the text ``json.dumps`` wrote before it, for every message.

One difference is wanted: an infinite or NaN float, which the server never sends, is written as
``null`` (valid JSON) where ``json.dumps`` wrote ``Infinity``/``NaN`` (which JSON has not).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from unoengine.core.engine import apply, legal_actions, new_game
from unoengine.core.views import view_for, view_to_json
from unoengine.server.protocol import dumps

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False)
)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20
)


def old_dumps(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@given(st.dictionaries(st.text(), VALUES, max_size=6))
def test_dumps_writes_what_json_dumps_wrote(message: dict[str, Any]) -> None:
    assert json.loads(dumps(message)) == json.loads(old_dumps(message))
    if not any(isinstance(value, float) for value in _leaves(message)):  # floats may be spelled differently
        assert dumps(message) == old_dumps(message)


def test_every_seats_view_of_a_game_is_written_byte_for_byte_as_before() -> None:
    for rules, seats in (("classic", 4), ("duo", 2), ("flex", 3)):
        state = new_game(rules, seats, seed=7)
        for _ in range(40):
            if state.outcome is not None:
                break
            for seat in (*range(seats), None):
                message = {"type": "sync", "game": 1, "v": 0, "view": view_to_json(view_for(state, seat))}
                assert dumps(message) == old_dumps(message)
            seat = state.to_act
            state = apply(state, seat, legal_actions(state, seat)[0]).state


def test_a_float_that_json_has_not_is_written_as_null() -> None:
    assert dumps({"a": float("inf"), "b": float("nan")}) == '{"a":null,"b":null}'


def test_integer_keys_are_written_as_json_writes_them() -> None:
    assert dumps({"seats": {0: "a", 1: "b"}}) == old_dumps({"seats": {0: "a", 1: "b"}})


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]
