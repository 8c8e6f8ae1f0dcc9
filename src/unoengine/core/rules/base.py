"""What every rule set is made of: a deck table, options, effects and small hooks.

A :class:`RuleSet` is data plus hooks (composition, as scalachess variants): the
engine asks ``rules.effects[(rank, flex_side)]`` and the hooks below, and never
names a rule set. Effects shared by several rule sets live here; a rule set's own
cards and powers live only in its module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from unoengine.core import actions as A
from unoengine.core.cards import COLORS, Card, CardId, Color, Rank, Seat, format_card
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.events import ChallengeResolved, HandShown
from unoengine.core.state import (
    MAX_CARDS,
    ChallengeWindow,
    DrawnCardChoice,
    DrawStack,
    Game,
    GameOver,
    GameState,
    Turn,
    drawn_choice,
)
from unoengine.core.work import Work

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
        "a seat that draws keeps drawing until a card fits (at most 10)",
        rulesets=ALL_RULESETS,
    ),
    OptionSpec("target_score", 500, "C-21, D-20, F-28", "the score that ends the game", low=1, rulesets=ALL_RULESETS),
    OptionSpec("single_round", False, "C-21, F-27", "one round is the whole game", rulesets=ALL_RULESETS),
)
"""Options of every rule set (each rule set may change the default and the rule number)."""

HOUSE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "stack_draw",
        "none",
        "H-1",
        "draw cards stack: the total grows until a seat cannot or will not add and draws it",
        choices=("none", "draw_two", "draw_four", "same", "mixed"),
        rulesets=("classic",),
        absent=(
            ("duo", "Duo's Draw Twos already volley (D-13)"),
            ("flex", "Flex!'s draw cards have flex sides and targets (F-19, F-22, F-25)"),
        ),
    ),
    OptionSpec(
        "seven_zero",
        False,
        "H-2",
        "a 7 swaps hands with a chosen seat (R7>2); a 0 passes every hand on",
        rulesets=("classic",),
        absent=(
            ("duo", "Duo's colour dump (D-15) plays several cards of one hand in one turn"),
            ("flex", "Flex!'s flex sides already choose targets (F-22, F-25)"),
        ),
    ),
    OptionSpec(
        "jump_in",
        False,
        "H-3",
        "a card identical to the top card may be played out of turn; play goes on from the jumper",
        rulesets=("classic",),
        absent=(
            ("duo", "with two players nobody waits to jump in"),
            ("flex", "a Flex! card's plays depend on its player's Power Card (F-14)"),
        ),
    ),
    OptionSpec(
        "forced_play",
        False,
        "H-4",
        "a seat that can play may not draw; a playable drawn card must be played",
        rulesets=ALL_RULESETS,
    ),
    OptionSpec(
        "draw_to_match",
        False,
        "H-5",
        "after drawing a card that does not fit, the seat may draw again, one at a time",
        rulesets=ALL_RULESETS,
    ),
    OptionSpec(
        "uno_penalty",
        2,
        "H-7",
        "the cards a seat caught without calling UNO draws",
        low=0,
        high=10,
        rulesets=ALL_RULESETS,
    ),
    OptionSpec("hand_size", 7, "H-8", "the cards dealt to each seat", low=1, high=20, rulesets=ALL_RULESETS),
)
"""The house rules (docs/RULES.md H-1 …), each declared once with the rule sets that allow it."""


def wild_draw_four_option(default: str, rule: str) -> OptionSpec:
    """A rule set's ``wild_draw_four`` option: its printed rule and H-6 (no bluff) are one mechanism."""
    return OptionSpec(
        "wild_draw_four",
        default,
        f"{rule}, H-6",
        "strict: a Wild Draw Four only without a card of the current colour (no bluff); "
        "challenge: it may be a bluff, and may be challenged",
        choices=("strict", "challenge"),
        rulesets=ALL_RULESETS,
    )


def rule_set_options(name: str, own: Sequence[OptionSpec], **defaults: Any) -> tuple[OptionSpec, ...]:
    """A rule set's options: its own, the shared ones and the house rules it allows, with its defaults."""
    specs = [*own, *(spec for spec in SHARED_OPTIONS + HOUSE_OPTIONS if name in spec.rulesets)]
    out: list[OptionSpec] = []
    for spec in specs:
        out.append(replace(spec, default=defaults.pop(spec.name)) if spec.name in defaults else spec)
    assert not defaults, f"defaults for options {name} does not have: {sorted(defaults)}"
    return tuple(sorted(out, key=lambda spec: spec.name))


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
    handlers: Mapping[str, PendingHandler] = field(default_factory=lambda: dict(BASE_HANDLERS))
    """Every decision the rule set can pend, by ``pending.kind``: the base ones and its own (:func:`with_base`)."""
    decisions: Mapping[str, type] = field(default_factory=lambda: dict(BASE_DECISIONS))
    """The decision types by ``kind`` (the state notation rebuilds decisions from them): the base ones and its own."""
    hides_top: frozenset[type] = frozenset()
    """Decision types during which the discard pile has no top card yet (Duo's draft, D-3)."""
    describe_side: Callable[[Card, bool], str] = lambda card, flex: describe_classic(card)
    """What a card does when played (``flex``: on its flex side), in words, for interfaces."""
    decision_words: Callable[[str, Mapping[str, Any], A.Action | None], str | None] | None = None
    """``decision_words(kind, facts, action)``: the rule set's words for its own decisions, for interfaces
    (``unoengine.core.action_words``): the decision (``action`` None) as ``"Title: prompt"``, or an
    action as ``"Label: sentence"``; ``None`` leaves the generic words."""
    rule_letter: str = ""
    """The letter of the rule set's rule numbers in docs/RULES.md (``C`` for C-1 …)."""
    cite: Mapping[str, str] = field(default_factory=dict)
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
        if values.get("draw_until_playable") and values.get("draw_to_match"):
            raise InvalidNotationError(
                "options 'draw_until_playable' (C-22) and 'draw_to_match' (H-5) cannot both be on: choose one"
            )
        return Options(**values, names=tuple(sorted(values)))


