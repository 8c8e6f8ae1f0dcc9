"""H-10 ``multi_play``: several number cards of the same number in one turn, one at a time (docs/RULES.md H-10).

After a player plays a number card on their own decision (a ``turn``, a drawn
card, or this rule's ``more``) and still holds a card of that number, they decide
(``more``, :class:`~unoengine.core.state.More`) whether to play another card of that number, of any
colour, or ``pass`` to end the turn (:class:`MoreHandler`). Each card is an
ordinary play: the order is the player's, the last card sets the colour, and the
record and the action ids are those of single plays. Readings (H-10): number
cards only; under H-2 a 7 or a 0 ends the turn and is not offered in ``more``; a
jump-in (H-3) is one card; the UNO window works per card; winning on the last
card ends the round at once; forced play (H-4) does not force continuing; Duo and
Flex! refuse the option.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from unoengine.core import actions as A
from unoengine.core.cards import Card, CardId, Rank, Seat
from unoengine.core.errors import excerpt
from unoengine.core.rules.compose import AfterPlay, GameParts, HouseRule
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.plays import filtered_plays, play_from_hand, play_refusal
from unoengine.core.rules.ruleset import PendingHandler, Words
from unoengine.core.state import DrawnCardChoice, GameState, More, Turn
from unoengine.core.work import Work
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "multi_play",
    False,
    "H-10",
    said("after a number card, more cards of the same number may be played in the same turn, one at a time"),
    rulesets=("classic",),
    absent=(
        ("duo", said("Duo's colour dump (D-15) already plays several cards in one turn")),
        ("flex", said("a Flex! card's plays depend on its player's Power Card (F-14)")),
    ),
    title=said("Multi-play"),
)


_ENDS_TURN: Final = (0, 7)
"""H-2: the numbers whose cards end the turn under ``seven_zero`` (the hands move after them)."""


def more_plays(state: GameState, seat: Seat, number: int) -> list[A.Action]:
    """H-10: the seat's plays of another card of ``number`` (any colour), one kind at a time (sorted by kind),
    with `` uno`` when the play leaves one card."""
    tables = state.tables
    hand = state.hand_bytes[seat]
    kind_of = tables.kind_of
    cards = tables.cards
    kinds = sorted(
        {
            kind_of[card]
            for card in hand
            if cards[card].rank is Rank.NUMBER
            and cards[card].number == number
            and not (state.options.seven_zero and number in _ENDS_TURN)
        }
    )
    plays = tables.plays_uno if len(hand) == 2 else tables.plays
    out: list[A.Action] = [play for kind in kinds for play in plays[kind]]
    if out and state.game.play_filters:
        out = filtered_plays(state, seat, out)
    return out


class MoreHandler(PendingHandler):
    """``more`` (H-10): another card of the number, or ``pass`` (the next player then plays)."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        pending = state.pending
        assert type(pending) is More
        out = more_plays(state, seat, pending.number)
        out.append(A.PASS)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            play_from_hand(work, seat, action)
        else:
            work.turn(work.next_seat(seat))

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        pending = state.pending
        assert type(pending) is More
        number = pending.number
        text = excerpt(A.format_action(action))
        if type(action) is A.Play and action.card.rank is Rank.NUMBER and action.card.number == number:
            held = any(
                state.tables.cards[card].rank is Rank.NUMBER and state.tables.cards[card].number == number
                for card in state.hand_bytes[seat]
            )
            if held and action.card in state.tables.kind_index:
                return play_refusal(state, seat, action, None)
        # TRANSLATORS: a refusal: {number} is a card's number (7), {seat} a player, {action} the action in notation
        reason = said(
            "after a {number}, {seat} plays another {number} or passes to end the turn, not {action}",
            number=number,
            seat=f"seat {seat}",
            action=text,
        )
        return "H-10", reason


class MoreAfterPlay(AfterPlay):
    """After a number card played on its player's own decision: ``more`` while they hold a card of that number."""

    def __init__(self, seven_zero: bool) -> None:
        self.seven_zero = seven_zero

    def run(self, work: Work, seat: Seat, card: CardId, action: A.Play) -> None:
        tables = work.tables
        face = tables.cards[card]
        if face.rank is not Rank.NUMBER:
            return
        number = face.number
        assert number is not None
        if self.seven_zero and number in _ENDS_TURN:
            return
        prior = work.prior
        prior_type = type(prior)
        if not (prior_type is Turn or prior_type is DrawnCardChoice or prior_type is More) or prior.seat != seat:
            return  # H-3: a jump-in is one card
        cards = tables.cards
        for held in work.hands[seat]:
            if cards[held].rank is Rank.NUMBER and cards[held].number == number:
                work.pending = More(seat, number)
                return


class MultiPlay(HouseRule):
    """H-10: the ``more`` decision after a number card."""

    name = "multi_play"
    rule = "H-10"
    specs: tuple[OptionSpec, ...] = (SPEC,)
    kinds: tuple[str, ...] = ("more",)

    def on(self, options: Options) -> bool:
        return options.multi_play

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.handlers["more"] = MoreHandler()
        parts.after_play.append(MoreAfterPlay(options.seven_zero))

    def describe(self, card: Card, flex: bool, text: str, options: Options) -> str:
        if flex or card.rank is not Rank.NUMBER:
            return text
        seven_zero = options.seven_zero
        if seven_zero and card.number in _ENDS_TURN:
            return text
        # TRANSLATORS: {text} is what a number card does (green 7: ...)
        return said("{text}; more of the same number may follow", text=text)

    def decision_words(self, kind: str, facts: Mapping[str, Any], action: A.Action | None) -> Words | None:
        number = facts.get("number")
        if kind != "more" or number is None:
            return None
        if action is None:
            # TRANSLATORS: {number} is a card's number (7): the seat may play more cards of it
            title = said("More {number}s", number=number)
            # TRANSLATORS: {number} is a card's number (7): the seat may play more cards of it
            return title, said("More {number}s: play another {number}, or pass to end your turn", number=number)
        if type(action) is A.Pass:
            return said("End turn"), said("End turn: pass, and end your turn")
        return None


MULTI_PLAY: Final = MultiPlay()
