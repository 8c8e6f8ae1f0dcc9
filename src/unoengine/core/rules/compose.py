"""House rules as modules: what a house rule is, and how a game's rule set and options compose them.

A house rule (docs/RULES.md H-1 …) is one module of :mod:`unoengine.core.house`
with one :class:`HouseRule`: its options (``OptionSpec``), and what it adds to a
game that turns it on (:meth:`HouseRule.compose`): decisions it adds or wraps,
effects it replaces, filters of the plays offered, hooks after a card is played,
out-of-turn windows, and its words for the clients. A rule set lists the house
rules it allows (``RuleSet.house``); :func:`compose` builds a game's
:class:`GameParts` from those that its options turn on, once per game
(``game_of``). The shared handlers read no house-rule option: they call what the
parts hold (a test forbids the option names in them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from unoengine.core import actions as A
from unoengine.core.cards import Card, CardId, Rank, Seat
from unoengine.core.rules.windows import UNO_WINDOW, Window

if TYPE_CHECKING:
    from unoengine.core.rules.option_specs import Options, OptionSpec
    from unoengine.core.rules.ruleset import Effect, PendingHandler, RuleSet, Words
    from unoengine.core.state import GameState
    from unoengine.core.work import Work


class PlayFilter:
    """A house rule's change to the plays offered (H-2: a 7 names the seat to swap with), and its refusals."""

    def filter(self, state: GameState, seat: Seat, plays: list[A.Action]) -> list[A.Action]:
        """The plays offered, changed (every list of plays goes through it: a turn's, a drawn card's, a jump-in's)."""
        return plays

    def refuse(self, state: GameState, seat: Seat, action: A.Play) -> tuple[str, str] | None:
        """The rule and reason this house rule refuses a play, or ``None``."""
        return None

    def takes_target(self, state: GameState, action: A.Play) -> bool:
        """Does this house rule give the play its target seat (``R7>2``)?"""
        return False


class AfterPlay:
    """A house rule's step after a card's effect, unless the card was the player's last (H-2's swap)."""

    def run(self, work: Work, seat: Seat, card: CardId, action: A.Play) -> None:
        """Called after the effect of ``card``, played by ``seat``."""


def alone(seats: int, seat: Seat) -> tuple[Seat, ...]:
    """Every seat plays for itself: it wins alone."""
    return (seat,)


class GameParts:
    """What a game is made of beyond its rule set: the decisions, effects, filters, hooks and windows that its
    house rules add, and the numbers they set (:func:`compose`)."""

    def __init__(self, rules: RuleSet) -> None:
        self.handlers: dict[str, PendingHandler] = dict(rules.handlers)
        """Every decision's handler by kind: the rule set's, added to or wrapped by the house rules."""
        self.effects: dict[tuple[Rank, bool], Effect] = {}
        """Effects the house rules replace, by (rank, flex side)."""
        self.play_filters: list[PlayFilter] = []
        self.after_play: list[AfterPlay] = []
        self.windows: list[Window] = [UNO_WINDOW]
        """The out-of-turn windows: the UNO window (C-18) of every game, then the house rules'."""
        self.deal_size = 7
        """C-2, D-3, F-6: the cards dealt to each seat (H-8 changes it)."""
        self.catch_draws = 2
        """C-18, D-11, F-26: the cards a caught seat draws (H-7 changes it)."""
        self.house: list[HouseRule] = []
        """The house rules that are on, in the rule set's order."""
        self.score_round: Callable[[Work, Seat], tuple[int, ...]] = rules.score_round
        """C-21, D-19, F-28: a round's scores (the rule set's; H-11 credits a team)."""
        self.game_winner: Callable[[Work, Seat | None], tuple[bool, Seat | None]] = rules.game_winner
        """C-21, D-20, F-28: is the game over after a round, and who won (the rule set's; H-11: a team's total)."""
        self.allies: Callable[[int, Seat], tuple[Seat, ...]] = alone
        """``allies(seats, seat)``: the seats that win with ``seat`` (itself; H-11: its team), for adapters that
        reward or count wins (``Game.allies``)."""

    def wrap(self, kind: str, handler: PendingHandler) -> None:
        """Put ``handler`` in place of the decision's handler (it may hold the one it wraps)."""
        self.handlers[kind] = handler


class HouseRule:
    """One house rule: its options, what it adds to a game, its words for the clients.

    A module of :mod:`unoengine.core.house` defines one subclass and one instance.
    """

    name: str = ""
    """The house rule's name (its main option's)."""
    rule: str = ""
    """Its rule number in docs/RULES.md (``H-2``)."""
    specs: tuple[OptionSpec, ...] = ()
    """Its options, declared once here."""
    kinds: tuple[str, ...] = ()
    """The decision kinds it adds (H-10's ``more``): :meth:`decision_words` words them for interfaces."""

    def on(self, options: Options) -> bool:
        """Is the house rule on in a game with these options (its option is not at its neutral value)?"""
        raise NotImplementedError

    def check(self, values: Mapping[str, Any]) -> None:
        """Refuse a combination of option values this house rule cannot be played with (``InvalidNotationError``)."""

    def check_seats(self, seats: int, options: Options) -> None:
        """Refuse a seat count this house rule cannot be played with (``InvalidNotationError``; ``new_game`` asks
        each house rule that is on, H-11)."""

    def compose(self, parts: GameParts, options: Options) -> None:
        """Add the rule's decisions, effects, filters, hooks and windows to a game that turns it on."""

    def describe(self, card: Card, flex: bool, text: str, options: Options) -> str:
        """What ``card`` does at a table with this rule on, in words (``text``: what it does without it)."""
        return text

    def decision_words(self, kind: str, facts: Mapping[str, Any], action: A.Action | None) -> Words | None:
        """Its words for a decision of one of its :attr:`kinds`, as ``RuleSet.decision_words`` gives them (the
        decision, ``action`` None, as ``(title, prompt)``; an action as ``(label, sentence)``), or ``None``."""
        return None


def compose(rules: RuleSet, options: Options) -> GameParts:
    """A game's parts: its rule set's, with each house rule the rule set allows and the options turn on."""
    parts = GameParts(rules)
    for house in rules.house:
        if house.on(options):
            parts.house.append(house)
            house.compose(parts, options)
    return parts
