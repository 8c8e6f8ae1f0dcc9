"""Text forms of a whole state: the one-line state notation and the referee's JSON view.

:func:`format_state` writes a state as one line that :func:`parse_state` reads
back exactly (docs/NOTATION.md, "State notation"): ``parse_state(format_state(s))
== s`` for every state, physical card ids included. ``repr`` of a state shows it.

``state_to_json`` is the object ``uno replay --json`` prints (docs/NOTATION.md,
"The referee's view of a state"); its keys are a public contract.
"""

from __future__ import annotations

import re
import typing
from typing import Any

from unoengine.core.cards import Card, CardId, Color, Seat, format_card, parse_card
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.rules import find_rules
from unoengine.core.rules.option_specs import Options
from unoengine.core.rules.ruleset import RuleSet
from unoengine.core.rules.tables import DeckTables, game_of
from unoengine.core.state import (
    ChallengeWindow,
    DrawnCardChoice,
    DrawStack,
    Game,
    GameState,
    Outcome,
    Pending,
    Termination,
    Turn,
)


def state_to_json(state: GameState) -> dict[str, Any]:
    """The referee's view of a state: every hand, as NOTATION.md lists its keys."""
    cards = state.tables.cards
    pending = state.pending
    top = state.top
    data: dict[str, Any] = {
        "rules": state.rules.name,
        "seats": state.seats,
        "round": state.round,
        "to_act": pending.seat,
        "pending": pending.kind,
        "top": None if top is None else format_card(cards[top]),
        "color": None if state.color is None or top is None else state.color.letter,
        "direction": state.direction,
        "hands": [[format_card(cards[card]) for card in hand] for hand in state.hands],
        "draw_pile": len(state.draw_pile),
        "discard_pile": len(state.discard_pile),
    }
    extra = state.rules.state_json
    if extra is not None:
        data.update(extra(state))
    if type(pending) is DrawStack:
        data["stack"] = pending.total  # H-1: the total the player to act draws or adds to
    data["scores"] = list(state.scores)
    data["round_winner"] = state.round_winner
    data["game_winner"] = state.outcome.winner if state.outcome is not None else None
    data["dealer"] = state.dealer
    data["direction_name"] = "clockwise" if state.direction == 1 else "counterclockwise"
    data["round_scores"] = [list(deltas) for deltas in state.round_scores]
    data["unsafe"] = state.unsafe
    data["steps"] = state.steps
    data["termination"] = state.outcome.termination.value if state.outcome is not None else None
    return data


# -- the state notation --------------------------------------------------------------

FIELD_ORDER: tuple[str, ...] = (
    "opts",
    "seed",
    "shuffles",
    "round",
    "dealer",
    "hands",
    "draw",
    "discard",
    "color",
    "dir",
    "power",
    "pending",
    "unsafe",
    "blocked",
    "bottom",
    "scores",
    "rounds",
    "winner",
    "outcome",
    "steps",
    "known",
    "aside",
)
"""The ``key=value`` fields after ``rules/seats``, in the order :func:`format_state` writes them
(``known`` only when some seat knows a card of another's hand, ``aside`` only when not 0)."""

REQUIRED: frozenset[str] = frozenset({"hands", "discard", "pending"})
"""Fields :func:`parse_state` cannot do without; the others have defaults (docs/NOTATION.md)."""

MAX_DIGITS = 40
"""The longest integer the notation reads (a 128-bit seed has 39 digits)."""

NONE = "-"
_INT = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_WORD = re.compile(r"[a-z0-9_]{1,40}")
_KIND = re.compile(r"[a-z_]{1,40}")
_COPY = re.compile(r"[0-9]{1,3}")


