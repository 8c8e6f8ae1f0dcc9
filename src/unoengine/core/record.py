"""Game records (``unoengine-record/1``) and :func:`replay` (docs/NOTATION.md).

A record is one JSON document that fully determines a game: rules, options,
seats, seed, optional dealer and first deck, and every action with its seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from unoengine.core.actions import Action, format_action, parse_action
from unoengine.core.cards import Card, Seat, format_card
from unoengine.core.engine import apply, new_game
from unoengine.core.errors import (
    EXCERPT_LIMIT,
    MESSAGE_LIMIT,
    IllegalActionError,
    InvalidNotationError,
    RecordError,
    excerpt,
    one_line,
)
from unoengine.core.house import HOUSE_OPTIONS
from unoengine.core.rules import RULESETS, find_rules
from unoengine.core.state import GameState
from unoengine.core.work import shuffled

FORMAT = "unoengine-record/1"
RECORD_KEYS = frozenset({"format", "rules", "options", "seats", "dealer", "seed", "deck", "actions"})

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record read (16 MiB of UTF-8): a long match takes a few hundred kilobytes."""

_MAX_INT_BITS = 13_000
"""Integers of a record are refused past this size (about 3,900 digits; JSON text stops at 4,300)."""


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed game record. ``options`` holds only the options the record gives."""

    rules: str
    seats: int
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    dealer: Seat | None = None
    deck: tuple[str, ...] | None = None
    actions: tuple[tuple[Seat, str], ...] = ()

    def start(self) -> GameState:
        """The game's first state.

        Raises:
            RecordError: the rules, options, seats, dealer or deck are refused.
        """
        try:
            return new_game(
                self.rules, self.seats, seed=self.seed, deck=self.deck, options=dict(self.options), dealer=self.dealer
            )
        except InvalidNotationError as error:
            raise RecordError(one_line(str(error))) from None

    def with_action(self, seat: Seat, action: Action | str) -> Record:
        """This record with one more action."""
        text = action if isinstance(action, str) else format_action(action)
        return Record(
            self.rules, self.seats, self.seed, self.options, self.dealer, self.deck, (*self.actions, (seat, text))
        )


class ReplayError(ValueError):
    """An action of a record was refused: its index, text, rule and reason."""

    def __init__(self, index: int, action: str, rule: str, reason: str) -> None:
        head = f"action {index} {excerpt(action)} refused: {rule} "
        super().__init__(head + one_line(reason, max(EXCERPT_LIMIT, MESSAGE_LIMIT - len(head))))
        self.index = index
        self.action = action
        self.rule = rule
        self.reason = reason


@contextmanager
def replaying(index: int, text: str) -> Iterator[None]:
    """Around the parse and ``apply`` of a record's action ``index`` (``text``): a refusal of it becomes the
    :class:`ReplayError` naming that action, however the caller steps through the record.

    Raises:
        ReplayError: the action's text is not an action (G-4), or the action is refused (its rule).
    """
    try:
        yield
    except InvalidNotationError as error:
        raise ReplayError(index, text, "G-4", str(error)) from None
    except IllegalActionError as error:
        raise ReplayError(index, text, error.rule, error.reason) from None


def parse_record(text: str | bytes) -> Record:
    """Read a record from JSON text.

    ``text`` is at most :data:`MAX_RECORD_BYTES` (16 MiB) of UTF-8; ``bytes`` may
    also be UTF-16 or UTF-32, as :func:`json.loads` reads them.

    Raises:
        RecordError: not JSON, not a record, a field of the wrong type, or too large.
    """
    if isinstance(text, str):
        size = len(text) if len(text) * 4 <= MAX_RECORD_BYTES else len(text.encode("utf-8", "surrogatepass"))
    elif isinstance(text, bytes | bytearray):
        size = len(text)
    else:
        raise RecordError(f"a record is JSON text, not {type(text).__name__}")
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"larger than the limit of {MAX_RECORD_BYTES // 2**20} MiB ({size} bytes)")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply") from None
    except ValueError as error:  # e.g. an integer longer than Python's digit limit
        raise RecordError(f"not valid JSON: {error}") from None
    return record_from_dict(data)


def _field(data: Mapping[str, Any], key: str, kind: type, required: bool = True) -> Any:
    if key not in data:
        if required:
            raise RecordError(f"missing key {key!r}")
        return None
    value: Any = data[key]
    if type(value) is not kind:
        raise RecordError(f"{key!r} must be {kind.__name__}, not {excerpt(value)}")
    if type(value) is int and value.bit_length() > _MAX_INT_BITS:
        raise RecordError(f"{key!r} is too large an integer ({value.bit_length()} bits)")
    return value


def record_from_dict(data: Any) -> Record:
    """Build a :class:`Record` from parsed JSON, checking every field's type.

    Raises:
        RecordError: what is wrong, and where.
    """
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    unknown = set(data) - RECORD_KEYS
    if unknown:
        names = sorted(excerpt(key, quote=False) for key in unknown)
        more = f" and {len(names) - 5} more" if len(names) > 5 else ""
        raise RecordError(f"unknown keys: {', '.join(names[:5])}{more}")
    version = data.get("format", FORMAT)
    if version != FORMAT:
        raise RecordError(f"unsupported format {excerpt(version)} (this release reads {FORMAT!r})")
    rules = _field(data, "rules", str)
    try:
        find_rules(rules)
    except InvalidNotationError:
        raise RecordError(f"unknown rules {excerpt(rules)} (known: {', '.join(RULESETS)})") from None
    seats = _field(data, "seats", int)
    seed = _field(data, "seed", int)
    options = _field(data, "options", dict, required=False) or {}
    dealer = _field(data, "dealer", int, required=False)
    deck = _field(data, "deck", list, required=False)
    for position, card in enumerate(deck or ()):
        if not isinstance(card, str):
            raise RecordError(f"'deck' must be a list of card notations: deck[{position}] is {excerpt(card)}")
    raw_actions = _field(data, "actions", list, required=False) or []
    actions: list[tuple[Seat, str]] = []
    for index, item in enumerate(raw_actions):
        if (
            not isinstance(item, dict)
            or set(item) != {"seat", "action"}
            or type(item["seat"]) is not int
            or item["seat"].bit_length() > _MAX_INT_BITS
            or not isinstance(item["action"], str)
        ):
            raise RecordError(f'actions[{index}] must be {{"seat": N, "action": "..."}}, not {excerpt(item)}')
        actions.append((item["seat"], item["action"]))
    return Record(
        rules=rules,
        seats=seats,
        seed=seed,
        options=tuple(sorted(options.items())),
        dealer=dealer,
        deck=None if deck is None else tuple(deck),
        actions=tuple(actions),
    )


def record_to_dict(record: Record) -> dict[str, Any]:
    """The record as a JSON-ready object, keys in NOTATION.md's order."""
    data: dict[str, Any] = {"format": FORMAT, "rules": record.rules, "options": dict(record.options)}
    data["seats"] = record.seats
    if record.dealer is not None:
        data["dealer"] = record.dealer
    data["seed"] = record.seed
    if record.deck is not None:
        data["deck"] = list(record.deck)
    data["actions"] = [{"seat": seat, "action": action} for seat, action in record.actions]
    return data


