"""What one seat may see: :func:`view_for` builds a :class:`PlayerView` (G-2).

Views are built from an allow-list, never stripped from a state: every field
below is chosen on purpose, and nothing else of the state reaches a seat. Bots,
the terminal client and any server read views only. Hidden cards are named as
card kinds (``Card``), never as physical ids.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from unoengine.core.action_words import ActionInfo, DecisionWords, action_infos, decision_words, describe_card
from unoengine.core.actions import Action, format_action
from unoengine.core.cards import Card, Color, Seat, format_card
from unoengine.core.engine import legal_actions
from unoengine.core.errors import InvalidNotationError, excerpt
from unoengine.core.rules import find_rules
from unoengine.core.state import MAX_CARDS, ChallengeWindow, DrawnCardChoice, GameState, Outcome, is_int

_new_tuple: Final = tuple.__new__
"""``_new_tuple(PlayerView, fields)`` builds a view from its fields in order, in C."""


class PlayerView(NamedTuple):
    """One seat's view of a game (``seat`` is ``None`` for a spectator)."""

    rules: str
    seats: int
    seat: Seat | None
    options: tuple[tuple[str, Any], ...]
    """The game's rule options (the rule set's own), as sorted (name, value) pairs."""
    round: int
    dealer: Seat
    hand: tuple[Card, ...]
    """The seat's own hand, in the order received (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    top: Card | None
    color: Color | None
    direction: int
    draw_pile: int
    """The draw pile's size."""
    draw_pile_known: tuple[Card, ...]
    """Cards at the bottom of the draw pile whose order everyone saw (Duo D-4, D-10), bottom first."""
    discard_pile: tuple[Card, ...]
    """The discard pile, bottom first (public: the cards were played face up)."""
    power: tuple[bool, ...]
    to_act: Seat | None
    pending: str
    details: tuple[tuple[str, Any], ...]
    """What this seat may see of a rule set's own pending decision, as (name, value)
    pairs from the decision's handler: Duo's ``volley`` total, ``dump_color`` and,
    for the drafter only, ``draft_card``."""
    challenger_of: Seat | None
    """While a Wild Draw Four may be challenged: the seat that played it."""
    drawn_card: Card | None
    """The card this seat just drew and may play (its own decision only)."""
    unsafe: Seat | None
    """The seat that can be caught for not calling UNO."""
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    round_winner: Seat | None
    outcome: Outcome | None
    legal: tuple[Action, ...]
    decision: tuple[tuple[str, Any], ...] = ()
    """The pending decision's public fields as (name, value) pairs, ``seat`` and
    ``kind`` left out (they are :attr:`to_act` and :attr:`pending`): a rule set's
    decisions in full (Duo's draft ``step``, a dump's ``started`` and ``on_decline``, …);
    a challenge window without ``legal`` (hidden, C-17); a drawn-card decision as
    ``drew``, whether a card was drawn at all (C-11)."""
    blocked: int = 0
    """Consecutive seats that drew nothing and passed (G-6)."""
    steps: int = 0
    """Actions taken so far."""
    known: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
    """Cards this seat knows another seat holds, as (seat, cards) pairs in seat order: the hand
    shown to it as challenger (C-17, D-18, F-24) and the hand it gave away in an H-2 swap, less
    the cards played since (a card drawn later is not known)."""
    aside: int = 0
    """No Mercy: the points of the hands knocked out of this round (N-27; public: they went face up under
    the discard pile, which every seat sees)."""

    def detail(self, name: str, default: Any = None) -> Any:
        """One of :attr:`details` by name, or ``default``."""
        for key, value in self.details:
            if key == name:
                return value
        return default

    @property
    def actions(self) -> tuple[ActionInfo, ...]:
        """Every legal action with its structured fields and the rule set's words, in the order of
        :attr:`legal` (``unoengine.core.action_words``): interfaces render decisions from these."""
        return action_infos(self, find_rules(self.rules))

    @property
    def words(self) -> DecisionWords:
        """The pending decision in words (its title, and what this seat is asked)."""
        return decision_words(self, find_rules(self.rules))

    @property
    def volley(self) -> int:
        """Cards a pending Duo volley would make this seat draw (D-13); 0 if none."""
        total: int = self.detail("volley", 0)
        return total

    @property
    def dump_color(self) -> Color | None:
        """The colour of a pending Duo dump (D-15)."""
        color: Color | None = self.detail("dump_color")
        return color

    @property
    def draft_card(self) -> Card | None:
        """The card this seat looks at in a Duo draft (D-3; its own decision only)."""
        card: Card | None = self.detail("draft_card")
        return card


