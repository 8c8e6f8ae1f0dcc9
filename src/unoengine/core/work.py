"""The engine's scratch pad: a mutable copy of one state while one action resolves.

``apply`` copies the state into a :class:`Work`, the rules mutate it (draw cards,
set the next pending decision) and :meth:`Work.freeze` builds the next immutable
:class:`GameState` once. Rule modules use only these mechanics, so that drawing,
refilling the draw pile and passing the turn are written once.
"""

from __future__ import annotations

import _random
from collections.abc import Callable
from hashlib import sha512
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from mypy_extensions import i64

from unoengine.core.actions import Play
from unoengine.core.cards import Card, CardId, Color, Seat
from unoengine.core.events import CardsDrawn, Event, GameEnded, Reshuffled, RoundEnded, RoundStarted
from unoengine.core.state import GAME_OVER, Game, GameState, Outcome, Pending, Termination, Turn

if TYPE_CHECKING:
    from unoengine.core.rules.option_specs import Options
    from unoengine.core.rules.ruleset import Effect, RuleSet
    from unoengine.core.rules.tables import DeckTables

TURNS: Final[tuple[Turn, ...]] = tuple(Turn(seat) for seat in range(16))
CARD_BYTE: Final[tuple[bytes, ...]] = tuple(bytes((card,)) for card in range(256))
"""Each card id as the one byte a hand or a pile holds it as (a table: no ``bytes`` built per card)."""
_new_tuple: Final[Callable[..., Any]] = tuple.__new__
_STATE: Final = GameState
T = TypeVar("T")


def make_state(cls: type[T], fields: tuple[Any, ...]) -> T:
    """A :class:`GameState` (``cls`` is ``GameState``) or a ``NamedTuple`` of type ``cls`` from its fields in order."""
    if cls is _STATE:
        state: T = GameState(*fields)  # type: ignore[assignment]
        return state
    built: T = _new_tuple(cls, fields)
    return built


def shuffled(seed: int, n: int, cards: list[CardId]) -> list[CardId]:
    """Shuffle ``cards`` in place with shuffle number ``n`` of the game (G-1, R-7).

    The algorithm is written out here, not borrowed from ``random.shuffle``, so
    that the record format does not depend on the standard library keeping its
    shuffle: Fisher–Yates from the last position down, each index drawn with
    ``getrandbits`` and rejection, from ``random.Random(f"{seed}:{n}")``. It is
    exactly what CPython's ``random.shuffle`` does (a test checks it); the words are
    drawn as :func:`shuffle_in_words` draws them, from a generator seeded by
    :func:`seeded_generator`.
    """
    return shuffle_in_words(seeded_generator(f"{seed}:{n}"), cards)


def seeded_generator(text: str) -> _random.Random:
    """A Mersenne Twister in the state of ``random.Random(text)``, seeded without its Python code.

    ``Random.seed`` (version 2, CPython 3.2 on) turns a ``str`` into the int
    ``int.from_bytes(a + sha512(a).digest())`` of its UTF-8 bytes ``a`` (big-endian)
    and seeds the C generator with it; ``_random.Random(int)`` seeds the same C
    generator with that int directly (a test compares ``getstate()`` over many texts).
    """
    data = text.encode()
    return _random.Random(int.from_bytes(data + sha512(data).digest(), "big"))


