"""The narrator's line for a decision the turn timer's stand-in took (the browser's "time ran out")."""

from __future__ import annotations

from unoengine.core.engine import apply, new_game
from unoengine.core.views import view_for
from unoengine.play.narrator import Names, narrate


def test_a_timed_out_decision_is_told_as_the_stand_in_s_not_as_the_player_s() -> None:
    state = new_game("classic", 2, seed=3, options={"single_round": True})
    seat = state.to_act
    assert seat is not None
    after = apply(state, seat, "draw")
    names = Names(("Hank", "Ann"), 1 - seat)
    told = narrate(
        view_for(state, 1 - seat),
        after.events,
        view_for(after.state, 1 - seat),
        names,
        state.tables.cards,
        timed_out=True,
    )
    name = names.seats[seat]
    assert told[0] == f"Time ran out: drew for {name}"
    own = Names(("Hank", "Ann"), seat)
    mine = narrate(
        view_for(state, seat), after.events, view_for(after.state, seat), own, state.tables.cards, timed_out=True
    )
    assert mine[0] == "Time ran out: drew for you" and mine[1].startswith("You drew ")
    plain = narrate(view_for(state, seat), after.events, view_for(after.state, seat), own, state.tables.cards)
    assert not any(line.startswith("Time ran out") for line in plain)