class _DeckNames:
    """The notation of each physical card of a deck: its kind, then ``#n`` for the n-th twin (n ≥ 1)."""

    def __init__(self, tables: DeckTables) -> None:
        names: list[str] = []
        ids: dict[Card, list[CardId]] = {}
        for card_id, card in enumerate(tables.cards):
            copies = ids.setdefault(card, [])
            names.append(format_card(card) + (f"#{len(copies)}" if copies else ""))
            copies.append(card_id)
        self.names: tuple[str, ...] = tuple(names)
        self.by_name: dict[str, CardId] = {name: card_id for card_id, name in enumerate(names)}
        self.ids: dict[Card, tuple[CardId, ...]] = {card: tuple(copies) for card, copies in ids.items()}

    def card_id(self, token: str, where: str, rules: RuleSet) -> CardId:
        found = self.by_name.get(token.upper())
        if found is not None:
            return found
        name, sep, copy = token.partition("#")
        try:
            card = parse_card(name)
        except InvalidNotationError:
            raise InvalidNotationError(f"{where}: not a card: {excerpt(token)}") from None
        copies = self.ids.get(card)
        if copies is None:
            raise InvalidNotationError(f"{where}: {format_card(card)} is not a card of {rules.title}")
        if not sep:
            return copies[0]
        if _COPY.fullmatch(copy) is None:
            raise InvalidNotationError(f"{where}: {excerpt(token)} must be written CARD#N with N a small number")
        index = int(copy)
        if index >= len(copies):
            raise InvalidNotationError(
                f"{where}: {excerpt(token)}: the deck has {len(copies)} {format_card(card)}, "
                f"numbered #0 to #{len(copies) - 1}"
            )
        return copies[index]


_DECK_NAMES: dict[int, tuple[DeckTables, _DeckNames]] = {}


def _deck_names(tables: DeckTables) -> _DeckNames:
    cached = _DECK_NAMES.get(id(tables))
    if cached is None or cached[0] is not tables:
        cached = (tables, _DeckNames(tables))
        _DECK_NAMES[id(tables)] = cached
    return cached[1]


# -- decision fields -------------------------------------------------------------------
#
# A decision's fields are written by their values, so that the notation needs no
# type information (a compiled build does not keep annotations as written): ``-``
# for none, ``true``/``false``, a colour letter, a number; a field named ``card``
# holds a physical card, written in card notation. Reading checks each value
# against the field's annotation where it is readable.

CARD_FIELD = "card"
"""The one field name whose number is a physical card (``DrawnCardChoice.card``)."""

_SIMPLE_TYPES: dict[Any, str] = {int: "int", bool: "bool", str: "str", Color: "Color", type(None): "None"}


def _field_names(cls: type) -> tuple[str, ...]:
    """A decision type's fields but ``kind``, in order."""
    return tuple(name for name in getattr(cls, "_fields", ()) if name != "kind")


def _declared(cls: type, name: str) -> frozenset[str] | None:
    """The type names a field's annotation allows (``{"Seat", "None"}``), or ``None`` when it says nothing readable."""
    annotation: Any = getattr(cls, "__annotations__", {}).get(name)
    if isinstance(annotation, typing.ForwardRef):
        annotation = annotation.__forward_arg__
    if isinstance(annotation, str):
        return frozenset(part.strip() for part in annotation.split("|"))
    try:
        simple = _SIMPLE_TYPES.get(annotation)
    except TypeError:  # an unhashable annotation
        return None
    return None if simple is None else frozenset({simple})


def _format_value(name: str, value: Any, names: _DeckNames) -> str:
    if value is None:
        return NONE
    if name == CARD_FIELD:
        card: str = names.names[value]
        return card
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Color):
        return str(value.letter)
    return str(value)


def format_pending(pending: Pending, names: _DeckNames) -> str:
    """``kind:v1,v2,…``: the decision's kind, then its fields by position (``kind`` left out)."""
    values = [_format_value(name, getattr(pending, name), names) for name in _field_names(type(pending))]
    kind = str(pending.kind)
    return kind + (":" + ",".join(values) if values else "")


# -- formatting ---------------------------------------------------------------------


def _cards(ids: tuple[CardId, ...], names: _DeckNames) -> str:
    return ",".join(names.names[card] for card in ids) if ids else NONE


