"""Stacking draw cards: H-1's stack and Duo's volley (D-13), one decision (:class:`StackHandler`)."""

from __future__ import annotations

from typing import Any

from unoengine.core import actions as A
from unoengine.core.cards import Seat
from unoengine.core.errors import excerpt
from unoengine.core.rules.ruleset import PendingHandler
from unoengine.core.rules.tables import DeckTables
from unoengine.core.state import ChallengeWindow, GameState
from unoengine.core.work import Work
from unoengine.i18n import said

TWO_STACKS = frozenset({"draw_two", "same", "mixed"})
"""H-1: the ``stack_draw`` values under which a Draw Two starts or adds to a stack."""
FOUR_STACKS = frozenset({"draw_four", "same", "mixed"})
"""H-1: the ``stack_draw`` values under which a Wild Draw Four starts or adds to a stack."""


def stack_total(prior: object) -> int:
    """H-1, D-13: the total of the stack (a Duo volley's too) a draw card was played on (0: none)."""
    if isinstance(prior, ChallengeWindow):
        return prior.draws
    total = getattr(prior, "total", 0)  # DrawStack, Duo's Volley
    assert isinstance(total, int)
    return total


def stacks_on(tables: DeckTables, mode: str, kind: int, top: int) -> bool:
    """H-1, D-13: may a card of ``kind`` go on a stack whose top card is of kind ``top``?"""
    two, four = tables.is_draw_two[kind], tables.is_wd4[kind]
    top_two, top_four = tables.is_draw_two[top], tables.is_wd4[top]
    if mode == "draw_two":
        return two and top_two
    if mode == "draw_four":
        return four and top_four
    if mode == "same":
        return (two and top_two) or (four and top_four)
    if mode == "mixed":
        return (two or four) and (top_two or top_four)
    return False


def stack_plays(state: GameState, seat: Seat, mode: str) -> list[A.Action]:
    """H-1, D-13: the seat's plays that add to the stack, one kind at a time (sorted by kind).

    A Wild Draw Four names its colour (four plays); ``strict`` (H-6) keeps it out
    while the seat holds a card of the current colour.
    """
    tables = state.tables
    hand = state.hand_bytes[seat]
    kind_of = tables.kind_of
    top = kind_of[state.discard_bytes[-1]]
    kinds = sorted({kind_of[card] for card in hand if stacks_on(tables, mode, kind_of[card], top)})
    if (
        state.options.wild_draw_four == "strict"
        and any(tables.is_wd4[kind] for kind in kinds)
        and tables.holds_color(hand, state.color)
    ):
        kinds = [kind for kind in kinds if not tables.is_wd4[kind]]
    plays = tables.plays_uno if len(hand) == 2 else tables.plays
    return [play for kind in kinds for play in plays[kind]]


class StackHandler(PendingHandler):
    """H-1 ``stack`` and D-13 ``volley``: add a card to the stack, or ``draw`` its total and lose the turn.

    One decision for both: Duo's volley is Draw-Two stacking (``mode`` ``draw_two``,
    rule D-13); H-1's stack is built with the option ``stack_draw``'s mode (:mod:`unoengine.core.house.stack_draw`).
    """

    def __init__(self, mode: str, rule: str, detail: str) -> None:
        self.mode = mode
        self.rule = rule
        self.detail = detail

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        return ((self.detail, stack_total(state.pending)),)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = stack_plays(state, seat, self.mode)
        out.append(A.DRAW)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            work.play_card(seat, work.find(seat, action.card), action)
        else:
            work.draw(seat, stack_total(work.prior))
            work.turn(work.next_seat(seat))

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Play and action.uno:
            return "C-19", said("' uno' goes with the play that leaves one card")
        who, refused = f"seat {seat}", excerpt(A.format_action(action))
        if self.rule == "D-13":
            # TRANSLATORS: a refusal: {seat} is a player, {action} the action refused, in notation; keep 'draw'
            reason = said(
                "{seat} adds a Draw Two to the volley or takes it with 'draw', not {action}", seat=who, action=refused
            )
            return self.rule, reason
        total = stack_total(state.pending)
        if self.mode == "draw_two":
            # TRANSLATORS: a refusal: {seat} is a player, {total} a number of cards, {action} the action refused
            reason = said(
                "{seat} adds a Draw Two to the stack ({total}) or draws it with 'draw', not {action}",
                seat=who,
                total=total,
                action=refused,
            )
        elif self.mode == "draw_four":
            # TRANSLATORS: a refusal: {seat} is a player, {total} a number of cards, {action} the action refused
            reason = said(
                "{seat} adds a Wild Draw Four to the stack ({total}) or draws it with 'draw', not {action}",
                seat=who,
                total=total,
                action=refused,
            )
        else:
            # TRANSLATORS: a refusal: {seat} is a player, {total} a number of cards, {action} the action refused
            reason = said(
                "{seat} adds a Draw Two or a Wild Draw Four to the stack ({total}) or draws it with 'draw', "
                "not {action}",
                seat=who,
                total=total,
                action=refused,
            )
        return self.rule, reason
