"""UNO Flex!, 2–8 players, the 2022 edition (docs/RULES.md F-1 … F-29).

Same as Classic except where said. Flags and hooks, with their rules:

- deck (F-1, F-29): 104 playing cards, one data table (:func:`flex_deck`);
  ``points`` (F-28): face value, every coloured action 20, every wild 50.
- ``power_cards = True`` (F-2): one Power Card per seat, green at each deal.
  Flex cards have a flex side (F-3); some number cards a flip symbol (F-4). Every
  interface shows colour-blind markers and card names in words (F-5).
- ``deal`` (F-6, F-7, F-8): 7 cards each; action cards turned first are ignored
  and covered until a number card starts play.
- matching (F-9), drawing (F-10, F-11), an empty draw pile (F-12) and the end of
  the turn (F-13): shared engine, as Classic.
- flex sides (F-14, F-15) while the Power Card is green; ``play_hooks`` turn a
  Power Card red at a flex-side play, and every one green when all are red (F-16
  rule 1); flip-symbol cards (F-16 rule 2)
  and Wild All Flip (F-16 rule 3, F-18).
- effects: Draw Two, Reverse, Skip (F-17), Flex Draw Two (F-19), Flex Reverse
  (F-20), Flex Skip (F-21), Flex Wild Draw Two (F-22), Flex Wild All Draw (F-23),
  Flex Wild Draw Four normal side (F-24) and flex side (F-25); ``targeted``: the flex
  sides that choose a seat.
- UNO (F-26), the round's winner (F-27), the scoring variant (F-28).

Readings:

- F-7: wilds count as action cards and are covered too; a flip-symbol card turned
  first flips nobody's Power Card.
- F-10: the drawn card may be played for its flex side while the Power Card is green.
- F-14: a Flex action card's flex side carries the symbol of its normal side.
- F-16: rule 1 is checked after every card, so a Wild All Flip played while every
  Power Card is green changes nothing.
- F-19, F-23: "every other player" draws in turn order from the next player.
- F-20: with two players the player of a Flex Reverse's flex side plays again.
- F-24: any other wild card in hand makes a Wild Draw Four illegal; a Flex card
  counts if its normal side has the current colour, or its flex side has it while
  the Power Card is green. The card may always be played; the challenge is the check.
- F-25: the target never loses a turn; after any challenge the next player in turn
  order after the player of the card plays.
- Flex defaults to ``single_round: true`` (F-27); with ``false`` rounds are scored to 500.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unoengine.core import actions as A
from unoengine.core.cards import COLORS, Card, CardId, Color, Rank, Seat, format_card, rank_words
from unoengine.core.events import PowerFlipped
from unoengine.core.house import allowed, rule_set_options
from unoengine.core.rules.effects import DRAW_TWO, NO_EFFECT, REVERSE, SKIP, WILD_DRAW_FOUR
from unoengine.core.rules.option_specs import wild_draw_four_option
from unoengine.core.rules.ruleset import Effect, PlayHooks, RuleSet
from unoengine.core.rules.scoring import deal_seven, dealer_to_the_left, first_to_target, winner_takes_all
from unoengine.core.rules.tables import DeckTables, face_matches, match_row
from unoengine.core.rules.words import card_does, describe_with
from unoengine.core.state import ChallengeWindow, GameState
from unoengine.core.work import CARD_BYTE, Work
from unoengine.i18n import said

FLEX_CYCLE = {Color.RED: Color.BLUE, Color.BLUE: Color.GREEN, Color.GREEN: Color.YELLOW, Color.YELLOW: Color.RED}
"""F-29: a flex side's colour is the next in the cycle red → blue → green → yellow → red."""

FLIP_NUMBERS = (1, 5, 9)
"""F-29: the flip symbol is on the plain 1, 5 and 9 of each colour."""

FLEX_WILD_RANKS = (
    Rank.WILD_ALL_FLIP,
    Rank.FLEX_WILD_DRAW_TWO,
    Rank.FLEX_WILD_ALL_DRAW,
    Rank.FLEX_WILD_DRAW_FOUR,
)


