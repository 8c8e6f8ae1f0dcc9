"""A batch of games stepped in one call (compiled with the core): the loop of :class:`unoengine.rl.VectorEnv`.

:class:`Batch` holds ``n`` :class:`~unoengine.rl.match.Match` objects and steps them all in
:meth:`Batch.step`: the caller's action in each game, the bots' moves (with opponents), the
auto-reset of a game that ended at the last step (Gymnasium's ``NEXT_STEP``), the rewards, and
every game's next observation and mask written by the compiled
:class:`~unoengine.rl.observe.Writer` straight into rows of the caller's arrays. It imports no
NumPy: the rows are ``memoryview`` objects over the caller's NumPy arrays, zeroed by the caller
before each call.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from unoengine.bots.base import Bot
from unoengine.core.actions import Action
from unoengine.core.state import seat_of
from unoengine.core.views import view_for
from unoengine.rl.decisions import DECLINE
from unoengine.rl.match import Match
from unoengine.rl.observe import Writer, write_mask

_ZERO: Final[object] = 0
_NO_IDS: Final[list[int]] = []

BotMaker = Callable[[int, int], dict[int, Bot]]
"""``(learner seat, game seed) -> {seat: bot}``: the bots of a new game, one per seat but the learner's."""


def bot_decision(bot: Bot, match: Match) -> Action:
    """What ``bot`` does with the decision ``match`` offers its seat (an out-of-turn offer: react or pass)."""
    seat = match.seat
    assert seat is not None
    if seat != seat_of(match.state.pending):
        if not bot.reacts:
            return DECLINE
        reaction = bot.react(view_for(match.state, seat), match.choices[1:])
        return DECLINE if reaction is None else reaction
    view = view_for(match.state, seat) if bot.needs_view else None
    return bot.choose(view, match.choices)


def play_bots(match: Match, bots: dict[int, Bot], learner: int) -> None:
    """The bots' decisions until the learner is offered one or the game ends."""
    while True:
        seat = match.seat
        if seat is None or seat == learner:
            return
        match.take(bot_decision(bots[seat], match))


