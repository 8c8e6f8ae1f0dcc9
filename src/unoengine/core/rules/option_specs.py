"""The options of a game: :class:`Options`, and each option declared once (:class:`OptionSpec`)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.i18n import said


@dataclass(frozen=True, slots=True)
class Options:
    """The rule options of docs/RULES.md, resolved for one game.

    Every option of every rule set is an attribute (the engine reads them on its
    hot path), but a game's options *hold* only its rule set's keys: ``names``
    lists them, and :meth:`to_dict`, records, views and the state notation show
    only those. An option a rule set does not have keeps its neutral value (the
    house rule off) and cannot be set (``RuleSet.options`` refuses it).
    """

    wild_draw_four: str = "strict"
    """C-17, H-6: ``strict`` refuses a Wild Draw Four while holding the current colour (no bluff);
    ``challenge`` allows the bluff and its challenge."""
    draw_until_playable: bool = False
    """C-22: draw until a playable card, at most 10."""
    target_score: int = 500
    """C-21, D-20, F-28: the score that ends the game."""
    single_round: bool = False
    """One round is the whole game (NOTATION records; F-27)."""
    duo_deck: str = "standard112"
    """D-1: ``standard112`` (4 special wilds as plain Wilds) or ``standard108``."""
    stack_draw: str = "none"
    """H-1: ``none``, ``draw_two``, ``draw_four``, ``same`` (each on its own kind) or ``mixed``."""
    seven_zero: bool = False
    """H-2: a 7 swaps hands with a chosen seat, a 0 passes every hand on."""
    jump_in: bool = False
    """H-3: a card identical to the top card may be played out of turn."""
    forced_play: bool = False
    """H-4: a seat that can play may not draw; a playable drawn card must be played."""
    draw_to_match: bool = False
    """H-5: after drawing a card that does not fit, the seat may draw again, one at a time."""
    uno_penalty: int = 2
    """H-7: the cards a caught seat draws (C-18)."""
    hand_size: int = 7
    """H-8: the cards dealt to each seat (C-2, D-3, F-6)."""
    deflect: str = "none"
    """H-9: ``none``, ``skip``, ``reverse`` or ``both``: a Skip or Reverse of the current colour passes a draw
    total on."""
    multi_play: bool = False
    """H-10: after a number card, more cards of the same number may be played in the same turn."""
    teams: str = "none"
    """H-11: ``none`` or ``pairs`` (4 or 6 seats, partners opposite)."""
    round_action_limit: int = 10_000
    """N-28: a round in which this many actions have been taken ends with no winner (No Mercy)."""
    names: tuple[str, ...] = ()
    """The rule set's own option names, sorted: the keys this game's options hold."""

    def to_dict(self) -> dict[str, Any]:
        """The game's options (its rule set's keys only) as a JSON-ready mapping."""
        return {name: getattr(self, name) for name in self.names}


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options) if f.name != "names")
"""Every option name of every rule set and house rule."""


@dataclass(frozen=True)
class OptionSpec:
    """One option, declared once by the rule set or house rule that owns it.

    ``default`` is the rule set's default (``option_specs(rules)``); ``choices`` the
    allowed words of a text option, ``low``/``high`` the range of an integer one
    (``high`` ``None``: no upper bound); ``rule`` its rule number in docs/RULES.md;
    ``words`` one line for menus and ``uno rules --list-options``; ``rulesets`` the
    rule sets that have it; ``absent`` why a rule set does not (for its refusal).
    """

    name: str
    default: bool | int | str
    rule: str
    words: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    rulesets: tuple[str, ...] = ()
    absent: tuple[tuple[str, str], ...] = ()
    deck: bool = False
    """The option changes the deck (Duo's ``duo_deck``): the action ids cover each value."""
    title: str = ""
    """The option's name in words, for the create-table form ("Jump-in"); its ``name`` spaced if empty."""
    choice_words: tuple[tuple[str, str], ...] = ()
    """Each choice of a text option in words, for the form ("skip": "with a Skip")."""

    @property
    def kind(self) -> type:
        """``bool``, ``int`` or ``str``: the type of the option's values."""
        return type(self.default)

    def check(self, value: object, title: str) -> bool | int | str:
        """``value`` if it is an allowed value of this option (a bool is not an integer).

        Raises:
            InvalidNotationError: a value of the wrong type, not a choice, or out of range.
        """
        kind = type(self.default)
        if type(value) is not kind:
            wanted = {bool: "true or false", int: "an integer", str: "a word"}[kind]
            raise InvalidNotationError(f"option {self.name!r} must be {wanted}, not {excerpt(value)} ({self.rule})")
        if kind is str and value not in self.choices:
            allowed = " or ".join(repr(choice) for choice in self.choices)
            raise InvalidNotationError(
                f"option {self.name!r} must be {allowed} in {title}, not {excerpt(value)} ({self.rule})"
            )
        if kind is int:
            assert isinstance(value, int)
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                bounds = f"at least {self.low}" if self.high is None else f"from {self.low} to {self.high}"
                raise InvalidNotationError(f"option {self.name!r} must be {bounds}, not {value} ({self.rule})")
        assert isinstance(value, bool | int | str)
        return value

    def values_text(self) -> str:
        """The allowed values in a few characters: ``true|false``, ``a|b``, ``1-20``, ``1 or more``."""
        if self.kind is bool:
            return "true|false"
        if self.kind is str:
            return "|".join(self.choices)
        return f"{self.low} or more" if self.high is None else f"{self.low}-{self.high}"


ALL_RULESETS = ("classic", "duo", "flex")

SHARED_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "draw_until_playable",
        False,
        "C-22",
        said("a seat that draws keeps drawing until a card fits (at most 10)"),
        rulesets=ALL_RULESETS,
        title=said("Draw until playable"),
    ),
    OptionSpec(
        "target_score",
        500,
        "C-21, D-20, F-28, N-27",
        said("the score that ends the game"),
        low=1,
        rulesets=(*ALL_RULESETS, "nomercy"),
        title=said("Target score"),
    ),
    OptionSpec(
        "single_round",
        False,
        "C-21, F-27, N-26",
        said("one round is the whole game"),
        rulesets=(*ALL_RULESETS, "nomercy"),
        title=said("One round only"),
    ),
)
"""Options of every rule set (each rule set may change the default and the rule number)."""


def wild_draw_four_option(default: str, rule: str) -> OptionSpec:
    """A rule set's ``wild_draw_four`` option: its printed rule and H-6 (no bluff) are one mechanism."""
    return OptionSpec(
        "wild_draw_four",
        default,
        f"{rule}, H-6",
        said(
            "strict: a Wild Draw Four only without a card of the current colour (no bluff); "
            "challenge: it may be a bluff, and may be challenged"
        ),
        choices=("strict", "challenge"),
        rulesets=ALL_RULESETS,
        title=said("Wild Draw Four"),
        choice_words=(("strict", said("strict: no bluff")), ("challenge", said("a bluff may be challenged"))),
    )