def flex_deck() -> tuple[Card, ...]:
    """F-29 Reading: the 104 playing cards of UNO Flex! (one table)."""
    cards: list[Card] = []
    for color in COLORS:
        flex = FLEX_CYCLE[color]
        for number in range(1, 10):
            cards.append(Card(color, Rank.NUMBER, number, flip=number in FLIP_NUMBERS))
            cards.append(Card(color, Rank.NUMBER, number, flex))
        for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
            cards.append(Card(color, rank))
            cards.append(Card(color, rank, None, flex))
    for rank in FLEX_WILD_RANKS:
        cards += [Card(None, rank)] * 2
    return tuple(cards)


FLEX_DECK = flex_deck()


def flex_points(card: Card) -> int:
    """F-28: face value; coloured action cards 20; wild cards 50."""
    if card.rank is Rank.NUMBER:
        assert card.number is not None
        return card.number
    return 50 if card.is_wild else 20


def flex_deal(work: Work, order: list[CardId]) -> None:
    """F-6 … F-8: deal 7; cover action cards until a number card starts play."""
    deal_seven(work, order)
    cards = work.tables.cards
    while True:
        top = work.draw_pile[-1]
        work.draw_pile = work.draw_pile[:-1]
        work.discard_pile += CARD_BYTE[top]
        if not cards[top].is_action:  # (a field: ``Rank.NUMBER`` is a look-up in a Python class)
            break
    work.color = cards[top].color
    work.turn(work.next_seat(work.dealer))


# -- effects -----------------------------------------------------------------------


class FlipNumber(Effect):
    """F-16 rule 2: a flip-symbol card flips its player's Power Card."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if card.flip:
            work.set_power(seat, not work.power[seat])
            if work.events is not None:
                work.emit(PowerFlipped(work.power))
        NO_EFFECT.run(work, seat, card, action, final)


class OthersDraw(Effect):
    """F-19 flex side (``count`` 1) and F-23 flex side (``count`` 2): every other player draws ``count``; the
    next player keeps their turn."""

    def __init__(self, count: int) -> None:
        self.count = count

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        for victim in work.others(seat):
            work.draw(victim, self.count)
        NO_EFFECT.run(work, seat, card, action, final)


class FlexReverse(Effect):
    """F-20 flex side: the direction changes and the first player in it is skipped."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if final:
            return
        work.direction = -work.direction
        work.turn(work.next_seat(seat, 2))


class FlexSkip(Effect):
    """F-21 flex side: every other player is skipped; the player plays again."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if not final:
            work.turn(seat)


class WildAllFlip(Effect):
    """F-18: every Power Card flips; the colour is named in the play."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        work.power = tuple([not green for green in work.power])
        if work.events is not None:
            work.emit(PowerFlipped(work.power))
        NO_EFFECT.run(work, seat, card, action, final)


class FlexWildDrawTwo(Effect):
    """F-22 flex side: the chosen seat draws 2; the next player plays as usual."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        assert action.target is not None
        work.draw(action.target, 2)
        NO_EFFECT.run(work, seat, card, action, final)


class FlexWildDrawFour(Effect):
    """F-25 flex side: the chosen seat draws 4 or challenges; the next player plays."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        target = action.target
        assert target is not None
        if final:
            work.draw(target, 4)
            return
        legal = flex_wild_draw_four_legal(work, seat, work.hands[seat], action)
        after = work.next_seat(seat)
        work.pending = ChallengeWindow(target, seat, legal, 4, after, after, after)


def flex_wild_draw_four_legal(work: Work, seat: Seat, hand: bytes, action: A.Play) -> bool:
    """F-24: legal only with no other card matching the current colour; wilds count as matches.

    A flex side counts while the Power Card was green (the card played on its flex
    side, or the Power Card still green).
    """
    green = action.flex or work.power[seat]
    target = work.prior_color
    cards = work.tables.cards
    for card_id in hand:
        card = cards[card_id]
        if card.color is None or card.color is target:
            return False
        if green and card.flex_color is target:
            return False
    return True


