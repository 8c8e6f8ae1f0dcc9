"""What every rule set is made of: a deck table, options, effects and small hooks.

A :class:`RuleSet` is data plus hooks (composition, as scalachess variants): the
engine asks ``rules.effects[(rank, flex_side)]`` and the hooks below, and never
names a rule set. Effects shared by several rule sets live here; a rule set's own
cards and powers live only in its module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from unoengine.core import actions as A
from unoengine.core.cards import COLORS, Card, CardId, Color, Rank, Seat
from unoengine.core.errors import InvalidNotationError
from unoengine.core.state import ChallengeWindow, Game, GameState
from unoengine.core.work import Work

Effect = Callable[[Work, Seat, Card, A.Play, bool], None]
SidePlays = Callable[[GameState, Seat, int, int, bool], Sequence[A.Play]]
"""``side_plays(state, seat, kind, row, uno)``: a rule set's further plays of a card kind
(Flex's flex sides), given the match row (top kind * 4 + colour) and whether ``uno`` variants are offered."""
PlayRefusal = Callable[[GameState, Seat, A.Play, int], "tuple[str, str] | None"]
"""``refuse_play(state, seat, play, kind)``: the rule and reason a rule set refuses this play, or ``None``."""
"""``effect(work, seat, card, play, final)``: resolve a played card.

``final`` is True when the card was the player's last: the effect then only makes
the draws the card imposes (C-20) and sets no pending decision.
"""


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
            raise InvalidNotationError(f"option {self.name!r} must be {wanted}, not {value!r} ({self.rule})")
        if kind is str and value not in self.choices:
            allowed = " or ".join(repr(choice) for choice in self.choices)
            raise InvalidNotationError(
                f"option {self.name!r} must be {allowed} in {title}, not {value!r} ({self.rule})"
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
        rulesets=("classic", "duo"),
        absent=(("flex", "Flex!'s flex sides already choose targets (F-22, F-25)"),),
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
    """Legal actions, resolution and public details of a rule set's own pending decision.

    A rule set registers one handler per decision type it contributes
    (``RuleSet.handlers``, keyed by the decision's ``kind``); the engine and the
    views reach those decisions only through these methods.
    """

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        """What ``seat`` may see of this decision, as ``(name, value)`` pairs (views, G-2)."""
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
    wild_draw_four_legal: Callable[[Work, Seat, tuple[CardId, ...], A.Play], bool]
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
    refuse_play: PlayRefusal | None = None
    """The rule set's own refusals of a play (Flex: F-3, F-14, F-22), checked before matching."""
    on_play: Callable[[Work, Seat, A.Play], None] | None = None
    """Called when a card is played, before its effect (F-14: a flex side turns the Power Card red)."""
    after_card: Callable[[Work], None] | None = None
    """Called after every card is resolved (F-16 rule 1)."""
    state_json: Callable[[GameState], dict[str, Any]] | None = None
    """The rule set's own keys of ``uno replay --json`` (Flex ``power``, Duo ``volley``)."""
    handlers: Mapping[str, PendingHandler] = field(default_factory=dict)
    """The rule set's own pending decisions, by ``pending.kind``."""
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
                    f"option {name!r} ({spec.rule}) is not available in {self.title}" + (f": {why}" if why else "")
                )
        known = ", ".join(sorted(self.option_names))
        raise InvalidNotationError(f"unknown option {name!r} for {self.name} (known: {known})")

    def options(self, given: object = None) -> Options:
        """The options of a game: defaults, overridden by ``given`` (a mapping of option names to typed values).

        Values are typed (``True``, ``500``, ``"mixed"``); text from a command line
        goes through :func:`unoengine.parse_options` first.

        Raises:
            InvalidNotationError: not a mapping, an option the rule set does not have
                (naming the option and the rule set), a bad value or combination.
        """
        if given is not None and not isinstance(given, Mapping):
            raise InvalidNotationError(f"options must be a mapping of option names to values, not {given!r}")
        values: dict[str, Any] = {spec.name: spec.default for spec in self.option_specs}
        for key, value in (given or {}).items():
            if not isinstance(key, str):
                raise InvalidNotationError(f"an option name is text, not {key!r}")
            values[key] = self.option_spec(key).check(value, self.title)
        if values.get("draw_until_playable") and values.get("draw_to_match"):
            raise InvalidNotationError(
                "options 'draw_until_playable' (C-22) and 'draw_to_match' (H-5) cannot both be on: choose one"
            )
        return Options(**values, names=tuple(sorted(values)))


# -- deck tables -------------------------------------------------------------------

COLOR_INDEX: dict[Color | None, int] = {color: index for index, color in enumerate(COLORS)}


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
        self.kind_by_id: dict[int, int] = {id(card): kind for card, kind in index.items()}
        """Kind by the identity of the deck's own ``Card`` objects (a fast path for find)."""
        self.kind_of: tuple[int, ...] = tuple(index[card] for card in cards)
        self.points: tuple[int, ...] = tuple(rules.points(card) for card in cards)
        self.kind_color: tuple[int, ...] = tuple(COLOR_INDEX.get(card.color, -1) for card in kinds)
        n = len(kinds)
        normal: list[tuple[bool, ...]] = []
        for top in kinds:
            for current in COLORS:
                normal.append(tuple(face_matches(c.color, c.rank, c.number, top, current) for c in kinds))
        self.normal_ok: tuple[tuple[bool, ...], ...] = tuple(normal)
        """``normal_ok[top_kind * 4 + color_index][kind]``: the normal side may be played."""
        self.is_wd4: tuple[bool, ...] = tuple(c.rank in (Rank.WILD_DRAW_FOUR, Rank.FLEX_WILD_DRAW_FOUR) for c in kinds)
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
        self.kind_bit: tuple[int, ...] = tuple(1 << kind_of[card] for card in cards_range)
        """A bit per kind, to skip a second copy of a card in a hand."""
        self.wd4_mask: int = sum(1 << kind for kind in range(n) if self.is_wd4[kind])
        self.card_plays: tuple[tuple[tuple[A.Play, ...], ...], ...] = tuple(
            tuple(plain[kind_of[card]] if ok[kind_of[card]] else () for card in cards_range) for ok in normal
        )
        self.card_plays_uno: tuple[tuple[tuple[A.Play, ...], ...], ...] = tuple(
            tuple(with_uno[kind_of[card]] if ok[kind_of[card]] else () for card in cards_range) for ok in normal
        )
        self.extras: dict[str, Any] = {}
        """Tables a rule set builds for itself on first use (Flex: its flex sides), by name."""

    def kind(self, card: Card) -> int:
        """The kind index of a card (by identity first: the deck's and the actions' own cards)."""
        kind = self.kind_by_id.get(id(card))
        return self.kind_index[card] if kind is None else kind

    def holds_color(self, hand: tuple[CardId, ...], color: Color | None) -> bool:
        """Does the hand hold a card of this colour by its normal side? Wilds have none (C-16, D-15)."""
        target = COLOR_INDEX[color]
        kind_of = self.kind_of
        colors = self.kind_color
        return any(colors[kind_of[card]] == target for card in hand)


_TABLES: dict[tuple[int, int], tuple[tuple[Card, ...], DeckTables]] = {}


def deck_tables(rules: RuleSet, cards: tuple[Card, ...]) -> DeckTables:
    """The shared tables of a deck (rule sets return constant decks: keyed by identity)."""
    key = (id(rules), id(cards))
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not cards:
        cached = (cards, DeckTables(rules, cards))
        _TABLES[key] = cached
    return cached[1]


_GAMES: dict[tuple[int, int, Options], Game] = {}


def game_of(rules: RuleSet, seats: int, options: Options) -> Game:
    """The shared :class:`~unoengine.core.state.Game` of these rules, seats and options."""
    key = (id(rules), seats, options)
    game = _GAMES.get(key)
    if game is None or game.rules is not rules:
        game = Game(rules, seats, options, deck_tables(rules, rules.make_deck(options)))
        _GAMES[key] = game
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


def no_effect(work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
    """A number card or a Wild: the next player plays (C-7, C-15)."""
    if not final:
        work.turn(work.next_seat(seat))


def skip(work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
    """C-13 Skip: the next player loses their turn (D-14: with two, play again)."""
    if not final:
        work.turn(work.next_seat(seat, 2))


def reverse(work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
    """C-12 Reverse: the direction changes (with two players too); with two it acts as a Skip."""
    if final:
        return
    work.direction = -work.direction
    work.turn(seat if work.seats == 2 else work.next_seat(seat))


def draw_two(work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
    """C-14 Draw Two: the next player draws 2 and loses their turn (C-20 when final)."""
    work.draw(work.next_seat(seat), 2)
    if not final:
        work.turn(work.next_seat(seat, 2))


def wild_draw_four(work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
    """C-16, C-17, D-17, D-18, F-24: the next player draws 4 and loses their turn, or challenges.

    ``final`` (C-20): the draw is made with no challenge. Classic ``strict``: no
    challenge either (only legal plays were offered).
    """
    victim = work.next_seat(seat)
    if final or work.options.wild_draw_four == "strict":
        work.draw(victim, 4)
        if not final:
            work.turn(work.next_seat(seat, 2))
        return
    legal = work.rules.wild_draw_four_legal(work, seat, work.hands[seat], action)
    after = work.next_seat(victim)
    work.pending = ChallengeWindow(victim, seat, legal, 4, after, victim, after)


def classic_wild_draw_four_legal(work: Work, seat: Seat, hand: tuple[CardId, ...], action: A.Play) -> bool:
    """C-16: legal when the hand holds no other card of the current colour."""
    return not work.tables.holds_color(hand, work.prior_color)


CLASSIC_EFFECTS: dict[tuple[Rank, bool], Effect] = {
    (Rank.NUMBER, False): no_effect,
    (Rank.SKIP, False): skip,
    (Rank.REVERSE, False): reverse,
    (Rank.DRAW_TWO, False): draw_two,
    (Rank.WILD, False): no_effect,
    (Rank.WILD_DRAW_FOUR, False): wild_draw_four,
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
    hands: list[list[CardId]] = [[] for _ in range(work.seats)]
    position = 0
    for _ in range(work.options.hand_size):
        for offset in range(1, work.seats + 1):
            hands[(work.dealer + offset) % work.seats].append(order[position])
            position += 1
    work.hands = [tuple(hand) for hand in hands]
    work.draw_pile = tuple(reversed(order[position:]))