def view_for(state: GameState, seat: object) -> PlayerView:
    """The view of ``seat`` (or of a spectator, ``None``): the one choke point of G-2.

    >>> from unoengine.core.engine import new_game
    >>> view = view_for(new_game("classic", 2, seed=3), 0)
    >>> len(view.hand), view.hand_sizes, view.draw_pile
    (7, (7, 7), 93)

    Raises:
        InvalidNotationError: ``seat`` is neither a seat of the game nor ``None``.
    """
    if seat is not None and (not is_int(seat) or not 0 <= seat < state.seats):
        raise InvalidNotationError(f"there is no seat {excerpt(seat)} (seats are 0 to {state.seats - 1}, or None)")
    game = state.game
    cards = game.tables.cards
    pending = state.pending
    to_act = pending.seat
    kind = pending.kind
    top = state.top
    own = seat is not None and to_act == seat
    drawn = pending.card if own and isinstance(pending, DrawnCardChoice) else None
    known = min(state.public_bottom, len(state.draw_bytes))
    handler = game.handlers[kind]
    # Built in C from the fields in order (a NamedTuple built by keywords runs Python code: about 2 µs of
    # the call); the comments name each field, as PlayerView declares them.
    view: PlayerView = _new_tuple(
        PlayerView,
        (
            state.rules.name,  # rules
            state.seats,  # seats
            seat,  # seat
            game.option_items,  # options
            state.round,  # round
            state.dealer,  # dealer
            _cards_of(cards, state.hand_bytes[seat]) if seat is not None else (),  # hand
            tuple(len(hand) for hand in state.hand_bytes),  # hand_sizes
            None if top is None else cards[top],  # top
            state.color,  # color
            state.direction,  # direction
            len(state.draw_bytes),  # draw_pile
            _cards_of(cards, state.draw_bytes[:known]) if known else (),  # draw_pile_known
            _cards_of(cards, state.discard_bytes),  # discard_pile
            state.power,  # power
            to_act,  # to_act
            kind,  # pending
            handler.details(state, seat),  # details
            pending.player if isinstance(pending, ChallengeWindow) else None,  # challenger_of
            None if drawn is None else cards[drawn],  # drawn_card
            state.unsafe,  # unsafe
            state.scores,  # scores
            state.round_scores,  # round_scores
            state.round_winner,  # round_winner
            state.outcome,  # outcome
            legal_actions(state, seat) if seat is not None else (),  # legal
            _decision(pending, handler.hidden()),  # decision
            state.blocked,  # blocked
            state.steps,  # steps
            _known(state, seat) if state.known else (),  # known
            state.aside,  # aside
        ),
    )
    return view


def _cards_of(cards: tuple[Card, ...], ids: bytes) -> tuple[Card, ...]:
    """The deck's cards of ``ids`` (a hand or a pile), each id read by index: a byte read so is a plain int in the
    compiled build, where its loop over bytes makes an int object of each byte and reads it back; the loop runs
    over a tuple of the indices, so that the result is built in place (of a known length)."""
    return tuple(cards[ids[index]] for index in _INDICES[: len(ids)])


_INDICES: Final = tuple(range(MAX_CARDS))


def _known(state: GameState, seat: Seat | None) -> tuple[tuple[Seat, tuple[Card, ...]], ...]:
    """What ``seat`` knows of the other hands (:attr:`PlayerView.known`), from the state's ``known`` facts."""
    cards = state.game.tables.cards
    held: dict[Seat, list[Card]] = {}
    for viewer, holder, card in state.known:
        if viewer == seat:
            held.setdefault(holder, []).append(cards[card])
    return tuple((holder, tuple(held[holder])) for holder in sorted(held))


