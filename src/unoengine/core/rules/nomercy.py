"""UNO Show 'Em No Mercy, 2–10 players (docs/RULES.md N-1 … N-28).

No Mercy plays as Classic except where its rules say otherwise; what differs lives here:

- deck: 168 cards (N-1): per colour two 0s, two of each 1–9, three Draw Two, two
  Draw Four, three Skip, two Skip Everyone, three Reverse, three Discard All; eight
  Wild Reverse Draw Four, four Wild Draw Six, four Wild Draw Ten, eight Wild Color
  Roulette. ``points``: N-27 (Classic's values, C-21).
- ``deal``: 7 each (N-3, H-8); action cards turned first are ignored and covered
  until a number card starts play (N-4); the dealer's left plays first (N-5).
- a turn (N-6 … N-10): matching as C-7, each new kind its own symbol; a seat that
  does not play draws until a playable card and must play it (``turn``, ``drawn``).
- draw cards stack by draw value (N-15, N-16): the ``stack`` decision (H-1's
  :class:`~unoengine.core.state.DrawStack`), its own handler: a draw card whose value
  is at least the top card's, or ``draw`` the total.
- Skip Everyone (N-13), Discard All (N-14), Wild Color Roulette (N-17, the
  ``roulette`` decision: the victim names the colour with ``color g``).
- 7 and 0 (N-18): H-2 always on, among the seats still in the round.
- the Mercy Rule (N-21 … N-23): a seat reaching 25 cards is knocked out; its hand
  goes under the discard pile, and it is out of the round.
- two players (N-24), the last card's effect not applied (N-25), one round by
  default (N-26), scoring (N-27) and the round's action cap (N-28).

State: ``state.power`` (the per-seat flags a rule set keeps) holds, for No Mercy,
whether each seat is still in the round (``True``; all ``True`` at each deal). Every
"next player" of this module counts only those seats (:func:`next_in`). The rule set
says so (``seat_flags="in_round"``), and everything that leaves the core names them
so: a view's JSON has ``in_round`` (and an empty ``power``), a knock-out is the
public event :class:`~unoengine.core.events.KnockedOut`.

Readings (where the sheet is silent) are in docs/RULES.md beside each rule; the
ones the code makes are repeated where it makes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from unoengine.core import actions as A
from unoengine.core.cards import COLORS, Card, CardId, Rank, Seat, card_name, format_card
from unoengine.core.errors import excerpt
from unoengine.core.events import HandsSwapped, KnockedOut
from unoengine.core.house import allowed, rule_set_options
from unoengine.core.house.seven_zero import knowledge_moves, seven_zero_plays, seven_zero_refusal
from unoengine.core.rules.compose import AfterPlay, GameParts, HouseRule, PlayFilter
from unoengine.core.rules.decisions import BASE_DECISIONS, drawn_card, with_base
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.plays import card_plays, play_from_hand
from unoengine.core.rules.ruleset import Effect, PendingHandler, RuleSet, Words, Wrapped
from unoengine.core.rules.scoring import deal_seven, dealer_to_the_left, first_to_target, winner_takes_all
from unoengine.core.rules.stacking import stack_total
from unoengine.core.rules.tables import color_index
from unoengine.core.rules.windows import UNO_WINDOW, UnoWindow
from unoengine.core.rules.words import card_does
from unoengine.core.state import DrawStack, GameState, drawn_choice
from unoengine.core.work import CARD_BYTE, Work
from unoengine.i18n import said

NAME: Final = "nomercy"
MERCY: Final = 25
"""N-21: a seat holding this many cards or more is knocked out of the round."""

# -- the deck (N-1) and its points (N-27) ------------------------------------------------

DRAW_VALUE: Final[dict[Rank, int]] = {
    Rank.DRAW_TWO: 2,
    Rank.DRAW_FOUR: 4,
    Rank.WILD_REVERSE_DRAW_FOUR: 4,
    Rank.WILD_DRAW_SIX: 6,
    Rank.WILD_DRAW_TEN: 10,
}
"""N-1, N-2: the draw cards and their draw values."""

COLORED_COPIES: Final[tuple[tuple[Rank, int], ...]] = (
    (Rank.DRAW_TWO, 3),
    (Rank.DRAW_FOUR, 2),
    (Rank.SKIP, 3),
    (Rank.SKIP_EVERYONE, 2),
    (Rank.REVERSE, 3),
    (Rank.DISCARD_ALL, 3),
)
WILD_COPIES: Final[tuple[tuple[Rank, int], ...]] = (
    (Rank.WILD_REVERSE_DRAW_FOUR, 8),
    (Rank.WILD_DRAW_SIX, 4),
    (Rank.WILD_DRAW_TEN, 4),
    (Rank.WILD_COLOR_ROULETTE, 8),
)


def no_mercy_deck() -> tuple[Card, ...]:
    """N-1: the 168 cards, 36 per colour and 24 wilds (the composition is data, as D-1)."""
    cards: list[Card] = []
    for color in COLORS:
        for number in range(10):
            cards += [Card(color, Rank.NUMBER, number)] * 2
        for rank, copies in COLORED_COPIES:
            cards += [Card(color, rank)] * copies
    for rank, copies in WILD_COPIES:
        cards += [Card(None, rank)] * copies
    return tuple(cards)


NO_MERCY_DECK: Final = no_mercy_deck()


def no_mercy_points(card: Card) -> int:
    """N-27: number cards at face value, coloured action cards 20, wilds 50 (C-21's values)."""
    if card.rank is Rank.NUMBER:
        assert card.number is not None
        return card.number
    return 50 if card.is_wild else 20


def no_mercy_score(work: Work, winner: Seat) -> tuple[int, ...]:
    """N-27: the winner scores the cards left in the other hands and the hands knocked out of the round."""
    deltas = winner_takes_all(work, winner)
    return tuple(delta + work.aside if seat == winner else delta for seat, delta in enumerate(deltas))


# -- seats in the round (N-22) -----------------------------------------------------------


def in_round(state: GameState | Work, seat: Seat) -> bool:
    """N-22: is ``seat`` still in the round (not knocked out by N-21)?"""
    return state.power[seat]


def seats_in_round(state: GameState | Work) -> list[Seat]:
    """N-22: the seats still in the round, in seat order."""
    return [seat for seat in range(len(state.power)) if state.power[seat]]


def next_in(work: GameState | Work, seat: Seat, steps: int = 1) -> Seat:
    """N-22: the seat ``steps`` places after ``seat`` in the direction of play, counting only the seats in the
    round (``seat`` itself may be out: the next one after it)."""
    seats = len(work.power)
    for _ in range(steps):
        for _ in range(seats):
            seat = (seat + work.direction) % seats
            if work.power[seat]:
                break
    return seat


def knock_out(work: Work, seat: Seat) -> None:
    """N-21 … N-23: ``seat`` holds 25 cards or more: its hand goes under the discard pile (in hand order, the first
    card lowest), it leaves the round, and the next seat in the round plays; one seat left wins the round."""
    hand = work.hands[seat]
    if work.events is not None:
        work.emit(KnockedOut(seat, len(hand)))
    points = work.tables.points
    work.aside += sum(points[card] for card in hand)  # N-27: the round's winner scores them
    work.hands[seat] = b""
    work.discard_pile = hand + work.discard_pile
    work.set_power(seat, False)
    if work.unsafe == seat:
        work.unsafe = None
    if work.known:
        work.known = tuple(fact for fact in work.known if fact[1] != seat)
    left = seats_in_round(work)
    if len(left) == 1:
        work.end_round(left[0])  # N-23
        return
    work.turn(next_in(work, seat))


def give(work: Work, seat: Seat, count: int) -> bool:
    """``seat`` draws ``count`` cards, one knock-out check per card (N-21): True when it was knocked out (the rest
    of the count is not drawn, and the next turn is set). Both piles exhausted: what there is (C-11)."""
    while count > 0:
        room = MERCY - len(work.hands[seat])
        want = count if count < room else room
        got = work.draw(seat, want)
        if len(work.hands[seat]) >= MERCY:
            knock_out(work, seat)
            return True
        if len(got) < want:
            break
        count -= want
    if work.unsafe == seat and len(work.hands[seat]) != 1:
        work.unsafe = None  # C-19: a seat holding more than one card can no longer be caught
    return False


def capped(work: Work) -> None:
    """N-28: round ``r`` ends with no winner once the game has taken ``r × round_action_limit`` actions (the
    default single round, N-26: ``round_action_limit`` actions). The cap counts the game's actions, which the
    state keeps, rather than the round's, which it does not."""
    if work.outcome is None and work.steps >= work.options.round_action_limit * work.round:
        work.end_round(None)


# -- effects (N-11 … N-17, N-24, N-25) ----------------------------------------------------


class NumberCard(Effect):
    """A number card: the next player in the round plays (a 7's or a 0's hands move after it, N-18)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(next_in(work, seat))


class SkipCard(Effect):
    """N-11: the next player in the round misses their turn (two in the round: play again)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(next_in(work, seat, 2))


class ReverseCard(Effect):
    """N-11, R-12: the direction changes; with two in the round it works as a Skip."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if final:
            return
        work.direction = -work.direction
        work.turn(seat if len(seats_in_round(work)) == 2 else next_in(work, seat))


class SkipEveryone(Effect):
    """N-13: every other player is skipped; the player takes another turn at once."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(seat)


class DiscardAll(Effect):
    """N-14: every other card of the card's colour goes from the hand under it, in hand order (no effects).

    Readings: wilds have no colour and stay; ``uno`` and the catch judge the hand after the discards; a hand
    emptied by them wins the round (N-25)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if final:
            return
        color = card.color
        card_color = work.tables.card_color
        hand = work.hands[seat]
        gone = bytes([c for c in hand if card_color[c] is color])
        if gone:
            work.hands[seat] = bytes([c for c in hand if card_color[c] is not color])
            discard = work.discard_pile
            work.discard_pile = discard[:-1] + gone + discard[-1:]
            if work.known:
                work.known = tuple(fact for fact in work.known if fact[2] not in gone)
        left = len(work.hands[seat])
        if left == 0:
            work.unsafe = None
            work.end_round(seat)
            return
        if left == 1 and not action.uno:
            work.unsafe = seat
        elif work.unsafe == seat and left != 1:
            work.unsafe = None
        work.turn(next_in(work, seat))


class DrawCard(Effect):
    """N-12, N-15, N-16: the next player in the round faces the total (``stack``); a Wild Reverse Draw Four
    first changes the direction, and with two in the round its player draws the total (N-24)."""

    def __init__(self, value: int, reverse: bool = False) -> None:
        self.value = value
        self.reverse = reverse

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if final:
            return  # N-25: the last card's effect is not applied
        total = stack_total(work.prior) + self.value
        if self.reverse:
            work.direction = -work.direction
            if len(seats_in_round(work)) == 2:  # N-24: the player who played it draws
                if not give(work, seat, total):
                    work.turn(next_in(work, seat))
                return
        work.pending = DrawStack(next_in(work, seat), total)


class Roulette(NamedTuple):
    """``roulette``: the victim of a Wild Color Roulette names a colour (``color g``) and turns cards (N-17)."""

    seat: Seat
    kind: str = "roulette"


class ColorRoulette(Effect):
    """N-17: the next player in the round is the roulette's victim."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        # Reading: the Roulette names no colour; the current colour stays until the victim names one.
        work.color = work.prior_color
        if not final:
            work.pending = Roulette(next_in(work, seat))


NO_MERCY_EFFECTS: Final[dict[tuple[Rank, bool], Effect]] = {
    (Rank.NUMBER, False): NumberCard(),
    (Rank.SKIP, False): SkipCard(),
    (Rank.REVERSE, False): ReverseCard(),
    (Rank.SKIP_EVERYONE, False): SkipEveryone(),
    (Rank.DISCARD_ALL, False): DiscardAll(),
    (Rank.DRAW_TWO, False): DrawCard(2),
    (Rank.DRAW_FOUR, False): DrawCard(4),
    (Rank.WILD_REVERSE_DRAW_FOUR, False): DrawCard(4, reverse=True),
    (Rank.WILD_DRAW_SIX, False): DrawCard(6),
    (Rank.WILD_DRAW_TEN, False): DrawCard(10),
    (Rank.WILD_COLOR_ROULETTE, False): ColorRoulette(),
}


# -- the deal (N-3 … N-5) ----------------------------------------------------------------


def no_mercy_deal(work: Work, order: list[CardId]) -> None:
    """N-3 … N-5: deal, then turn cards until a number card starts play (action cards are ignored and covered)."""
    deal_seven(work, order)
    cards = work.tables.cards
    pile = work.draw_pile
    discard = b""
    while pile:
        first = pile[-1]
        pile = pile[:-1]
        discard += CARD_BYTE[first]
        if cards[first].rank is Rank.NUMBER:
            break
    work.draw_pile = pile
    work.discard_pile = discard
    face = cards[discard[-1]]
    # (ours) a draw pile that runs out before a number card: the last card turned starts play, a wild as red.
    work.color = face.color if face.color is not None else COLORS[0]
    work.turn(work.next_seat(work.dealer))


# -- decisions (N-9, N-10, N-15, N-17) ----------------------------------------------------


def playable_now(work: Work, card: CardId) -> bool:
    """C-7, N-6: may ``card`` be played on the top card and current colour (its normal side: No Mercy has no other)?"""
    tables = work.tables
    row = tables.kind_of[work.discard_pile[-1]] * 4 + color_index(work.color)
    return tables.normal_ok[row][tables.kind_of[card]]


class NoMercyTurn(Wrapped):
    """``turn`` (N-6 … N-10), the base turn wrapped: play a card, or ``draw`` until a card can be played (which must
    then be played)."""

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            play_from_hand(work, seat, action)
        else:
            while True:
                got = work.draw(seat, 1)
                if not got:  # N-10, C-11: both piles are out; only ``pass`` is left
                    work.pending = drawn_choice(seat, None)
                    break
                work.blocked = 0
                if len(work.hands[seat]) >= MERCY:
                    knock_out(work, seat)  # N-21: in the middle of N-9's draw
                    break
                if playable_now(work, got[0]):
                    work.pending = drawn_choice(seat, got[0])
                    break
        capped(work)


class NoMercyDrawn(Wrapped):
    """``drawn`` (N-9): the drawn card must be played; ``pass`` only when nothing could be drawn (G-6)."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        card = drawn_card(state.pending)
        return [A.PASS] if card is None else card_plays(state, seat, card)

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            card = drawn_card(work.prior)
            assert card is not None
            work.play_card(seat, card, action)
        else:
            work.blocked += 1  # G-6, R-5
            if work.blocked >= len(seats_in_round(work)):
                work.end_round(None)
            else:
                work.turn(next_in(work, seat))
        capped(work)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        card = drawn_card(state.pending)
        if type(action) is not A.Play and card is not None:
            # TRANSLATORS: a refusal: {card} is a card in notation (R7)
            return "N-9", said("the drawn card ({card}) must be played", card=format_card(state.tables.cards[card]))
        return self.inner.refusal(state, seat, action)


def draw_value(card: Card) -> int:
    """N-1, N-2: the card's draw value (0: not a draw card)."""
    return DRAW_VALUE.get(card.rank, 0)


class NoMercyStack(PendingHandler):
    """``stack`` (N-15, N-16): add a draw card whose value is at least the top card's, of any colour, or ``draw``
    the whole total and miss the turn (the next seat in the round after the drawer plays)."""

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        return (("stack", stack_total(state.pending)),)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        tables = state.tables
        kind_of = tables.kind_of
        hand = state.hand_bytes[seat]
        least = draw_value(tables.cards[state.discard_bytes[-1]])
        kinds = sorted({kind_of[card] for card in hand if draw_value(tables.cards[card]) >= max(least, 1)})
        plays = tables.plays_uno if len(hand) == 2 else tables.plays
        out: list[A.Action] = [play for kind in kinds for play in plays[kind]]
        out.append(A.DRAW)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            play_from_hand(work, seat, action)
        elif not give(work, seat, stack_total(work.prior)):
            work.turn(next_in(work, seat))
        capped(work)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        least = draw_value(state.tables.cards[state.discard_bytes[-1]])
        # TRANSLATORS: a refusal: {seat} is a player, {least} and {total} numbers of cards, {action} the action refused
        reason = said(
            "{seat} adds a draw card of value {least} or more to the stack ({total}) or draws it with 'draw', "
            "not {action}",
            seat=f"seat {seat}",
            least=least,
            total=stack_total(state.pending),
            action=excerpt(A.format_action(action)),
        )
        return "N-15", reason


class RouletteHandler(PendingHandler):
    """``roulette`` (N-17): the victim names a colour (``color g``), then turns cards into their hand until one of
    that colour shows (wilds do not stop it); they miss their turn. A knock-out (N-21) stops it at once; both piles
    out stop it there (C-11)."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return [A.choose_color(color) for color in COLORS]

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        assert type(action) is A.ChooseColor
        color = action.color
        work.color = color
        card_color = work.tables.card_color
        while True:
            got = work.draw(seat, 1)
            if not got:
                break
            if len(work.hands[seat]) >= MERCY:
                knock_out(work, seat)
                capped(work)
                return
            if card_color[got[0]] is color:
                break
        if work.unsafe == seat and len(work.hands[seat]) != 1:
            work.unsafe = None
        work.turn(next_in(work, seat))
        capped(work)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        # TRANSLATORS: a refusal: {seat} is a player, {action} the action refused, in notation; keep 'color g'
        reason = said(
            "{seat} names the roulette's colour ('color g'), not {action}",
            seat=f"seat {seat}",
            action=excerpt(A.format_action(action)),
        )
        return "N-17", reason


# -- the plays of 7, 0 and Discard All; the 7-0 swap (N-14, N-18) ---------------------------


def discard_all_left(state: GameState, seat: Seat, card: Card) -> int:
    """N-14: the cards a Discard All of ``card``'s colour leaves in the hand."""
    card_color = state.tables.card_color
    return sum(1 for c in state.hand_bytes[seat] if card_color[c] is not card.color)


class NoMercyPlays(PlayFilter):
    """N-18: H-2's plays (a 7 names a seat in the round; a 7 or a 0 takes no `` uno``); N-14: a Discard All takes
    `` uno`` when the hand left after its discards is one card."""

    def filter(self, state: GameState, seat: Seat, plays: list[A.Action]) -> list[A.Action]:
        out: list[A.Action] = []
        for play in seven_zero_plays(state, seat, plays):
            assert type(play) is A.Play
            card = play.card
            if card.number == 7 and play.target is not None and not in_round(state, play.target):
                continue
            if card.rank is Rank.DISCARD_ALL:
                if play.uno:
                    continue
                out.append(play)
                if discard_all_left(state, seat, card) == 1:
                    out.append(A.play(card, None, False, None, True))
                continue
            out.append(play)
        return out

    def refuse(self, state: GameState, seat: Seat, action: A.Play) -> tuple[str, str] | None:
        card = action.card
        if card.rank is Rank.DISCARD_ALL:
            if action.uno and discard_all_left(state, seat, card) != 1:
                # TRANSLATORS: a refusal: keep "' uno'" (notation); {kept} a number of cards
                return "N-14", said(
                    "' uno' goes with a Discard All that leaves one card; this one leaves {kept}",
                    kept=discard_all_left(state, seat, card),
                )
            return None
        target = action.target
        if card.number == 7 and target is not None and 0 <= target < state.seats and not in_round(state, target):
            # TRANSLATORS: a refusal: {target} is a seat knocked out of the round
            return "N-18", said(
                "{target} is out of the round: a 7 swaps with a seat still in it", target=f"seat {target}"
            )
        return seven_zero_refusal(state, seat, action)

    def takes_target(self, state: GameState, action: A.Play) -> bool:
        return action.card.number == 7


def rotate_hands(work: Work, seat: Seat, number: int, target: Seat | None) -> None:
    """N-18 (H-2 among the seats in the round): a 7 swaps with ``target``; a 0 passes every hand in the round to
    the next seat in the round. Then the first seat in turn order from the player whose hand moved and holds one
    card must call UNO; what was known of a hand moves with it; each giver knows the hand it gave (G-2)."""
    hands = work.hands
    before = list(hands)
    if number == 7:
        assert target is not None
        receiver = {seat: target, target: seat}
    else:
        receiver = {owner: next_in(work, owner) for owner in seats_in_round(work)}
    for giver, taker in receiver.items():
        hands[taker] = before[giver]
    moved = sorted(receiver)
    knowledge_moves(work, receiver, moved, before)
    work.unsafe = None
    candidate = seat
    for _ in range(len(moved) + 1):
        if candidate in receiver and len(hands[candidate]) == 1:
            work.unsafe = candidate
            break
        candidate = next_in(work, candidate)
    if work.events is not None:
        work.emit(HandsSwapped(seat, target, tuple(moved)))


class NoMercySwap(AfterPlay):
    """N-18: after a 7 or a 0 (not the player's last card, N-25), the hands move."""

    def run(self, work: Work, seat: Seat, card: CardId, action: A.Play) -> None:
        number = work.tables.card_number[card]
        if number in (0, 7) and work.outcome is None:
            rotate_hands(work, seat, number, action.target)


class NoMercyUnoWindow(UnoWindow):
    """C-18 in No Mercy (N-19, N-22): a seat knocked out of the round neither catches nor is offered anything."""

    def offers(self, state: GameState, seat: Seat) -> list[A.Action]:
        return super().offers(state, seat) if in_round(state, seat) else []

    def order(self, state: GameState) -> list[Seat]:
        return [seat for seat in super().order(state) if in_round(state, seat)]

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str] | None:
        if type(action) in self.consumes and 0 <= seat < state.seats and not in_round(state, seat):
            # TRANSLATORS: a refusal: {seat} is a player knocked out of the round
            return "N-22", said("{seat} is out of the round", seat=f"seat {seat}")
        return super().refusal(state, seat, action)


