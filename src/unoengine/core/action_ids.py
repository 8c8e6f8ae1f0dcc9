"""Integer action ids: one versioned table of every action of every rule set (docs/ACTIONS.md).

Learning code wants a fixed-size action space: every action of Classic, Duo
(either ``duo_deck``), Flex and No Mercy has one integer id in ``0 .. NUM_ACTIONS - 1``,
the same for every rule set, every seat count and every seat. Seats are written
relative to the actor: a targeted flex side or a ``catch`` names an *offset*
``1 .. MAX_OFFSET``, and the seat is ``(actor + offset) % seats``. So the id of
"catch the next player" is the same for every seat.

The table is data: the card kinds are read from each rule set's deck (with every
allowed value of its text options), sorted by :func:`kind_key`, and each kind
gives its plays (a colour for each wild but the Wild Color Roulette, the flex side
for Flex cards, with and without ``uno``). The layout is fixed by :data:`ACTION_IDS_VERSION`: any change
of an id bumps it (a golden test pins the table).

>>> from unoengine.core.engine import legal_actions, new_game
>>> state = new_game("classic", 2, seed=1)
>>> seat = state.to_act
>>> ids = legal_ids(state, seat)
>>> [str(action_of(i, seat, state.seats)) for i in ids] == [str(a) for a in legal_actions(state, seat)]
True
>>> action_id("draw", 0, 2) == action_id("draw", 1, 4) == DRAW_ID
True
>>> str(action_of(action_id("catch 0", 3, 4), 3, 4))
'catch 0'
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from typing import NamedTuple, cast

from unoengine.core import actions as A
from unoengine.core.cards import COLORS, Card, Color, Rank, Seat, format_card
from unoengine.core.engine import legal_actions
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.rules import RULESETS, RuleSet
from unoengine.core.state import GameState, is_int

ACTION_IDS_VERSION = 3
"""The version of the table. Any change of any id (a new kind, a new block, a new order) bumps it.

Version 2 appends the block ``swap`` (H-2's ``R7>+k``); the ids of version 1 are unchanged.
A jump-in (H-3) is a play: it has its play's id, for the seat that jumps in.
Version 3 appends the block ``nomercy``: the plays of No Mercy's new card kinds (N-1 …, ranks
:data:`_VERSION_3_RANKS`); the ids of version 2 are unchanged."""


class ActionIdError(InvalidNotationError):
    """An action id out of range or meaningless for the seat count, or an action with no id."""


# -- the card kinds ----------------------------------------------------------------

_COLOR_ORDER = {color: index for index, color in enumerate(COLORS)}
_RANK_ORDER = {rank: index for index, rank in enumerate(Rank)}


def kind_key(card: Card) -> tuple[int, int, int, int, int]:
    """The sort key of the table's card kinds (docs/ACTIONS.md, "Card kinds").

    Colour (red, yellow, green, blue, then the wilds), then rank in the order of
    :class:`Rank` (number, Skip, Reverse, Draw Two, Wild, Wild Draw Four, Wild All
    Flip, Flex Wild Draw Two, Flex Wild All Draw, Flex Wild Draw Four, then No Mercy's
    Draw Four, Skip Everyone, Discard All, Wild Reverse Draw Four, Wild Draw Six, Wild
    Draw Ten, Wild Color Roulette), then number,
    then the flex side's colour (none first, then red, yellow, green, blue), then
    the flip symbol (without first).
    """
    return (
        4 if card.color is None else _COLOR_ORDER[card.color],
        _RANK_ORDER[card.rank],
        -1 if card.number is None else card.number,
        -1 if card.flex_color is None else _COLOR_ORDER[card.flex_color],
        int(card.flip),
    )


def _decks_of(ruleset: RuleSet) -> Iterator[tuple[Card, ...]]:
    """One rule set's deck under every value of its options that change the deck."""
    specs = [spec for spec in ruleset.option_specs if spec.deck]
    names = [spec.name for spec in specs]
    for values in itertools.product(*(spec.choices for spec in specs)):
        yield ruleset.make_deck(ruleset.options(dict(zip(names, values, strict=True))))