class Batch:
    """``len(matches)`` games, their output rows and, with ``make_bots``, their bots.

    ``observations``, ``masks``, ``seat_rewards``: one row (``memoryview``) per game
    (``zero_row``: an all-zero observation row, to clear one);
    ``rewards``, ``terminations``, ``seat``, ``learner``: one ``memoryview`` each, an
    entry per game. ``learner_seat``: the caller's seat with bots (``-1``: one drawn per
    game from the game's seed generator).

    ``finals`` (one row per game) switches to Gymnasium's ``SAME_STEP`` auto-reset: the
    step that ends a game writes its final observation into ``finals[i]`` (cleared with
    ``zero_row``, an all-zero row) and deals the next game at once.
    """

    def __init__(
        self,
        matches: list[Match],
        writer: Writer,
        observations: list[Any],
        masks: list[Any],
        seat_rewards: list[Any],
        rewards: Any,
        terminations: Any,
        seat: Any,
        learner: Any,
        *,
        illegal: str,
        make_bots: BotMaker | None,
        learner_seat: int,
        finals: list[Any] | None = None,
        zero_row: Any = None,
    ) -> None:
        self.matches = matches
        self.writer = writer
        self.observations = observations
        self.masks = masks
        self.seat_rewards = seat_rewards
        self.rewards = rewards
        self.terminations = terminations
        self.seat = seat
        self.learner = learner
        self.illegal = illegal
        self.make_bots = make_bots
        self.learner_seat = learner_seat
        count = len(matches)
        self.seeds: list[random.Random] = [random.Random(index) for index in range(count)]
        self.bots: list[dict[int, Bot]] = [{} for _ in range(count)]
        self.needs_reset: list[bool] = [False] * count
        self.finals = finals
        self.zero_row = zero_row
        self.mask_ids: list[list[int]] = [_NO_IDS] * count
        """The ids set in each game's mask row (cleared before the row is written again)."""

    def seed(self, seeds: list[int]) -> None:
        """Game ``i``'s seeds from now on come from ``random.Random(seeds[i])``."""
        self.seeds = [random.Random(value) for value in seeds]

    def reset(self) -> None:
        """A new game in every slot; every row written (the caller zeroed the masks)."""
        self.mask_ids = [_NO_IDS] * len(self.matches)
        for index in range(len(self.matches)):
            self._new_game(index)
            self.needs_reset[index] = False
            self._write(index)

    def check(self, actions: list[object]) -> None:
        """Raise for the first game whose action its offered seat may not take (nothing is changed).

        Raises:
            IllegalActionError: that game's refusal, naming the rule.
        """
        matches = self.matches
        needs_reset = self.needs_reset
        for index in range(len(matches)):
            match = matches[index]
            if not needs_reset[index] and match.action(actions[index]) is None:
                raise match.refuse(actions[index])

    def step(self, actions: list[object]) -> None:
        """``actions[i]`` in game ``i`` (ignored where the game ended at the last step: a new game starts there);
        then every row written (the caller zeroed ``rewards``, ``terminations`` and ``seat_rewards``).

        Raises:
            IllegalActionError: an id the offered seat may not take (``illegal="raise"``; call :meth:`check`
                first to refuse a batch before any game moves).
        """
        matches = self.matches
        illegal = self.illegal
        bots = self.make_bots is not None
        needs_reset = self.needs_reset
        for index in range(len(matches)):
            match = matches[index]
            if needs_reset[index]:
                self._new_game(index)
                needs_reset[index] = False
            else:
                actor = match.seat
                assert actor is not None
                if match.take_id(actions[index], illegal) and bots:
                    self._play_bots(index)
                if match.seat is None:
                    values = match.rewards()
                    row = self.seat_rewards[index]
                    for k in range(len(values)):
                        row[k] = values[k]
                    self.rewards[index] = values[actor]
                    self.terminations[index] = True
                    finals = self.finals
                    if finals is None:
                        needs_reset[index] = True
                    else:  # SAME_STEP: the final observation aside, the next game now
                        final = finals[index]
                        final[:] = self.zero_row
                        self.writer.write(match.state, int(self.seat[index]), final)  # the last decider's
                        self._new_game(index)
            self._write(index)

    def _write(self, index: int) -> None:
        """Game ``index``'s row: cleared here, while it is in the cache (a whole-array clear before the loop
        would leave a large batch's rows out of it by the time they are written), then written."""
        match = self.matches[index]
        mask = self.masks[index]
        for old in self.mask_ids[index]:
            mask[old] = _ZERO
        seat = match.seat
        if seat is None:  # over: the final view of the last decider (``self.seat[index]`` still)
            self.mask_ids[index] = _NO_IDS
            seat = int(self.seat[index])
        else:
            write_mask(match.ids, mask)
            self.mask_ids[index] = match.ids
            self.seat[index] = seat
        row = self.observations[index]
        row[:] = self.zero_row
        self.writer.write(match.state, seat, row)

    def _new_game(self, index: int) -> None:
        """A new game in slot ``index`` (with bots: one in which the learner gets a decision)."""
        match = self.matches[index]
        seeds = self.seeds[index]
        make_bots = self.make_bots
        while True:
            game_seed = seeds.getrandbits(63)
            if make_bots is not None:
                learner = self.learner_seat if self.learner_seat >= 0 else seeds.randrange(match.seats)
                self.learner[index] = learner
                self.bots[index] = make_bots(learner, game_seed)
            match.reset(game_seed)
            if make_bots is not None:
                self._play_bots(index)
            if match.seat is not None:
                return

    def _play_bots(self, index: int) -> None:
        play_bots(self.matches[index], self.bots[index], int(self.learner[index]))