def _ints(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))


def _option_text(value: Any) -> str:
    if type(value) is bool:
        return "true" if value else "false"
    return str(value)


def format_state(state: GameState) -> str:
    """The one-line state notation of ``state`` (docs/NOTATION.md, "State notation").

    >>> from unoengine.core.engine import new_game
    >>> text = format_state(new_game("classic", 2, seed=1))
    >>> text.split()[0], parse_state(text) == new_game("classic", 2, seed=1)
    ('classic/2', True)
    """
    game = state.game
    rules = game.rules
    names = _deck_names(game.tables)
    defaults = rules.default_options
    options = ",".join(
        f"{name}:{_option_text(value)}"
        for name, value in game.options.to_dict().items()
        if value != getattr(defaults, name)
    )
    outcome = state.outcome
    fields = {
        "opts": options or NONE,
        "seed": str(state.seed),
        "shuffles": str(state.shuffles),
        "round": str(state.round),
        "dealer": str(state.dealer),
        "hands": "/".join(_cards(hand, names) for hand in state.hands),
        "draw": _cards(state.draw_pile, names),
        "discard": _cards(state.discard_pile, names),
        "color": NONE if state.color is None else state.color.letter,
        "dir": f"{state.direction:+d}",
        "power": "".join("G" if green else "R" for green in state.power) or NONE,
        "pending": format_pending(state.pending, names),
        "unsafe": NONE if state.unsafe is None else str(state.unsafe),
        "blocked": str(state.blocked),
        "bottom": str(state.public_bottom),
        "scores": _ints(state.scores),
        "rounds": "/".join(_ints(deltas) for deltas in state.round_scores) or NONE,
        "winner": NONE if state.round_winner is None else str(state.round_winner),
        "outcome": NONE
        if outcome is None
        else f"{outcome.termination.value}:"
        + (NONE if outcome.winner is None else str(outcome.winner))
        + f":{_ints(outcome.scores)}",
        "steps": str(state.steps),
        "known": _known_text(state.known, names),
        "aside": str(state.aside),
    }
    return f"{rules.name}/{game.seats} " + " ".join(
        f"{key}={fields[key]}"
        for key in FIELD_ORDER
        if (key != "known" or state.known) and (key != "aside" or state.aside)
    )


def _known_text(known: tuple[tuple[Seat, Seat, CardId], ...], names: _DeckNames) -> str:
    """``known``: runs of ``VIEWER>HOLDER:CARDS`` joined by ``/``, in the order of the facts."""
    runs: list[tuple[Seat, Seat, list[CardId]]] = []
    for viewer, holder, card in known:
        if runs and runs[-1][:2] == (viewer, holder):
            runs[-1][2].append(card)
        else:
            runs.append((viewer, holder, [card]))
    return "/".join(f"{viewer}>{holder}:{_cards(tuple(cards), names)}" for viewer, holder, cards in runs) or NONE


# -- parsing ------------------------------------------------------------------------