# -- deck tables -------------------------------------------------------------------

COLOR_INDEX: dict[Color | None, int] = {color: index for index, color in enumerate(COLORS)}

_COLORS: Final = COLORS


KIND_WORD: Final = 60
"""The kinds of one word of a set of kinds (:attr:`DeckTables.kind_word`)."""


def color_index(color: Color | None) -> int:
    """``COLOR_INDEX[color]``, without hashing the colour (an ``Enum``'s ``__hash__`` is Python code).

    Raises:
        KeyError: ``None`` (no current colour).
    """
    colors = _COLORS
    for index in range(4):
        if colors[index] is color:
            return index
    raise KeyError(color)


def match_row(state: GameState) -> int:
    """The row of the match tables for the top card and the current colour: ``top kind * 4 + colour`` (C-7)."""
    return state.game.tables.kind_of[state.discard_bytes[-1]] * 4 + color_index(state.color)


def face_matches(color: Color | None, rank: Rank, number: int | None, top: Card, current: Color | None) -> bool:
    """Does a face (colour, rank, number) match the top card and current colour? (C-7, F-9)"""
    if rank.is_wild:
        return True
    if color is current:
        return True
    if rank is top.rank and not top.is_wild:
        return rank is not Rank.NUMBER or number == top.number
    return False