def shuffle_with(getrandbits: Callable[[int], int], cards: list[CardId]) -> list[CardId]:
    """Shuffle ``cards`` in place as ``random.shuffle`` does, drawing from ``getrandbits`` (see :func:`shuffled`)."""
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        width = bound.bit_length()
        j = getrandbits(width)
        while j >= bound:
            j = getrandbits(width)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffle_in_words(rng: _random.Random, cards: list[CardId]) -> list[CardId]:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle`` does (and
    :func:`shuffle_with` from ``rng.getrandbits``), leaving ``rng`` in the same
    state, with one call of ``rng.random`` for two cards instead of one call a card
    (fewer than 256 cards, every deck's, from the C generator's own ``random``:
    :func:`_shuffle_in_pairs`); anything else is shuffled by :func:`shuffle_with`.

    Fisher–Yates from the last position ``i`` down: each index ``j`` is
    ``getrandbits(k)`` with ``k`` the bit length of ``i + 1``, drawn again while
    ``j > i``; ``getrandbits(k)`` for ``k <= 32`` is the top ``k`` bits of the
    generator's next 32-bit word.
    """
    i: i64 = len(cards) - 1
    if i < 255 and type(rng).random is _RANDOM and type(rng).getrandbits is _GETRANDBITS:
        _shuffle_in_pairs(rng, cast("list[object]", cards), i)  # moved, never read as numbers: no unboxing
        return cards
    return shuffle_with(rng.getrandbits, cards)


_RANDOM = _random.Random.random
_GETRANDBITS = _random.Random.getrandbits


def _shuffle_in_pairs(rng: _random.Random, items: list[object], i: i64) -> None:
    """:func:`shuffle_in_words` for fewer than 256 cards, from ``rng.random()``: each index is
    then at most 8 bits, the top byte of a word or less, and ``random()`` is two words
    (``(a >> 5) * 2**26 + (b >> 6)``, over ``2**53``), so each call gives the top bytes of
    two words, exactly. A pair is drawn only while two positions are left (each takes
    at least one word); a word alone (the last position's) comes from ``getrandbits(8)``, its top byte.

    The loop's numbers are native 64-bit ints in the compiled build (``i64``): the index ``j`` of
    position ``i`` is the top byte shifted right by ``8 - k``, ``k`` the bit length of ``i + 1``,
    kept as ``shift`` and ``half`` (``2 ** (k - 1)``) as ``i`` goes down, instead of ``bit_length()``.
    """
    random = rng.random
    spare: i64 = -1
    """The top byte of the second word of the last pair, while not used yet."""
    half: i64 = 1
    shift: i64 = 7
    while half * 2 <= i + 1:
        half *= 2
        shift -= 1
    top: i64
    while i > 0:
        if spare >= 0:
            top = spare
            spare = -1
        elif i >= 2:
            x: i64 = int(random() * 9007199254740992.0)  # (a >> 5) << 26 | (b >> 6), exactly
            top = x >> 45  # a >> 24
            spare = (x >> 18) & 0xFF  # b >> 24
        else:
            top = rng.getrandbits(8)
        j = top >> shift
        if j <= i:
            items[i], items[j] = items[j], items[i]
            i -= 1
            if i < half - 1:  # i + 1 < 2 ** (k - 1): one bit fewer
                half >>= 1
                shift += 1


class Work:
    """A mutable copy of a :class:`GameState` (internal).

    It has the state's fields as attributes, plus ``events`` (the list events go to, or ``None``),
    ``prior`` and ``prior_color`` (the pending decision and colour before the action).
    ``hands`` is a list of ``bytes`` while the action resolves, and the piles are ``bytes`` (the state's
    ``hand_bytes``, ``draw_bytes``, ``discard_bytes``: one byte a card id); ``power`` stays a tuple, replaced by
    :meth:`set_power` (most actions leave it as it is, and it is not copied for them). ``__init__`` and
    ``freeze`` name every field of ``GameState`` in order (the one field list):
    tests/test_work_fields.py checks ``Work(s).freeze() == s`` over playout states
    of every rule set and over a state with a distinct value in every field.
    """

    # The state's fields, typed for the rules that use them.
    game: Game
    seed: int
    shuffles: int
    round: int
    dealer: Seat
    hands: list[bytes]
    draw_pile: bytes
    discard_pile: bytes
    color: Color | None
    direction: int
    power: tuple[bool, ...]
    pending: Pending
    unsafe: Seat | None
    blocked: int
    public_bottom: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    round_winner: Seat | None
    outcome: Outcome | None
    steps: int
    known: tuple[tuple[Seat, Seat, CardId], ...]
    aside: int
    # What only the resolution of one action needs.
    rules: RuleSet
    options: Options
    tables: DeckTables
    seats: int
    prior: Pending
    prior_color: Color | None
    events: list[Event] | None

    def __init__(self, state: GameState, events: list[Event] | None) -> None:
        """Copy ``state``: its fields become attributes (lists for hands and flags)."""
        self.game = state.game
        self.seed = state.seed
        self.shuffles = state.shuffles
        self.round = state.round
        self.dealer = state.dealer
        hands = state.hand_bytes
        self.draw_pile = state.draw_bytes
        self.discard_pile = state.discard_bytes
        self.color = state.color
        self.direction = state.direction
        self.pending = state.pending
        self.unsafe = state.unsafe
        self.blocked = state.blocked
        self.public_bottom = state.public_bottom
        self.scores = state.scores
        self.round_scores = state.round_scores
        self.round_winner = state.round_winner
        self.outcome = state.outcome
        self.steps = state.steps
        self.known = state.known
        self.aside = state.aside
        self.hands = list(hands)
        self.power = state.power
        game = self.game
        self.rules = game.rules
        self.options = game.options
        self.tables = game.tables
        self.seats = game.seats
        self.prior = self.pending
        self.prior_color = self.color
        self.events = events

    def freeze(self) -> GameState:
        """The immutable state this work describes (the work may go on)."""
        return GameState(
            self.game,
            self.seed,
            self.shuffles,
            self.round,
            self.dealer,
            tuple(self.hands),
            self.draw_pile,
            self.discard_pile,
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

    def set_power(self, seat: Seat, green: bool) -> None:
        """Set one seat's flag in ``power`` (a new tuple: the state's is shared)."""
        power = self.power
        self.power = (*power[:seat], green, *power[seat + 1 :])

    # -- seats and turns -------------------------------------------------------

    def next_seat(self, seat: Seat, steps: int = 1) -> Seat:
        """The seat ``steps`` places after ``seat`` in the current direction."""
        return (seat + self.direction * steps) % self.seats

    def turn(self, seat: Seat) -> None:
        """``seat`` takes a normal turn next."""
        self.pending = TURNS[seat]

    def others(self, seat: Seat) -> list[Seat]:
        """Every other seat, in turn order from the next one (F-19, F-23 Reading)."""
        return [self.next_seat(seat, k) for k in range(1, self.seats)]

    # -- cards -----------------------------------------------------------------

    def shuffle(self, cards: list[CardId]) -> list[CardId]:
        """Shuffle ``cards`` with the game's next shuffle number (G-1)."""
        shuffled(self.seed, self.shuffles, cards)
        self.shuffles += 1
        return cards

    def find(self, seat: Seat, card: Card) -> CardId:
        """The first physical card of this kind in the seat's hand.

        The kind is found from a card of the hand that is ``card`` itself (the
        engine's actions hold the deck's own card objects), without the lookup of
        :meth:`DeckTables.kind` (a boxed id hashed); then the first card of that kind.
        """
        tables = self.tables
        kind_of = tables.kind_of
        cards = tables.cards
        hand = self.hands[seat]
        size = len(hand)
        for index in range(size):  # (by index: a byte read is an int, where iterating bytes boxes each)
            card_id = hand[index]
            if cards[card_id] is card:
                same = kind_of[card_id]
                for other in range(size):
                    first = hand[other]
                    if kind_of[first] == same:
                        return first
        kind = tables.kind(card)
        for index in range(size):
            card_id = hand[index]
            if kind_of[card_id] == kind:
                return card_id
        raise AssertionError(f"no {card} in seat {seat}'s hand")

    def take(self, seat: Seat, card: CardId) -> None:
        """Remove one physical card from a hand."""
        hand = self.hands[seat]
        index = 0
        while hand[index] != card:  # (raises IndexError when the card is not there)
            index += 1
        if index == 0:
            self.hands[seat] = hand[1:]
        elif index == len(hand) - 1:
            self.hands[seat] = hand[:index]
        else:
            self.hands[seat] = hand[:index] + hand[index + 1 :]
        if self.known:
            self.known = tuple(fact for fact in self.known if fact[2] != card)

    def learn(self, viewer: Seat, holder: Seat, cards: bytes) -> None:
        """``viewer`` has seen ``cards`` in ``holder``'s hand (C-17's shown hand, H-2's swap)."""
        if viewer == holder:
            return
        known = self.known
        self.known = known + tuple(fact for fact in ((viewer, holder, card) for card in cards) if fact not in known)

    def draw(self, seat: Seat, count: int) -> bytes:
        """``seat`` draws ``count`` cards, refilling the draw pile as the rules say.

        When both piles together cannot supply them, the seat draws what there is
        (C-11). Returns the cards drawn, in order.
        """
        # (Written for the compiled build: ``len()`` and ``a + b`` of bytes are inlined, ``not`` and ``+=`` are not.)
        got = b""
        while count > 0:
            pile = self.draw_pile
            size = len(pile)
            if size == 0:
                if not self.refill():
                    break
                pile = self.draw_pile
                size = len(pile)
            take = count if count < size else size
            part = pile[size - 1 :] if take == 1 else pile[: -take - 1 : -1]  # (the top card: one slice)
            got = part if len(got) == 0 else got + part
            self.draw_pile = pile[: size - take]
            count -= take
        if len(got) != 0:
            hands = self.hands
            hands[seat] = hands[seat] + got
        if self.events is not None:
            self.events.append(CardsDrawn(seat, tuple(got)))
        return got

    def refill(self) -> bool:
        """Turn the discard pile (less its top card) into a new draw pile (C-10, D-10).

        Returns False when there is nothing to refill with (C-11).
        """
        discard = self.discard_pile
        if len(discard) < 2:
            return False
        rest = list(discard[:-1])
        self.discard_pile = discard[-1:]
        if self.rules.turn_over_discards:
            # D-10: turned face down, not shuffled: the oldest discard is drawn first.
            rest.reverse()
            self.public_bottom = len(rest)
        else:
            # C-10: shuffled; wilds lose their chosen colour (no colour is stored per card).
            self.shuffle(rest)
        self.draw_pile = bytes(rest)
        if self.events is not None:
            self.events.append(Reshuffled(len(rest), self.rules.turn_over_discards))
        return True

    def emit(self, event: Event) -> None:
        """Record an event, when the caller asked for events.

        The rules build an event only after checking ``events is not None``: most
        callers (bots, search, simulations) ask for none, and building one costs
        more than the check.
        """
        if self.events is not None:
            self.events.append(event)

    # -- playing a card and ending a round ---------------------------------------

    def play_card(self, seat: Seat, card: CardId, action: Play, effect: Effect | None = None) -> None:
        """Put ``card`` from ``seat``'s hand on the discard pile and resolve it.

        Opens the UNO window (C-18) when the play leaves one card without ` uno`,
        runs the rule set's ``on_play`` hook, the card's effect and the
        ``after_card`` hook (``play_hooks``), and ends the round when the hand is empty (C-20, D-12, F-27).
        """
        tables = self.tables
        face = tables.cards[card]
        self.take(seat, card)
        self.discard_pile = self.discard_pile + CARD_BYTE[card]
        printed = tables.card_color[card]
        self.color = action.color if printed is None else printed
        self.blocked = 0
        rules = self.rules
        hooks = rules.play_hooks
        if hooks is not None:
            hooks.on_play(self, seat, action)
        left = len(self.hands[seat])
        if left == 1 and not action.uno:
            self.unsafe = seat
        final = left == 0
        if effect is None:
            effect = self.game.card_effects[card][1 if action.flex else 0]
            if effect is None:
                effect = rules.effects[(face.rank, action.flex)]  # raises: the rule set has no such effect
        effect.run(self, seat, face, action, final)
        if not final:
            for after in self.game.after_play:  # a house rule's step after the effect (H-2's swap)
                after.run(self, seat, card, action)
        if hooks is not None:
            hooks.after_card(self)
        if final:
            self.end_round(seat)

    def end_round(self, winner: Seat | None) -> None:
        """Score the round (C-21, D-19, F-28; none when blocked, G-6), then deal the next or end."""
        game = self.game
        deltas = (0,) * self.seats if winner is None else game.score_round(self, winner)
        self.scores = tuple(a + b for a, b in zip(self.scores, deltas, strict=True))
        self.round_scores += (deltas,)
        self.round_winner = winner
        self.unsafe = None
        if self.events is not None:
            self.emit(RoundEnded(self.round, winner, deltas, tuple([tuple(hand) for hand in self.hands])))
        if winner is None:
            over, game_winner = self.options.single_round, None
            termination = Termination.BLOCKED
        else:
            over, game_winner = game.game_winner(self, winner)
            termination = Termination.ROUND_WON if self.options.single_round else Termination.TARGET_SCORE
        if over:
            self.pending = GAME_OVER
            self.outcome = Outcome(termination, game_winner, self.scores)
            if self.events is not None:
                self.emit(GameEnded(game_winner, self.scores))
            return
        self.round += 1
        self.dealer = self.rules.next_dealer(self)
        self.start_round(None)

    def start_round(self, order: list[CardId] | None) -> None:
        """Gather and shuffle the deck (or use ``order``, top first), then deal (C-2, D-3, F-6)."""
        if order is None:
            order = self.shuffle(list(range(len(self.tables.cards))))
        else:
            self.shuffles += 1  # a given deck stands for this shuffle (G-1)
        self.hands = [b"" for _ in range(self.seats)]
        self.discard_pile = b""
        self.color = None
        self.direction = 1
        self.power = tuple(self.rules.round_flags(self.seats))
        self.unsafe = None
        self.blocked = 0
        self.public_bottom = 0
        self.known = ()
        self.aside = 0
        if self.events is not None:
            self.emit(RoundStarted(self.round, self.dealer))
        self.rules.deal(self, order)