def _decks() -> Iterator[tuple[frozenset[Rank], tuple[Card, ...]]]:
    """Every rule set's deck under every value of its options that change the deck, with its targeted ranks."""
    for ruleset in RULESETS.values():
        for deck in _decks_of(ruleset):
            yield ruleset.targeted, deck


def ruleset_kinds(ruleset: RuleSet) -> tuple[Card, ...]:
    """The card kinds of one rule set (its decks under every value of its deck options), in :data:`KINDS` order.

    >>> from unoengine.core.rules import find_rules
    >>> len(ruleset_kinds(find_rules("classic")))
    54
    """
    kinds = {card for deck in _decks_of(ruleset) for card in deck}
    return tuple(sorted(kinds, key=kind_key))


def _kinds() -> tuple[tuple[Card, ...], frozenset[Card], frozenset[Card]]:
    """The sorted kinds, and those whose flex side is untargeted / targeted in some rule set."""
    kinds: set[Card] = set()
    untargeted: set[Card] = set()
    targeted: set[Card] = set()
    for targeted_ranks, deck in _decks():
        for card in deck:
            kinds.add(card)
            if card.is_flex:
                (targeted if card.rank in targeted_ranks else untargeted).add(card)
    return tuple(sorted(kinds, key=kind_key)), frozenset(untargeted), frozenset(targeted)


KINDS, _UNTARGETED_FLEX, _TARGETED_FLEX = _kinds()
"""Every card kind of every rule set, in :func:`kind_key` order."""

MAX_SEATS = max(ruleset.seats.stop - 1 for ruleset in RULESETS.values())
"""The most seats of any rule set (Classic: 10)."""

MAX_OFFSET = MAX_SEATS - 1
"""Targets and catches are offsets ``1 .. MAX_OFFSET`` from the actor."""


# -- the table ---------------------------------------------------------------------


class Slot(NamedTuple):
    """One id of the table.

    ``action`` is the action itself when ``offset`` is 0; for a relative slot
    (``offset`` 1 .. :data:`MAX_OFFSET`) it is the action with its seat left out
    (a targeted play with ``target=None``, or ``catch 0`` for a catch), and the
    seat is ``(actor + offset) % seats``.
    """

    action: A.Action
    offset: int
    notation: str
    """The slot's notation: the action's, with ``>+k`` / ``catch +k`` for an offset."""


def _colors(card: Card) -> tuple[Color | None, ...]:
    """The colours a play of ``card`` may name: each of the four for a wild, none for a coloured card or the
    Wild Color Roulette (N-17: played without a colour, ``Rank.names_color``)."""
    return COLORS if card.rank.names_color else (None,)


_VERSION_3_RANKS = frozenset(
    {
        Rank.DRAW_FOUR,
        Rank.SKIP_EVERYONE,
        Rank.DISCARD_ALL,
        Rank.WILD_REVERSE_DRAW_FOUR,
        Rank.WILD_DRAW_SIX,
        Rank.WILD_DRAW_TEN,
        Rank.WILD_COLOR_ROULETTE,
    }
)
"""The ranks of version 3 (No Mercy, N-1 …): their kinds' plays are in block ``nomercy``, after ``swap``, so that
every id of version 2 keeps its number. The kinds of every other rank are in block ``play``."""


def _plays(kinds: list[Card]) -> list[Slot]:
    """The untargeted plays of ``kinds``: for each kind its normal side, then its untargeted flex side; for each
    side each colour it may name; for each colour without, then with ``uno``."""
    plays: list[Slot] = []
    for card in kinds:
        sides = [False] + ([True] if card in _UNTARGETED_FLEX else [])
        for flex in sides:
            for color in _colors(card):
                for uno in (False, True):
                    action = A.play(card, color, flex, None, uno)
                    plays.append(Slot(action, 0, A.format_action(action)))
    return plays


