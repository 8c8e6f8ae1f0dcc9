"""H-4 ``forced_play``: a player who can play may not draw; a drawn card that can be played must be played.

docs/RULES.md H-4: with or without ``draw_until_playable`` (C-22); draws imposed
by cards and stacks are not affected. The rule wraps the ``turn`` and ``drawn``
decisions: it takes ``draw`` (``pass``) away when a play is offered. *Reading* (H-4 with H-5): a
drawn card that does not fit is followed by another draw, not a pass, while a card can be drawn;
H-4 wraps the ``drawn`` decision after H-5 (``HOUSE_RULES`` lists H-5 first) so that it sees that draw.
"""

from __future__ import annotations

from typing import Final

from unoengine.core import actions as A
from unoengine.core.cards import Seat
from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.option_specs import ALL_RULESETS, Options, OptionSpec
from unoengine.core.rules.ruleset import PendingHandler, Wrapped
from unoengine.core.state import GameState
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "forced_play",
    False,
    "H-4",
    said("a seat that can play may not draw; a playable drawn card must be played"),
    rulesets=ALL_RULESETS,
    title=said("Forced play"),
)

_PLAY: Final = A.Play


def offers_a_play(actions: list[A.Action]) -> bool:
    """Is a card play among the actions?"""
    for action in actions:  # noqa: SIM110 (a compiled loop: any() of a generator is Python calls)
        if type(action) is _PLAY:
            return True
    return False


class ForcedTurn(Wrapped):
    """A turn with a play offered: no ``draw``."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = self.inner.legal(state, seat)
        if offers_a_play(out):
            return [action for action in out if type(action) is not A.Draw]
        return out

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Draw:
            # TRANSLATORS: a refusal: {seat} is a player
            return "H-4", said("{seat} can play a card and may not draw (forced play)", seat=f"seat {seat}")
        return self.inner.refusal(state, seat, action)


class ForcedDrawn(Wrapped):
    """A drawn card that can be played: no ``pass``. With H-5 (which it wraps), a drawn card that does not fit: no
    ``pass`` while another card can be drawn (H-4's Reading: forced play keeps the seat drawing until a card fits)."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = self.inner.legal(state, seat)
        if offers_a_play(out) or A.DRAW in out:
            return [action for action in out if type(action) is not A.Pass]
        return out

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Pass:
            if offers_a_play(self.inner.legal(state, seat)):
                return "H-4", said("the drawn card can be played and must be played (forced play)")
            return "H-4", said(
                "the drawn card does not fit: with forced play, draw again (draw to match, H-5), not pass"
            )
        return self.inner.refusal(state, seat, action)


class ForcedPlay(HouseRule):
    """H-4: the turn and the drawn card, wrapped."""

    name = "forced_play"
    rule = "H-4"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.forced_play

    def compose(self, parts: GameParts, options: Options) -> None:
        handlers: dict[str, PendingHandler] = parts.handlers
        parts.wrap("turn", ForcedTurn(handlers["turn"]))
        parts.wrap("drawn", ForcedDrawn(handlers["drawn"]))


FORCED_PLAY: Final = ForcedPlay()