class NoMercyParts(HouseRule):
    """What No Mercy always adds to its games (not an option): N-9's turn and drawn card (the base decisions
    wrapped, as H-4 wraps them), N-14's and N-18's plays, N-18's swap."""

    name = "nomercy"
    rule = "N-18"

    def on(self, options: Options) -> bool:
        return True

    def compose(self, parts: GameParts, options: Options) -> None:
        parts.wrap("turn", NoMercyTurn(parts.handlers["turn"]))  # N-9: draw until playable
        parts.wrap("drawn", NoMercyDrawn(parts.handlers["drawn"]))  # N-9: the found card must be played
        parts.play_filters.append(NoMercyPlays())
        parts.after_play.append(NoMercySwap())
        parts.windows = [NoMercyUnoWindow() if window is UNO_WINDOW else window for window in parts.windows]


NO_MERCY_PARTS: Final = NoMercyParts()


# -- words ------------------------------------------------------------------------------

NO_MERCY_WORDS: Final[dict[Rank, str]] = {
    Rank.SKIP: said("the next player misses their turn"),
    Rank.REVERSE: said("the direction changes (with two players: play again)"),
    Rank.DRAW_TWO: said("the next player draws 2 and misses their turn, unless they stack"),
    Rank.DRAW_FOUR: said("the next player draws 4 and misses their turn, unless they stack"),
    Rank.SKIP_EVERYONE: said("every other player is skipped; you play again"),
    Rank.DISCARD_ALL: said("discard every other card of its colour from your hand"),
    Rank.WILD_REVERSE_DRAW_FOUR: said(
        "name the colour; the direction changes and the next player draws 4, unless they stack "
        "(with two players: you draw the total)"
    ),
    Rank.WILD_DRAW_SIX: said("name the colour; the next player draws 6, unless they stack"),
    Rank.WILD_DRAW_TEN: said("name the colour; the next player draws 10, unless they stack"),
    Rank.WILD_COLOR_ROULETTE: said(
        "the next player names a colour and turns cards until that colour shows, keeping them all"
    ),
}


