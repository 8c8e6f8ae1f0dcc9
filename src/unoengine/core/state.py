"""The game state value and the pending decisions.

:class:`GameState` is an immutable value: a class compiled with the core
(mypyc), its value semantics (``==`` and ``hash`` by content, pickle, copy,
``_replace``) written out, so that the engine reads its fields as struct
fields and builds one per action by a direct call. The pending decisions are
``NamedTuple`` values.

Piles are sequences of ``CardId`` with the **top at the end**. Hands are sequences
of ``CardId`` in the order the cards were received. The state holds each as
``bytes`` (one byte a card id: every deck has fewer than 256 cards,
:data:`MAX_CARDS`): a draw or a play slices and joins byte strings, and the
rules read a card id from them as a plain int. Its public fields ``hands``,
``draw_pile`` and ``discard_pile`` are the same cards as tuples of ``CardId``,
as they always were; ``hand_bytes``, ``draw_bytes`` and ``discard_bytes`` are
the byte strings themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple, Protocol, TypeGuard, cast

from unoengine.core.cards import COLORS, CardId, Color, Seat
from unoengine.core.values import read_only_when_pure

if TYPE_CHECKING:
    from unoengine.core.rules.compose import AfterPlay, GameParts, HouseRule, PlayFilter
    from unoengine.core.rules.option_specs import Options
    from unoengine.core.rules.ruleset import Effect, PendingHandler, RuleSet
    from unoengine.core.rules.tables import DeckTables
    from unoengine.core.rules.windows import Window
    from unoengine.core.work import Work


MAX_CARDS: Final = 256
"""The most cards a deck may have: a card id is one byte of a hand or a pile (0 to 255)."""


def card_bytes(cards: object) -> bytes:
    """Card ids as the state holds them: one byte a card.

    Raises:
        ValueError: an id that is not an int from 0 to 255 (no deck has 256 cards or more, :data:`MAX_CARDS`).
    """
    if type(cards) is bytes:
        return cards
    try:
        return bytes(cast("Iterable[int]", cards))
    except (TypeError, ValueError):
        raise ValueError(
            f"card ids are bytes of a hand or pile, ints from 0 to {MAX_CARDS - 1}, not {cards!r}"
        ) from None


def is_int(value: object) -> TypeGuard[int]:
    """Is ``value`` exactly an ``int`` (a seat, a seed, a version), not a ``bool`` nor anything else?

    Arguments a caller may pass anything for are typed ``object``; this is the one
    check before they are used as integers. ``type() is int`` (not ``isinstance``)
    keeps ``True`` out: once narrowed to ``int``, compiled code holds ``True`` as 1.
    """
    return type(value) is int


class Game:
    """What does not change during a game: rule set, seats, options and deck tables.

    One object per (rule set, seats, options) in a process, shared by every state
    of every such game (:func:`game_of`); it pickles and copies by name, so that a
    state pickles in a few bytes plus what changes.
    """

    __slots__ = (
        "after_play",
        "allies",
        "card_effects",
        "catch_draws",
        "deal_size",
        "game_winner",
        "handler_by_type",
        "handlers",
        "house",
        "option_items",
        "options",
        "pickled",
        "play_filters",
        "rules",
        "score_round",
        "seats",
        "tables",
        "turn_handler",
        "window_of",
        "windows",
    )

    def __init__(self, rules: RuleSet, seats: int, options: Options, tables: DeckTables, parts: GameParts) -> None:
        self.rules: Final = rules
        self.seats: Final = seats
        self.options: Final = options
        self.tables: Final = tables
        handlers = parts.handlers
        self.handlers: Final[dict[str, PendingHandler]] = handlers
        """Every decision's handler by kind: the rule set's, with what its house rules add or wrap
        (:func:`~unoengine.core.rules.compose.compose`)."""
        self.handler_by_type: Final[dict[type, PendingHandler]] = {
            decision: handlers[kind] for kind, decision in rules.decisions.items() if kind in handlers
        }
        """The handler of each decision type (``handlers`` by ``rules.decisions``): found by the decision's type,
        without reading its ``kind``."""
        self.turn_handler: Final[PendingHandler] = handlers["turn"]
        """The handler of a normal turn (most decisions are turns)."""
        overrides = parts.effects
        self.card_effects: Final[tuple[tuple[Effect | None, Effect | None], ...]] = (
            tables.card_effects
            if not overrides
            else tuple(
                (
                    overrides.get((card.rank, False), effects[0]),
                    overrides.get((card.rank, True), effects[1]),
                )
                for card, effects in zip(tables.cards, tables.card_effects, strict=True)
            )
        )
        """Each physical card's effect on its normal and flex side: the deck's (``rules.effects``), or the one a
        house rule puts in its place (H-1's stacking Draw Two)."""
        self.play_filters: Final[tuple[PlayFilter, ...]] = tuple(parts.play_filters)
        """The house rules' changes to the plays offered (H-2), in order."""
        self.after_play: Final[tuple[AfterPlay, ...]] = tuple(parts.after_play)
        """The house rules' steps after a card's effect (H-2's swap)."""
        self.windows: Final[tuple[Window, ...]] = tuple(parts.windows)
        """The out-of-turn windows (:mod:`unoengine.core.rules.windows`): C-18's, then the house rules' (H-3)."""
        self.window_of: Final[dict[type, Window]] = {
            action_type: window for window in parts.windows for action_type in window.consumes
        }
        """The window that applies each action type it consumes (``uno``, ``catch``)."""
        self.deal_size: Final[int] = parts.deal_size
        """C-2, D-3, F-6 (H-8): the cards dealt to each seat."""
        self.catch_draws: Final[int] = parts.catch_draws
        """C-18 (H-7): the cards a caught seat draws."""
        self.score_round: Final[Callable[[Work, Seat], tuple[int, ...]]] = parts.score_round
        """C-21, D-19, F-28: a round's scores (the rule set's, or a house rule's: H-11)."""
        self.game_winner: Final[Callable[[Work, Seat | None], tuple[bool, Seat | None]]] = parts.game_winner
        """C-21, D-20, F-28: is the game over after a round, and who won (the rule set's, or H-11's)."""
        self.allies: Final[tuple[tuple[Seat, ...], ...]] = tuple(parts.allies(seats, seat) for seat in range(seats))
        """By seat, the seats that win with it, itself first (itself alone; H-11: its team): what an adapter that
        rewards or counts wins reads, never the house rule's option."""
        self.house: Final[tuple[HouseRule, ...]] = tuple(parts.house)
        """The house rules on in this game."""
        self.option_items: Final[tuple[tuple[str, Any], ...]] = tuple(options.to_dict().items())
        """The game's options (its rule set's keys), as sorted (name, value) pairs (views show them)."""
        defaults = rules.default_options.to_dict()
        self.pickled: Final[tuple[str, int, dict[str, Any]]] = (
            rules.name,
            seats,
            {
                name: value
                for name, value in self.option_items
                if name not in defaults or type(defaults[name]) is not type(value) or defaults[name] != value
            },
        )
        """What the game pickles as: its rule set's name, its seats and the options it does not leave at their
        defaults (a state's pickle names its game; most games set few options)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_game_by_name, self.pickled)

    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self is other or (
            self.rules is other.rules and self.seats == other.seats and self.options == other.options
        )

    def __hash__(self) -> int:
        return hash((self.rules.name, self.seats, self.options))

    def __repr__(self) -> str:
        return f"<Game {self.rules.name} seats={self.seats}>"


_GAMES_BY_NAME: dict[tuple[str, int, tuple[tuple[str, type, Any], ...]], Game] = {}
"""Games already unpickled, by (rules, seats, (option, type, value) triples): each state's pickle names its game."""


def _game_by_name(rules: str, seats: int, options: dict[str, Any]) -> Game:
    """Unpickle a :class:`Game` (rules by name, options as a mapping)."""
    key = (rules, seats, tuple([(name, type(value), value) for name, value in options.items()]))
    game = _GAMES_BY_NAME.get(key)
    if game is None:
        from unoengine.core.rules import find_rules
        from unoengine.core.rules.tables import game_of

        ruleset = find_rules(rules)
        game = game_of(ruleset, seats, ruleset.options(options))
        _GAMES_BY_NAME[key] = game
    return game


class Turn(NamedTuple):
    """``turn``: the seat plays a card or draws (C-7, C-8)."""

    seat: Seat
    kind: str = "turn"


class DrawnCardChoice(NamedTuple):
    """``drawn``: after a draw, play the drawn card or ``pass`` (C-8, F-10, F-11).

    ``card`` is ``None`` when nothing could be drawn (C-11): only ``pass`` is left.
    """

    seat: Seat
    card: CardId | None
    kind: str = "drawn"


_new_tuple: Final = tuple.__new__


def drawn_choice(seat: Seat, card: CardId | None) -> DrawnCardChoice:
    """``DrawnCardChoice(seat, card)``, built in C once per seat and card (a ``NamedTuple``'s own constructor is
    Python code; a decision is an immutable value, so one object serves every state that pends it)."""
    key = seat * 1024 + (0 if card is None else card + 1)
    choice = _DRAWN.get(key)
    if choice is None:
        choice = _new_tuple(DrawnCardChoice, (seat, card, "drawn"))
        if 0 <= seat < 64 and (card is None or 0 <= card < 1023):  # (a bounded table: every real seat and card)
            _DRAWN[key] = choice
    return choice


_DRAWN: Final[dict[int, DrawnCardChoice]] = {}
"""The drawn-card decisions built so far, by ``seat * 1024 + card + 1`` (``+ 0``: nothing was drawn)."""


class ChallengeWindow(NamedTuple):
    """``challenge``: the seat that must draw accepts or challenges (C-17, D-18, F-24, F-25).

    ``legal`` (whether the Wild Draw Four was played legally) is hidden
    information: views never show it.
    """

    seat: Seat
    player: Seat
    legal: bool
    draws: int
    after_accept: Seat
    after_success: Seat
    after_fail: Seat
    kind: str = "challenge"


class DrawStack(NamedTuple):
    """``stack``: add a draw card to the stack or ``draw`` the total (H-1, option ``stack_draw``)."""

    seat: Seat
    total: int
    kind: str = "stack"


class More(NamedTuple):
    """``more``: play another card of ``number`` or ``pass`` to end the turn (H-10, option ``multi_play``)."""

    seat: Seat
    number: int
    kind: str = "more"


class GameOver(NamedTuple):
    """``game_over``: nobody acts any more."""

    seat: None = None
    kind: str = "game_over"


class Decision(Protocol):
    """What every pending decision is: a ``NamedTuple`` whose first field is ``seat`` and whose ``kind`` names it."""

    @property
    def seat(self) -> Seat | None: ...

    @property
    def kind(self) -> str: ...


Pending = Decision
"""A pending decision: :class:`Turn`, :class:`DrawnCardChoice`, :class:`ChallengeWindow`,
:class:`DrawStack`, :class:`More`, :class:`GameOver`, or a decision type that a rule set contributes
(``RuleSet.decisions``; its handler is ``RuleSet.handlers[kind]``).

Every pending decision is a ``NamedTuple`` whose first field is ``seat`` (the seat
that must decide) and whose ``kind`` names it (``turn``, ``drawn``, ``draft``, …).
"""


def seat_of(pending: Decision) -> Seat | None:
    """``pending.seat``: the first field of the decision (every decision is a ``NamedTuple`` that starts with it),
    read by position (a field read by name is a descriptor call on a ``NamedTuple``)."""
    seat: Seat | None = cast("tuple[Any, ...]", pending)[0]
    return seat


_TURN: Final = Turn


def handler_of(game: Game, pending: Decision) -> PendingHandler:
    """The handler of the pending decision (``game.handlers[pending.kind]``), found by its type."""
    if type(pending) is _TURN:
        return game.turn_handler
    handler = game.handler_by_type.get(type(pending))
    if handler is None:
        return game.handlers[pending.kind]
    return handler


CORE_PENDING: tuple[type, ...] = (Turn, DrawnCardChoice, ChallengeWindow, GameOver)
"""The decisions of every rule set (their handlers are ``rules/decisions.py``'s ``BASE_HANDLERS``)."""

GAME_OVER = GameOver()


class Termination(Enum):
    """Why a game ended."""

    ROUND_WON = "round_won"
    """``single_round``: the round's winner wins the game (C-20, F-27, D-20)."""
    TARGET_SCORE = "target_score"
    """A seat reached the target score (C-21, D-20, F-28)."""
    BLOCKED = "blocked"
    """A blocked round ended a single-round game with no winner (G-6)."""


class Outcome(NamedTuple):
    """How the game ended: the termination, the winner (or ``None``) and the scores."""

    termination: Termination
    winner: Seat | None
    scores: tuple[int, ...]


_FIELD_NAMES: Final = (
    "game",
    "seed",
    "shuffles",
    "round",
    "dealer",
    "hands",
    "draw_pile",
    "discard_pile",
    "color",
    "direction",
    "power",
    "pending",
    "unsafe",
    "blocked",
    "public_bottom",
    "scores",
    "round_scores",
    "round_winner",
    "outcome",
    "steps",
    "known",
    "aside",
)
"""The state's fields, in order (:data:`FIELDS`)."""

_SLOTS: Final = tuple(
    {"hands": "hand_bytes", "draw_pile": "draw_bytes", "discard_pile": "discard_bytes"}.get(name, name)
    for name in _FIELD_NAMES
)
"""The attributes that hold them: the hands and piles as ``bytes`` (the fields are their tuples)."""


class GameState:
    """Everything about a game at one moment (an immutable value).

    Build one with :func:`unoengine.new_game`; change it only with
    :func:`unoengine.apply`. What never changes during a game (rule set, seats,
    options, deck tables) is in :attr:`game`, shared between states. This class
    is the one list of the state's fields (:data:`FIELDS`, in the order of the
    constructor's arguments): the engine's scratch copy
    (``unoengine.core.work.Work``) is derived from it.

    It is a compiled class (mypyc) with its value semantics written out, not a
    ``NamedTuple``: reading a field is a struct read and building a state a
    direct call, where a ``NamedTuple`` is built through ``tuple.__new__`` (about
    a thousand instructions of a step). It still acts as the ``NamedTuple`` it
    was: ``==`` and ``hash`` by its fields, ``_replace(**changes)``, ``_fields``,
    ``_asdict()``, iteration over the fields in order, and a pickle of its fields.
    Nothing assigns a field after construction.

    Fields: ``game``; ``seed``; ``shuffles`` (how many shuffles, and cuts, this
    game has made: shuffle n uses seed ``f"{seed}:{n}"``, G-1); ``round``;
    ``dealer`` (the round's dealer; in Duo, the round's Player 1, D-2, D-5);
    ``hands``; ``draw_pile``; ``discard_pile``; ``color``; ``direction``;
    ``power`` (per-seat flags a rule set keeps: Flex's Power Cards, ``True`` for
    green, F-2; empty otherwise); ``pending``; ``unsafe`` (the seat that has one
    card, has not called UNO, and can still be caught, C-18); ``blocked``
    (consecutive seats that drew nothing and passed, G-6); ``public_bottom`` (how
    many cards at the bottom of the draw pile are in a publicly known order, D-4,
    D-10); ``scores``; ``round_scores`` (each finished round's score changes,
    oldest first, G-5); ``round_winner``; ``outcome``; ``steps`` (actions applied
    so far); ``known`` (cards a seat has seen in another seat's hand and that are
    still there, as ``(viewer, holder, card)`` triples in the order learnt: the
    hand shown to the challenger, C-17, D-18, F-24, and the hands given away in an
    H-2 swap. A card leaves when its holder plays it; the knowledge moves with a
    swapped hand; a new deal clears it. Each viewer sees only its own,
    ``PlayerView.known``); ``aside`` (No Mercy: the points of the hands knocked
    out of this round, N-27, which the round's winner scores; 0 otherwise).
    """

    __slots__ = _SLOTS

    _fields: ClassVar[tuple[str, ...]] = _FIELD_NAMES
    """The fields, in order (as a ``NamedTuple`` names them)."""

    def __init__(
        self,
        game: Game,
        seed: int,
        shuffles: int,
        round: int,
        dealer: Seat,
        hands: tuple[bytes | tuple[CardId, ...], ...],
        draw_pile: bytes | tuple[CardId, ...],
        discard_pile: bytes | tuple[CardId, ...],
        color: Color | None,
        direction: int,
        power: tuple[bool, ...],
        pending: Pending,
        unsafe: Seat | None,
        blocked: int,
        public_bottom: int,
        scores: tuple[int, ...],
        round_scores: tuple[tuple[int, ...], ...],
        round_winner: Seat | None,
        outcome: Outcome | None,
        steps: int,
        known: tuple[tuple[Seat, Seat, CardId], ...] = (),
        aside: int = 0,
    ) -> None:
        self.game: Final = game
        self.seed: Final = seed
        self.shuffles: Final = shuffles
        self.round: Final = round
        self.dealer: Final = dealer
        # The hands and piles as bytes (the engine gives them so; anything else is converted, or refused).
        for hand in hands:
            if type(hand) is not bytes:
                hands = tuple([card_bytes(cards) for cards in hands])
                break
        self.hand_bytes: Final[tuple[bytes, ...]] = cast("tuple[bytes, ...]", hands)
        self.draw_bytes: Final = draw_pile if type(draw_pile) is bytes else card_bytes(draw_pile)
        self.discard_bytes: Final = discard_pile if type(discard_pile) is bytes else card_bytes(discard_pile)
        self.color: Final = color
        self.direction: Final = direction
        self.power: Final = power
        self.pending: Final = pending
        self.unsafe: Final = unsafe
        self.blocked: Final = blocked
        self.public_bottom: Final = public_bottom
        self.scores: Final = scores
        self.round_scores: Final = round_scores
        self.round_winner: Final = round_winner
        self.outcome: Final = outcome
        self.steps: Final = steps
        self.known: Final = known
        self.aside: Final = aside

    @property
    def hands(self) -> tuple[tuple[CardId, ...], ...]:
        """Each seat's hand, the card ids in the order received (``hand_bytes`` as tuples)."""
        return tuple([tuple(hand) for hand in self.hand_bytes])

    @property
    def draw_pile(self) -> tuple[CardId, ...]:
        """The draw pile's card ids, top at the end (``draw_bytes`` as a tuple)."""
        return tuple(self.draw_bytes)

    @property
    def discard_pile(self) -> tuple[CardId, ...]:
        """The discard pile's card ids, top at the end (``discard_bytes`` as a tuple)."""
        return tuple(self.discard_bytes)

    def _values(self) -> tuple[Any, ...]:
        """The fields' values, in order, the hands and piles as bytes (the same cards: ``==``, ``hash``)."""
        return (
            self.game,
            self.seed,
            self.shuffles,
            self.round,
            self.dealer,
            self.hand_bytes,
            self.draw_bytes,
            self.discard_bytes,
            self.color,
            self.direction,
            self.power,
            self.pending,
            self.unsafe,
            self.blocked,
            self.public_bottom,
            self.scores,
            self.round_scores,
            self.round_winner,
            self.outcome,
            self.steps,
            self.known,
            self.aside,
        )

    def _public(self) -> list[Any]:
        """The fields' values, in order, the hands and piles as tuples (as the fields read)."""
        values = list(self._values())
        values[5] = self.hands
        values[6] = self.draw_pile
        values[7] = self.discard_pile
        return values

    def __iter__(self) -> Iterator[Any]:
        return iter(self._public())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or self._values() == other._values()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is not other and self._values() != other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self) -> tuple[Any, ...]:
        # The hands and piles as the bytes they are (one object, not a tuple of ints each: most of a pickle's
        # work), the colour as its index and the decision as (its type, its fields): an Enum and a NamedTuple
        # pickle and unpickle through Python code (Enum.__reduce_ex__ and EnumType.__call__, __getnewargs__), a
        # small int and a plain tuple do not.
        values = list(self._values())
        color = self.color
        values[8] = -1 if color is None else _COLOR_LIST.index(color)
        pending = self.pending
        values[11] = (type(pending), tuple(pending)) if isinstance(pending, tuple) else (None, pending)
        return (_unpickled_state, tuple(values))

    def _replace(self, **changes: Any) -> GameState:
        """A copy with some fields changed (as ``NamedTuple._replace``).

        Raises:
            ValueError: a name that is not a field, or a card id that is not a byte (0 to 255).
        """
        unknown = [name for name in changes if name not in _FIELD_SET]
        if unknown:
            raise ValueError(f"Got unexpected field names: {unknown!r}")
        values = [changes.get(name, value) for name, value in zip(FIELDS, self._values(), strict=True)]
        return GameState(*values)

    def _asdict(self) -> dict[str, Any]:
        """The fields by name, in order (as ``NamedTuple._asdict``)."""
        return dict(zip(FIELDS, self._public(), strict=True))

    @property
    def rules(self) -> RuleSet:
        """The rule set (from :attr:`game`)."""
        return self.game.rules

    @property
    def options(self) -> Options:
        """The game's resolved options (from :attr:`game`)."""
        return self.game.options

    @property
    def tables(self) -> DeckTables:
        """The deck's static tables (from :attr:`game`)."""
        return self.game.tables

    @property
    def seats(self) -> int:
        """The number of seats (from :attr:`game`)."""
        return self.game.seats

    @property
    def to_act(self) -> Seat | None:
        """The seat expected to act next, or ``None`` when the game is over."""
        seat: Seat | None = self.pending.seat
        return seat

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome is not None

    @property
    def top(self) -> CardId | None:
        """The top card of the discard pile (``None`` while a decision hides it: Duo's draft)."""
        discard = self.discard_bytes
        if not discard or type(self.pending) in self.game.rules.hides_top:
            return None
        return discard[-1]

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self  # an immutable value: every field is immutable, the game is shared

    def __repr__(self) -> str:
        from unoengine.core.notation import format_state

        return f"GameState.parse({format_state(self)!r})"

    @staticmethod
    def parse(text: object) -> GameState:
        """The state of a one-line state notation (:func:`unoengine.core.notation.parse_state`).

        Raises:
            InvalidNotationError: the text is not a state.
        """
        from unoengine.core.notation import parse_state

        return parse_state(text)


def _unpickled_state(*values: Any) -> GameState:
    """The state of a pickle (:meth:`GameState.__reduce__`: the hands and piles as bytes, the colour as its
    index, the decision as its type and fields)."""
    fields = list(values)
    color: int = fields[8]
    fields[8] = None if color == -1 else _COLOR_LIST[color]
    kind, args = fields[11]
    fields[11] = args if kind is None else _new_tuple(kind, args)
    return GameState(*fields)


_COLOR_LIST: Final = COLORS

FIELDS: Final[tuple[str, ...]] = GameState._fields
"""The state's fields, in order (the one list; everything else derives from it)."""
_FIELD_SET: Final = frozenset(FIELDS)

read_only_when_pure(Game)
