"""A fitted evaluation of a position: each seat's probability of winning the round.

:func:`win_probabilities` scores every seat with a linear function of a few
features of its hand and place (cards held, wilds, draw cards, skips and
reverses, points, cards of the current colour, whether it is to act or next,
its margin over the leader, the draw pile), and turns the scores into
probabilities with a soft-max over the seats (a conditional logit): ``P(seat
wins) = exp(w·f(seat)) / Σ exp(w·f(other))``. The weights ``w`` are fitted by
maximum likelihood on positions of ``heuristic`` self-play, labelled with the
round's winner, one set per rule set and seat count
(``scripts/fit_evaluation``, which writes
:mod:`unoengine.bots.evaluation_weights`); house-rule options use the weights
of their base rule set, a seat count without its own weights those of the
nearest fitted one.

Every feature is relative: it depends on a seat's own hand and its place in the
turn order from the seat to act, never on its number, so relabelling the seats
relabels the probabilities. Features read the state through the small functions
below (a seat's hand as card ids, a card by its id, the seat to act, the
direction, the colour, the draw pile): nothing else of the state's layout.

``linear`` weights reproduce the hand-tuned evaluation the ``ismcts`` bot used
first (a soft-max over ``-0.6 × (cards held - 0.5 × wilds)``), for comparison.

Play needs no NumPy; fitting does (the ``rl`` extra).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from unoengine.core.cards import Card, Color, Rank, Seat
from unoengine.core.state import GameState

FEATURES: tuple[str, ...] = (
    "cards",
    "log_cards",
    "one_card",
    "two_cards",
    "wilds",
    "wild_draws",
    "draw_twos",
    "skips_reverses",
    "points",
    "in_color",
    "stuck",
    "colors",
    "to_act",
    "next",
    "place",
    "margin",
    "leader",
    "owed",
    "cards_x_pile",
)
"""The features of a seat, in the order of a weight vector:

