"""The review of a game record: each decision's win chance, the best move, marks and accuracy.

:func:`analyze` replays a record and, for every decision of the chosen seats that
had more than one move that matters, estimates the seat's chance of winning the
round after each of its legal moves, from its view alone:

- the position is the seat's view just before it acted (:func:`~unoengine.view_for`):
  the hidden cards (the other hands, the draw pile's order) are dealt afresh,
  consistently with that view, by :class:`~unoengine.core.determinize.Determinizer`;
  nothing else of the record is read, so the review of a decision is the same for
  every deal the seat could not tell from the real one (docs/REVIEW.md, "Fair to the
  player");
- every candidate move is played from the same deals with the same rollout seeds
  (common random numbers): the ``heuristic``'s policy
  (:func:`~unoengine.bots.ismcts.rollout_action`) to the end of the round, scored 1
  for a win, 0 for a loss, ``1 / seats`` for a blocked round;
- ``win`` is the mean of the move played, ``best``/``best_win`` the candidate with
  the highest mean (the move played on a tie), the drop ``best_win - win`` gives
  the mark (:data:`THRESHOLDS`) and each seat's accuracy (:func:`accuracy_of`).

The candidates are the seat's own choices (:func:`~unoengine.bots.ismcts.own_choices`:
a play that may call UNO calls it), plus the move played when it is not one of them:
a play that leaves one card without the call. That move is scored as if an opponent
caught it at once (C-18); when the seat's next action in the record is its own
``uno`` call, before anyone else acts, the two are one move, the play with the call.
Out-of-turn actions (``uno``, ``catch N``, a jump-in, H-3) are not decisions.

Each decision's random numbers come from the review's seed and the action's index
only: the result does not depend on ``jobs``, on the seats chosen or on the order
of the work. An ``iterations`` budget is deterministic; an ``ms`` budget is not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from unoengine.bots.ismcts import own_choices, roll_out
from unoengine.core.actions import CALL_UNO, Action, Catch, Play, catch, format_action, parse_action
from unoengine.core.actions import play as interned_play
from unoengine.core.cards import Seat
from unoengine.core.determinize import Determinizer
from unoengine.core.engine import apply, apply_unchecked, legal_actions
from unoengine.core.record import Record, replaying
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView, view_for

DEFAULT_ITERATIONS = 800
"""The default budget: deals of the hidden cards a decision, each candidate played once from each."""

WHOLE_ROUND = 100_000
"""A rollout of this many actions is played to the end of the round."""

THRESHOLDS: dict[str, float] = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
"""Mark -> the least drop in the chance of winning the round (``best_win - win``) that earns it.

Lower than lichess's 0.1, 0.2 and 0.3: a single UNO decision moves the round's
odds much less than a chess move can (most turns offer two or three plays of
similar worth, luck of the draw does the rest), while the estimate's noise at the
default budget stays under 0.03 (docs/REVIEW.md, "Thresholds")."""

MARKS = ("inaccuracy", "mistake", "blunder")
"""The marks, mildest first."""


@dataclass(frozen=True)
class DecisionReview:
    """One reviewed decision: the record's ``index``, the ``seat`` that acted, the ``action`` it took, the
    ``best`` move found, the chances of winning the round after each (``win``, ``best_win``) and the ``mark``."""

    index: int
    seat: int
    action: str
    best: str
    win: float
    best_win: float
    mark: str | None

    @property
    def drop(self) -> float:
        """How much the move played gave away: ``best_win - win`` (0 when it is the best)."""
        return max(0.0, self.best_win - self.win)

    def to_json(self) -> dict[str, Any]:
        """``{"index", "seat", "action", "best", "win", "best_win", "mark"}``, chances to 3 decimals."""
        return {
            "index": self.index,
            "seat": self.seat,
            "action": self.action,
            "best": self.best,
            "win": round(self.win, 3),
            "best_win": round(self.best_win, 3),
            "mark": self.mark,
        }


@dataclass(frozen=True)
class PlayerReview:
    """One seat's summary: its accuracy (0-100, :func:`accuracy_of`), its reviewed decisions and marks."""

    seat: int
    accuracy: float
    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "accuracy", "decisions", "inaccuracies", "mistakes", "blunders"}``."""
        return {
            "seat": self.seat,
            "accuracy": self.accuracy,
            "decisions": self.decisions,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
        }


@dataclass(frozen=True)
class Analysis:
    """The review of a record: its rule set, number of seats, reviewed decisions (in record order) and players."""

    rules: str
    seats: int
    decisions: tuple[DecisionReview, ...]
    players: tuple[PlayerReview, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "seats", "decisions": [...], "players": [...]}`` (docs/REVIEW.md)."""
        return {
            "rules": self.rules,
            "seats": self.seats,
            "decisions": [decision.to_json() for decision in self.decisions],
            "players": [player.to_json() for player in self.players],
        }