def _int(text: str, where: str, low: int | None = 0, high: int | None = None) -> int:
    if _INT.fullmatch(text) is None:
        raise InvalidNotationError(f"{where}: expected an integer of at most {MAX_DIGITS} digits, not {excerpt(text)}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low}" + ("" if high is None else f" to {high}")
        raise InvalidNotationError(f"{where}: {value} is out of range (expected {bounds})")
    return value


def _bool(text: str, where: str) -> bool:
    lowered = text.lower()
    if lowered not in ("true", "false"):
        raise InvalidNotationError(f"{where}: expected true or false, not {excerpt(text)}")
    return lowered == "true"


def _color(text: str, where: str) -> Color:
    for color in Color:
        if text.lower() == color.letter:
            return color
    raise InvalidNotationError(f"{where}: expected a colour r, y, g or b, not {excerpt(text)}")


def _seat_or_none(text: str, where: str, seats: int) -> int | None:
    return None if text == NONE else _int(text, where, 0, seats - 1)


def _int_list(text: str, where: str, seats: int) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != seats:
        raise InvalidNotationError(f"{where}: expected {seats} comma-separated numbers, not {excerpt(text)}")
    return tuple(_int(part, where, None) for part in parts)


class _Reader:
    """Parses the fields of one line, given its game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules
        self.seats = game.seats
        self.names = _deck_names(game.tables)

    def cards(self, text: str, where: str) -> tuple[CardId, ...]:
        if text == NONE:
            return ()
        return tuple(self.names.card_id(token, where, self.rules) for token in text.split(","))

    def value(self, cls: type, name: str, text: str, where: str) -> Any:
        """A decision's field from its text: the value's shape says its type (see above)."""
        lowered = text.lower()
        value: Any
        if text == NONE:
            value, shape = None, "None"
        elif name == CARD_FIELD:
            value, shape = self.names.card_id(text, where, self.rules), "CardId"
        elif lowered in ("true", "false"):
            value, shape = lowered == "true", "bool"
        elif len(lowered) == 1 and lowered in "rygb":
            value, shape = _color(lowered, where), "Color"
        elif _INT.fullmatch(text) is not None:
            value, shape = _int(text, where), "int"
        elif _WORD.fullmatch(lowered) is not None:
            value, shape = lowered, "str"
        else:
            raise InvalidNotationError(f"{where}: unexpected {excerpt(text)}")
        declared = _declared(cls, name)
        if declared is not None and shape not in declared and not (shape == "int" and "Seat" in declared):
            raise InvalidNotationError(f"{where}: expected {' or '.join(sorted(declared))}, not {excerpt(text)}")
        if shape == "int" and (name == "seat" or (declared is not None and "Seat" in declared)):
            _int(text, where, 0, self.seats - 1)
        return value

    def pending(self, text: str) -> Pending:
        kind, _, rest = text.partition(":")
        kind = kind.lower()
        cls = self.rules.decisions.get(kind) if _KIND.fullmatch(kind) else None
        if cls is None:
            known = sorted(self.rules.decisions)
            raise InvalidNotationError(
                f"pending: unknown decision {excerpt(kind)} in {self.rules.title} (known: {', '.join(known)})"
            )
        fields = _field_names(cls)
        parts = rest.split(",") if rest else []
        if len(parts) != len(fields):
            wanted = ",".join(fields)
            raise InvalidNotationError(
                f"pending: {kind} takes {len(fields)} values ({kind}:{wanted}), not {excerpt(text)}"
            )
        values = [
            self.value(cls, name, part, f"pending {kind} {name}") for part, name in zip(parts, fields, strict=True)
        ]
        if fields and fields[0] == "seat" and values[0] is None and cls in (Turn, DrawnCardChoice, ChallengeWindow):
            raise InvalidNotationError(f"pending: a {kind} decision names its seat")
        decision: Pending = cls(*values)
        return decision


def _options(rules: RuleSet, text: str) -> Options:
    from unoengine.core.options import parse_option_value

    given: dict[str, Any] = {}
    if text != NONE:
        for item in text.split(","):
            name, sep, value = item.partition(":")
            name = name.lower()
            if not sep or name not in rules.option_names:
                known = ", ".join(sorted(rules.option_names))
                raise InvalidNotationError(
                    f"opts: {excerpt(item)} is not NAME:VALUE of a {rules.name} option ({known})"
                )
            if name in given:
                raise InvalidNotationError(f"opts: option {excerpt(name)} given twice")
            try:
                given[name] = parse_option_value(rules.option_spec(name), value)
            except InvalidNotationError as error:
                raise InvalidNotationError(f"opts {name}: {error}") from None
    return rules.options(given)


def _head(token: str) -> tuple[RuleSet, int]:
    name, sep, seats_text = token.partition("/")
    if not sep:
        raise InvalidNotationError(f"a state starts with RULES/SEATS (as classic/3), not {excerpt(token)}")
    rules = find_rules(name)
    seats = _int(seats_text, "seats")
    if seats not in rules.seats:
        low, high = rules.seats.start, rules.seats.stop - 1
        allowed = f"{low}" if low == high else f"{low}-{high}"
        raise InvalidNotationError(f"seats: {rules.title} is for {allowed} seats, not {seats}")
    return rules, seats


def _split_fields(tokens: list[str]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        key = key.lower()
        if not sep or key not in FIELD_ORDER:
            fields_known = ", ".join(FIELD_ORDER)
            raise InvalidNotationError(f"{excerpt(token)} is not one of the fields {fields_known} (KEY=VALUE)")
        if key in fields:
            raise InvalidNotationError(f"field {excerpt(key)} is given twice")
        fields[key] = value
    missing = [key for key in FIELD_ORDER if key in REQUIRED and key not in fields]
    if missing:
        raise InvalidNotationError(f"missing field {excerpt(missing[0])} (a state needs {', '.join(sorted(REQUIRED))})")
    return fields


def parse_state(text: object) -> GameState:
    """The state of a one-line state notation (docs/NOTATION.md, "State notation").

    Checks the structure, the ranges and the cards (every card of the deck exactly
    once over the hands and piles; ``draw=*`` puts every card not named elsewhere
    on the draw pile in deck order, the deck's first card on top), not that the
    position can be reached in play.

    Raises:
        InvalidNotationError: the text is not a state; the message names the bad part.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"a state notation is text, not {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise InvalidNotationError("empty state notation")
    rules, seats = _head(tokens[0])
    fields = _split_fields(tokens[1:])

    def get(key: str, default: str) -> str:
        return fields.get(key, default)

    game = game_of(rules, seats, _options(rules, get("opts", NONE)))
    reader = _Reader(game)
    names = reader.names
    hand_texts = fields["hands"].split("/")
    if len(hand_texts) != seats:
        raise InvalidNotationError(f"hands: expected {seats} hands separated by '/', got {len(hand_texts)}")
    hands = tuple(reader.cards(hand, f"hands seat {seat}") for seat, hand in enumerate(hand_texts))
    discard = reader.cards(fields["discard"], "discard")
    draw_text = get("draw", "*")
    draw = () if draw_text == "*" else reader.cards(draw_text, "draw")
    seen: dict[CardId, str] = {}
    zones = [*((f"hands seat {seat}", hand) for seat, hand in enumerate(hands)), ("draw", draw), ("discard", discard)]
    for zone, ids in zones:
        for card in ids:
            if card in seen:
                copies = names.ids[game.tables.cards[card]]
                shown = ", ".join(names.names[copy] for copy in copies)
                raise InvalidNotationError(
                    f"{zone}: {names.names[card]} is also in {seen[card]} (the deck's copies are written {shown})"
                )
            seen[card] = zone
    rest = [card for card in range(len(names.names)) if card not in seen]
    if draw_text == "*":
        draw = tuple(reversed(rest))
    elif rest:
        shown = ", ".join(names.names[card] for card in rest[:8]) + (" …" if len(rest) > 8 else "")
        raise InvalidNotationError(f"{len(rest)} cards of the deck are in no hand or pile: {shown} (or write draw=*)")
    color_text = get("color", NONE)
    color = None if color_text == NONE else _color(color_text, "color")
    direction_text = get("dir", "+1")
    if direction_text not in ("+1", "1", "-1"):
        raise InvalidNotationError(f"dir: expected +1 or -1, not {excerpt(direction_text)}")
    flags = tuple(rules.round_flags(seats))
    power_text = get("power", "".join("G" if green else "R" for green in flags) or NONE)
    letters = "" if power_text == NONE else power_text.upper()
    if len(letters) != len(flags) or letters.strip("GR"):
        expected = f"{len(flags)} letters G or R" if flags else "'-' (no Power Cards)"
        raise InvalidNotationError(f"power: expected {expected}, not {excerpt(power_text)}")
    power = tuple(letter == "G" for letter in letters)
    pending = reader.pending(fields["pending"])
    kind = type(pending)
    if kind in (Turn, DrawnCardChoice, ChallengeWindow) and (not discard or color is None):
        raise InvalidNotationError(f"pending: a {pending.kind} decision needs a discard pile and a colour")
    if isinstance(pending, DrawnCardChoice) and pending.card is not None and pending.card not in hands[pending.seat]:
        raise InvalidNotationError(f"pending: the drawn card {names.names[pending.card]} is not in the drawer's hand")
    rounds_text = get("rounds", NONE)
    round_scores = (
        () if rounds_text == NONE else tuple(_int_list(deltas, "rounds", seats) for deltas in rounds_text.split("/"))
    )
    return GameState(
        game=game,
        seed=_int(get("seed", "0"), "seed", None),
        shuffles=_int(get("shuffles", "0"), "shuffles"),
        round=_int(get("round", "1"), "round", 1),
        dealer=_int(get("dealer", "0"), "dealer", 0, seats - 1),
        hands=hands,
        draw_pile=draw,
        discard_pile=discard,
        color=color,
        direction=-1 if direction_text == "-1" else 1,
        power=power,
        pending=pending,
        unsafe=_seat_or_none(get("unsafe", NONE), "unsafe", seats),
        blocked=_int(get("blocked", "0"), "blocked"),
        public_bottom=_int(get("bottom", "0"), "bottom"),
        scores=_int_list(get("scores", ",".join("0" * seats)), "scores", seats),
        round_scores=round_scores,
        round_winner=_seat_or_none(get("winner", NONE), "winner", seats),
        outcome=_outcome(get("outcome", NONE), seats),
        steps=_int(get("steps", "0"), "steps"),
        known=_known(get("known", NONE), reader, hands),
        aside=_int(get("aside", "0"), "aside"),
    )


def _known(text: str, reader: _Reader, hands: tuple[tuple[CardId, ...], ...]) -> tuple[tuple[Seat, Seat, CardId], ...]:
    """The ``known`` field: ``VIEWER>HOLDER:CARDS`` runs joined by ``/``; every card in the holder's hand."""
    if text == NONE:
        return ()
    seats = len(hands)
    facts: list[tuple[Seat, Seat, CardId]] = []
    for run in text.split("/"):
        seats_text, sep, cards_text = run.partition(":")
        viewer_text, arrow, holder_text = seats_text.partition(">")
        if not sep or not arrow:
            raise InvalidNotationError(f"known: expected VIEWER>HOLDER:CARDS runs joined by '/', not {excerpt(run)}")
        viewer = _int(viewer_text, "known viewer", 0, seats - 1)
        holder = _int(holder_text, "known holder", 0, seats - 1)
        if viewer == holder:
            raise InvalidNotationError(f"known: seat {viewer} knows its own hand ({excerpt(run)})")
        for card in reader.cards(cards_text, f"known {viewer}>{holder}"):
            if card not in hands[holder]:
                name = reader.names.names[card]
                raise InvalidNotationError(f"known: {name} is not in seat {holder}'s hand")
            if (viewer, holder, card) in facts:
                raise InvalidNotationError(f"known: {reader.names.names[card]} is given twice for {viewer}>{holder}")
            facts.append((viewer, holder, card))
    return tuple(facts)


def _outcome(text: str, seats: int) -> Outcome | None:
    if text == NONE:
        return None
    parts = text.split(":")
    if len(parts) != 3:
        raise InvalidNotationError(f"outcome: expected TERMINATION:WINNER:SCORES or '-', not {excerpt(text)}")
    terminations = {termination.value: termination for termination in Termination}
    termination = terminations.get(parts[0].lower())
    if termination is None:
        raise InvalidNotationError(f"outcome: {excerpt(parts[0])} is not one of {', '.join(terminations)}")
    return Outcome(
        termination, _seat_or_none(parts[1], "outcome winner", seats), _int_list(parts[2], "outcome scores", seats)
    )
