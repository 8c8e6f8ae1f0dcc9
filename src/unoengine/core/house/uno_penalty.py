"""H-7 ``uno_penalty``: the cards a seat caught without calling UNO draws (docs/RULES.md H-7; C-18, D-11, F-26)."""

from __future__ import annotations

from typing import Final

from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.option_specs import ALL_RULESETS, Options, OptionSpec
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "uno_penalty",
    2,
    "H-7",
    said("the cards a seat caught without calling UNO draws"),
    low=0,
    high=10,
    rulesets=(*ALL_RULESETS, "nomercy"),  # N-20: No Mercy has H-7 and H-8
    title=said("UNO penalty"),
)


class UnoPenalty(HouseRule):
    """H-7: the UNO window's penalty (``GameParts.uno_penalty``, 2 by the printed rules)."""

    name = "uno_penalty"
    rule = "H-7"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.uno_penalty != 2

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.catch_draws = options.uno_penalty


UNO_PENALTY: Final = UnoPenalty()