@dataclass(frozen=True)
class _Task:
    """What the review of one decision needs, and nothing more: the seat's view (never the state)."""

    index: int
    seat: Seat
    view: PlayerView
    taken: Action
    """The move played (with the call when the seat's own ``uno`` followed it at once)."""
    label: str
    """The move played as the record writes it (canonical notation)."""
    candidates: tuple[Action, ...]
    iterations: int | None
    ms: float | None
    seed: int


def mark_of(drop: float) -> str | None:
    """The mark of a drop in the chance of winning (:data:`THRESHOLDS`), or ``None``."""
    found: str | None = None
    for name in MARKS:
        if drop >= THRESHOLDS[name] - 1e-12:
            found = name
    return found


def accuracy_of(drops: Sequence[float]) -> float:
    """A seat's accuracy, 0-100: the mean over its decisions of lichess's per-move accuracy,
    ``103.1668 × exp(-0.04354 × drop%) - 3.1669`` clamped to 0-100 (``drop%``: the drop in
    percentage points), rounded to one decimal; 100 for no decision."""
    if not drops:
        return 100.0
    scores = [min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * 100 * drop) - 3.1669)) for drop in drops]
    return round(sum(scores) / len(scores), 1)


def _checked_seats(record: Record, seats: Sequence[int] | None) -> frozenset[int]:
    if seats is None:
        return frozenset(range(record.seats))
    chosen = set()
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < record.seats:
            raise ValueError(f"seat {seat!r} is not a seat of this {record.seats}-seat game (0 to {record.seats - 1})")
        chosen.add(seat)
    return frozenset(chosen)


def _tasks(record: Record, seats: frozenset[int], iterations: int | None, ms: float | None, seed: int) -> list[_Task]:
    """Replay ``record`` and collect its decisions of ``seats`` (each with the acting seat's view before it).

    Raises:
        RecordError: the record's set-up is refused.
        ReplayError: an action is refused.
    """
    state = record.start()
    actions = record.actions
    tasks: list[_Task] = []
    for index, (seat, text) in enumerate(actions):
        with replaying(index, text):
            action = parse_action(text)
            task = None
            if seat in seats and seat == state.pending.seat and type(action) is not Catch and action is not CALL_UNO:
                task = _task(state, index, seat, action, actions, iterations, ms, seed)
            state = apply(state, seat, action).state
        if task is not None:
            tasks.append(task)
    return tasks


def _task(
    state: GameState,
    index: int,
    seat: Seat,
    action: Action,
    actions: Sequence[tuple[Seat, str]],
    iterations: int | None,
    ms: float | None,
    seed: int,
) -> _Task | None:
    """The review task of the action at ``index``, or ``None`` when the seat had one sensible move."""
    view = view_for(state, seat)
    choices = own_choices(view.legal)
    label = format_action(action)
    taken = action
    if type(action) is Play and not action.uno and index + 1 < len(actions) and actions[index + 1] == (seat, "uno"):
        with_call = interned_play(action.card, action.color, action.flex, action.target, True)
        if with_call in view.legal:  # the play, then the seat's own call before anyone acted: one move
            taken = with_call
    candidates = choices if taken in choices else [*choices, taken]
    if len(candidates) < 2:
        return None
    return _Task(index, seat, view, taken, label, tuple(candidates), iterations, ms, seed)


def decisions_of(record: Record, seats: Sequence[int] | None = None) -> list[int]:
    """The indices in ``record.actions`` of the decisions :func:`analyze` reviews (for progress and "k of n").

    Raises:
        ValueError: a seat is not one of the record's seats.
        RecordError: the record's set-up is refused.
        ReplayError: an action is refused.
    """
    return [task.index for task in _tasks(record, _checked_seats(record, seats), None, None, 0)]


def _rng(seed: int, index: int) -> random.Random:
    """The random numbers of the decision at ``index`` (from the review's seed and the index only)."""
    return random.Random(f"unoengine-review:{seed}:{index}")


