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
from unoengine.core.rules.stacking import FOUR_STACKS, stack_plays
from unoengine.core.state import ChallengeWindow, DrawnCardChoice, GameOver, GameState, Turn, drawn_choice
from unoengine.core.work import Work


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
    player = pending.player
    if work.events is not None:
        work.emit(HandShown(player, seat, tuple(work.hands[player]), pending.legal))
    work.learn(seat, player, work.hands[player])  # C-17: the challenger has seen the hand
    if work.events is not None:
        work.emit(ChallengeResolved(seat, player, not pending.legal))
    if pending.legal:
        work.draw(seat, pending.draws + 2)
        work.turn(pending.after_fail)
    elif pending.draws > 4 and work.options.stack_draw != "none":
        # H-1: a challenge settles only the last Wild Draw Four: its player draws 4, the challenger the rest.
        work.draw(player, 4)
        work.draw(seat, pending.draws - 4)
        work.turn(pending.after_success)
    else:
        work.draw(player, pending.draws)
        work.turn(pending.after_success)


_PLAY: Final = A.Play
_DRAW: Final = A.Draw
_DRAW_ACTION: Final = A.DRAW
_PASS_ACTION: Final = A.PASS


class TurnHandler(PendingHandler):
    """``turn`` (C-7, C-8; H-4): play a card, or ``draw``."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out = turn_plays(state, seat)
        if not (out and state.game.options.forced_play):  # H-4: a seat that can play may not draw
            out.append(_DRAW_ACTION)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is _PLAY:
            play_from_hand(work, seat, action)
        else:
            turn_draw(work, seat)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Draw and state.options.forced_play:
            return "H-4", f"seat {seat} can play a card and may not draw (forced play)"
        if type(action) is not A.Play:
            text = A.format_action(action)
            return state.rules.cite[
                "drawn"
            ], f"on a turn seat {seat} plays a card or draws; {excerpt(text)} is not one of them"
        return play_refusal(state, seat, action, None)


class DrawnHandler(PendingHandler):
    """``drawn`` (C-8, C-11, G-6; H-4, H-5): play the drawn card, ``pass``, or (H-5) ``draw`` again."""

    def hidden(self) -> tuple[str, ...]:
        """The drawn card is the drawer's own: the view shows only whether a card was drawn (``drew``)."""
        return ("card",)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        card = drawn_card(state.pending)
        out = [] if card is None else card_plays(state, seat, card)
        options = state.game.options
        if not out and card is not None and options.draw_to_match:
            out.append(_DRAW_ACTION)  # H-5: nothing fits: draw again, or pass
        if not (out and options.forced_play):  # H-4: a playable drawn card must be played
            out.append(_PASS_ACTION)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        action_type = type(action)
        card = drawn_card(work.prior)
        if action_type is _PLAY:
            assert card is not None
            work.play_card(seat, card, action)  # type: ignore[arg-type]
        elif action_type is _DRAW:
            # H-5: the drawn card does not fit: draw one more.
            got = work.draw(seat, 1)
            work.pending = drawn_choice(seat, got[0] if got else None)
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
        if type(action) is A.Pass and state.options.forced_play:
            return "H-4", "the drawn card can be played and must be played (forced play)"
        if type(action) is A.Draw and state.options.draw_to_match:
            return "H-5", "the drawn card can be played: draw again only when it does not fit"
        if type(action) is not A.Play:
            text = A.format_action(action)
            return state.rules.cite[
                "drawn"
            ], f"after drawing, seat {seat} plays the drawn card or passes, not {excerpt(text)}"
        return play_refusal(state, seat, action, drawn_card(state.pending))


class ChallengeHandler(PendingHandler):
    """``challenge`` (C-17, D-18, F-24, F-25; H-1): ``accept``, ``challenge``, or stack on the Wild Draw Four."""

    def hidden(self) -> tuple[str, ...]:
        """Whether the Wild Draw Four was legal is hidden information (G-2)."""
        return ("legal",)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        out: list[A.Action] = [A.ACCEPT, A.CHALLENGE]
        mode = state.game.options.stack_draw
        if mode in FOUR_STACKS:  # H-1: or stack (accepting the card)
            out = stack_plays(state, seat, mode) + out
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            play_from_hand(work, seat, action)  # H-1: stacking accepts the card
        else:
            prior = work.prior
            assert type(prior) is ChallengeWindow
            resolve_challenge(work, seat, prior, type(action) is A.Challenge)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        text = A.format_action(action)
        if type(action) is A.Play and state.options.stack_draw in FOUR_STACKS:
            return "H-1", f"only a card that stacks on the Wild Draw Four may be played now, not {excerpt(text)}"
        return state.rules.cite[
            "wd4"
        ], f"seat {seat} must 'accept' or 'challenge' the Wild Draw Four, not {excerpt(text)}"


class GameOverHandler(PendingHandler):
    """``game_over``: nobody acts any more."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return []

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        raise AssertionError("no action is legal once the game is over")

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        return "G-4", "the game is over"


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