def describe_no_mercy(card: Card, flex: bool) -> str:
    """What a No Mercy card does, in words (N-11 … N-18)."""
    name = card_name(card)
    if card.rank is Rank.NUMBER:
        if card.number == 7:
            return card_does(name, said("swap hands with a player you choose"))
        if card.number == 0:
            return card_does(name, said("every hand passes on in the direction of play"))
        return name
    return card_does(name, NO_MERCY_WORDS[card.rank])


def no_mercy_decision_words(kind: str, facts: Mapping[str, Any], action: A.Action | None) -> Words | None:
    """The words of the ``roulette`` decision (N-17); the others keep the generic words."""
    if kind != "roulette":
        return None
    if action is None:
        return said("Color Roulette"), said("Name a colour: you turn cards until one of that colour shows")
    if isinstance(action, A.ChooseColor):
        # TRANSLATORS: {color} is a colour word (red)
        return said("Name {color}", color=action.color.word)
    return None


def no_mercy_state_json(state: GameState) -> dict[str, Any]:
    """``uno replay --json``'s No Mercy keys: the seats still in the round (N-22), the points knocked out (N-27)."""
    return {"in_round": list(state.power), "aside": state.aside}


ROUND_ACTION_LIMIT: Final = OptionSpec(
    "round_action_limit",
    10_000,
    "N-28",
    # TRANSLATORS: N-28; the option's value is "this many"
    said("round r ends with no winner once the game has taken r times this many actions"),
    low=1,
    high=1_000_000,
    rulesets=(NAME,),
    title=said("Round action limit"),
)

