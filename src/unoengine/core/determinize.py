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
from typing import Any

from unoengine.core.cards import Card, CardId, Seat, format_card
from unoengine.core.errors import excerpt
from unoengine.core.rules import find_rules
from unoengine.core.rules.base import DeckTables, RuleSet, game_of
from unoengine.core.state import ChallengeWindow, DrawnCardChoice, Game, GameState
from unoengine.core.views import PlayerView
from unoengine.core.work import make_state, shuffle_with


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

_CARD_IDS: dict[int, tuple[tuple[CardId, ...], ...]] = {}
"""Each deck's physical card ids by card kind, lowest first (keyed by the identity of the deck's tables)."""


def _game_of(view: PlayerView) -> Game:
    key: tuple[object, ...] | None = (view.rules, _untyped_seats(view), view.options)
    try:
        game = _GAMES.get(key)  # type: ignore[arg-type]
    except TypeError:  # a malformed view (unhashable options): resolve it and let the checks speak
        game = None
        key = None
    if game is None:
        rules = find_rules(view.rules)
        _check_seats(view, rules)
        game = game_of(rules, view.seats, rules.options(dict(view.options)))
        if key is not None:
            _GAMES[key] = game
    else:
        _check_seats(view, game.rules)
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

    Cards are found by kind (:meth:`DeckTables.kind`: by identity first, so that a
    view's own cards are not hashed; a ``Card``'s hash is Python code).
    """

    def __init__(self, rules: RuleSet, tables: DeckTables) -> None:
        self.rules = rules
        self.tables = tables
        self.ids = _card_ids(tables)
        self.used = [0] * len(tables.kinds)
        self.taken = [False] * len(tables.cards)

    def take_all(self, cards: Iterable[object], where: str) -> tuple[CardId, ...]:
        """Place ``cards``: each one's lowest free physical id, in order."""
        tables = self.tables
        kind_by_id = tables.kind_by_id
        ids = self.ids
        used = self.used
        taken = self.taken
        out: list[CardId] = []
        for card in cards:
            kind = kind_by_id.get(id(card), -1)
            if kind < 0:
                if not isinstance(card, Card):
                    raise ValueError(f"the view does not fit the {self.rules.name} deck: {excerpt(card)} ({where})")
                kind = tables.kind_index.get(card, -1)
            count = 0 if kind < 0 else used[kind]
            if kind < 0 or count >= len(ids[kind]):
                name = format_card(card) if isinstance(card, Card) else excerpt(card)
                raise ValueError(f"the view does not fit the {self.rules.name} deck: one {name} too many ({where})")
            used[kind] = count + 1
            card_id = ids[kind][count]
            taken[card_id] = True
            out.append(card_id)
        return tuple(out)

    def rest(self) -> list[CardId]:
        """The ids not taken, in order."""
        taken = self.taken
        return [card_id for card_id in range(len(taken)) if not taken[card_id]]


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
        self.discard = deck.take_all(view.discard_pile, "discard pile")
        self.bottom = deck.take_all(view.draw_pile_known, "draw pile bottom")
        self.peeked = deck.take_all(
            [value for _, value in view.details if isinstance(value, Card)], "a card the decision shows"
        )
        if known is None:
            known = dict(view.known)
        self.shown: dict[Seat, tuple[CardId, ...]] = {
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
        self.decision = _Decision(rules, view)

    def sample(self, rng: Random, *, seed: int | None = None) -> GameState:
        """One state consistent with the view, the unseen cards dealt from ``rng``.

        The unseen cards are shuffled as ``rng.shuffle`` shuffles (the same
        Fisher–Yates from ``rng.getrandbits``, compiled with the core).
        """
        view = self.view
        seat = view.seat
        pool = shuffle_with(rng.getrandbits, list(self.pool))
        hands: list[tuple[CardId, ...]] = []
        start = 0
        shown = self.shown
        for index, size in enumerate(view.hand_sizes):
            if index == seat:
                hands.append(self.own)
                continue
            given = shown.get(index, ()) if shown else ()
            missing = size - len(given)
            hands.append(given + tuple(pool[start : start + missing]))
            start += missing
        draw = self.bottom + tuple(pool[start:]) + self.peeked[::-1]
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
            ),
        )