def _build() -> tuple[tuple[Slot, ...], dict[str, range]]:
    slots: list[Slot] = []
    blocks: dict[str, range] = {}

    def block(name: str, items: list[Slot]) -> None:
        blocks[name] = range(len(slots), len(slots) + len(items))
        slots.extend(items)

    block("play", _plays([card for card in KINDS if card.rank not in _VERSION_3_RANKS]))
    targeted: list[Slot] = []
    for card in KINDS:
        if card not in _TARGETED_FLEX:
            continue
        for color in COLORS:
            for offset in range(1, MAX_OFFSET + 1):
                for uno in (False, True):
                    action = A.play(card, color, True, None, uno)
                    text = f"{format_card(card)}@flex:{color.letter}>+{offset}" + (" uno" if uno else "")
                    targeted.append(Slot(action, offset, text))
    block("targeted", targeted)
    block("draw", [Slot(A.DRAW, 0, "draw")])
    block("pass", [Slot(A.PASS, 0, "pass")])
    block("uno", [Slot(A.CALL_UNO, 0, "uno")])
    block("catch", [Slot(A.catch(0), offset, f"catch +{offset}") for offset in range(1, MAX_OFFSET + 1)])
    for name, word in (("accept", A.ACCEPT), ("challenge", A.CHALLENGE), ("keep", A.KEEP), ("reject", A.REJECT)):
        block(name, [Slot(word, 0, name)])
    block("color", [Slot(A.choose_color(color), 0, f"color {color.letter}") for color in COLORS])
    # H-2 (version 2): a 7 of Classic names the seat to swap hands with; appended, so earlier ids keep their numbers.
    sevens = [card for card in KINDS if card.number == 7 and card.flex_color is None and not card.flip]
    swaps = [
        Slot(A.play(card, None, False, None, False), offset, f"{format_card(card)}>+{offset}")
        for card in sevens
        for offset in range(1, MAX_OFFSET + 1)
    ]
    block("swap", swaps)
    # N-1 … (version 3): No Mercy's new kinds, appended likewise, so the ids of version 2 keep their numbers.
    block("nomercy", _plays([card for card in KINDS if card.rank in _VERSION_3_RANKS]))
    return tuple(slots), blocks


SLOTS, BLOCKS = _build()
"""The table, id by id, and its blocks (name -> range of ids) in id order."""

NUM_ACTIONS = len(SLOTS)
"""The size of the action space: ids are ``0 .. NUM_ACTIONS - 1``."""

DRAW_ID = BLOCKS["draw"].start
PASS_ID = BLOCKS["pass"].start
UNO_ID = BLOCKS["uno"].start


def table_notation() -> tuple[str, ...]:
    """The notation of every slot, id by id (``W:g``, ``FW+2@flex:r>+3``, ``catch +1``)."""
    return tuple(slot.notation for slot in SLOTS)


def table_digest() -> str:
    """SHA-256 of the table's notation, one slot per line: pinned by a golden test."""
    return hashlib.sha256("\n".join(table_notation()).encode()).hexdigest()


# -- per (seats, actor) tables -----------------------------------------------------


class _SeatTable(NamedTuple):
    actions: tuple[A.Action | None, ...]
    """The action of every id for this actor; ``None`` where the offset is too large for the seat count."""
    by_value: dict[A.Action, int]
    """Id by action, found by value: an action keeps the hash of its fields (``unoengine.core.values``), and
    ``actions.play`` interns a play by value, so the engine's legal actions are this table's own objects and a
    lookup is a read of that hash and an identity check (another object of an action is found by a compiled
    ``==``)."""


_SEAT_TABLES: dict[int, _SeatTable] = {}
"""The table of each (seats, actor), keyed by ``seats * _KEY + actor`` (an ``int`` hashes faster than a pair)."""

_KEY = 64
"""More than any seat number (:data:`MAX_SEATS` is checked against it below)."""


def _absolute(slot: Slot, seat: Seat, seats: int) -> A.Action | None:
    if slot.offset == 0:
        return slot.action
    if slot.offset >= seats:
        return None
    target = (seat + slot.offset) % seats
    action = slot.action
    if type(action) is A.Catch:
        return A.catch(target)
    assert type(action) is A.Play
    return A.play(action.card, action.color, action.flex, target, action.uno)


