"""The core decisions of every rule set: turn, drawn card, challenge and game over (their handlers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from unoengine.core import actions as A
from unoengine.core.cards import CardId, Seat
from unoengine.core.errors import excerpt
from unoengine.core.events import ChallengeResolved, HandShown
from unoengine.core.rules.plays import (
    MAX_DRAW_UNTIL_PLAYABLE,
    card_plays,
    is_playable,
    play_from_hand,
    play_refusal,
    turn_plays,
)
from unoengine.core.rules.ruleset import PendingHandler
from unoengine.core.state import ChallengeWindow, DrawnCardChoice, GameOver, GameState, Turn, drawn_choice
from unoengine.core.work import Work
from unoengine.i18n import said


def drawn_card(pending: object) -> CardId | None:
    """C-8: the drawn card of a ``drawn`` decision."""
    assert isinstance(pending, DrawnCardChoice)
    return pending.card


def turn_draw(work: Work, seat: Seat) -> None:
    """C-8 (or C-22): draw, then decide about the drawn card."""
    last: CardId | None = None
    if work.options.draw_until_playable:
        for _ in range(MAX_DRAW_UNTIL_PLAYABLE):
            got = work.draw(seat, 1)
            if not got:
                break
            last = got[0]
            probe = work.freeze()
            if is_playable(probe, seat, last):
                break
    else:
        got = work.draw(seat, 1)
        last = got[0] if got else None
    if last is not None:
        work.blocked = 0
    work.pending = drawn_choice(seat, last)


def resolve_challenge(work: Work, seat: Seat, pending: ChallengeWindow, challenged: bool) -> None:
    """C-17, D-18, F-24, F-25: accept, or challenge and show the hand to the challenger."""
    if not challenged:
        work.draw(seat, pending.draws)
        work.turn(pending.after_accept)
        return
    show_challenged_hand(work, seat, pending)
    if pending.legal:
        work.draw(seat, pending.draws + 2)
        work.turn(pending.after_fail)
    else:
        work.draw(pending.player, pending.draws)
        work.turn(pending.after_success)


def show_challenged_hand(work: Work, seat: Seat, pending: ChallengeWindow) -> None:
    """C-17: the challenged hand is shown to the challenger (who knows it from then on, G-2) and the result said."""
    player = pending.player
    if work.events is not None:
        work.emit(HandShown(player, seat, tuple(work.hands[player]), pending.legal))
    work.learn(seat, player, work.hands[player])
    if work.events is not None:
        work.emit(ChallengeResolved(seat, player, not pending.legal))


_PLAY: Final = A.Play
_DRAW: Final = A.Draw
_DRAW_ACTION: Final = A.DRAW
_PASS_ACTION: Final = A.PASS


class TurnHandler(PendingHandler):
    """``turn`` (C-7, C-8): play a card, or ``draw``."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = turn_plays(state, seat)
        out.append(_DRAW_ACTION)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is _PLAY:
            play_from_hand(work, seat, action)
        else:
            turn_draw(work, seat)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is not A.Play:
            text = A.format_action(action)
            # TRANSLATORS: a refusal: {seat} is a player, {action} the action refused, in notation
            reason = said(
                "on a turn {seat} plays a card or draws; {action} is not one of them",
                seat=f"seat {seat}",
                action=excerpt(text),
            )
            return state.rules.cite["drawn"], reason
        return play_refusal(state, seat, action, None)


class DrawnHandler(PendingHandler):
    """``drawn`` (C-8, C-11, G-6): play the drawn card, or ``pass``."""

    def hidden(self) -> tuple[str, ...]:
        """The drawn card is the drawer's own: the view shows only whether a card was drawn (``drew``)."""
        return ("card",)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        card = drawn_card(state.pending)
        out = [] if card is None else card_plays(state, seat, card)
        out.append(_PASS_ACTION)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        action_type = type(action)
        card = drawn_card(work.prior)
        if action_type is _PLAY:
            assert card is not None
            work.play_card(seat, card, action)  # type: ignore[arg-type]
        elif card is None:
            # G-6: nothing could be drawn and the seat passes.
            work.blocked += 1
            if work.blocked >= work.seats:
                work.end_round(None)
            else:
                work.turn(work.next_seat(seat))
        else:
            work.blocked = 0
            work.turn(work.next_seat(seat))

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is not A.Play:
            text = A.format_action(action)
            # TRANSLATORS: a refusal: {seat} is a player, {action} the action refused, in notation
            reason = said(
                "after drawing, {seat} plays the drawn card or passes, not {action}",
                seat=f"seat {seat}",
                action=excerpt(text),
            )
            return state.rules.cite["drawn"], reason
        return play_refusal(state, seat, action, drawn_card(state.pending))


class ChallengeHandler(PendingHandler):
    """``challenge`` (C-17, D-18, F-24, F-25): ``accept`` or ``challenge`` the Wild Draw Four."""

    def hidden(self) -> tuple[str, ...]:
        """Whether the Wild Draw Four was legal is hidden information (G-2)."""
        return ("legal",)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return [A.ACCEPT, A.CHALLENGE]

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        prior = work.prior
        assert type(prior) is ChallengeWindow
        resolve_challenge(work, seat, prior, type(action) is A.Challenge)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        text = A.format_action(action)
        # TRANSLATORS: a refusal: {seat} is a player, {action} the action refused (notation); keep 'accept', 'challenge'
        reason = said(
            "{seat} must 'accept' or 'challenge' the Wild Draw Four, not {action}",
            seat=f"seat {seat}",
            action=excerpt(text),
        )
        return state.rules.cite["wd4"], reason


class GameOverHandler(PendingHandler):
    """``game_over``: nobody acts any more."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return []

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        raise AssertionError("no action is legal once the game is over")

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        return "G-4", said("the game is over")


BASE_HANDLERS: dict[str, PendingHandler] = {
    "turn": TurnHandler(),
    "drawn": DrawnHandler(),
    "challenge": ChallengeHandler(),
    "game_over": GameOverHandler(),
}
"""The decisions of every rule set (``RuleSet.handlers`` adds each rule set's own to these)."""

BASE_DECISIONS: dict[str, type] = {
    "turn": Turn,
    "drawn": DrawnCardChoice,
    "challenge": ChallengeWindow,
    "game_over": GameOver,
}
"""The decision types of every rule set by ``kind`` (``RuleSet.decisions`` adds the rule set's own)."""


def with_base(own: Mapping[str, PendingHandler]) -> dict[str, PendingHandler]:
    """A rule set's handlers: the base decisions' and its own (a base decision may be shared: H-1's stack)."""
    return {**BASE_HANDLERS, **own}