class PowerCards(PlayHooks):
    """Flex's Power Cards around every card played (F-14, F-16 rule 1)."""

    def on_play(self, work: Work, seat: Seat, action: A.Play) -> None:
        """F-14: a flex-side play turns the player's Power Card red."""
        if action.flex:
            work.set_power(seat, False)

    def after_card(self, work: Work) -> None:
        """F-16 rule 1: whenever every Power Card is red, all turn green at once."""
        for green in work.power:  # (``any()`` is a call of a builtin; this loop is compiled)
            if green:
                return
        work.power = (True,) * work.seats
        if work.events is not None:
            work.emit(PowerFlipped(work.power))


# -- flex sides (F-14, F-22) --------------------------------------------------------

TARGETED = frozenset({Rank.FLEX_WILD_DRAW_TWO, Rank.FLEX_WILD_DRAW_FOUR})
"""Flex sides that choose a target seat (F-22, F-25)."""


class FlexTables:
    """Flex's own tables of a deck: which flex sides match, and their plays."""

    def __init__(self, tables: DeckTables) -> None:
        kinds = tables.kinds
        self.flex_ok: tuple[tuple[bool, ...], ...] = tuple(
            tuple(c.is_flex and face_matches(c.flex_color, c.rank, c.number, top, current) for c in kinds)
            for top in kinds
            for current in COLORS
        )
        """``flex_ok[top_kind * 4 + color_index][kind]``: the flex side matches (F-14)."""
        self.targeted: tuple[bool, ...] = tuple(c.is_flex and c.rank in TARGETED for c in kinds)
        plain: list[tuple[A.Play, ...]] = []
        with_uno: list[tuple[A.Play, ...]] = []
        for card in kinds:
            colors: tuple[Color | None, ...] = COLORS if card.is_wild else (None,)
            if card.is_flex and card.rank not in TARGETED:
                plain.append(tuple(A.play(card, c, True) for c in colors))
                with_uno.append(tuple(A.play(card, c, True, uno=u) for c in colors for u in (False, True)))
            else:
                plain.append(())
                with_uno.append(())
        self.plays = tuple(plain)
        self.plays_uno = tuple(with_uno)
        self.green_tables: dict[int, tuple[tuple[A.Play, ...], ...]] = {}
        """The turn's play tables of a seat whose Power Card is green (:func:`flex_play_table`), built on first use,
        by ``((seats * 16 + seat) * 2 + uno) * rows + row``."""


def flex_tables(tables: DeckTables) -> FlexTables:
    """The deck's :class:`FlexTables`, built on first use."""
    found = tables.extras.get("flex")
    if found is None:
        found = tables.extras["flex"] = FlexTables(tables)
    return found


def targeted_plays(card: Card, seat: Seat, seats: int, uno_variants: bool) -> tuple[A.Play, ...]:
    """Flex-side plays that choose another seat (F-22, F-25), one per colour and target (made once per card, seat,
    seats and ``uno_variants``: every row of the play tables holds them)."""
    key = (card, seat, seats, uno_variants)
    found = _TARGETED.get(key)
    if found is None:
        unos = (False, True) if uno_variants else (False,)
        found = tuple(
            [
                A.play(card, color, True, target, uno)
                for color in COLORS
                for target in range(seats)
                if target != seat
                for uno in unos
            ]
        )
        _TARGETED[key] = found
    return found


_TARGETED: dict[tuple[Card, Seat, int, bool], tuple[A.Play, ...]] = {}
"""The targeted plays made so far, by (card, seat, seats, ``uno_variants``): a few per rule set's card and seat."""


_NO_PLAYS: tuple[A.Play, ...] = ()


def flex_side_plays(state: GameState, seat: Seat, kind: int, row: int, uno: bool) -> Sequence[A.Play]:
    """F-14: the flex-side plays of a card kind, while the seat's Power Card is green."""
    if not state.power[seat]:
        return _NO_PLAYS
    extra = flex_tables(state.game.tables)
    if not extra.flex_ok[row][kind]:
        return _NO_PLAYS
    if extra.targeted[kind]:
        return targeted_plays(state.game.tables.kinds[kind], seat, state.game.seats, uno)
    return (extra.plays_uno if uno else extra.plays)[kind]