def _seat_table(seats: object, seat: object) -> _SeatTable:
    """The table of ``seat`` in a game of ``seats`` seats (both taken as anything a caller passes: ``True == 1``,
    and compiled code would turn a ``bool`` into an ``int`` or refuse a ``str`` with ``TypeError``)."""
    if is_int(seat) and is_int(seats) and 0 <= seat < seats:
        table = _SEAT_TABLES.get(seats * _KEY + seat)
        if table is not None:
            return table
    if not is_int(seats) or not 2 <= seats <= MAX_SEATS:
        raise ActionIdError(f"action ids are for 2 to {MAX_SEATS} seats, not {excerpt(seats)}")
    if not is_int(seat) or not 0 <= seat < seats:
        raise ActionIdError(f"seat must be from 0 to {seats - 1}, not {excerpt(seat)}")
    actions = tuple(_absolute(slot, seat, seats) for slot in SLOTS)
    table = _SeatTable(actions, {action: index for index, action in enumerate(actions) if action is not None})
    _SEAT_TABLES[seats * _KEY + seat] = table
    return table


assert _KEY > MAX_SEATS


# -- the API -----------------------------------------------------------------------


def action_id(action: object, seat: object, seats: object) -> int:
    """The id of ``seat``'s ``action`` in a game of ``seats`` seats (notation accepted).

    >>> action_id("catch 1", 0, 3) - action_id("catch 2", 1, 3)
    0

    Raises:
        ActionIdError: no such action in the table (a card of no rule set, a wild
            without a colour, a target that is the actor or not a seat), or a bad
            seat or seat count.
        InvalidNotationError: text that is not an action.
    """
    if isinstance(action, str):
        action = A.parse_action(action)
    table = _seat_table(seats, seat)
    try:
        index = cast("dict[object, int]", table.by_value).get(action)
    except TypeError:  # not hashable: not an action
        index = None
    if index is None:
        raise ActionIdError(f"no action id for {action!s} of seat {seat} in a {seats}-seat game")
    return index


def action_of(action_id: object, seat: object, seats: object) -> A.Action:
    """The action of id ``action_id`` taken by ``seat`` in a game of ``seats`` seats.

    >>> str(action_of(DRAW_ID, 0, 2))
    'draw'

    Raises:
        ActionIdError: the id is out of range, or its offset is meaningless for
            ``seats`` (offset ``seats`` or more), or a bad seat or seat count.
    """
    table = _seat_table(seats, seat)
    if not is_int(action_id) or not 0 <= action_id < NUM_ACTIONS:
        raise ActionIdError(f"action id must be from 0 to {NUM_ACTIONS - 1}, not {excerpt(action_id)}")
    action = table.actions[action_id]
    if action is None:
        slot = SLOTS[action_id]
        raise ActionIdError(f"action id {action_id} ({slot.notation}) names no seat in a {seats}-seat game")
    return action


def legal_ids(state: GameState, seat: object) -> tuple[int, ...]:
    """The ids of ``legal_actions(state, seat)``, in the same order.

    Raises:
        ActionIdError: a legal action with no id (the table is incomplete: a bug).
    """
    legal = legal_actions(state, seat)
    if not legal:
        return ()
    by_value = _seat_table(state.game.seats, seat).by_value
    return tuple([_legal_id(by_value, action, seat) for action in legal])


def ids_by_action(seats: object, seat: object) -> dict[A.Action, int]:
    """The id of every action of ``seat`` in a game of ``seats`` seats, as the table's own dict (read it, never
    change it): ``ids_by_action(seats, seat)[action]`` is ``action_id(action, seat, seats)`` for an action of the
    engine, without the checks of :func:`action_id`.

    Raises:
        ActionIdError: a bad seat or seat count.
    """
    return _seat_table(seats, seat).by_value


def _legal_id(by_value: dict[A.Action, int], action: A.Action, seat: object) -> int:
    """The id of a legal action of ``seat``."""
    index = by_value.get(action)
    if index is None:
        raise ActionIdError(f"no action id for the legal action {action!s} of seat {seat}")
    return index


_ZEROS = bytes(NUM_ACTIONS)


def legal_mask(state: GameState, seat: object) -> bytes:
    """``NUM_ACTIONS`` bytes, 1 at the id of every legal action of ``seat``, else 0.

    ``numpy.frombuffer(mask, numpy.int8)`` reads it without a copy.
    """
    legal = legal_actions(state, seat)
    if not legal:
        return _ZEROS
    by_value = _seat_table(state.game.seats, seat).by_value
    mask = bytearray(NUM_ACTIONS)
    for action in legal:
        mask[_legal_id(by_value, action, seat)] = 1
    return bytes(mask)