NO_MERCY = RuleSet(
    name=NAME,
    title="UNO Show 'Em No Mercy",
    aliases=("no_mercy", "no-mercy", "showemnomercy"),
    seats=range(2, 11),
    make_deck=lambda options: NO_MERCY_DECK,
    points=no_mercy_points,
    option_specs=rule_set_options(NAME, [ROUND_ACTION_LIMIT], single_round=True),
    deal=no_mercy_deal,
    effects=NO_MERCY_EFFECTS,
    wild_draw_four_legal=lambda work, seat, hand, action: True,
    score_round=no_mercy_score,
    game_winner=first_to_target,
    next_dealer=dealer_to_the_left,
    round_flags=lambda seats: [True] * seats,
    seat_flags="in_round",
    handlers=with_base({"stack": NoMercyStack(), "roulette": RouletteHandler()}),
    decisions={**BASE_DECISIONS, "stack": DrawStack, "roulette": Roulette},
    describe_side=describe_no_mercy,
    decision_words=no_mercy_decision_words,
    state_json=no_mercy_state_json,
    rule_letter="N",
    cite={"match": "N-6", "drawn": "N-9", "wild": "N-8", "wd4": "N-2", "uno": "N-19", "flex": "N-6"},
    house=(*allowed(NAME), NO_MERCY_PARTS),
)
"""UNO Show 'Em No Mercy (N-1 … N-28)."""