def flex_play_table(state: GameState, seat: Seat, row: int, uno: bool) -> tuple[tuple[A.Play, ...], ...]:
    """F-14: each card's plays on this row, its flex side's after its normal side's while the Power Card is green.

    A red Power Card leaves the normal table; a green one reads a table built once
    per (seats, seat, ``uno``, row), so that a turn's plays are one lookup per card.
    """
    tables = state.game.tables
    normal = (tables.card_plays_uno if uno else tables.card_plays)[row]
    if not state.power[seat]:
        return normal
    extra = flex_tables(tables)
    seats = state.game.seats
    key = ((seats * 16 + seat) * 2 + uno) * len(tables.card_plays) + row
    found = extra.green_tables.get(key)
    if found is None:
        kind_of = tables.kind_of
        found = tuple(
            tuple(normal[card]) + tuple(flex_side_plays(state, seat, kind_of[card], row, uno))
            for card in range(len(normal))
        )
        extra.green_tables[key] = found
    return found


def refuse_flex_play(state: GameState, seat: Seat, action: A.Play, kind: int) -> tuple[str, str] | None:
    """F-3, F-14, F-22: why a flex-side play (or a target) is refused, or ``None``."""
    card = action.card
    name = format_card(card)
    extra = flex_tables(state.game.tables)
    needs_target = action.flex and extra.targeted[kind]
    if action.flex:
        if not card.is_flex:
            # TRANSLATORS: a refusal: {card} is a card in notation (R7)
            return "F-3", said("{card} has no flex side", card=name)
        if not state.power[seat]:
            # TRANSLATORS: a refusal: {seat} is a player
            return "F-14", said("{seat}'s Power Card is red: no flex-side play", seat=f"seat {seat}")
    if needs_target and action.target is None:
        # TRANSLATORS: a refusal: {card} is a card in notation (FW+2); keep "@flex" and ">N" (notation)
        return "F-22", said("{card}@flex chooses another seat: add >N", card=name)
    if action.target is not None:
        if not needs_target:
            return "F-22", said("only a targeted flex side (FW+2@flex, FW+4@flex) chooses a seat")
        if action.target == seat or not 0 <= action.target < state.game.seats:
            # TRANSLATORS: a refusal: {target} is the seat number the play named
            return "F-22", said("the target must be another seat, not {target}", target=action.target)
    if action.flex:
        tables = state.game.tables
        row = match_row(state)
        if not extra.flex_ok[row][kind]:
            top = format_card(tables.cards[state.discard_pile[-1]])
            color = state.color.word if state.color else said("none")
            # TRANSLATORS: a refusal: {card} and {top} are cards in notation (R7), {color} a colour word
            reason = said(
                "the flex side of {card} does not match {top} (current colour {color})", card=name, top=top, color=color
            )
            return "F-14", reason
    return None


def all_green(seats: int) -> list[bool]:
    """F-2, F-6: every Power Card starts each round green."""
    return [True] * seats


FLEX_WORDS: dict[Rank, str] = {
    Rank.SKIP: said("the next player misses their turn"),
    Rank.REVERSE: said("the direction changes"),
    Rank.DRAW_TWO: said("the next player draws 2 and misses their turn"),
    Rank.WILD_ALL_FLIP: said("every Power Card flips; name the colour"),
    Rank.FLEX_WILD_DRAW_TWO: said("as a Wild, name the colour"),
    Rank.FLEX_WILD_ALL_DRAW: said("as a Wild, name the colour"),
    Rank.FLEX_WILD_DRAW_FOUR: said("name the colour; the next player draws 4 or challenges"),
}
"""F-16 … F-18, F-24: the normal sides in a few words."""

