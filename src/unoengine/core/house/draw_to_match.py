"""H-5 ``draw_to_match``: after drawing a card that does not fit, the player may draw again (docs/RULES.md H-5).

One card at a time, until a card can be played, which they may then play; they
may ``pass`` instead at any time. It is distinct from ``draw_until_playable``
(C-22: mandatory, at most 10), and the two cannot both be on. The rule wraps the
``drawn`` decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from unoengine.core import actions as A
from unoengine.core.cards import Seat
from unoengine.core.errors import InvalidNotationError
from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.decisions import drawn_card
from unoengine.core.rules.option_specs import ALL_RULESETS, Options, OptionSpec
from unoengine.core.rules.ruleset import Wrapped
from unoengine.core.state import GameState, drawn_choice
from unoengine.core.work import Work
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "draw_to_match",
    False,
    "H-5",
    said("after drawing a card that does not fit, the seat may draw again, one at a time"),
    rulesets=ALL_RULESETS,
    title=said("Draw to match"),
)

_PLAY: Final = A.Play
_PASS: Final = A.Pass


class DrawAgain(Wrapped):
    """The drawn card does not fit: ``draw`` one more (before ``pass``)."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = self.inner.legal(state, seat)
        if drawn_card(state.pending) is None:
            return out
        for action in out:
            if type(action) is _PLAY:
                return out
        at = len(out)
        for index, action in enumerate(out):
            if type(action) is _PASS:
                at = index
                break
        return [*out[:at], A.DRAW, *out[at:]]

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Draw:
            got = work.draw(seat, 1)
            work.pending = drawn_choice(seat, got[0] if got else None)
            return
        self.inner.apply(work, seat, action)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Draw:
            return "H-5", said("the drawn card can be played: draw again only when it does not fit")
        return self.inner.refusal(state, seat, action)


class DrawToMatch(HouseRule):
    """H-5: the drawn card, wrapped."""

    name = "draw_to_match"
    rule = "H-5"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.draw_to_match

    def check(self, values: Mapping[str, Any]) -> None:
        if values.get("draw_until_playable") and values.get("draw_to_match"):
            raise InvalidNotationError(
                "options 'draw_until_playable' (C-22) and 'draw_to_match' (H-5) cannot both be on: choose one"
            )

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.wrap("drawn", DrawAgain(parts.handlers["drawn"]))


DRAW_TO_MATCH: Final = DrawToMatch()