- ``cards``: cards held; ``log_cards``: log(1 + cards); ``one_card``, ``two_cards``: holds exactly 1 / 2;
- ``wilds``: Wilds and other wilds that make no one draw; ``wild_draws``: wilds that make a seat draw
  (Wild Draw Four, Flex's draw wilds); ``draw_twos``; ``skips_reverses``; ``points``: points held / 100;
- ``in_color``: cards of the current colour (either side of a Flex card; every coloured card while no colour
  is named, as in Duo's draft); ``stuck``: none of them and no wild;
  ``colors``: colours held;
- ``to_act``: the seat to act; ``next``: the next seat in the direction of play; ``place``: the distance
  from the seat to act in turn order, over the seats;
- ``margin``: cards held less the fewest any other seat holds; ``leader``: holds the fewest cards (ties too);
- ``owed``: cards the seat to act must draw unless it answers (a draw stack, a Wild Draw Four to challenge);
- ``cards_x_pile``: cards held × the draw pile's size / 100.
"""

_NONE, _ACTION, _DRAW_TWO, _WILD, _WILD_DRAW = range(5)
_WILD_DRAWS = frozenset(
    {Rank.WILD_DRAW_FOUR, Rank.FLEX_WILD_DRAW_TWO, Rank.FLEX_WILD_ALL_DRAW, Rank.FLEX_WILD_DRAW_FOUR}
)

LINEAR: tuple[float, ...] = tuple({"cards": -0.6, "wilds": 0.3, "wild_draws": 0.3}.get(name, 0.0) for name in FEATURES)
"""The hand-tuned evaluation as weights: ``-0.6 × (cards - 0.5 × wilds)``."""


# -- what the features read of a state (the only places that know its layout) ----------------------------


def hand(state: GameState, seat: Seat) -> Iterable[int]:
    """The card ids in ``seat``'s hand (the state's own bytes: ``state.hands`` builds every hand's tuple)."""
    return state.hand_bytes[seat]


def card(state: GameState, card_id: int) -> Card:
    """The card of a card id."""
    return state.tables.cards[card_id]


def to_act(state: GameState) -> Seat | None:
    """The seat to act (``None`` once the game is over)."""
    seat: Seat | None = state.pending.seat
    return seat


def owed(state: GameState) -> int:
    """Cards the seat to act draws unless it answers: a draw stack's total, a challenge window's draw."""
    pending: Any = state.pending
    kind = pending.kind
    if kind == "stack":
        return int(pending.total)
    if kind == "challenge":
        return int(pending.draws)
    return 0


def pile(state: GameState) -> int:
    """Cards in the draw pile."""
    return len(state.draw_bytes)


def winner(state: GameState) -> tuple[bool, Seat | None]:
    """``(True, seat)`` once the game is over (``seat`` ``None``: no winner), else ``(False, None)``."""
    outcome = state.outcome
    if outcome is None:
        return False, None
    return True, outcome.winner


# -- the features ---------------------------------------------------------------------------------------

_KIND_CACHE: dict[int, tuple[object, list[tuple[int, Color | None, Color | None, float]]]] = {}
"""Per deck (by the identity of its card table): each card id's (kind, colour, flex colour, points / 100)."""


def _kinds(state: GameState) -> list[tuple[int, Color | None, Color | None, float]]:
    cards = state.tables.cards
    entry = _KIND_CACHE.get(id(cards))
    if entry is not None and entry[0] is cards:
        return entry[1]
    points = state.rules.points
    table: list[tuple[int, Color | None, Color | None, float]] = []
    for card_id in range(len(cards)):
        one = card(state, card_id)
        rank = one.rank
        if one.is_wild:
            kind = _WILD_DRAW if rank in _WILD_DRAWS else _WILD
        elif rank is Rank.DRAW_TWO:
            kind = _DRAW_TWO
        elif rank is Rank.NUMBER:
            kind = _NONE
        else:
            kind = _ACTION
        table.append((kind, one.color, one.flex_color, points(one) / 100))
    _KIND_CACHE[id(cards)] = (cards, table)
    return table


def features(state: GameState) -> list[list[float]]:
    """Each seat's feature vector (in the order of :data:`FEATURES`) for a position still in play."""
    kinds = _kinds(state)
    seats = state.seats
    actor = to_act(state)
    first = 0 if actor is None else actor
    direction = state.direction
    color = state.color
    drawn = pile(state) / 100
    debt = float(owed(state))
    sizes = [0] * seats
    rows: list[list[float]] = []
    for seat in range(seats):
        held = wilds = wild_draws = draw_twos = actions = in_color = 0
        points = 0.0
        colors: set[Color] = set()
        for card_id in hand(state, seat):
            kind, printed, flex, value = kinds[card_id]
            held += 1
            points += value
            if kind == _WILD:
                wilds += 1
            elif kind == _WILD_DRAW:
                wild_draws += 1
            elif kind == _DRAW_TWO:
                draw_twos += 1
            elif kind == _ACTION:
                actions += 1
            if printed is not None:
                colors.add(printed)
                if color is None or printed is color or flex is color:
                    in_color += 1
        sizes[seat] = held
        place = ((seat - first) * direction) % seats
        rows.append(
            [
                float(held),
                math.log1p(held),
                float(held == 1),
                float(held == 2),
                float(wilds),
                float(wild_draws),
                float(draw_twos),
                float(actions),
                points,
                float(in_color),
                float(in_color == 0 and wilds + wild_draws == 0),
                float(len(colors)),
                float(place == 0),
                float(place == 1),
                place / seats,
                0.0,
                0.0,
                debt if place == 0 else 0.0,
                held * drawn,
            ]
        )
    fewest = min(sizes)
    for seat, row in enumerate(rows):
        others = min((size for other, size in enumerate(sizes) if other != seat), default=0)
        row[15] = float(sizes[seat] - others)
        row[16] = float(sizes[seat] == fewest)
    return rows


# -- the model ------------------------------------------------------------------------------------------


def softmax(scores: Sequence[float]) -> list[float]:
    """The soft-max of ``scores`` (stable: shifted by their maximum)."""
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def probabilities(rows: Sequence[Sequence[float]], weights: Sequence[float]) -> list[float]:
    """The conditional logit: each seat's probability from its features ``rows`` and ``weights``."""
    scores = []
    for row in rows:
        score = 0.0
        for weight, value in zip(weights, row, strict=True):
            score += weight * value
        scores.append(score)
    return softmax(scores)


def weights_for(rules: str, seats: int) -> tuple[float, ...]:
    """The fitted weights of a rule set and seat count (the nearest fitted seat count; another rule set's
    weights never: a rule set without its own uses Classic's)."""
    from unoengine.bots.evaluation_weights import FEATURES as FITTED
    from unoengine.bots.evaluation_weights import WEIGHTS

    if FITTED.split() != list(FEATURES):
        raise ValueError("the shipped weights are for other features: run scripts/fit_evaluation --write")
    table = WEIGHTS.get(rules) or WEIGHTS["classic"]
    if seats in table:
        return table[seats]
    nearest = min(table, key=lambda fitted: (abs(fitted - seats), fitted))
    return table[nearest]


_WEIGHTS_CACHE: dict[tuple[str, int], tuple[float, ...]] = {}


def _cached_weights(rules: str, seats: int) -> tuple[float, ...]:
    """:func:`weights_for` of ``rules`` and ``seats``, computed once."""
    key = (rules, seats)
    weights = _WEIGHTS_CACHE.get(key)
    if weights is None:
        weights = _WEIGHTS_CACHE[key] = weights_for(rules, seats)
    return weights


def win_probabilities(state: GameState, weights: Sequence[float] | None = None) -> list[float]:
    """Each seat's probability of winning the round from ``state``: they sum to 1; once the game is
    over they are exact (1 for the winner, 0 for the others; equal shares when it ended without one).
    In a game of several rounds a won round is followed at once by the next deal, and the
    probabilities are those of the round being played (``ismcts`` scores a round that ended during
    its rollout from ``state.round_winner`` itself).

    ``weights``: a weight vector over :data:`FEATURES` (default: the fitted ones of the state's rule
    set and seat count; :data:`LINEAR` is the hand-tuned evaluation)."""
    seats = state.seats
    over, won = winner(state)
    if over:
        if won is None:
            return [1.0 / seats] * seats
        return [1.0 if seat == won else 0.0 for seat in range(seats)]
    if state.rules.seat_flags == "in_round":
        return in_round_probabilities(state, weights)
    if weights is None:
        weights = _cached_weights(state.rules.name, seats)
    return probabilities(features(state), weights)


_TO_ACT, _NEXT, _PLACE, _MARGIN, _LEADER = (
    FEATURES.index(name) for name in ("to_act", "next", "place", "margin", "leader")
)


def in_round_probabilities(state: GameState, weights: Sequence[float] | None = None) -> list[float]:
    """:func:`win_probabilities` of a No Mercy position in play, over the seats still in the round (N-22): a seat
    knocked out (it holds no cards) has no chance, and the features that compare seats (the turn order, the
    margin, the leader) count only the seats in it."""
    seats = state.seats
    in_round = state.power
    alive = [seat for seat in range(seats) if in_round[seat]]
    rows = features(state)
    sizes = {seat: len(state.hand_bytes[seat]) for seat in alive}
    actor = state.pending.seat
    order: list[Seat] = []
    seat = actor if actor is not None and in_round[actor] else alive[0]
    for _ in range(seats):
        if in_round[seat]:
            order.append(seat)
        seat = (seat + state.direction) % seats
    fewest = min(sizes.values())
    for place, seat in enumerate(order):
        row = rows[seat]
        row[_TO_ACT] = float(place == 0)
        row[_NEXT] = float(place == 1)
        row[_PLACE] = place / len(order)
        others = min((size for other, size in sizes.items() if other != seat), default=0)
        row[_MARGIN] = float(sizes[seat] - others)
        row[_LEADER] = float(sizes[seat] == fewest)
    if weights is None:
        weights = _cached_weights(state.rules.name, len(alive))
    chances = probabilities([rows[seat] for seat in alive], weights)
    out = [0.0] * seats
    for seat, chance in zip(alive, chances, strict=True):
        out[seat] = chance
    return out
