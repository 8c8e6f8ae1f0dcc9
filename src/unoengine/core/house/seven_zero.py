"""H-2 ``seven_zero``: a 7 swaps hands with a seat its player names, a 0 passes every hand on (docs/RULES.md H-2).

The card's play is complete first (its effect decides the next player as for any
number card); then the hands move (:class:`SevenZeroSwap`). A 7 or a 0 is played
without `` uno``: after the swap, the first seat in turn order from the player
whose hand moved and now holds one card must call UNO (C-18). Readings (H-2): a
player who wins the round on a 7 or a 0 ends the round before the swap; a call
made before the swap no longer counts; Duo and Flex! refuse the option.
"""

from __future__ import annotations

from typing import Final

from unoengine.core import actions as A
from unoengine.core.cards import Card, CardId, Rank, Seat, card_name, format_card
from unoengine.core.events import HandsSwapped
from unoengine.core.rules.compose import AfterPlay, GameParts, HouseRule, PlayFilter
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.words import card_does
from unoengine.core.state import GameState
from unoengine.core.work import Work
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "seven_zero",
    False,
    "H-2",
    said("a 7 swaps hands with a chosen seat (R7>2); a 0 passes every hand on"),
    rulesets=("classic",),
    absent=(
        ("duo", said("Duo's colour dump (D-15) plays several cards of one hand in one turn")),
        ("flex", said("Flex!'s flex sides already choose targets (F-22, F-25)")),
    ),
    title=said("7-0"),
)


def seven_zero_plays(state: GameState, seat: Seat, plays: list[A.Action]) -> list[A.Action]:
    """A 7 is played naming the seat to swap with (``R7>2``, every other seat in seat order); a 7 or a 0 takes no
    `` uno`` (the hand changes: the UNO call comes after the swap)."""
    out: list[A.Action] = []
    for play in plays:
        card = play.card  # type: ignore[union-attr]
        number = card.number
        if number not in (0, 7):
            out.append(play)
        elif not play.uno:  # type: ignore[union-attr]
            if number == 0:
                out.append(play)
            else:
                out += [A.play(card, None, False, target) for target in range(state.seats) if target != seat]
    return out


def seven_zero_refusal(state: GameState, seat: Seat, action: A.Play) -> tuple[str, str] | None:
    """A 7 names another seat to swap with; a 7 or a 0 takes no `` uno``; no other card names a seat (that last
    one is the shared refusal of a target)."""
    if action.card.number not in (0, 7):
        return None
    name = format_card(action.card)
    if action.uno:
        # TRANSLATORS: a refusal: {card} is a card in notation (R7); keep 'uno' (a command)
        return "H-2", said("a {card} changes hands: call 'uno' after the swap, not with the play", card=name)
    if action.card.number == 0:
        if action.target is None:
            return None
        # TRANSLATORS: a refusal: {card} is a card in notation (R0)
        return "H-2", said("a {card} passes every hand on: it names no seat", card=name)
    target = action.target
    if target is None:
        # TRANSLATORS: a refusal: {play} is a play in notation (R7>2)
        return "H-2", said(
            "a 7 names the seat to swap hands with, as {play}", play=f"{name}>{(seat + 1) % state.seats}"
        )
    if target == seat or not 0 <= target < state.seats:
        # TRANSLATORS: a refusal: {seat} is a player, {target} the seat the play named
        return "H-2", said("{seat} cannot swap hands with {target}", seat=f"seat {seat}", target=f"seat {target}")
    return None


class SevenZeroPlays(PlayFilter):
    """The plays of 7s (with their targets) and 0s (without `` uno``), and their refusals."""

    def filter(self, state: GameState, seat: Seat, plays: list[A.Action]) -> list[A.Action]:
        return seven_zero_plays(state, seat, plays)

    def refuse(self, state: GameState, seat: Seat, action: A.Play) -> tuple[str, str] | None:
        return seven_zero_refusal(state, seat, action)

    def takes_target(self, state: GameState, action: A.Play) -> bool:
        return action.card.number == 7


def knowledge_moves(work: Work, receiver: dict[Seat, Seat], moved: list[Seat], before: list[bytes]) -> None:
    """G-2 after hands moved (``receiver``: each giver's taker; ``moved``: the givers, in the order they learn):
    what was known of a hand moves with it, except to the seat now holding it, and each giver knows the hand it
    gave (``before``: the hands before the move)."""
    work.known = tuple(
        (viewer, receiver.get(holder, holder), card)
        for viewer, holder, card in work.known
        if viewer != receiver.get(holder, holder)
    )
    for giver in moved:
        work.learn(giver, receiver[giver], before[giver])


def swap_hands(work: Work, seat: Seat, number: int, target: Seat | None) -> None:
    """A 7 swaps hands with ``target``; a 0 passes every hand one seat on in the direction of play.

    Then the first seat in turn order from the player (the player first) that now
    holds one card must call UNO (the UNO window, C-18); a call made before the swap
    no longer counts. What was known of a hand moves with it; each giver knows the hand it gave (G-2).
    """
    hands = work.hands
    before = list(hands)
    if number == 7:
        assert target is not None
        hands[seat], hands[target] = hands[target], hands[seat]
        moved = [seat, target]
        receiver = {seat: target, target: seat}
    else:
        for owner in range(work.seats):
            hands[work.next_seat(owner)] = before[owner]
        moved = list(range(work.seats))
        receiver = {owner: work.next_seat(owner) for owner in moved}
    knowledge_moves(work, receiver, moved, before)
    work.unsafe = None
    for offset in range(work.seats):
        candidate = work.next_seat(seat, offset)
        if candidate in moved and len(hands[candidate]) == 1:
            work.unsafe = candidate
            break
    if work.events is not None:
        work.emit(HandsSwapped(seat, target, tuple(moved)))


class SevenZeroSwap(AfterPlay):
    """After a 7 or a 0 (not the player's last card): the hands move."""

    def run(self, work: Work, seat: Seat, card: CardId, action: A.Play) -> None:
        number = work.tables.card_number[card]
        if number in (0, 7):
            swap_hands(work, seat, number, action.target)


class SevenZero(HouseRule):
    """H-2: the 7's target and the 0's rotation."""

    name = "seven_zero"
    rule = "H-2"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.seven_zero

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.play_filters.append(SevenZeroPlays())
        parts.after_play.append(SevenZeroSwap())

    def describe(self, card: Card, flex: bool, text: str, options: Options) -> str:
        if flex or card.rank is not Rank.NUMBER or card.number not in (0, 7):
            return text
        name = card_name(card)
        if card.number == 7:
            return card_does(name, said("swap hands with a player you choose"))
        return card_does(name, said("every hand passes on in the direction of play"))


SEVEN_ZERO: Final = SevenZero()
