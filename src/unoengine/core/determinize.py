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
from unoengine.core.rules.base import RuleSet, game_of
from unoengine.core.state import ChallengeWindow, DrawnCardChoice, GameState
from unoengine.core.views import PlayerView


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


class Determinizer:
    """:func:`determinize` for many samples of one view: the view is checked and its
    cards placed once, each :meth:`sample` deals only the unseen ones (a search bot's
    iterations).

    Raises:
        ValueError: the view (with ``known``) does not fit the rule set's deck.
    """

    def __init__(self, view: PlayerView, known: Mapping[Seat, Iterable[Card]] | None = None) -> None:
        rules = find_rules(view.rules)
        _check_seats(view, rules)
        game = game_of(rules, view.seats, rules.options(dict(view.options)))
        tables = game.tables
        free: dict[Card, list[CardId]] = {}
        for card_id in range(len(tables.cards) - 1, -1, -1):
            free.setdefault(tables.cards[card_id], []).append(card_id)

        def take(card: Card, where: str) -> CardId:
            ids = free.get(card)
            if not ids:
                raise ValueError(
                    f"the view does not fit the {rules.name} deck: one {format_card(card)} too many ({where})"
                )
            return ids.pop()

        self.view = view
        self.rules = rules
        self.game = game
        self.own = tuple(take(card, "hand") for card in view.hand)
        self.discard = tuple(take(card, "discard pile") for card in view.discard_pile)
        self.bottom = tuple(take(card, "draw pile bottom") for card in view.draw_pile_known)
        self.peeked = tuple(
            take(value, "a card the decision shows") for _, value in view.details if isinstance(value, Card)
        )
        if known is None:
            known = dict(view.known)
        self.shown: dict[Seat, tuple[CardId, ...]] = {
            other: tuple(take(card, f"seat {other}'s known cards") for card in cards) for other, cards in known.items()
        }
        viewer = view.seat
        self.known: tuple[tuple[Seat, Seat, CardId], ...] = (
            () if viewer is None else tuple((viewer, other, card) for other, ids in self.shown.items() for card in ids)
        )
        """The state's ``known`` facts of this seat (the other seats' knowledge is not in the view)."""
        pool = [card_id for ids in free.values() for card_id in ids]
        pool.sort()
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

    def sample(self, rng: Random, *, seed: int | None = None) -> GameState:
        """One state consistent with the view, the unseen cards dealt from ``rng``."""
        view = self.view
        seat = view.seat
        pool = list(self.pool)
        rng.shuffle(pool)
        hands: list[tuple[CardId, ...]] = []
        start = 0
        for index, size in enumerate(view.hand_sizes):
            if index == seat:
                hands.append(self.own)
                continue
            given = self.shown.get(index, ())
            missing = size - len(given)
            hands.append(given + tuple(pool[start : start + missing]))
            start += missing
        draw = self.bottom + tuple(pool[start:]) + self.peeked[::-1]
        return GameState(
            game=self.game,
            seed=rng.getrandbits(64) if seed is None else seed,
            shuffles=0,
            round=view.round,
            dealer=view.dealer,
            hands=tuple(hands),
            draw_pile=draw,
            discard_pile=self.discard,
            color=view.color,
            direction=view.direction,
            power=view.power,
            pending=_pending(self.rules, view, hands, rng),
            unsafe=view.unsafe,
            blocked=view.blocked,
            public_bottom=len(self.bottom),
            scores=view.scores,
            round_scores=view.round_scores,
            round_winner=view.round_winner,
            outcome=view.outcome,
            steps=view.steps,
            known=self.known,
        )


def _check_seats(view: PlayerView, rules: RuleSet) -> None:
    """Refuse a view whose seats disagree with its rule set, its hand sizes, its scores or its seat numbers."""
    seats = view.seats
    if type(seats) is not int or seats not in rules.seats:
        raise ValueError(f"the view does not fit {rules.title}: {excerpt(seats)} seats")
    counts = {"hand sizes": len(view.hand_sizes), "scores": len(view.scores)}
    counts.update({f"round {index + 1}'s scores": len(deltas) for index, deltas in enumerate(view.round_scores)})
    for what, count in counts.items():
        if count != seats:
            raise ValueError(f"the view does not fit its {seats} seats: {count} {what}")
    seat_fields = ("seat", "dealer", "to_act", "challenger_of", "unsafe", "round_winner")
    for name in seat_fields:
        value = getattr(view, name)
        if value is not None and (type(value) is not int or not 0 <= value < seats):
            raise ValueError(f"the view does not fit its {seats} seats: {name} is {excerpt(value)}")
    if view.seat is not None and view.hand_sizes[view.seat] != len(view.hand):
        raise ValueError(
            f"the view does not fit its hand: seat {view.seat} holds {len(view.hand)} cards, "
            f"its hand size says {view.hand_sizes[view.seat]}"
        )


def _pending(rules: RuleSet, view: PlayerView, hands: list[tuple[CardId, ...]], rng: Random) -> Any:
    """The pending decision: its public fields from the view, its hidden ones sampled."""
    cls = rules.decisions.get(view.pending)
    if cls is None:
        raise ValueError(f"unknown decision {excerpt(view.pending)}")
    public = dict(view.decision)
    values: dict[str, Any] = {}
    for name in getattr(cls, "_fields", ()):
        if name == "kind":
            continue
        if name == "seat":
            values[name] = view.to_act
        elif name in public:
            values[name] = public[name]
        elif cls is ChallengeWindow and name == "legal":
            values[name] = rng.random() < 0.5
        elif cls is DrawnCardChoice and name == "card":
            # The card just drawn is the last one the drawer received (C-8, C-22).
            drawer = view.to_act
            values[name] = hands[drawer][-1] if public.get("drew") and drawer is not None else None
        else:
            raise ValueError(f"the view does not show field {excerpt(name)} of the {view.pending} decision")
    return cls(**values)