def _untyped_seats(view: PlayerView) -> object:
    """``view.seats`` as it is: compiled code would refuse a malformed view's seats (``"3"``) with a ``TypeError``
    when reading a field typed ``int``, before :func:`_check_seats` can name the problem."""
    return getattr(view, "seats")  # noqa: B009 (read untyped on purpose)


SEAT_FIELDS = ("seat", "dealer", "to_act", "challenger_of", "unsafe", "round_winner")
"""The view's fields that name a seat (or ``None``)."""


def _check_seats(view: PlayerView, rules: RuleSet) -> None:
    """Refuse a view whose seats disagree with its rule set, its hand sizes, its scores or its seat numbers."""
    seats = _untyped_seats(view)
    if type(seats) is not int or seats not in rules.seats:
        raise ValueError(f"the view does not fit {rules.title}: {excerpt(seats)} seats")
    counts = [("hand sizes", view.hand_sizes), ("scores", view.scores)]
    counts += [(f"round {index + 1}'s scores", deltas) for index, deltas in enumerate(view.round_scores)]
    for what, values in counts:
        if len(values) != seats:
            raise ValueError(f"the view does not fit its {seats} seats: {len(values)} {what}")
    seat_values = (view.seat, view.dealer, view.to_act, view.challenger_of, view.unsafe, view.round_winner)
    for name, value in zip(SEAT_FIELDS, seat_values, strict=True):
        if value is not None and (type(value) is not int or not 0 <= value < seats):
            raise ValueError(f"the view does not fit its {seats} seats: {name} is {excerpt(value)}")
    if view.seat is not None and view.hand_sizes[view.seat] != len(view.hand):
        raise ValueError(
            f"the view does not fit its hand: seat {view.seat} holds {len(view.hand)} cards, "
            f"its hand size says {view.hand_sizes[view.seat]}"
        )


class _Decision:
    """The pending decision of a view: its public fields from the view, its hidden ones sampled per state."""

    def __init__(self, rules: RuleSet, view: PlayerView) -> None:
        cls = rules.decisions.get(view.pending)
        if cls is None:
            raise ValueError(f"unknown decision {excerpt(view.pending)}")
        public = dict(view.decision)
        self.cls = cls
        self.values: dict[str, Any] = {}
        self.coin = ""
        """The challenge window's ``legal`` field, drawn per sample (C-17: hidden)."""
        self.drawn = ""
        """The drawn-card decision's ``card`` field: the drawer's last card in the sampled hands."""
        self.drawer = view.to_act if public.get("drew") else None
        for name in getattr(cls, "_fields", ()):
            if name == "kind":
                continue
            if name == "seat":
                self.values[name] = view.to_act
            elif name in public:
                self.values[name] = public[name]
            elif cls is ChallengeWindow and name == "legal":
                self.coin = name
            elif cls is DrawnCardChoice and name == "card":
                self.drawn = name  # the card just drawn is the last one the drawer received (C-8, C-22)
            else:
                raise ValueError(f"the view does not show field {excerpt(name)} of the {view.pending} decision")
        self.fixed: Any = None if self.coin or self.drawn else cls(**self.values)
        """The decision itself when nothing of it is sampled (built once: a ``NamedTuple``'s keywords are slow)."""

    def make(self, hands: list[tuple[CardId, ...]], rng: Random) -> Any:
        if self.fixed is not None:
            return self.fixed
        values = self.values
        if self.coin or self.drawn:
            values = dict(values)
            if self.coin:
                values[self.coin] = rng.random() < 0.5
            if self.drawn:
                drawer = self.drawer
                values[self.drawn] = hands[drawer][-1] if drawer is not None else None
        return self.cls(**values)