def format_record(record: Record) -> str:
    """The record as JSON text: one action per line, readable and diffable."""
    data = record_to_dict(record)
    actions = data.pop("actions")
    head = json.dumps(data)[:-1]
    body = ",\n  ".join(json.dumps(item) for item in actions)
    return f'{head}, "actions": [\n  {body}\n]}}\n' if actions else f'{head}, "actions": []}}\n'


def replay(record: Record) -> GameState:
    """Play a record's actions from its first state; return the last state.

    >>> record = parse_record('{"rules": "duo", "seats": 2, "seed": 3, "dealer": 0,'
    ...                       ' "actions": [{"seat": 0, "action": "keep"}]}')
    >>> state = replay(record)
    >>> state.pending.kind, state.to_act, [len(hand) for hand in state.hands]
    ('draft', 1, [1, 0])
    >>> replay(record.with_action(0, "keep"))
    Traceback (most recent call last):
    ...
    unoengine.core.record.ReplayError: action 1 'keep' refused: G-4 it is seat 1's decision (draft), not seat 0's

    Raises:
        RecordError: the record's set-up is refused.
        ReplayError: an action is refused (its index, text, rule and reason).
    """
    state = record.start()
    for index, (seat, text) in enumerate(record.actions):
        with replaying(index, text):
            state = apply(state, seat, parse_action(text)).state
    return state


def record_of(
    state: GameState,
    actions: Iterable[tuple[Seat, Action | str]],
    *,
    deck: bool | Sequence[Card | str] = False,
    dealer: Seat | None = None,
) -> Record:
    """A record of a game that started at ``state`` (a state from :func:`new_game`).

    ``deck=True`` writes the first round's shuffled deck out, so that another
    implementation can check the game without our shuffle. A game dealt from a
    given deck is recorded with that deck: pass it as ``deck``.

    Raises:
        ValueError: ``state`` was not dealt from its seed and no deck was given.
    """
    if isinstance(deck, bool):
        seeded = new_game(state.rules, state.seats, seed=state.seed, options=state.options, dealer=state.dealer)
        if seeded != state:
            raise ValueError(
                "this game was not dealt from its seed: pass the deck it was dealt from, record_of(..., deck=...)"
            )
        start_deck = tuple(format_card(card) for card in first_deck(state)) if deck else None
    else:
        start_deck = tuple(item if isinstance(item, str) else format_card(item) for item in deck)
    options = tuple(
        (key, value)
        for key, value in state.options.to_dict().items()
        if not (key in HOUSE_NAMES and value == HOUSE_DEFAULTS[key])  # a house rule left off is not written
    )
    return Record(
        rules=state.rules.name,
        seats=state.seats,
        seed=state.seed,
        options=options,
        dealer=dealer if dealer is not None else state.dealer,
        deck=start_deck,
        actions=tuple((seat, a if isinstance(a, str) else format_action(a)) for seat, a in actions),
    )


HOUSE_DEFAULTS = {spec.name: spec.default for spec in HOUSE_OPTIONS}
HOUSE_NAMES = frozenset(HOUSE_DEFAULTS)
"""The house rules (H-1 …): a record writes one only when it is not at its default (off)."""


def first_deck(state: GameState) -> list[Card]:
    """The first round's shuffled deck, top first, of a game started from its seed (shuffle 0)."""
    cards = state.tables.cards
    return [cards[card] for card in shuffled(state.seed, 0, list(range(len(cards))))]
