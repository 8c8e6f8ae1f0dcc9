"""A full state consistent with one seat's view: :func:`determinize`.

Search bots (and the no-leak tests) need whole states, but a seat sees only its
view (G-2). :func:`determinize` deals the cards the seat cannot see at random to
the other hands and the unknown part of the draw pile, and keeps everything the
view shows: its own hand, the discard pile, the draw pile's known bottom (Duo
D-4, D-10), a card a decision lets it look at (Duo's draft card, which lies on top
of the draw pile), the cards it knows another seat holds (``PlayerView.known``: a
hand shown to it in a challenge, C-17, or given away in a swap, H-2), the pending
decision's public fields, scores and outcome.

Hidden facts that are not cards are sampled too:

- a challenge window's ``legal`` flag (C-17, D-18, F-24) is drawn with
  probability 1/2, independently of the sampled hands: the view does not keep
  the colour the Wild Draw Four was played on, so it cannot be recomputed (even
  for the player of the card);
- the seed: ``seed`` if given, else drawn from ``rng``; the shuffle count starts
  again from 0 (future shuffles are unknowable anyway).

``view_for(determinize(view, rng), view.seat) == view`` for every view of a
reachable state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from random import Random
from typing import Any, NoReturn

from unoengine.core.cards import Card, CardId, Seat, format_card
from unoengine.core.errors import excerpt
from unoengine.core.rules import find_rules
from unoengine.core.rules.ruleset import RuleSet
from unoengine.core.rules.tables import DeckTables, game_of
from unoengine.core.state import ChallengeWindow, DrawnCardChoice, Game, GameState
from unoengine.core.views import PlayerView
from unoengine.core.work import make_state, shuffle_in_words


def determinize(
    view: PlayerView,
    rng: Random,
    *,
    seed: int | None = None,
    known: Mapping[Seat, Iterable[Card]] | None = None,
) -> GameState:
    """A state whose view for ``view.seat`` is ``view``, the unseen cards dealt from ``rng``.

    ``known``: cards the seat knows to be in another seat's hand (the hand shown to
    it in a challenge, C-17, or the hand it gave away in a swap, H-2, still held),
    kept there; the rest of that hand is dealt. By default the view's own
    :attr:`~unoengine.PlayerView.known`.

    Raises:
        ValueError: the view (with ``known``) does not fit the rule set's deck.
    """
    return Determinizer(view, known).sample(rng, seed=seed)


_GAMES: dict[tuple[object, ...], Game] = {}
"""The game of a view's (rule set, seats, options), resolved once (resolving options is most of a view's cost)."""

_BY_OPTIONS: dict[int, tuple[object, object, object, Game]] = {}
"""The game of a view by the identity of its ``options`` tuple (a view made by ``view_for`` holds its game's own
tuple), with that tuple (kept alive, so the identity is not reused while it is here), the rule set's name and the
seats it was found for: hashing the options (their ``Enum`` values hash in Python code) was a fifth of a call."""

_BY_OPTIONS_LIMIT = 256
"""Past this many entries the identity cache starts again (views parsed from text each hold their own tuple)."""

_CARD_IDS: dict[int, tuple[tuple[CardId, ...], ...]] = {}
"""Each deck's physical card ids by card kind, lowest first (keyed by the identity of the deck's tables)."""


def _game_of(view: PlayerView) -> Game:
    options: object = view.options
    seats = _untyped_seats(view)
    rules_name: object = view.rules
    known = _BY_OPTIONS.get(id(options))
    if known is not None and known[0] is options and known[1] == rules_name and known[2] == seats:
        game = known[3]
        _check_seats(view, game.rules)
        return game
    key: tuple[object, ...] | None = (rules_name, seats, options)
    try:
        game_or_none = _GAMES.get(key)  # type: ignore[arg-type]
    except TypeError:  # a malformed view (unhashable options): resolve it and let the checks speak
        game_or_none = None
        key = None
    if game_or_none is None:
        rules = find_rules(view.rules)
        _check_seats(view, rules)
        game = game_of(rules, view.seats, rules.options(dict(view.options)))
        if key is not None:
            _GAMES[key] = game
    else:
        game = game_or_none
        _check_seats(view, game.rules)
    if key is not None:
        if len(_BY_OPTIONS) >= _BY_OPTIONS_LIMIT:
            _BY_OPTIONS.clear()
        _BY_OPTIONS[id(options)] = (options, rules_name, seats, game)
    return game


def _card_ids(tables: DeckTables) -> tuple[tuple[CardId, ...], ...]:
    ids = _CARD_IDS.get(id(tables))
    if ids is None:
        by_kind: list[list[CardId]] = [[] for _ in tables.kinds]
        for card_id, kind in enumerate(tables.kind_of):
            by_kind[kind].append(card_id)
        ids = tuple(tuple(found) for found in by_kind)
        _CARD_IDS[id(tables)] = ids
    return ids


class _Deck:
    """The physical cards of one deck not placed yet: each card's lowest free id first.

    Cards are found by kind (``DeckTables.kind_index``: a card keeps its hash, and a view's
    cards are the deck's own objects, found by identity).
    """

    def __init__(self, rules: RuleSet, tables: DeckTables) -> None:
        self.rules = rules
        self.tables = tables
        self.ids = _card_ids(tables)
        self.used = [0] * len(tables.kinds)
        self.placed: list[bytes] = []
        """The ids placed so far, as each :meth:`take_all` placed them."""

    def take_all(self, cards: Iterable[object], where: str, *, remember: bool = False) -> bytes:
        """Place ``cards``: each one's lowest free physical id, in order.

        ``remember``: the cards' kinds are kept for the next view of this deck, whose
        cards, as far as they are the same objects in the same order, are not looked up
        again (the discard pile: the next decision of a game shows the same pile and a
        card or two more).
        """
        if not isinstance(cards, tuple):
            cards = tuple(cards)
        if not cards:
            return b""
        kinds = self._kinds_remembered(cards, where) if remember else self._kinds(cards, 0, where)
        ids = self.ids
        used = self.used
        out: list[CardId] = []
        for index in range(len(kinds)):
            kind = kinds[index]
            count = used[kind]
            of_kind = ids[kind]
            if count >= len(of_kind):
                card = cards[index]
                name = format_card(card) if isinstance(card, Card) else excerpt(card)
                raise ValueError(f"the view does not fit the {self.rules.name} deck: one {name} too many ({where})")
            used[kind] = count + 1
            out.append(of_kind[count])
        placed = bytes(out)
        self.placed.append(placed)
        return placed

    def _kinds(self, cards: tuple[object, ...], start: int, where: str) -> list[int]:
        """The kind of each of ``cards[start:]``."""
        kind_index = self.tables.kind_index
        out: list[int] = []
        for index in range(start, len(cards)):
            card = cards[index]
            kind = kind_index.get(card, -1) if isinstance(card, Card) else -1
            if kind < 0:
                self._refuse(card, where)
            out.append(kind)
        return out

    def _kinds_remembered(self, cards: tuple[object, ...], where: str) -> list[int]:
        """:meth:`_kinds`, the leading cards that are the last remembered cards of this deck taken from memory."""
        tables = self.tables
        last = _LAST_KINDS.get(id(tables))
        same = 0
        kinds: list[int] = []
        if last is not None and last[0] is tables:
            last_cards = last[1]
            limit = min(len(cards), len(last_cards))
            while same < limit and cards[same] is last_cards[same]:
                same += 1
            kinds = list(last[2][:same])
        if same < len(cards):
            kinds.extend(self._kinds(cards, same, where))
        _LAST_KINDS[id(tables)] = (tables, cards, tuple(kinds))
        return kinds

    def _refuse(self, card: object, where: str) -> NoReturn:
        """The refusal of what is not a card of the deck's kinds."""
        if isinstance(card, Card):
            name = format_card(card)
            raise ValueError(f"the view does not fit the {self.rules.name} deck: one {name} too many ({where})")
        raise ValueError(f"the view does not fit the {self.rules.name} deck: {excerpt(card)} ({where})")

    def rest(self) -> bytes:
        """The ids not placed, in order: every id of the deck (each fits in a byte, ``MAX_CARDS``), the placed ones
        deleted, in C."""
        return _ALL_IDS[: len(self.tables.cards)].translate(None, b"".join(self.placed))


_LAST_KINDS: dict[int, tuple[DeckTables, tuple[object, ...], tuple[int, ...]]] = {}
"""Per deck (by the identity of its tables, kept here): the last remembered cards and their kinds. The cards are
kept alive here, so a card that is one of them (``is``) is that card."""

_ALL_IDS = bytes(range(256))
"""Every card id that fits in a byte, in order (a deck's ids are the first ``len(deck)`` of them)."""


class Determinizer:
    """:func:`determinize` for many samples of one view: the view is checked and its
    cards placed once, each :meth:`sample` deals only the unseen ones (a search bot's
    iterations).

    Raises:
        ValueError: the view (with ``known``) does not fit the rule set's deck.
    """

    def __init__(self, view: PlayerView, known: Mapping[Seat, Iterable[Card]] | None = None) -> None:
        game = _game_of(view)
        rules = game.rules
        deck = _Deck(rules, game.tables)
        self.view = view
        self.rules = rules
        self.game = game
        self.own = deck.take_all(view.hand, "hand")
        self.discard = deck.take_all(view.discard_pile, "discard pile", remember=True)
        self.bottom = deck.take_all(view.draw_pile_known, "draw pile bottom")
        self.peeked = deck.take_all(
            [value for _, value in view.details if isinstance(value, Card)], "a card the decision shows"
        )
        if known is None:
            known = dict(view.known) if view.known else {}
        self.shown: dict[Seat, bytes] = {
            other: deck.take_all(cards, f"seat {other}'s known cards") for other, cards in known.items()
        }
        viewer = view.seat
        self.known: tuple[tuple[Seat, Seat, CardId], ...] = (
            () if viewer is None else tuple((viewer, other, card) for other, ids in self.shown.items() for card in ids)
        )
        """The state's ``known`` facts of this seat (the other seats' knowledge is not in the view)."""
        pool = deck.rest()
        self.pool = pool
        unseen = len(pool)
        for index, size in enumerate(view.hand_sizes):
            if index == view.seat:
                continue
            missing = size - len(self.shown.get(index, ()))
            if missing < 0 or missing > unseen:
                raise ValueError(f"the view does not fit the {rules.name} deck: seat {index} holds {size} cards")
            unseen -= missing
        hidden = view.draw_pile - len(self.bottom) - len(self.peeked)
        if hidden != unseen:
            raise ValueError(
                f"the view does not fit the {rules.name} deck: {unseen} unseen cards for {max(hidden, 0)} places"
            )
        self.decision = _decision_of(rules, view)

    def sample(self, rng: Random, *, seed: int | None = None) -> GameState:
        """One state consistent with the view, the unseen cards dealt from ``rng``.

        The unseen cards are shuffled as ``rng.shuffle`` shuffles them, drawing the same
        words of ``rng`` (:func:`shuffle_in_words`).
        """
        view = self.view
        seat = -1 if view.seat is None else view.seat
        dealt = bytes(shuffle_in_words(rng, list(self.pool)))
        hands: list[bytes] = []
        start = 0
        shown = self.shown
        for index, size in enumerate(view.hand_sizes):
            if index == seat:
                hands.append(self.own)
                continue
            given = shown.get(index, b"") if shown else b""
            missing = size - len(given)
            part = dealt[start : start + missing]
            hands.append(given + part if given else part)
            start += missing
        draw = self.bottom + dealt[start:] if self.bottom else dealt[start:]
        if self.peeked:
            draw += self.peeked[::-1]
        chosen_seed = rng.getrandbits(64) if seed is None else seed
        return make_state(
            GameState,
            (
                self.game,
                chosen_seed,
                0,
                view.round,
                view.dealer,
                tuple(hands),
                draw,
                self.discard,
                view.color,
                view.direction,
                view.power,
                self.decision.make(hands, rng),
                view.unsafe,
                view.blocked,
                len(self.bottom),
                view.scores,
                view.round_scores,
                view.round_winner,
                view.outcome,
                view.steps,
                self.known,
                view.aside,
            ),
        )


def _untyped_seats(view: PlayerView) -> object:
    """``view.seats`` as it is: compiled code would refuse a malformed view's seats (``"3"``) with a ``TypeError``
    when reading a field typed ``int``, before :func:`_check_seats` can name the problem."""
    return getattr(view, "seats")  # noqa: B009 (read untyped on purpose)


def _check_seats(view: PlayerView, rules: RuleSet) -> None:
    """Refuse a view whose seats disagree with its rule set, its hand sizes, its scores or its seat numbers."""
    seats = _untyped_seats(view)
    if type(seats) is not int or seats not in rules.seats:
        raise ValueError(f"the view does not fit {rules.title}: {excerpt(seats)} seats")
    if len(view.hand_sizes) != seats:
        _refuse_count(seats, "hand sizes", view.hand_sizes)
    if len(view.scores) != seats:
        _refuse_count(seats, "scores", view.scores)
    for index, deltas in enumerate(view.round_scores):
        if len(deltas) != seats:
            _refuse_count(seats, f"round {index + 1}'s scores", deltas)
    _check_seat(seats, "seat", view.seat)
    _check_seat(seats, "dealer", view.dealer)
    _check_seat(seats, "to_act", view.to_act)
    _check_seat(seats, "challenger_of", view.challenger_of)
    _check_seat(seats, "unsafe", view.unsafe)
    _check_seat(seats, "round_winner", view.round_winner)
    if view.seat is not None and view.hand_sizes[view.seat] != len(view.hand):
        raise ValueError(
            f"the view does not fit its hand: seat {view.seat} holds {len(view.hand)} cards, "
            f"its hand size says {view.hand_sizes[view.seat]}"
        )


def _check_seat(seats: int, name: str, value: object) -> None:
    """Refuse a view's field that names a seat (or ``None``) but names none of its seats."""
    if value is not None and (type(value) is not int or not 0 <= value < seats):
        raise ValueError(f"the view does not fit its {seats} seats: {name} is {excerpt(value)}")


def _refuse_count(seats: int, what: str, values: tuple[object, ...]) -> NoReturn:
    raise ValueError(f"the view does not fit its {seats} seats: {len(values)} {what}")


_DECISIONS: dict[tuple[object, ...], _Decision] = {}
"""Each pending decision met, by (rule set, decision, seat to act, public fields): built once (a search bot
determinizes many views of few decisions)."""

_DECISIONS_LIMIT = 1024
"""Past this many entries the cache starts again."""


def _decision_of(rules: RuleSet, view: PlayerView) -> _Decision:
    key: tuple[object, ...] = (rules, view.pending, view.to_act, view.decision)
    try:
        found = _DECISIONS.get(key)
    except TypeError:  # a malformed view (an unhashable field): build it and let the checks speak
        return _Decision(rules, view)
    if found is None:
        found = _Decision(rules, view)
        if len(_DECISIONS) >= _DECISIONS_LIMIT:
            _DECISIONS.clear()
        _DECISIONS[key] = found
    return found


class _Decision:
    """The pending decision of a view: its public fields from the view, its hidden ones sampled per state."""

    def __init__(self, rules: RuleSet, view: PlayerView) -> None:
        cls = rules.decisions.get(view.pending)
        if cls is None:
            raise ValueError(f"unknown decision {excerpt(view.pending)}")
        public = dict(view.decision)
        defaults: dict[str, Any] = getattr(cls, "_field_defaults", {})
        self.cls = cls
        self.values: list[Any] = []
        """The decision's fields in order; the sampled ones are filled per sample."""
        self.coin = -1
        """Where the challenge window's ``legal`` field is, drawn per sample (C-17: hidden); -1: none."""
        self.drawn = -1
        """Where the drawn-card decision's ``card`` field is: the drawer's last card in the sampled hands."""
        self.drawer = view.to_act if public.get("drew") else None
        for name in getattr(cls, "_fields", ()):
            if name == "kind":
                self.values.append(defaults.get(name, view.pending))
                continue
            if name == "seat":
                self.values.append(view.to_act)
            elif name in public:
                self.values.append(public[name])
            elif cls is ChallengeWindow and name == "legal":
                self.coin = len(self.values)
                self.values.append(None)
            elif cls is DrawnCardChoice and name == "card":
                self.drawn = len(self.values)  # the card just drawn is the last one the drawer received (C-8, C-22)
                self.values.append(None)
            else:
                raise ValueError(f"the view does not show field {excerpt(name)} of the {view.pending} decision")
        self.tuple_class = issubclass(cls, tuple)
        self.fixed: Any = None if self.coin >= 0 or self.drawn >= 0 else self._build(self.values)
        """The decision itself when nothing of it is sampled (built once)."""

    def _build(self, values: list[Any]) -> Any:
        if self.tuple_class:  # a NamedTuple: from its fields in order, in C (its __new__ is Python code)
            return tuple.__new__(self.cls, values)
        return self.cls(*values)

    def make(self, hands: list[bytes], rng: Random) -> Any:
        if self.fixed is not None:
            return self.fixed
        values = list(self.values)
        if self.coin >= 0:
            values[self.coin] = rng.random() < 0.5
        if self.drawn >= 0:
            drawer = self.drawer
            values[self.drawn] = hands[drawer][-1] if drawer is not None else None
        return self._build(values)