def _decision(pending: Any, hidden: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    """The public fields of a pending decision (:attr:`PlayerView.decision`): all but ``seat``, ``kind``
    and those its handler hides (``hidden()``: a challenge's ``legal``; a drawn card, shown as ``drew``)."""
    if type(pending) is DrawnCardChoice:
        return (("drew", pending.card is not None),)
    if len(pending) == 2:  # only ``seat`` and ``kind``: a turn, the end of the game
        return ()
    return tuple((name, getattr(pending, name)) for name in pending._fields[1:-1] if name not in hidden)


def _detail_json(value: Any) -> Any:
    if isinstance(value, Card):
        return format_card(value)
    if isinstance(value, Color):
        return value.letter
    return value


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [format_card(card) for card in cards]


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """The JSON form of a view (docs/NOTATION.md, "Views and events as JSON").

    Every field of the view under its own name; cards and actions in notation,
    colours as lower-case letters, ``options``, ``details`` and ``decision`` as
    objects (each detail also under its own name at the top level: ``volley``,
    ``dump_color``, ``draft_card``),
    ``outcome`` as ``{"termination", "winner", "scores"}`` or ``null``, and
    ``sides``: what each card of the hand and the top card does, in words; ``actions``: each
    legal action with its fields and words (:attr:`PlayerView.actions`) and ``words``: the
    decision's ``title`` and ``prompt`` (docs/PROTOCOL.md, "What a view offers").

    >>> from unoengine.core.engine import new_game
    >>> data = view_to_json(view_for(new_game("duo", 2, seed=3, dealer=0), 0))
    >>> data["pending"], data["legal"], data["options"]["target_score"], list(data["details"])
    ('draft', ['keep', 'reject'], 200, ['draft_card'])
    """

    def card(value: Card | None) -> str | None:
        return None if value is None else format_card(value)

    def color(value: Color | None) -> str | None:
        return None if value is None else value.letter

    outcome = view.outcome
    flags = find_rules(view.rules).seat_flags  # what the per-seat flags mean: Flex's Power Cards, No Mercy's N-22
    extra = {key: _detail_json(value) for key, value in view.details}
    if flags == "in_round":
        extra["in_round"] = list(view.power)
    return {
        "rules": view.rules,
        "seats": view.seats,
        "seat": view.seat,
        "options": dict(view.options),
        "round": view.round,
        "dealer": view.dealer,
        "hand": _cards(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "top": card(view.top),
        "color": color(view.color),
        "direction": view.direction,
        "draw_pile": view.draw_pile,
        "draw_pile_known": _cards(view.draw_pile_known),
        "discard_pile": _cards(view.discard_pile),
        "power": ["green" if green else "red" for green in view.power] if flags == "power" else [],
        "to_act": view.to_act,
        "pending": view.pending,
        "details": {key: _detail_json(value) for key, value in view.details},
        "challenger_of": view.challenger_of,
        "drawn_card": card(view.drawn_card),
        "unsafe": view.unsafe,
        "scores": list(view.scores),
        "round_scores": [list(deltas) for deltas in view.round_scores],
        "round_winner": view.round_winner,
        "outcome": None
        if outcome is None
        else {
            "termination": outcome.termination.value,
            "winner": outcome.winner,
            "scores": list(outcome.scores),
        },
        "legal": [format_action(action) for action in view.legal],
        "decision": {key: _detail_json(value) for key, value in view.decision},
        "blocked": view.blocked,
        "steps": view.steps,
        "known": {str(holder): _cards(cards) for holder, cards in view.known},
        "sides": _sides(view),
        "actions": [_action_json(info) for info in view.actions],
        "words": view.words._asdict(),
        "aside": view.aside,
    } | extra


def _action_json(info: ActionInfo) -> dict[str, Any]:
    """One of ``actions`` in JSON: the notation under ``action``, cards and colours in notation."""
    return {
        "action": info.notation,
        "id": info.id,
        "type": info.type,
        "card": None if info.card is None else format_card(info.card),
        "color": None if info.color is None else info.color.letter,
        "flex": info.flex,
        "target": info.target,
        "uno": info.uno,
        "seat": info.seat,
        "out_of_turn": info.out_of_turn,
        "group": info.group,
        "label": info.label,
        "words": info.words,
        "aim": info.aim,
    }


def _sides(view: PlayerView) -> dict[str, list[str | None]]:
    """What each card the viewer can see in play does, in the table's words (its rule set and options,
    ``describe_card``: H-2's 7 and 0, H-1's stacks …): ``[normal, flex side or null]``."""
    shown = [*view.hand, *((view.top,) if view.top is not None else ()), *view.discard_pile[-1:]]
    return {format_card(card): list(_side_words(view.rules, view.options, card)) for card in shown}


_SIDE_WORDS: dict[tuple[str, tuple[tuple[str, Any], ...], Card], tuple[str, str | None]] = {}
"""The words of each (rule set, options, card kind), made once: every view sent repeats them."""


def _side_words(rules_name: str, options: tuple[tuple[str, Any], ...], card: Card) -> tuple[str, str | None]:
    key = (rules_name, options, card)
    words = _SIDE_WORDS.get(key)
    if words is None:
        rules = find_rules(rules_name)
        given = dict(options)
        flex = describe_card(rules, given, card, True) if card.is_flex else None
        words = (describe_card(rules, given, card), flex)
        if len(_SIDE_WORDS) < 100_000:
            _SIDE_WORDS[key] = words
    return words