class DeckTables:
    """Static tables of one deck: kinds, points, match masks and play actions.

    Built once per (rule set, deck) and shared by identity between states.
    """

    def __init__(self, rules: RuleSet, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        kinds: list[Card] = []
        index: dict[Card, int] = {}
        for card in cards:
            if card not in index:
                index[card] = len(kinds)
                kinds.append(card)
        self.kinds: tuple[Card, ...] = tuple(kinds)
        self.kind_index = index
        self.kind_of: tuple[int, ...] = tuple(index[card] for card in cards)
        self.points: tuple[int, ...] = tuple(rules.points(card) for card in cards)
        self.kind_color: tuple[int, ...] = tuple(COLOR_INDEX.get(card.color, -1) for card in kinds)
        self.card_color: tuple[Color | None, ...] = tuple(card.color for card in cards)
        """Each physical card's printed colour (``None``: a wild), by card id."""
        self.card_number: tuple[int, ...] = tuple(-1 if card.number is None else card.number for card in cards)
        """Each physical card's number (``-1``: not a number card), by card id (H-2: sevens and zeros)."""
        self.card_effects: tuple[tuple[Effect | None, Effect | None], ...] = tuple(
            (rules.effects.get((card.rank, False)), rules.effects.get((card.rank, True))) for card in cards
        )
        """Each physical card's effect on its normal and its flex side (``rules.effects``), by card id."""
        n = len(kinds)
        normal: list[tuple[bool, ...]] = []
        for top in kinds:
            for current in COLORS:
                normal.append(tuple(face_matches(c.color, c.rank, c.number, top, current) for c in kinds))
        self.normal_ok: tuple[tuple[bool, ...], ...] = tuple(normal)
        """``normal_ok[top_kind * 4 + color_index][kind]``: the normal side may be played."""
        self.is_wd4: tuple[bool, ...] = tuple(c.rank in (Rank.WILD_DRAW_FOUR, Rank.FLEX_WILD_DRAW_FOUR) for c in kinds)
        self.is_draw_two: tuple[bool, ...] = tuple(c.rank is Rank.DRAW_TWO for c in kinds)
        """H-1, D-13: the Draw Two kinds (their normal side: the cards that stack and volley)."""
        self.number_of: tuple[int, ...] = tuple(-1 if c.number is None else c.number for c in kinds)
        """A number card kind's number, ``-1`` for the others (H-2: sevens and zeros)."""
        plain: list[tuple[A.Play, ...]] = []
        with_uno: list[tuple[A.Play, ...]] = []
        for card in kinds:
            colors: tuple[Color | None, ...] = COLORS if card.is_wild else (None,)
            plain.append(tuple(A.play(card, c) for c in colors))
            with_uno.append(tuple(A.play(card, c, uno=u) for c in colors for u in (False, True)))
        self.plays = tuple(plain)
        self.plays_uno = tuple(with_uno)
        assert n == len(self.plays)
        # The same, by physical card and by "row" (top kind * 4 + colour): what a card
        # may be played as, empty when it does not match. legal_actions reads these.
        kind_of = self.kind_of
        cards_range = range(len(cards))
        self.kind_word: tuple[int, ...] = tuple(kind_of[card] // KIND_WORD for card in cards_range)
        """Which word of a set of kinds holds a physical card's kind bit (``kind // KIND_WORD``: 0 for Classic's
        and Duo's 54 kinds, 0 or 1 for Flex's 100)."""
        self.kind_word_bit: tuple[int, ...] = tuple(1 << (kind_of[card] % KIND_WORD) for card in cards_range)
        """The kind's bit in that word, to skip a second copy of a card in a hand (a word stays a small int: a bit
        per kind in one int would be a big int past 62 kinds, and its operations are not inlined)."""
        self.card_is_wd4: tuple[bool, ...] = tuple(self.is_wd4[kind_of[card]] for card in cards_range)
        """Whether a physical card is a Wild Draw Four (its normal side)."""
        self.card_plays: tuple[tuple[tuple[A.Play, ...], ...], ...] = tuple(
            tuple(plain[kind_of[card]] if ok[kind_of[card]] else () for card in cards_range) for ok in normal
        )
        self.card_plays_uno: tuple[tuple[tuple[A.Play, ...], ...], ...] = tuple(
            tuple(with_uno[kind_of[card]] if ok[kind_of[card]] else () for card in cards_range) for ok in normal
        )
        self.extras: dict[str, Any] = {}
        """Tables a rule set builds for itself on first use (Flex: its flex sides), by name."""

    def kind(self, card: Card) -> int:
        """The kind index of a card (a card keeps its hash: the deck's own cards are found by identity, in C)."""
        return self.kind_index[card]

    def holds_color(self, hand: bytes, color: Color | None) -> bool:
        """Does the hand hold a card of this colour by its normal side? Wilds have none (C-16, D-15)."""
        target = color_index(color)
        kind_of = self.kind_of
        colors = self.kind_color
        # A compiled loop by index (``any()`` of a generator is Python calls; iterating bytes boxes each byte).
        for index in range(len(hand)):  # noqa: SIM110
            if colors[kind_of[hand[index]]] == target:
                return True
        return False


_TABLES: dict[tuple[int, int], tuple[tuple[Card, ...], DeckTables]] = {}


def deck_tables(rules: RuleSet, cards: tuple[Card, ...]) -> DeckTables:
    """The shared tables of a deck (rule sets return constant decks: keyed by identity).

    Raises:
        InvalidNotationError: a deck of more than 256 cards (a card id is one byte of a hand or a pile; the
            largest deck of a rule set here is Duo's 112).
    """
    key = (id(rules), id(cards))
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not cards:
        if len(cards) > MAX_CARDS:
            raise InvalidNotationError(
                f"{rules.title} deals a deck of {len(cards)} cards: a deck has at most {MAX_CARDS} "
                "(a card id is one byte of a hand or a pile)"
            )
        cached = (cards, DeckTables(rules, cards))
        _TABLES[key] = cached
    return cached[1]


_GAMES: dict[tuple[int, int, Options], Game] = {}


_LAST_GAME: Final[list[tuple[RuleSet, int, Options, Game]]] = []
"""The rules, seats and options :func:`game_of` was last called with, and its game: found again by
identity (hashing an options tuple hashes its ``Enum`` values, Python code: about 14,000 instructions).
The options are kept, so that their ``id`` is not reused while they are here."""


def game_of(rules: RuleSet, seats: int, options: Options) -> Game:
    """The shared :class:`~unoengine.core.state.Game` of these rules, seats and options."""
    if _LAST_GAME:
        last = _LAST_GAME[0]
        if last[2] is options and last[0] is rules and last[1] == seats:
            return last[3]
    key = (id(rules), seats, options)
    game = _GAMES.get(key)
    if game is None or game.rules is not rules:
        game = Game(rules, seats, options, deck_tables(rules, rules.make_deck(options)))
        _GAMES[key] = game
    if _LAST_GAME:
        _LAST_GAME[0] = (rules, seats, options, game)
    else:
        _LAST_GAME.append((rules, seats, options, game))
    return game


def standard_deck(wilds: int = 4, wild_draw_fours: int = 4) -> tuple[Card, ...]:
    """The 108-card deck of C-1 (or with more wilds, D-1)."""
    cards: list[Card] = []
    for color in COLORS:
        cards.append(Card(color, Rank.NUMBER, 0))
        for number in range(1, 10):
            cards += [Card(color, Rank.NUMBER, number)] * 2
        for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
            cards += [Card(color, rank)] * 2
    cards += [Card(None, Rank.WILD)] * wilds
    cards += [Card(None, Rank.WILD_DRAW_FOUR)] * wild_draw_fours
    return tuple(cards)


# -- what cards do, in words -------------------------------------------------------

CLASSIC_WORDS: dict[Rank, str] = {
    Rank.SKIP: "the next player misses their turn",
    Rank.REVERSE: "the direction changes (with two players: play again)",
    Rank.DRAW_TWO: "the next player draws 2 and misses their turn",
    Rank.WILD: "name the colour",
    Rank.WILD_DRAW_FOUR: "name the colour; the next player draws 4 and misses their turn",
}
"""C-12 … C-16 in a few words (interfaces show them; the rules are the effects below)."""


def describe_with(words: Mapping[Rank, str], card: Card) -> str:
    """``red Skip: the next player misses their turn``."""
    name = card.words.split(", flex side")[0]
    return f"{name}: {words[card.rank]}" if card.rank in words else name


def describe_classic(card: Card) -> str:
    """What a Classic card does (C-12 … C-16)."""
    return describe_with(CLASSIC_WORDS, card)


# -- shared effects ----------------------------------------------------------------


class NoEffect(Effect):
    """A number card or a Wild: the next player plays (C-7, C-15)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(work.next_seat(seat))


NO_EFFECT: Final = NoEffect()


class Skip(Effect):
    """C-13 Skip: the next player loses their turn (D-14: with two, play again)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(work.next_seat(seat, 2))


SKIP: Final = Skip()


class Reverse(Effect):
    """C-12 Reverse: the direction changes (with two players too); with two it acts as a Skip."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if final:
            return
        work.direction = -work.direction
        work.turn(seat if work.seats == 2 else work.next_seat(seat))


REVERSE: Final = Reverse()


class DrawTwo(Effect):
    """C-14 Draw Two: the next player draws 2 and loses their turn (C-20 when final).

    H-1 (``stack_draw`` lets a Draw Two stack): the next player may add to the
    stack, or draws its total (a final Draw Two: the total is drawn at once).
    """

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if work.options.stack_draw in TWO_STACKS:
            total = stack_total(work.prior) + 2
            victim = work.next_seat(seat)
            if final:
                work.draw(victim, total)
            else:
                work.pending = DrawStack(victim, total)
            return
        work.draw(work.next_seat(seat), 2)
        if not final:
            work.turn(work.next_seat(seat, 2))


DRAW_TWO: Final = DrawTwo()


TWO_STACKS = frozenset({"draw_two", "same", "mixed"})
"""H-1: the ``stack_draw`` values under which a Draw Two starts or adds to a stack."""
FOUR_STACKS = frozenset({"draw_four", "same", "mixed"})
"""H-1: the ``stack_draw`` values under which a Wild Draw Four starts or adds to a stack."""


def stack_total(prior: object) -> int:
    """H-1, D-13: the total of the stack (a Duo volley's too) a draw card was played on (0: none)."""
    if isinstance(prior, ChallengeWindow):
        return prior.draws
    total = getattr(prior, "total", 0)  # DrawStack, Duo's Volley
    assert isinstance(total, int)
    return total


def drawn_card(pending: object) -> CardId | None:
    """C-8: the drawn card of a ``drawn`` decision."""
    assert isinstance(pending, DrawnCardChoice)
    return pending.card


def stacks_on(tables: DeckTables, mode: str, kind: int, top: int) -> bool:
    """H-1, D-13: may a card of ``kind`` go on a stack whose top card is of kind ``top``?"""
    two, four = tables.is_draw_two[kind], tables.is_wd4[kind]
    top_two, top_four = tables.is_draw_two[top], tables.is_wd4[top]
    if mode == "draw_two":
        return two and top_two
    if mode == "draw_four":
        return four and top_four
    if mode == "same":
        return (two and top_two) or (four and top_four)
    if mode == "mixed":
        return (two or four) and (top_two or top_four)
    return False


def stack_plays(state: GameState, seat: Seat, mode: str) -> list[A.Action]:
    """H-1, D-13: the seat's plays that add to the stack, one kind at a time (sorted by kind).

    A Wild Draw Four names its colour (four plays); ``strict`` (H-6) keeps it out
    while the seat holds a card of the current colour.
    """
    tables = state.tables
    hand = state.hand_bytes[seat]
    kind_of = tables.kind_of
    top = kind_of[state.discard_bytes[-1]]
    kinds = sorted({kind_of[card] for card in hand if stacks_on(tables, mode, kind_of[card], top)})
    if (
        state.options.wild_draw_four == "strict"
        and any(tables.is_wd4[kind] for kind in kinds)
        and tables.holds_color(hand, state.color)
    ):
        kinds = [kind for kind in kinds if not tables.is_wd4[kind]]
    plays = tables.plays_uno if len(hand) == 2 else tables.plays
    return [play for kind in kinds for play in plays[kind]]


class StackHandler(PendingHandler):
    """H-1 ``stack`` and D-13 ``volley``: add a card to the stack, or ``draw`` its total and lose the turn.

    One decision for both: Duo's volley is Draw-Two stacking (``mode`` ``draw_two``,
    rule D-13); Classic's stack takes its mode from the option ``stack_draw`` (H-1).
    """

    def __init__(self, mode: str, rule: str, detail: str) -> None:
        self.mode = mode
        self.rule = rule
        self.detail = detail

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        return ((self.detail, stack_total(state.pending)),)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = stack_plays(state, seat, self.mode or state.options.stack_draw)
        out.append(A.DRAW)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            work.play_card(seat, work.find(seat, action.card), action)
        else:
            work.draw(seat, stack_total(work.prior))
            work.turn(work.next_seat(seat))

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Play and action.uno:
            return "C-19", "' uno' goes with the play that leaves one card"
        if self.rule == "D-13":
            what = "adds a Draw Two to the volley or takes it with 'draw'"
        else:
            cards = {"draw_two": "a Draw Two", "draw_four": "a Wild Draw Four"}.get(
                state.options.stack_draw, "a Draw Two or a Wild Draw Four"
            )
            what = f"adds {cards} to the stack ({stack_total(state.pending)}) or draws it with 'draw'"
        return self.rule, f"seat {seat} {what}, not {excerpt(A.format_action(action))}"


class WildDrawFour(Effect):
    """C-16, C-17, D-17, D-18, F-24: the next player draws 4 and loses their turn, or challenges.

    ``final`` (C-20): the draw is made with no challenge. Classic ``strict``: no
    challenge either (only legal plays were offered).
    """

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        victim = work.next_seat(seat)
        stacking = work.options.stack_draw in FOUR_STACKS  # H-1: the victim may add to the stack
        total = stack_total(work.prior) + 4 if stacking else 4
        if final or work.options.wild_draw_four == "strict":
            if stacking and not final:
                work.pending = DrawStack(victim, total)
                return
            work.draw(victim, total)
            if not final:
                work.turn(work.next_seat(seat, 2))
            return
        legal = work.rules.wild_draw_four_legal(work, seat, work.hands[seat], action)
        after = work.next_seat(victim)
        work.pending = ChallengeWindow(victim, seat, legal, total, after, victim, after)


WILD_DRAW_FOUR: Final = WildDrawFour()


def classic_wild_draw_four_legal(work: Work, seat: Seat, hand: bytes, action: A.Play) -> bool:
    """C-16: legal when the hand holds no other card of the current colour."""
    return not work.tables.holds_color(hand, work.prior_color)


CLASSIC_EFFECTS: dict[tuple[Rank, bool], Effect] = {
    (Rank.NUMBER, False): NO_EFFECT,
    (Rank.SKIP, False): SKIP,
    (Rank.REVERSE, False): REVERSE,
    (Rank.DRAW_TWO, False): DRAW_TWO,
    (Rank.WILD, False): NO_EFFECT,
    (Rank.WILD_DRAW_FOUR, False): WILD_DRAW_FOUR,
}


# -- shared scoring ----------------------------------------------------------------


def winner_takes_all(work: Work, winner: Seat) -> tuple[int, ...]:
    """C-21, F-28: the winner scores the cards left in every other hand."""
    points = work.tables.points
    total = sum(points[card] for seat, hand in enumerate(work.hands) if seat != winner for card in hand)
    return tuple(total if seat == winner else 0 for seat in range(work.seats))


def first_to_target(work: Work, round_winner: Seat | None) -> tuple[bool, Seat | None]:
    """C-21, F-28: a seat that reaches the target wins; ``single_round``: the round's winner."""
    if work.options.single_round:
        return True, round_winner
    best = max(range(work.seats), key=lambda seat: work.scores[seat])
    if work.scores[best] >= work.options.target_score:
        return True, best
    return False, None


def dealer_to_the_left(work: Work) -> Seat:
    """C-21 Reading: each new round is dealt by the next dealer to the left."""
    return (work.dealer + 1) % work.seats


def deal_seven(work: Work, order: list[CardId]) -> None:
    """C-2, F-6: one card at a time to each seat from the dealer's left, 7 rounds.

    ``order`` is the shuffled deck, top first; what is left is the draw pile.
    """
    # Round r gives seat (dealer + 1 + k) % seats the card at r * seats + k: a seat's hand is every
    # seats-th card of the dealt part from its offset k, sliced in C (as the one-card-at-a-time loop dealt it).
    seats = work.seats
    dealer = work.dealer
    dealt = work.options.hand_size * seats
    work.hands = [bytes(order[(seat - dealer - 1) % seats : dealt : seats]) for seat in range(seats)]
    work.draw_pile = bytes(order[dealt:])[::-1]


# -- the core decisions: turn, drawn card, challenge, game over (and their plays) ----------

MAX_DRAW_UNTIL_PLAYABLE = 10
"""C-22: at most 10 cards are drawn looking for a playable one."""


def turn_plays(state: GameState, seat: Seat) -> list[A.Action]:
    """C-7 (and the rule set's ``side_plays``, F-14): a turn's plays, one kind of card at a time in hand order."""
    tables = state.game.tables
    hand = state.hand_bytes[seat]
    row = match_row(state)
    uno = len(hand) == 2
    table = (tables.card_plays_uno if uno else tables.card_plays)[row]
    kind_word = tables.kind_word
    word_bit = tables.kind_word_bit
    card_is_wd4 = tables.card_is_wd4
    out: list[A.Action] = []
    seen_low = 0  # the kinds seen, by word of KIND_WORD kinds: word 0, word 1, then any further ones
    seen_high = 0
    seen_more: set[int] | None = None
    wd4 = False
    play_table = state.game.rules.play_table
    if play_table is not None:
        table = play_table(state, seat, row, uno)
    for index in range(len(hand)):  # (by index: a byte read is an int, where iterating bytes boxes each)
        card = hand[index]
        plays = table[card]
        if not plays:
            continue
        word = kind_word[card]
        bit = word_bit[card]
        if word == 0:
            if seen_low & bit:
                continue
            seen_low |= bit
        elif word == 1:
            if seen_high & bit:
                continue
            seen_high |= bit
        else:
            kind = tables.kind_of[card]
            if seen_more is None:
                seen_more = set()
            elif kind in seen_more:
                continue
            seen_more.add(kind)
        out.extend(plays)
        if card_is_wd4[card]:
            wd4 = True
    if wd4 and state.game.options.wild_draw_four == "strict" and tables.holds_color(hand, state.color):
        out = [play for play in out if not tables.is_wd4[tables.kind(play.card)]]  # type: ignore[union-attr]
    if state.game.options.seven_zero:
        out = seven_zero_plays(state, seat, out)
    return out


def seven_zero_plays(state: GameState, seat: Seat, plays: list[A.Action]) -> list[A.Action]:
    """H-2: a 7 is played naming the seat to swap with (``R7>2``, every other seat in seat order);
    a 7 or a 0 takes no `` uno`` (the hand changes: the UNO call comes after the swap)."""
    out: list[A.Action] = []
    for play in plays:
        card = play.card  # type: ignore[union-attr]
        number = card.number
        if number not in (0, 7):
            out.append(play)
        elif not play.uno:  # type: ignore[union-attr]
            if number == 0:
                out.append(play)
            else:
                out += [A.play(card, None, False, target) for target in range(state.seats) if target != seat]
    return out


def jump_plays(state: GameState, seat: Seat) -> list[A.Action]:
    """H-3: the seat's plays of a card identical to the top card (same colour and rank; never a wild)."""
    tables = state.game.tables
    top = tables.kind_of[state.discard_bytes[-1]]
    if tables.kinds[top].is_wild:
        return []
    hand = state.hand_bytes[seat]
    if not any(tables.kind_of[card] == top for card in hand):
        return []
    out: list[A.Action] = list((tables.plays_uno if len(hand) == 2 else tables.plays)[top])
    if state.game.options.seven_zero:
        out = seven_zero_plays(state, seat, out)
    return out


def card_plays(state: GameState, seat: Seat, card: CardId) -> list[A.Action]:
    """C-8, F-10, F-11: the plays of one card (the drawn card)."""
    tables = state.game.tables
    hand = state.hand_bytes[seat]
    kind = tables.kind_of[card]
    row = match_row(state)
    uno = len(hand) == 2
    out: list[A.Action] = []
    strict = state.game.options.wild_draw_four == "strict"
    if not (strict and tables.is_wd4[kind] and tables.holds_color(hand, state.color)):
        out += (tables.card_plays_uno if uno else tables.card_plays)[row][card]
    side_plays = state.game.rules.side_plays
    if side_plays is not None:
        out += side_plays(state, seat, kind, row, uno)
    if state.game.options.seven_zero:
        return seven_zero_plays(state, seat, out)
    return out


def is_playable(state: GameState, seat: Seat, card: CardId) -> bool:
    """Could ``seat`` play ``card`` now, on any side? (C-7, F-14; C-22's test)."""
    return bool(card_plays(state, seat, card))


def turn_draw(work: Work, seat: Seat) -> None:
    """C-8 (or C-22): draw, then decide about the drawn card."""
    last: CardId | None = None
    if work.options.draw_until_playable:
        for _ in range(MAX_DRAW_UNTIL_PLAYABLE):
            got = work.draw(seat, 1)
            if not got:
                break
            last = got[0]
            probe = work.freeze()
            if is_playable(probe, seat, last):
                break
    else:
        got = work.draw(seat, 1)
        last = got[0] if got else None
    if last is not None:
        work.blocked = 0
    work.pending = drawn_choice(seat, last)


def resolve_challenge(work: Work, seat: Seat, pending: ChallengeWindow, challenged: bool) -> None:
    """C-17, D-18, F-24, F-25: accept, or challenge and show the hand to the challenger."""
    if not challenged:
        work.draw(seat, pending.draws)
        work.turn(pending.after_accept)
        return
    player = pending.player
    if work.events is not None:
        work.emit(HandShown(player, seat, tuple(work.hands[player]), pending.legal))
    work.learn(seat, player, work.hands[player])  # C-17: the challenger has seen the hand
    if work.events is not None:
        work.emit(ChallengeResolved(seat, player, not pending.legal))
    if pending.legal:
        work.draw(seat, pending.draws + 2)
        work.turn(pending.after_fail)
    elif pending.draws > 4 and work.options.stack_draw != "none":
        # H-1: a challenge settles only the last Wild Draw Four: its player draws 4, the challenger the rest.
        work.draw(player, 4)
        work.draw(seat, pending.draws - 4)
        work.turn(pending.after_success)
    else:
        work.draw(player, pending.draws)
        work.turn(pending.after_success)


def seven_zero_refusal(state: GameState, seat: Seat, action: A.Play) -> tuple[str, str] | None:
    """H-2: a 7 names another seat to swap with; a 7 or a 0 takes no `` uno``; no other card names a seat."""
    if not state.options.seven_zero or action.card.number not in (0, 7):
        return None
    name = format_card(action.card)
    if action.uno:
        return "H-2", f"a {name} changes hands: call 'uno' after the swap, not with the play"
    if action.card.number == 0:
        return None if action.target is None else ("H-2", f"a {name} passes every hand on: it names no seat")
    target = action.target
    if target is None:
        return "H-2", f"a 7 names the seat to swap hands with, as {name}>{(seat + 1) % state.seats}"
    if target == seat or not 0 <= target < state.seats:
        return "H-2", f"seat {seat} cannot swap hands with seat {target}"
    return None


def play_refusal(state: GameState, seat: Seat, action: A.Play, drawn: CardId | None) -> tuple[str, str]:
    """Why a play is refused (C-7, C-8, C-9, C-16, C-19; the rule set's own: ``refuse_play``)."""
    cite = state.rules.cite
    tables = state.tables
    card = action.card
    name = format_card(card)
    if card not in tables.kind_index:
        return "G-4", f"{name} is not a card of {state.rules.title}"
    kind = tables.kind_index[card]
    hand = state.hand_bytes[seat]
    if drawn is not None and tables.kind_of[drawn] != kind:
        return cite["drawn"], f"only the drawn card ({format_card(tables.cards[drawn])}) may be played now"
    if not any(tables.kind_of[c] == kind for c in hand):
        return "G-4", f"seat {seat} holds no {name}"
    if card.is_wild and action.color is None:
        return cite["wild"], f"a wild play names a colour, as {name}:g"
    if not card.is_wild and action.color is not None:
        return cite["wild"], f"only a wild card names a colour; write {name}"
    refused = seven_zero_refusal(state, seat, action)
    if refused is not None:
        return refused
    seven = state.options.seven_zero and card.number == 7
    refuse_play = state.rules.refuse_play
    if refuse_play is not None:
        refused = refuse_play(state, seat, action, kind)
        if refused is not None:
            return refused
    elif action.flex or (action.target is not None and not seven):
        return "G-4", f"{excerpt(A.format_action(action))} is not a play of {state.rules.title}"
    row = match_row(state)
    if not action.flex and not tables.normal_ok[row][kind]:
        top = format_card(tables.cards[state.discard_pile[-1]])
        color = state.color.word if state.color else "none"
        return cite["match"], f"the {name} does not match {top} (current colour {color})"
    if tables.is_wd4[kind] and state.options.wild_draw_four == "strict" and tables.holds_color(hand, state.color):
        word = state.color.word if state.color else ""
        return cite["wd4"], f"a Wild Draw Four may not be played while holding a {word} card (the current colour)"
    if action.uno:
        return cite["uno"], f"' uno' goes with the play that leaves one card; seat {seat} would keep {len(hand) - 1}"
    return "G-4", f"{excerpt(A.format_action(action))} is not legal here"


def jump_refusal(state: GameState, seat: Seat, action: A.Play) -> tuple[str, str]:
    """H-3: why a play by a seat that is not to act is refused: the first reason that holds.

    The window (a normal turn, nothing open), then the card (identical to the top card,
    never a wild), then the hand (the seat holds one), then the play's own form (H-2's
    target, a colour, `` uno``).
    """
    if type(state.pending) is not Turn or state.unsafe is not None:
        return "H-3", "a seat jumps in only on a normal turn, with no draw total, colour, challenge or UNO open"
    tables = state.tables
    card = action.card
    name = format_card(card)
    turn = f"it is seat {state.pending.seat}'s turn"
    if card not in tables.kind_index:
        return "G-4", f"{name} is not a card of {state.rules.title}"
    kind = tables.kind_index[card]
    top_kind = tables.kind_of[state.discard_bytes[-1]]
    top = format_card(tables.cards[state.discard_pile[-1]])
    if tables.kinds[top_kind].is_wild:
        return "H-3", f"{turn}: nobody jumps in on a wild card ({top})"
    if kind != top_kind:
        return "H-3", f"seat {seat} may jump in only with a card identical to the top card ({top}), not {name}: {turn}"
    hand = state.hand_bytes[seat]
    if not any(tables.kind_of[held] == kind for held in hand):
        return "H-3", f"seat {seat} holds no {name} to jump in with: {turn}"
    refused = seven_zero_refusal(state, seat, action)
    if refused is not None:
        return refused
    if action.color is not None:
        return state.rules.cite["wild"], f"only a wild card names a colour; write {name}"
    if action.uno and len(hand) != 2:
        kept = len(hand) - 1
        return state.rules.cite["uno"], f"' uno' goes with the play that leaves one card; seat {seat} would keep {kept}"
    return "G-4", f"{excerpt(A.format_action(action))} is not a jump-in of {state.rules.title}: {turn}"


_PLAY: Final = A.Play
_DRAW: Final = A.Draw
_DRAW_ACTION: Final = A.DRAW
_PASS_ACTION: Final = A.PASS


def play_from_hand(work: Work, seat: Seat, action: A.Play) -> None:
    """Play the first card of the action's kind from the seat's hand."""
    work.play_card(seat, work.find(seat, action.card), action)


class TurnHandler(PendingHandler):
    """``turn`` (C-7, C-8; H-4): play a card, or ``draw``."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = turn_plays(state, seat)
        if not (out and state.game.options.forced_play):  # H-4: a seat that can play may not draw
            out.append(_DRAW_ACTION)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is _PLAY:
            play_from_hand(work, seat, action)
        else:
            turn_draw(work, seat)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Draw and state.options.forced_play:
            return "H-4", f"seat {seat} can play a card and may not draw (forced play)"
        if type(action) is not A.Play:
            text = A.format_action(action)
            return state.rules.cite[
                "drawn"
            ], f"on a turn seat {seat} plays a card or draws; {excerpt(text)} is not one of them"
        return play_refusal(state, seat, action, None)


class DrawnHandler(PendingHandler):
    """``drawn`` (C-8, C-11, G-6; H-4, H-5): play the drawn card, ``pass``, or (H-5) ``draw`` again."""

    def hidden(self) -> tuple[str, ...]:
        """The drawn card is the drawer's own: the view shows only whether a card was drawn (``drew``)."""
        return ("card",)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        card = drawn_card(state.pending)
        out = [] if card is None else card_plays(state, seat, card)
        options = state.game.options
        if not out and card is not None and options.draw_to_match:
            out.append(_DRAW_ACTION)  # H-5: nothing fits: draw again, or pass
        if not (out and options.forced_play):  # H-4: a playable drawn card must be played
            out.append(_PASS_ACTION)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        action_type = type(action)
        card = drawn_card(work.prior)
        if action_type is _PLAY:
            assert card is not None
            work.play_card(seat, card, action)  # type: ignore[arg-type]
        elif action_type is _DRAW:
            # H-5: the drawn card does not fit: draw one more.
            got = work.draw(seat, 1)
            work.pending = drawn_choice(seat, got[0] if got else None)
        elif card is None:
            # G-6: nothing could be drawn and the seat passes.
            work.blocked += 1
            if work.blocked >= work.seats:
                work.end_round(None)
            else:
                work.turn(work.next_seat(seat))
        else:
            work.blocked = 0
            work.turn(work.next_seat(seat))

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Pass and state.options.forced_play:
            return "H-4", "the drawn card can be played and must be played (forced play)"
        if type(action) is A.Draw and state.options.draw_to_match:
            return "H-5", "the drawn card can be played: draw again only when it does not fit"
        if type(action) is not A.Play:
            text = A.format_action(action)
            return state.rules.cite[
                "drawn"
            ], f"after drawing, seat {seat} plays the drawn card or passes, not {excerpt(text)}"
        return play_refusal(state, seat, action, drawn_card(state.pending))


class ChallengeHandler(PendingHandler):
    """``challenge`` (C-17, D-18, F-24, F-25; H-1): ``accept``, ``challenge``, or stack on the Wild Draw Four."""

    def hidden(self) -> tuple[str, ...]:
        """Whether the Wild Draw Four was legal is hidden information (G-2)."""
        return ("legal",)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out: list[A.Action] = [A.ACCEPT, A.CHALLENGE]
        mode = state.game.options.stack_draw
        if mode in FOUR_STACKS:  # H-1: or stack (accepting the card)
            out = stack_plays(state, seat, mode) + out
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            play_from_hand(work, seat, action)  # H-1: stacking accepts the card
        else:
            prior = work.prior
            assert type(prior) is ChallengeWindow
            resolve_challenge(work, seat, prior, type(action) is A.Challenge)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        text = A.format_action(action)
        if type(action) is A.Play and state.options.stack_draw in FOUR_STACKS:
            return "H-1", f"only a card that stacks on the Wild Draw Four may be played now, not {excerpt(text)}"
        return state.rules.cite[
            "wd4"
        ], f"seat {seat} must 'accept' or 'challenge' the Wild Draw Four, not {excerpt(text)}"


class GameOverHandler(PendingHandler):
    """``game_over``: nobody acts any more."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return []

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        raise AssertionError("no action is legal once the game is over")

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        return "G-4", "the game is over"


BASE_HANDLERS: dict[str, PendingHandler] = {
    "turn": TurnHandler(),
    "drawn": DrawnHandler(),
    "challenge": ChallengeHandler(),
    "game_over": GameOverHandler(),
}
"""The decisions of every rule set (``RuleSet.handlers`` adds each rule set's own to these)."""

BASE_DECISIONS: dict[str, type] = {
    "turn": Turn,
    "drawn": DrawnCardChoice,
    "challenge": ChallengeWindow,
    "game_over": GameOver,
}
"""The decision types of every rule set by ``kind`` (``RuleSet.decisions`` adds the rule set's own)."""


def with_base(own: Mapping[str, PendingHandler]) -> dict[str, PendingHandler]:
    """A rule set's handlers: the base decisions' and its own (a base decision may be shared: H-1's stack)."""
    return {**BASE_HANDLERS, **own}
