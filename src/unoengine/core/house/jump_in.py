"""H-3 ``jump_in``: a card identical to the top card may be played out of turn (docs/RULES.md H-3).

An out-of-turn window (:class:`~unoengine.core.rules.windows.Window`), open on
every normal turn while no UNO window is open. A jump-in is an ordinary play by a
seat that is not to act: the pending turn's handler plays it from the jumper, its
effects apply from the jumper and play goes on from there. Readings (H-3): the
window is open on every normal turn whose top card is not a wild, the first card
of a round included; when two seats could jump in, the record's order decides
(the ``Table`` offers the window in :meth:`JumpInWindow.order`); Duo and Flex!
refuse the option.
"""

from __future__ import annotations

from typing import Final

from unoengine.core import actions as A
from unoengine.core.cards import Seat, format_card
from unoengine.core.errors import excerpt
from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.plays import filtered_plays, play_filter_refusal
from unoengine.core.rules.windows import Window
from unoengine.core.state import GameState, Turn
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "jump_in",
    False,
    "H-3",
    said("a card identical to the top card may be played out of turn; play goes on from the jumper"),
    rulesets=("classic",),
    absent=(
        ("duo", said("with two players nobody waits to jump in")),
        ("flex", said("a Flex! card's plays depend on its player's Power Card (F-14)")),
    ),
    title=said("Jump-in"),
)

_TURN: Final = Turn


def jump_plays(state: GameState, seat: Seat) -> list[A.Action]:
    """The seat's plays of a card identical to the top card (same colour and rank; never a wild)."""
    tables = state.game.tables
    top = tables.kind_of[state.discard_bytes[-1]]
    if tables.kinds[top].is_wild:
        return []
    hand = state.hand_bytes[seat]
    if not any(tables.kind_of[card] == top for card in hand):
        return []
    return filtered_plays(state, seat, list((tables.plays_uno if len(hand) == 2 else tables.plays)[top]))


def jump_refusal(state: GameState, seat: Seat, action: A.Play) -> tuple[str, str]:
    """Why a play by a seat that is not to act is refused: the first reason that holds.

    The window (a normal turn, nothing open), then the card (identical to the top card,
    never a wild), then the hand (the seat holds one), then the play's own form (another
    house rule's, as H-2's target; a colour; `` uno``).
    """
    if type(state.pending) is not Turn or state.unsafe is not None:
        return "H-3", said("a seat jumps in only on a normal turn, with no draw total, colour, challenge or UNO open")
    tables = state.tables
    card = action.card
    name = format_card(card)
    turn = f"seat {state.pending.seat}"  # the seat whose turn it is
    who = f"seat {seat}"
    if card not in tables.kind_index:
        # TRANSLATORS: a refusal: {card} is a card in notation (R7), {rules} a rule set's title (UNO Duo)
        return "G-4", said("{card} is not a card of {rules}", card=name, rules=state.rules.title)
    kind = tables.kind_index[card]
    top_kind = tables.kind_of[state.discard_bytes[-1]]
    top = format_card(tables.cards[state.discard_pile[-1]])
    if tables.kinds[top_kind].is_wild:
        # TRANSLATORS: a refusal: {turn} is the player whose turn it is, {top} a card in notation
        return "H-3", said("it is {turn}'s turn: nobody jumps in on a wild card ({top})", turn=turn, top=top)
    if kind != top_kind:
        # TRANSLATORS: a refusal: {seat} and {turn} (whose turn it is) are players, {top} and {card} cards in notation
        reason = said(
            "{seat} may jump in only with a card identical to the top card ({top}), not {card}: it is {turn}'s turn",
            seat=who,
            top=top,
            card=name,
            turn=turn,
        )
        return "H-3", reason
    hand = state.hand_bytes[seat]
    if not any(tables.kind_of[held] == kind for held in hand):
        # TRANSLATORS: a refusal: {seat} and {turn} (whose turn it is) are players, {card} a card in notation
        reason = said("{seat} holds no {card} to jump in with: it is {turn}'s turn", seat=who, card=name, turn=turn)
        return "H-3", reason
    refused = play_filter_refusal(state, seat, action)
    if refused is not None:
        return refused
    if action.color is not None:
        # TRANSLATORS: a refusal: {card} is a card in notation (R7)
        return state.rules.cite["wild"], said("only a wild card names a colour; write {card}", card=name)
    if action.uno and len(hand) != 2:
        # TRANSLATORS: a refusal: keep "' uno'" (notation); {seat} is a player, {kept} a number of cards
        reason = said(
            "' uno' goes with the play that leaves one card; {seat} would keep {kept}", seat=who, kept=len(hand) - 1
        )
        return state.rules.cite["uno"], reason
    # TRANSLATORS: a refusal: {action} is an action in notation, {rules} a rule set's title, {turn} whose turn it is
    reason = said(
        "{action} is not a jump-in of {rules}: it is {turn}'s turn",
        action=excerpt(A.format_action(action)),
        rules=state.rules.title,
        turn=turn,
    )
    return "G-4", reason


class JumpInWindow(Window):
    """The jump-in window: open on a normal turn with no UNO window open; every seat but the one to act may play
    a card identical to the top card."""

    rule = "H-3"

    def is_open(self, state: GameState) -> bool:
        return state.unsafe is None and type(state.pending) is _TURN

    def offers(self, state: GameState, seat: Seat) -> list[A.Action]:
        if seat == state.pending.seat:
            return []  # the seat to act plays in turn
        return jump_plays(state, seat)

    def order(self, state: GameState) -> list[Seat]:
        """The other seats, in turn order from the seat to act."""
        seats = state.seats
        start = state.pending.seat if state.pending.seat is not None else 0
        return [(start + k) % seats for k in range(1, seats)]

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str] | None:
        if type(action) is A.Play and seat != state.pending.seat:
            return jump_refusal(state, seat, action)
        return None


class JumpIn(HouseRule):
    """H-3: the jump-in window."""

    name = "jump_in"
    rule = "H-3"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.jump_in

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.windows.append(JumpInWindow())


JUMP_IN: Final = JumpIn()
