"""What every rule set is made of: a deck, options, effects and small hooks.

A :class:`RuleSet` is data plus hooks (composition, as scalachess variants): the
engine asks ``rules.effects[(rank, flex_side)]`` and the hooks below, and never
names a rule set. Effects shared by several rule sets live in ``effects``; a rule
set's own cards and powers live only in its module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from unoengine.core import actions as A
from unoengine.core.cards import Card, CardId, Rank, Seat
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.words import describe_classic
from unoengine.core.state import GameState
from unoengine.core.work import Work

Words = str | tuple[str, str]
"""A rule's words for a decision or an action (``RuleSet.decision_words``): ``(title, prompt)`` of a decision or
``(label, sentence)`` of an action, each a :class:`~unoengine.i18n.Said`; one text is both."""

if TYPE_CHECKING:
    from unoengine.core.rules.compose import HouseRule

SidePlays = Callable[[GameState, Seat, int, int, bool], Sequence[A.Play]]
"""``side_plays(state, seat, kind, row, uno)``: a rule set's further plays of a card kind
(Flex's flex sides), given the match row (top kind * 4 + colour) and whether ``uno`` variants are offered."""
PlayTable = Callable[[GameState, Seat, int, bool], "tuple[tuple[A.Play, ...], ...]"]
"""``play_table(state, seat, row, uno)``: every play of each physical card (by card id) on this match row,
normal side and the rule set's ``side_plays`` together, for the seat as it is now (Flex: its Power Card)."""
PlayRefusal = Callable[[GameState, Seat, A.Play, int], "tuple[str, str] | None"]
"""``refuse_play(state, seat, play, kind)``: the rule and reason a rule set refuses this play, or ``None``."""


class Effect:
    """What one side of a played card does: :meth:`run` resolves it (a rule set's ``effects[(rank, flex_side)]``).

    Each effect is an object of a class of its own, its rule in :meth:`run`: the
    engine calls it as a method of a compiled object (a native call), where a
    function kept in a table would be called as a Python object, its arguments
    boxed and parsed.
    """

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        """Resolve the card ``seat`` played (``action``).

        ``final`` is True when the card was the player's last: the effect then only
        makes the draws the card imposes (C-20) and sets no pending decision.
        """
        raise NotImplementedError


class PlayHooks:
    """A rule set's hooks around every card played (``RuleSet.play_hooks``), as methods of a compiled object.

    The base hooks do nothing; Flex's turn a Power Card red (F-14) and all of
    them green (F-16 rule 1).
    """

    def on_play(self, work: Work, seat: Seat, action: A.Play) -> None:
        """Called when a card is played, before its effect (F-14: a flex side turns the Power Card red)."""

    def after_card(self, work: Work) -> None:
        """Called after every card is resolved (F-16 rule 1)."""


class PendingHandler:
    """One decision: its legal actions, its resolution, its refusals, what its view shows and hides.

    Every decision is one (the base ones, turn, drawn, challenge and game_over, are
    :data:`BASE_HANDLERS`); a rule set's ``handlers`` map every ``kind`` it can
    pend to its handler (:func:`with_base`), and the engine's ``legal_actions``,
    ``apply_unchecked`` and ``refusal`` are one lookup each. A decision can be
    shared: Duo's volley (D-13) and H-1's stack are one :class:`StackHandler`.
    """

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        """What ``seat`` may see of this decision, as ``(name, value)`` pairs (views, G-2)."""
        return ()

    def hidden(self) -> tuple[str, ...]:
        """The decision's fields that no view shows (besides ``seat`` and ``kind``), G-2."""
        return ()

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        """The seat's legal actions for this decision (without ``uno``/``catch``)."""
        raise NotImplementedError

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        """Resolve a legal action."""
        raise NotImplementedError

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        """The rule number and reason for refusing an action here."""
        raise NotImplementedError


class Wrapped(PendingHandler):
    """A decision's handler wrapped by a house rule (H-4, H-5): every method asks the handler it wraps, unless the
    house rule's subclass answers first."""

    def __init__(self, inner: PendingHandler) -> None:
        self.inner = inner

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        return self.inner.details(state, seat)

    def hidden(self) -> tuple[str, ...]:
        return self.inner.hidden()

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return self.inner.legal(state, seat)

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        self.inner.apply(work, seat, action)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        return self.inner.refusal(state, seat, action)


def _base_handlers() -> dict[str, PendingHandler]:
    """A new rule set's handlers when it gives none: the base decisions' (imported here: they are handlers)."""
    from unoengine.core.rules.decisions import BASE_HANDLERS

    return dict(BASE_HANDLERS)


def _base_decisions() -> dict[str, type]:
    """A new rule set's decision types when it gives none: the base ones."""
    from unoengine.core.rules.decisions import BASE_DECISIONS

    return dict(BASE_DECISIONS)


@dataclass(frozen=True, eq=False)
class RuleSet:
    """One rule set: its deck, options and hooks. Compared by identity."""

    name: str
    title: str
    aliases: tuple[str, ...]
    seats: range
    make_deck: Callable[[Options], tuple[Card, ...]]
    points: Callable[[Card], int]
    option_specs: tuple[OptionSpec, ...]
    """Every option of the rule set (its own and the house rules it allows), sorted by name."""
    deal: Callable[[Work, list[CardId]], None]
    """Deal (or draft) from the shuffled deck, top first, and start play (C-2..C-6, D-2..D-7, F-6..F-8)."""
    effects: Mapping[tuple[Rank, bool], Effect]
    wild_draw_four_legal: Callable[[Work, Seat, bytes, A.Play], bool]
    """Was a Wild Draw Four legal, given the hand left after it and the play (C-16, D-18, F-24)."""
    score_round: Callable[[Work, Seat], tuple[int, ...]]
    game_winner: Callable[[Work, Seat | None], tuple[bool, Seat | None]]
    """After a round: ``(game over?, winner)`` (C-21, D-20, F-27, F-28)."""
    next_dealer: Callable[[Work], Seat]
    first_dealer: Callable[[Work], Seat] = lambda work: 0
    """The first round's dealer when none is given (Classic, Flex: seat 0; Duo: the cut, D-2)."""
    turn_over_discards: bool = False
    """D-10: the discard pile is turned over, not shuffled (C-10)."""
    round_flags: Callable[[int], list[bool]] = lambda seats: []
    """The per-seat flags (``state.power``) at each deal: Flex's Power Cards, all green (F-2)."""
    seat_flags: str = ""
    """What the per-seat flags mean, the name they go by outside the core: ``"power"`` (Flex's Power Cards,
    ``True`` green), ``"in_round"`` (No Mercy: still in the round, N-22), ``""`` (none kept)."""
    targeted: frozenset[Rank] = frozenset()
    """Ranks whose ``side_plays`` choose a target seat (Flex F-22, F-25): data for the action ids."""
    side_plays: SidePlays | None = None
    """Further plays of a card kind beyond its normal side (Flex's flex sides, F-14)."""
    play_table: PlayTable | None = None
    """The tables of a turn's plays with the ``side_plays`` folded in (a rule set with ``side_plays`` gives one,
    so that ``legal_actions`` reads one table per card as for Classic; the drawn card uses ``side_plays``)."""
    refuse_play: PlayRefusal | None = None
    """The rule set's own refusals of a play (Flex: F-3, F-14, F-22), checked before matching."""
    play_hooks: PlayHooks | None = None
    """Called around every card played: ``on_play`` before its effect, ``after_card`` after it (Flex's Power Cards,
    F-14, F-16)."""
    state_json: Callable[[GameState], dict[str, Any]] | None = None
    """The rule set's own keys of ``uno replay --json`` (Flex ``power``, Duo ``volley``)."""
    handlers: Mapping[str, PendingHandler] = field(default_factory=_base_handlers)
    """Every decision the rule set can pend, by ``pending.kind``: the base ones and its own (:func:`with_base`)."""
    decisions: Mapping[str, type] = field(default_factory=_base_decisions)
    """The decision types by ``kind`` (the state notation rebuilds decisions from them): the base ones and its own."""
    hides_top: frozenset[type] = frozenset()
    """Decision types during which the discard pile has no top card yet (Duo's draft, D-3)."""
    describe_side: Callable[[Card, bool], str] = lambda card, flex: describe_classic(card)
    """What a card does when played (``flex``: on its flex side), in words, for interfaces."""
    decision_words: Callable[[str, Mapping[str, Any], A.Action | None], Words | None] | None = None
    """``decision_words(kind, facts, action)``: the rule set's words for its own decisions, for interfaces
    (``unoengine.core.action_words``): the decision (``action`` None) as ``(title, prompt)``, or an
    action as ``(label, sentence)`` (:data:`Words`; one text is both); ``None`` leaves the generic words."""
    rule_letter: str = ""
    """The letter of the rule set's rule numbers in docs/RULES.md (``C`` for C-1 …)."""
    cite: Mapping[str, str] = field(default_factory=dict)
    house: tuple[HouseRule, ...] = ()
    """The house rules the rule set allows (:func:`unoengine.core.house.allowed`): a game composes those its
    options turn on (:func:`~unoengine.core.rules.compose.compose`)."""
    """Rule numbers to name in refusals, by topic: match, drawn, wild, wd4, uno, flex."""

    def __post_init__(self) -> None:
        if (self.side_plays is None) != (self.play_table is None):
            raise ValueError(
                f"rule set {self.name!r}: side_plays and play_table go together (legal_actions reads both)"
            )

    def __repr__(self) -> str:
        return f"<RuleSet {self.name}>"

    @property
    def option_names(self) -> frozenset[str]:
        """The names of the rule set's options."""
        return frozenset(spec.name for spec in self.option_specs)

    @property
    def default_options(self) -> Options:
        """The options of a game that sets none."""
        return self.options(None)

    @property
    def option_choices(self) -> dict[str, tuple[str, ...]]:
        """The allowed words of the rule set's text options, by name."""
        return {spec.name: spec.choices for spec in self.option_specs if spec.kind is str}

    def option_spec(self, name: str) -> OptionSpec:
        """The rule set's option called ``name``.

        Raises:
            InvalidNotationError: the rule set has no such option (the message says why, when another has it).
        """
        for spec in self.option_specs:
            if spec.name == name:
                return spec
        from unoengine.core.house import HOUSE_OPTIONS  # (only to say why: the house rules import this module)

        for spec in HOUSE_OPTIONS:
            if spec.name == name:
                why = dict(spec.absent).get(self.name, "")
                raise InvalidNotationError(
                    f"option {excerpt(name)} ({spec.rule}) is not available in {self.title}"
                    + (f": {why}" if why else "")
                )
        known = ", ".join(sorted(self.option_names))
        raise InvalidNotationError(f"unknown option {excerpt(name)} for {self.name} (known: {known})")

    def options(self, given: object = None) -> Options:
        """The options of a game: defaults, overridden by ``given`` (a mapping of option names to typed values).

        Values are typed (``True``, ``500``, ``"mixed"``); text from a command line
        goes through :func:`unoengine.parse_options` first.

        Raises:
            InvalidNotationError: not a mapping, an option the rule set does not have
                (naming the option and the rule set), a bad value or combination.
        """
        if given is not None and not isinstance(given, Mapping):
            raise InvalidNotationError(f"options must be a mapping of option names to values, not {excerpt(given)}")
        values: dict[str, Any] = {spec.name: spec.default for spec in self.option_specs}
        for key, value in (given or {}).items():
            if not isinstance(key, str):
                raise InvalidNotationError(f"an option name is text, not {excerpt(key)}")
            values[key] = self.option_spec(key).check(value, self.title)
        for house in self.house:
            house.check(values)  # a combination the house rule cannot be played with (H-5)
        return Options(**values, names=tuple(sorted(values)))
