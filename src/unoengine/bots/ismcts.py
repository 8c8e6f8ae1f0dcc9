"""``ismcts``: information-set search by a race of the candidate moves (and two older modes).

``mode=race`` (the default): each iteration deals the cards the bot cannot see
afresh, consistently with its view (the core's :func:`~unoengine.determinize`,
and the reads of :mod:`unoengine.bots.reads`), draws one rollout seed, and plays
every candidate move still in the race from that same deal with that same seed
(common random numbers): ``rollout`` actions (default ``5 × seats``, about five
turns each) of the ``heuristic``'s policy on the engine itself
(:func:`~unoengine.legal_actions` and :func:`~unoengine.apply_unchecked`: no
views, no events, no rule written twice), scored 1 for a win, 0 for a loss, else
with the fitted probability of winning the round (:mod:`unoengine.bots.evaluation`).
A candidate leaves the race when it is ``prune`` standard errors behind the
heuristic's move or the leader (after ``warmup`` iterations); the race stops when
only the heuristic's move is left. Another move is played only when it beats the
heuristic's by ``confidence`` standard errors of the paired difference. A
decision with one sensible move (:func:`own_choices`) is played at once.

``mode=paired`` (the bot before the race: short rollouts, the linear evaluation,
a ``confirm`` check on whole rollouts) and ``mode=tree`` (single-observer ISMCTS:
one tree from the bot's point of view, every seat's decisions its nodes,
availability counted) are kept for comparison.

The ``heuristic`` bot is the prior and the fallback: its move is the race's
baseline (the tree's bonus), and it is played when the view cannot be
determinized. Out-of-turn choices (``uno``, ``catch N``, jump-in) are the
heuristic's: they are dominant or nearly so.

Parameters (``ismcts:iterations=80,seed=3``):

- ``iterations``: the iteration budget (reproducible: the same seed and view give the same choice);
- ``ms``: a time budget in milliseconds a decision (when ``iterations`` is not given);
- ``seed``: the bot's own seed (else its generator comes from the caller);
- ``mode``: ``race`` (default), ``paired`` or ``tree``;
- ``rollout``: actions played before the evaluation (race: ``5 × seats``; else ``3 × seats``);
- ``evaluation``: how a cut rollout's position is scored: ``fitted`` (the race's default: each seat's
  probability of winning the round from :mod:`unoengine.bots.evaluation`, fitted on self-play) or
  ``linear`` (the other modes' default: a soft-max over ``-k × burden``, with ``k``, ``wild``,
  ``action``, ``points``, ``tempo``);
- ``confidence``: standard errors by which a move must beat the heuristic's (race 1, paired 2);
- ``prune``, ``warmup``: the race's elimination (2 standard errors, after 8 iterations);
- ``depth``: the tree's depth limit in actions (default 3);
- ``c``: the exploration constant (default 0.25; rewards lie in 0…1);
- ``k``: the evaluation's sharpness (default 0.6);
- ``prior``: the heuristic move's bonus (default 0.1);
- ``confirm``: in paired mode, a move the short rollouts prefer to the heuristic's is played
  only if rollouts to the round's end prefer it too (default true: the linear evaluation at a
  short rollout's cut is biased, and without the check more iterations made the bot weaker).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from typing import Any

from unoengine.bots.base import register
from unoengine.bots.evaluation import win_probabilities
from unoengine.bots.heuristic import HeuristicBot, MercyTable, NoMercyTuning, is_no_mercy, mercy_choice
from unoengine.bots.reads import Reads
from unoengine.core.actions import ACCEPT, CALL_UNO, DRAW, KEEP, PASS, Action, Catch, ChooseColor, Play
from unoengine.core.actions import play as interned_play
from unoengine.core.cards import COLORS, Card, Color, Rank, Seat
from unoengine.core.determinize import Determinizer
from unoengine.core.engine import apply_unchecked, legal_actions
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView

DEFAULT_ITERATIONS = 80
RACE_CUT = 5
"""The race's rollouts stop after this many actions a seat (about five turns each), then the fitted evaluation."""
WHOLE = 100_000
"""A rollout of this many actions is played to the end of the round."""
_COLOR_INDEX = {color: index for index, color in enumerate(COLORS)}
_WD4 = (Rank.WILD_DRAW_FOUR, Rank.FLEX_WILD_DRAW_FOUR)
_MERCY_TUNING = NoMercyTuning()


class _Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: Seat | None) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