def _caught(state: GameState, seat: Seat) -> GameState:
    """``state`` after the first opponent in turn order catches ``seat``, when it left one card without the call."""
    if state.unsafe != seat or state.outcome is not None:
        return state
    seats = state.seats
    move = catch(seat)
    for step in range(1, seats):
        other = (seat + step * state.direction) % seats
        if move in legal_actions(state, other):
            return apply_unchecked(state, other, move)
    return state


def _value(state: GameState, seat: Seat, start_round: int) -> float:
    """``seat``'s score of a rollout's end: 1 it won the round, 0 another did, ``1 / seats`` a blocked round."""
    if state.round == start_round and state.outcome is None:  # cannot happen with whole rollouts
        return 1.0 / state.seats
    winner = state.round_winner
    if winner is None:
        return 1.0 / state.seats
    return 1.0 if winner == seat else 0.0


def _review(task: _Task) -> DecisionReview:
    """The review of one decision, from the seat's view alone (no I/O; run in a worker when ``jobs > 1``)."""
    rng = _rng(task.seed, task.index)
    sampler = Determinizer(task.view)
    candidates = task.candidates
    seat = task.seat
    sums = [0.0] * len(candidates)
    deadline = None if task.ms is None else time.perf_counter() + task.ms / 1000
    budget = task.iterations if task.iterations is not None or deadline is not None else DEFAULT_ITERATIONS
    done = 0
    while True:
        if budget is not None and done >= budget:
            break
        if deadline is not None and done >= 2 and time.perf_counter() >= deadline:
            break
        state = sampler.sample(rng)
        rollout_seed = rng.getrandbits(64)
        start_round = state.round
        for number, move in enumerate(candidates):
            after = _caught(apply_unchecked(state, seat, move), seat)
            end = roll_out(after, random.Random(rollout_seed), WHOLE_ROUND, start_round)
            sums[number] += _value(end, seat, start_round)
        done += 1
    means = [total / max(done, 1) for total in sums]
    taken = candidates.index(task.taken)
    best = max(range(len(candidates)), key=lambda number: (means[number], number == taken, -number))
    drop = max(0.0, means[best] - means[taken])
    labels = [task.label if number == taken else format_action(move) for number, move in enumerate(candidates)]
    return DecisionReview(task.index, seat, task.label, labels[best], means[taken], means[best], mark_of(drop))


def analyze(
    record: Record,
    seats: Sequence[int] | None = None,
    *,
    iterations: int | None = None,
    ms: float | None = None,
    jobs: int = 1,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Review every decision of ``seats`` (all by default) in ``record`` (see the module's text).

    ``iterations``: deals a decision (default :data:`DEFAULT_ITERATIONS` when ``ms`` is not given
    either); ``ms``: a time budget a decision instead (not reproducible); ``jobs``: worker
    processes (the same result as one); ``seed``: the review's random numbers; ``progress(done,
    total)`` is called after each decision (in this process).

    Raises:
        ValueError: a seat out of range, ``jobs`` below 1, a negative budget.
        RecordError: the record's set-up is refused.
        ReplayError: an action is refused (an unfinished game is reviewed up to its last action).
    """
    chosen = _checked_seats(record, seats)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs!r}")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"iterations must be at least 1, not {iterations!r}")
    if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int | float) or not ms > 0 or math.isinf(ms)):
        raise ValueError(f"ms must be a positive number of milliseconds, not {ms!r}")
    if iterations is None and ms is None:
        iterations = DEFAULT_ITERATIONS
    tasks = _tasks(record, chosen, iterations, ms, seed)
    total = len(tasks)
    reviews: dict[int, DecisionReview] = {}
    if jobs == 1 or total < 2:
        for task in tasks:
            reviews[task.index] = _review(task)
            if progress is not None:
                progress(len(reviews), total)
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, total)) as pool:
            futures = [pool.submit(_review, task) for task in tasks]
            for future in as_completed(futures):
                review = future.result()
                reviews[review.index] = review
                if progress is not None:
                    progress(len(reviews), total)
    decisions = tuple(reviews[task.index] for task in tasks)
    players = tuple(_player(seat, decisions) for seat in sorted(chosen))
    return Analysis(record.rules, record.seats, decisions, players)


def _player(seat: Seat, decisions: Sequence[DecisionReview]) -> PlayerReview:
    own = [decision for decision in decisions if decision.seat == seat]
    marks = [decision.mark for decision in own]
    return PlayerReview(
        seat=seat,
        accuracy=accuracy_of([decision.drop for decision in own]),
        decisions=len(own),
        inaccuracies=marks.count("inaccuracy"),
        mistakes=marks.count("mistake"),
        blunders=marks.count("blunder"),
    )
