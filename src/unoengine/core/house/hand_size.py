"""H-8 ``hand_size``: the cards dealt to each seat (docs/RULES.md H-8; C-2, F-6; Duo drafts that many each, D-3).

A game whose hands would leave fewer than 20 cards of the deck undealt is refused (``new_game``).
"""

from __future__ import annotations

from typing import Final

from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.option_specs import ALL_RULESETS, Options, OptionSpec
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "hand_size",
    7,
    "H-8",
    said("the cards dealt to each seat"),
    low=1,
    high=20,
    rulesets=(*ALL_RULESETS, "nomercy"),  # N-20: No Mercy has H-7 and H-8
    title=said("Cards dealt"),
)


class HandSize(HouseRule):
    """H-8: the deal's size (``GameParts.hand_size``, 7 by the printed rules)."""

    name = "hand_size"
    rule = "H-8"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.hand_size != 7

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.deal_size = options.hand_size


HAND_SIZE: Final = HandSize()