def own_choices(legal: Iterable[Action]) -> list[Action]:
    """The actions of a seat's own decision: no ``catch``, no lone ``uno``; a play that
    may call UNO always does (not calling is never better: C-18's window)."""
    choices = [action for action in legal if type(action) is not Catch and action is not CALL_UNO]
    calls = {
        interned_play(action.card, action.color, action.flex, action.target)
        for action in choices
        if type(action) is Play and action.uno
    }
    return [action for action in choices if action not in calls]


def rollout_action(state: GameState, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
    """The rollout policy: the ``heuristic`` bot's choices (bots/heuristic.py) read off the state
    itself (no view is built): a play calling UNO first, colour match before number match,
    action cards early against a short next hand, wilds late, the most-held colour named;
    else draw, else pass; a challenge is accepted, a Duo draft card kept. No Mercy: the
    heuristic's own scores (:func:`~unoengine.bots.heuristic.mercy_choice`); the roulette's
    victim names its most-held colour."""
    plays = [action for action in legal if type(action) is Play]
    if is_no_mercy(state.rules.name) and state.pending.kind != "roulette":
        cards = state.tables.cards
        hands = state.hand_bytes
        table = MercyTable(
            tuple(cards[card] for card in hands[seat]),
            tuple(len(hand) for hand in hands),
            seat,
            state.direction,
            state.power,
            state.color,
        )
        pending: Any = state.pending
        total = int(pending.total) if pending.kind == "stack" else 0
        chosen = mercy_choice(table, pending.kind, total, plays, DRAW in legal, _MERCY_TUNING)
        if chosen is not None:
            return chosen
    if plays:
        if len(plays) == 1:
            return plays[0]
        return max(plays, key=_PlayScorer(state, seat))
    if DRAW in legal:
        return DRAW
    if ACCEPT in legal:
        return ACCEPT
    if KEEP in legal:
        return KEEP
    if PASS in legal:
        return PASS
    colors = [action for action in legal if type(action) is ChooseColor]
    if colors:
        favourite = _favourite(state.tables.cards, state.hand_bytes[seat], None)
        for action in colors:
            if action.color is favourite:
                return action
    rest = [action for action in legal if type(action) is not Catch and action is not CALL_UNO]
    others = rest or list(legal)
    return others[int(rng.random() * len(others))]


def _favourite(cards: Sequence[Card], hand: Sequence[int], without: Card | None) -> Color:
    """The colour the hand holds most (of ``hand`` less one ``without``), ties to the first of COLORS."""
    counts = [0, 0, 0, 0]
    skipped = without is None
    for card_id in hand:
        card = cards[card_id]
        if not skipped and card == without:
            skipped = True
            continue
        color = card.color
        if color is not None:
            counts[_COLOR_INDEX[color]] += 1
    best = max(range(4), key=lambda index: (counts[index], -index))
    return COLORS[best]


class _PlayScorer:
    """The ``heuristic`` bot's score of a play (``HeuristicBot._score``), from the state."""

    __slots__ = ("cards", "color", "hand", "next_size", "sizes", "small")

    def __init__(self, state: GameState, seat: Seat) -> None:
        hands = state.hand_bytes
        self.cards = state.tables.cards
        self.hand = hands[seat]
        self.color = state.color
        self.sizes = [len(hand) for hand in hands]
        self.next_size = self.sizes[(seat + state.direction) % len(hands)]
        self.small = len(self.hand) <= 2

    def __call__(self, play: Action) -> float:
        assert type(play) is Play
        card = play.card
        score = 0.0
        if card.is_wild:
            score -= 0 if self.small else 30
            if card.rank in _WD4:
                score -= 5
        elif card.color is self.color and not play.flex:
            score += 10
        else:
            score += 4
        if card.rank is not Rank.NUMBER and not card.is_wild:
            score += 8 if self.next_size <= 2 else 2
        if play.flex:
            score -= 3
        if card.number is not None:
            score += card.number / 10
        if play.color is not None:
            score += 1 if play.color is _favourite(self.cards, self.hand, card) else -1
        if play.target is not None:
            score -= self.sizes[play.target] / 100
        if play.uno:
            score += 0.5
        return score


def roll_out(state: GameState, rng: random.Random, actions: int, start_round: int) -> GameState:
    """Up to ``actions`` actions of the rollout policy on the engine, stopping when round ``start_round`` ends."""
    for _ in range(actions):
        if state.outcome is not None or state.round != start_round:
            break
        seat = state.pending.seat
        if seat is None:
            break
        state = apply_unchecked(state, seat, rollout_action(state, seat, legal_actions(state, seat), rng))
    return state


class IsmctsBot:
    """The ``ismcts`` bot (see the module's text for its parameters)."""

    name = "ismcts"
    needs_view = True
    reacts = True

    def __init__(
        self,
        rng: random.Random,
        iterations: int | None = None,
        ms: float | None = None,
        seed: int | None = None,
        rollout: int | None = None,
        depth: int = 3,
        c: float = 0.25,
        k: float = 0.6,
        prior: float = 0.1,
        mode: str = "race",
        confidence: float | None = None,
        wild: float = 0.5,
        action: float = 0.0,
        points: float = 0.0,
        tempo: float = 0.0,
        read: bool = True,
        confirm: bool = True,
        prune: float = 2.0,
        warmup: int = 8,
        evaluation: str | None = None,
    ) -> None:
        if evaluation is None:
            evaluation = "fitted" if mode == "race" else "linear"
        if evaluation not in ("linear", "fitted"):
            raise ValueError(f"evaluation must be 'linear' or 'fitted', not {evaluation!r}")
        self.evaluation = evaluation
        if mode not in ("race", "paired", "tree"):
            raise ValueError(f"mode must be 'race', 'paired' or 'tree', not {mode!r}")
        self.mode = mode
        self.confidence = float(confidence) if confidence is not None else 1.0 if mode == "race" else 2.0
        self.wild = float(wild)
        self.action = float(action)
        self.points = float(points)
        self.tempo = float(tempo)
        for label, value in (("iterations", iterations), ("ms", ms), ("rollout", rollout), ("depth", depth)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value < 0):
                raise ValueError(f"{label} must be a non-negative number, not {value!r}")
        self.rng = random.Random(seed) if seed is not None else rng
        self.iterations = int(iterations) if iterations is not None else None
        self.ms = float(ms) if ms is not None else None
        if self.iterations is None and self.ms is None:
            self.iterations = DEFAULT_ITERATIONS
        self.rollout = rollout
        self.depth = int(depth)
        self.c = float(c)
        self.k = float(k)
        self.prior = float(prior)
        self.heuristic = HeuristicBot(random.Random(self.rng.getrandbits(64)))
        self.read = bool(read)
        self.confirm = bool(confirm)
        self.prune = float(prune)
        self.warmup = max(2, int(warmup))
        self.reads: Reads | None = None
        self.last_iterations = 0
        """Iterations the last search ran (in the race: rollouts played; for measurements)."""

    # -- the protocol ------------------------------------------------------------------

    def react(self, view: PlayerView, legal: tuple[Action, ...]) -> Action | None:
        return self.heuristic.react(view, legal)

    def choose(self, view: PlayerView | None, legal: tuple[Action, ...]) -> Action:
        assert view is not None
        reads = self.reads
        if reads is None and self.read and Reads.applies(view):
            reads = self.reads = Reads()
        if reads is not None:
            reads.observe(view)
        choices = own_choices(legal)
        if not choices:
            action = legal[0]
        else:
            fallback = self.heuristic.choose(view, legal)
            if fallback not in choices:
                fallback = choices[0]
            action = choices[0] if len(choices) == 1 else self._search(view, choices, fallback)
        if reads is not None:
            try:
                state = Determinizer(view).sample(random.Random(0))
            except ValueError:
                self.reads = None
            else:
                assert view.seat is not None
                reads.remember(state, view.seat, action)
        return action

    def _sample(self, sampler: Determinizer, seat: Seat) -> GameState:
        """One state consistent with the view (and with the reads, where they are made)."""
        state = sampler.sample(self.rng)
        return state if self.reads is None else self.reads.deal(state, seat)

    # -- search ----------------------------------------------------------------------

    def _search(self, view: PlayerView, choices: list[Action], fallback: Action) -> Action:
        root = _Node(view.seat)
        seat = view.seat
        assert seat is not None
        rollout = self.rollout if self.rollout is not None else 3 * view.seats
        budget = self.iterations
        deadline = time.perf_counter() + self.ms / 1000 if budget is None and self.ms is not None else None
        done = 0
        try:
            sampler = Determinizer(view)
        except ValueError:
            return fallback
        if self.mode == "race":
            best, done = self._race(sampler, seat, choices, fallback, budget, deadline)
            self.last_iterations = done
            return best
        if self.mode == "paired":
            halfway = None if deadline is None or not self.confirm else (time.perf_counter() + deadline) / 2
            best, done = self._compare(sampler, seat, choices, fallback, rollout, budget, halfway or deadline)
            self.last_iterations = done
            if best is fallback or not self.confirm:
                return best
            # The screen's rollouts stop after a few turns and its evaluation is biased at the cut, so
            # the more iterations it runs the more often it leaves the heuristic's move for a worse one.
            # A rollout played to the round's end is an unbiased estimate of the move's value (against
            # the rollout policy): the move must beat the heuristic's on those as well.
            confirmed, checked = self._compare(sampler, seat, [fallback, best], fallback, WHOLE, done, deadline)
            self.last_iterations += checked
            return confirmed
        while not _spent(done, budget, deadline):
            state = self._sample(sampler, seat)
            self._iterate(root, state, seat, choices, fallback, rollout)
            done += 1
        self.last_iterations = done
        best = max(
            choices,
            key=lambda action: (
                root.children[action].visits if action in root.children else -1,
                action == fallback,
            ),
        )
        return best

    def _race(
        self,
        sampler: Determinizer,
        seat: Seat,
        choices: list[Action],
        fallback: Action,
        budget: int | None,
        deadline: float | None,
    ) -> tuple[Action, int]:
        """A race of the candidates on paired rollouts (common random numbers).

        Every iteration deals one sample of the hidden cards and draws one rollout seed, and every
        candidate still in the race is played from it with the rollout policy for ``rollout``
        actions (default ``RACE_CUT × seats``; to the round's end at most) and scored (1 a win,
        0 a loss, else the evaluation). A candidate leaves the race when its paired difference
        with the heuristic's move ``fallback`` or with the leader is below zero by ``prune``
        standard errors (after ``warmup`` iterations); the race stops when only ``fallback`` is
        left or the budget is spent. A candidate is played only if it beats ``fallback`` by
        ``confidence`` standard errors. Returns the move and the rollouts played."""
        rng = self.rng
        base = choices.index(fallback)
        values: list[list[float]] = [[] for _ in choices]
        live = list(range(len(choices)))
        length = RACE_CUT * sampler.view.seats if self.rollout is None else self.rollout
        done = rollouts = 0
        while not _spent(done, budget, deadline):
            state = self._sample(sampler, seat)
            seed = rng.getrandbits(32)
            for index in live:
                after = apply_unchecked(state, seat, choices[index])
                values[index].append(self._playout(after, seat, length, seed, state.round))
            rollouts += len(live)
            done += 1
            if done >= self.warmup and len(live) > 1:
                live = self._survivors(values, live, base)
                if live == [base]:
                    break
        best, best_mean = base, 0.0
        for index in live:
            if index == base:
                continue
            mean, error = _paired(values[index], values[base])
            if mean > best_mean and mean > self.confidence * error:
                best, best_mean = index, mean
        return choices[best], rollouts

    def _survivors(self, values: list[list[float]], live: list[int], base: int) -> list[int]:
        """The candidates still in the race: ``base`` always; another unless it is ``prune`` standard
        errors behind ``base`` or the leader (the best mean), or never differed from ``base``."""
        means = {index: _paired(values[index], values[base]) for index in live}
        leader = max(live, key=lambda index: means[index][0])
        kept = [base]
        for index in live:
            if index == base:
                continue
            mean, error = means[index]
            if mean + self.prune * error <= 0:
                continue
            if index != leader:
                behind, spread = _paired(values[index], values[leader])
                if behind + self.prune * spread < 0:
                    continue
            kept.append(index)
        return sorted(kept)

    def _compare(
        self,
        sampler: Determinizer,
        seat: Seat,
        choices: list[Action],
        fallback: Action,
        rollout: int,
        budget: int | None,
        deadline: float | None,
    ) -> tuple[Action, int]:
        """The root as a paired comparison: every action on the same sampled deal and rollout seed
        (common random numbers), each scored against the heuristic's move ``fallback``; the best
        of ``choices``, which is ``fallback`` unless another beats it by ``confidence`` standard
        errors, and the iterations run."""
        rng = self.rng
        count = len(choices)
        base = choices.index(fallback)
        sums = [0.0] * count
        squares = [0.0] * count
        done = 0
        while not _spent(done, budget, deadline):
            state = self._sample(sampler, seat)
            seed = rng.getrandbits(32)
            values = [
                self._playout(apply_unchecked(state, seat, action), seat, rollout, seed, state.round)
                for action in choices
            ]
            for index in range(count):
                diff = values[index] - values[base]
                sums[index] += diff
                squares[index] += diff * diff
            done += 1
        if done < 2:
            return fallback, done
        best, best_mean = base, 0.0
        for index in range(count):
            mean = sums[index] / done
            variance = max(0.0, squares[index] / done - mean * mean)
            error = math.sqrt(variance / (done - 1))
            if mean > best_mean and mean > self.confidence * error:
                best, best_mean = index, mean
        return choices[best], done

    def _playout(self, state: GameState, me: Seat, rollout: int, seed: int, start_round: int) -> float:
        """``me``'s value after ``rollout`` actions of the rollout policy from ``state`` (in round ``start_round``)."""
        return self._evaluate(roll_out(state, random.Random(seed), rollout, start_round), start_round)[me]

    def _iterate(
        self, root: _Node, state: GameState, me: Seat, choices: list[Action], fallback: Action, rollout: int
    ) -> None:
        rng = self.rng
        node = root
        path: list[_Node] = []
        start_round = state.round
        depth = 0
        while state.outcome is None and state.round == start_round and depth < self.depth:
            seat = state.pending.seat
            if seat is None:
                break
            actions = choices if depth == 0 else own_choices(legal_actions(state, seat))
            if not actions:
                break
            children = node.children
            untried = [action for action in actions if action not in children]
            if untried:
                action = fallback if depth == 0 and fallback in untried else untried[int(rng.random() * len(untried))]
                child = _Node(seat)
                children[action] = child
                for other in actions:
                    if other is not action and other in children:
                        children[other].avail += 1
                path.append(child)
                state = apply_unchecked(state, seat, action)
                depth += 1
                break
            best_score = -math.inf
            action = actions[0]
            for candidate in actions:
                child = children[candidate]
                child.avail += 1
                score = child.total / child.visits + self.c * math.sqrt(math.log(child.avail) / child.visits)
                if depth == 0 and candidate == fallback:
                    score += self.prior / (1 + child.visits) * 10
                if score > best_score:
                    best_score, action = score, candidate
            node = children[action]
            path.append(node)
            state = apply_unchecked(state, seat, action)
            depth += 1
        values = self._evaluate(roll_out(state, rng, rollout, start_round), start_round)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.total += values[visited.seat]

    def _evaluate(self, state: GameState, start_round: int) -> list[float]:
        """Each seat's value of the position: 1 for a win, 0 for a loss, else a soft-max of
        ``-k × burden``, a seat's burden being its cards less ``wild`` a wild card and ``action``
        an action card, plus ``points`` a hundred points held, less ``tempo`` for the seat to act;
        with ``evaluation="fitted"``, each seat's fitted probability of winning (:mod:`unoengine.bots.evaluation`)."""
        seats = state.seats
        winner: Any = None
        if state.outcome is not None:
            winner = state.outcome.winner
            if winner is None:
                return [1.0 / seats] * seats
        elif state.round != start_round:
            winner = state.round_winner
        if winner is not None:
            return [1.0 if seat == winner else 0.0 for seat in range(seats)]
        if self.evaluation == "fitted":
            return win_probabilities(state)
        tables = state.tables
        cards = tables.cards
        points = tables.points
        to_act = state.pending.seat
        k, wild, action, per_point = self.k, self.wild, self.action, self.points / 100
        weights = []
        for seat, hand in enumerate(state.hand_bytes):
            burden = float(len(hand))
            for card_id in hand:
                card = cards[card_id]
                if card.is_wild:
                    burden -= wild
                elif card.rank is not Rank.NUMBER:
                    burden -= action
                burden += per_point * points[card_id]
            if seat == to_act:
                burden -= self.tempo
            weights.append(math.exp(-k * burden))
        total = sum(weights)
        return [weight / total for weight in weights]


register("ismcts")(IsmctsBot)


def _paired(values: Sequence[float], others: Sequence[float]) -> tuple[float, float]:
    """The mean of the paired differences ``values - others`` (over their common length) and its standard error."""
    count = min(len(values), len(others))
    if count < 2:
        return 0.0, math.inf
    diffs = [values[index] - others[index] for index in range(count)]
    mean = sum(diffs) / count
    variance = sum((diff - mean) ** 2 for diff in diffs) / (count - 1)
    return mean, math.sqrt(variance / count)


def _spent(done: int, budget: int | None, deadline: float | None) -> bool:
    """Is the search's budget used up: ``budget`` iterations done, or (after at least one) ``deadline`` passed?"""
    if budget is not None and done >= budget:
        return True
    return deadline is not None and done > 0 and time.perf_counter() >= deadline