FLEX_SIDE_WORDS: dict[Rank, str] = {
    Rank.SKIP: said("every other player is skipped, you play again"),
    Rank.REVERSE: said("the direction changes and the next player is skipped"),
    Rank.DRAW_TWO: said("every other player draws 1"),
    Rank.FLEX_WILD_DRAW_TWO: said("name the colour; a player you choose draws 2"),
    Rank.FLEX_WILD_ALL_DRAW: said("name the colour; every other player draws 2"),
    Rank.FLEX_WILD_DRAW_FOUR: said("name the colour; a player you choose draws 4 or challenges"),
}
"""F-19 … F-25: the flex sides in a few words (a coloured card's side is named before its effect: ``yellow Skip:
every other player is skipped, you play again``; a Flex wild's is its effect)."""


def describe_flex(card: Card, flex: bool) -> str:
    """What a Flex card does on either side (F-14 … F-25)."""
    if not flex:
        text = describe_with(FLEX_WORDS, card)
        # TRANSLATORS: {card} is a Flex! number card with the flip symbol (red 5 with flip symbol)
        return said("{card} (your Power Card flips)", card=text) if card.flip else text
    effect = FLEX_SIDE_WORDS.get(card.rank)
    if card.flex_color is None:
        if effect is None:
            return said("no flex side")
        return effect if card.rank.is_wild else card_does(rank_words(card.rank), effect)
    color = card.flex_color.word
    if effect is None:
        return color
    return card_does(said("{color} {rank}", color=color, rank=rank_words(card.rank)), effect)


def flex_json(state: GameState) -> dict[str, Any]:
    """``uno replay --json``: each seat's Power Card."""
    return {"power": ["green" if green else "red" for green in state.power]}


FLEX_EFFECTS: dict[tuple[Rank, bool], Effect] = {
    (Rank.NUMBER, False): FlipNumber(),
    (Rank.NUMBER, True): NO_EFFECT,
    (Rank.SKIP, False): SKIP,
    (Rank.SKIP, True): FlexSkip(),
    (Rank.REVERSE, False): REVERSE,
    (Rank.REVERSE, True): FlexReverse(),
    (Rank.DRAW_TWO, False): DRAW_TWO,
    (Rank.DRAW_TWO, True): OthersDraw(1),
    (Rank.WILD_ALL_FLIP, False): WildAllFlip(),
    (Rank.FLEX_WILD_DRAW_TWO, False): NO_EFFECT,
    (Rank.FLEX_WILD_DRAW_TWO, True): FlexWildDrawTwo(),
    (Rank.FLEX_WILD_ALL_DRAW, False): NO_EFFECT,
    (Rank.FLEX_WILD_ALL_DRAW, True): OthersDraw(2),
    (Rank.FLEX_WILD_DRAW_FOUR, False): WILD_DRAW_FOUR,
    (Rank.FLEX_WILD_DRAW_FOUR, True): FlexWildDrawFour(),
}


FLEX = RuleSet(
    name="flex",
    title="UNO Flex!",
    aliases=("uno flex", "uno flex!", "flex!"),
    seats=range(2, 9),
    make_deck=lambda options: FLEX_DECK,
    points=flex_points,
    option_specs=rule_set_options(
        "flex", [wild_draw_four_option("challenge", "F-24")], single_round=True, target_score=500
    ),
    deal=flex_deal,
    effects=FLEX_EFFECTS,
    wild_draw_four_legal=flex_wild_draw_four_legal,
    score_round=winner_takes_all,
    game_winner=first_to_target,
    next_dealer=dealer_to_the_left,
    round_flags=all_green,
    seat_flags="power",
    targeted=TARGETED,
    side_plays=flex_side_plays,
    play_table=flex_play_table,
    refuse_play=refuse_flex_play,
    play_hooks=PowerCards(),
    state_json=flex_json,
    describe_side=describe_flex,
    house=allowed("flex"),
    rule_letter="F",
    cite={"match": "F-9", "drawn": "F-11", "wild": "C-9", "wd4": "F-24", "uno": "F-26", "flex": "F-14"},
)
