"""UNO Duo, exactly 2 players (docs/RULES.md D-1 … D-20). Lowest score wins.

Flags and hooks, with their rules:

- deck (D-1): 112 cards, the 4 special wilds played as plain Wilds (8 Wild,
  4 Wild Draw Four); option ``duo_deck: standard108`` plays with the 108 of C-1.
- ``first_dealer``: the cut (D-2) names Player 1, who drafts first.
- ``deal``: the draft (D-3, D-4; pending ``draft``), then the first card (D-6;
  pending ``color`` when it is a wild); Player 1 alternates by round (D-5, D-7).
- matching, drawing and the drawn card (D-8, D-9): shared engine.
- ``turn_over_discards = True`` (D-10): the discard pile is turned over, not shuffled.
- UNO and its catch (D-11, as C-18/C-19), the round's end (D-12, C-20).
- effects: Draw Two volley (D-13; pending ``volley``), Skip (D-14), Reverse and
  its colour dump (D-15; pending ``dump``), Wild (D-16), Wild Draw Four (D-17) and
  its challenge (D-18; always allowed).
- scoring (D-19): the loser scores their own hand; ``game_winner`` (D-20): reaching
  the target loses.

Readings:

- D-1: the 4 extra cards of a retail deck are plain Wilds.
- D-2: a cut is a random card of the deck (number cards by number, action cards
  above 9, ties re-cut); it does not change the deck's order.
- D-6: a first Draw Two or Wild Draw Four gives no volley and no challenge; a first
  Reverse that Player 2 declines, or cannot use, leaves them a normal turn.
- D-15: wilds are not of a colour; a Reverse ending a dump gives the opponent the
  option to dump that colour (declining, they take a normal turn).
- D-18: a Wild Draw Four is always playable (the challenge is the check); "a card
  they could have played" is any other card, Wild Draw Four excepted, legal on the
  previous top card and colour (a plain Wild counts); after a successful challenge
  the challenger plays next, after a failed one the player of the card plays again.
- A volley's ``draw`` ends the drawer's turn at once (D-13): no drawn-card decision.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from unoengine.core import actions as A
from unoengine.core.cards import COLORS, Card, CardId, Color, Rank, Seat
from unoengine.core.events import CardsDrawn
from unoengine.core.house import allowed, rule_set_options
from unoengine.core.rules.decisions import BASE_DECISIONS, with_base
from unoengine.core.rules.effects import CLASSIC_EFFECTS, NO_EFFECT, WILD_DRAW_FOUR
from unoengine.core.rules.option_specs import OptionSpec, wild_draw_four_option
from unoengine.core.rules.ruleset import Effect, PendingHandler, RuleSet, Words
from unoengine.core.rules.stacking import StackHandler
from unoengine.core.rules.tables import color_index, standard_deck
from unoengine.core.rules.words import CLASSIC_WORDS, describe_with
from unoengine.core.state import GameState
from unoengine.core.work import CARD_BYTE, Work
from unoengine.i18n import said

# -- Duo's own decisions (DUO.handlers and DUO.decisions) --------------------------


class ColorChoice(NamedTuple):
    """``color``: name the colour of a Wild turned at the start (D-6).

    Then ``victim`` draws ``draws`` cards (``draws`` may be 0) and ``next`` plays.
    """

    seat: Seat
    victim: Seat
    draws: int
    next: Seat
    kind: str = "color"


class Volley(NamedTuple):
    """``volley``: add a Draw Two or ``draw`` the total (D-13)."""

    seat: Seat
    total: int
    kind: str = "volley"


class Dump(NamedTuple):
    """``dump``: play every card of ``color``, one at a time, or decline (D-15).

    ``started``: the dump has begun and must be finished. ``on_decline``: the seat
    whose turn it is if the seat declines (``pass``) or holds nothing to add.
    """

    seat: Seat
    color: Color
    started: bool
    on_decline: Seat
    kind: str = "dump"


class Draft(NamedTuple):
    """``draft``: ``keep`` or ``reject`` the top card of the draw pile (D-3).

    The discard pile holds the draft discards, face down: there is no top card yet.
    """

    seat: Seat
    step: int
    kind: str = "draft"


DUO_POINTS = {
    Rank.SKIP: 10,
    Rank.REVERSE: 10,
    Rank.DRAW_TWO: 10,
    Rank.WILD: 15,
    Rank.WILD_DRAW_FOUR: 20,
}

DECKS = {"standard112": standard_deck(wilds=8), "standard108": standard_deck()}


def duo_points(card: Card) -> int:
    """D-19: face value; Draw Two, Reverse, Skip 10; Wild 15; Wild Draw Four 20."""
    if card.rank is Rank.NUMBER:
        assert card.number is not None
        return card.number
    return DUO_POINTS[card.rank]


def cut_rank(card: Card) -> int:
    """D-2 Reading: number cards rank by number, every action card above 9."""
    return card.number if card.number is not None else 10


def cut(work: Work) -> Seat:
    """D-2: both players cut; the higher cut is Player 1. Ties re-cut."""
    cards = work.tables.cards
    attempt = 0
    while True:
        # The cut has its own random stream: it never shifts the shuffles (G-1).
        rng = random.Random(f"{work.seed}:cut:{attempt}")
        attempt += 1
        first, second = rng.sample(range(len(cards)), 2)
        a, b = cut_rank(cards[first]), cut_rank(cards[second])
        if a != b:
            return 0 if a > b else 1


def other(seat: Seat) -> Seat:
    """The opponent."""
    return 1 - seat


def duo_deal(work: Work, order: list[CardId]) -> None:
    """D-3: Player 1 has shuffled; the draft starts with Player 1."""
    work.draw_pile = bytes(reversed(order))
    work.pending = Draft(work.dealer, 0)


def offer_dump(work: Work, seat: Seat, color: Color, on_decline: Seat) -> None:
    """D-15: the seat may play all its cards of ``color``; holding none, ``on_decline`` plays."""
    if work.tables.holds_color(work.hands[seat], color):
        work.pending = Dump(seat, color, False, on_decline)
    else:
        work.turn(on_decline)


_SKIP: Final = Rank.SKIP
_REVERSE: Final = Rank.REVERSE
_DRAW_TWO: Final = Rank.DRAW_TWO
_WILD: Final = Rank.WILD
_WILD_DRAW_FOUR: Final = Rank.WILD_DRAW_FOUR
"""(The ranks of the first card and of a dump's cards, as constants: ``Rank.SKIP`` is a look-up in a Python class.)"""


def start_play(work: Work) -> None:
    """D-6: turn the first card; Player 2 plays first, Player 1 resolves an action card."""
    player1 = work.dealer
    player2 = other(player1)
    first = work.draw_pile[-1]
    work.draw_pile = work.draw_pile[:-1]
    work.discard_pile = CARD_BYTE[first]
    face = work.tables.cards[first]
    work.color = face.color
    rank = face.rank
    if rank is _SKIP:
        work.turn(player1)
    elif rank is _DRAW_TWO:
        work.draw(player2, 2)
        work.turn(player1)
    elif rank is _REVERSE:
        assert face.color is not None
        offer_dump(work, player2, face.color, player2)
    elif rank is _WILD:
        work.pending = ColorChoice(player1, player2, 0, player2)
    elif rank is _WILD_DRAW_FOUR:
        work.pending = ColorChoice(player1, player2, 4, player1)
    else:
        work.turn(player2)


# -- effects -----------------------------------------------------------------------


class DuoReverse(Effect):
    """D-15: after a Reverse the player may dump every card of its colour."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        if final:
            return
        assert card.color is not None
        offer_dump(work, seat, card.color, other(seat))


class DuoDrawTwo(Effect):
    """D-13: the opponent draws the volley's total, or adds a Draw Two (C-20 when final)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        prior = work.prior
        total = prior.total + 2 if type(prior) is Volley else 2
        if final:
            work.draw(other(seat), total)
        else:
            work.pending = Volley(other(seat), total)


class DumpEffect(Effect):
    """D-15: a card of the dump; the last one's action is completed by the opponent."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        prior = work.prior
        assert type(prior) is Dump
        if not final and work.tables.holds_color(work.hands[seat], prior.color):
            work.pending = Dump(seat, prior.color, True, prior.on_decline)
            return
        if card.rank is _REVERSE:
            if not final:
                offer_dump(work, other(seat), prior.color, other(seat))
            return
        DUO_EFFECTS[(card.rank, False)].run(work, seat, card, action, final)


DUMP_EFFECT: Final = DumpEffect()


def duo_wild_draw_four_legal(work: Work, seat: Seat, hand: bytes, action: A.Play) -> bool:
    """D-18 Reading: illegal if any other card but a Wild Draw Four was legal on the previous top."""
    tables = work.tables
    previous = work.discard_pile[-2]
    row = tables.normal_ok[tables.kind_of[previous] * 4 + color_index(work.prior_color)]
    kind_of = tables.kind_of
    return not any(row[kind_of[card]] and not tables.is_wd4[kind_of[card]] for card in hand)


DUO_EFFECTS: dict[tuple[Rank, bool], Effect] = {
    **CLASSIC_EFFECTS,
    (Rank.REVERSE, False): DuoReverse(),
    (Rank.DRAW_TWO, False): DuoDrawTwo(),
    (Rank.WILD, False): NO_EFFECT,
    (Rank.WILD_DRAW_FOUR, False): WILD_DRAW_FOUR,
}


# -- pending decisions of Duo ------------------------------------------------------


class DraftHandler(PendingHandler):
    """D-3, D-4: ``keep`` or ``reject`` the card on top of the draw pile."""

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        if seat is None or seat != state.pending.seat:
            return ()
        return (("draft_card", state.game.tables.cards[state.draw_bytes[-1]]),)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return [A.KEEP, A.REJECT]

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        draft = work.prior
        assert type(draft) is Draft
        pile = work.draw_pile
        looked, following = pile[-1], pile[-2]
        work.draw_pile = pile[:-2]
        kept, discarded = (looked, following) if action == A.KEEP else (following, looked)
        hands = work.hands
        hands[seat] = hands[seat] + CARD_BYTE[kept]
        work.discard_pile = work.discard_pile + CARD_BYTE[discarded]
        if work.events is not None:
            work.emit(CardsDrawn(seat, (kept,)))
        step = draft.step + 1
        if step < 2 * work.game.deal_size:  # H-8 sets it
            work.pending = Draft(other(seat), step)
            return
        # D-4: the draft discards go under the draw pile face down, in discard order.
        work.draw_pile = work.discard_pile[::-1] + work.draw_pile
        work.public_bottom = len(work.discard_pile)
        work.discard_pile = b""
        start_play(work)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        # TRANSLATORS: a refusal: {seat} is a player, {action} the action refused, in notation; keep 'keep' and 'reject'
        reason = said(
            "in the draft {seat} must 'keep' or 'reject' the card, not {action}",
            seat=f"seat {seat}",
            action=repr(A.format_action(action)),
        )
        return "D-3", reason


class ColorHandler(PendingHandler):
    """D-6: Player 1 names the colour of a first Wild (``color g``)."""

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return [A.choose_color(color) for color in COLORS]

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        choice = work.prior
        assert type(choice) is ColorChoice and type(action) is A.ChooseColor
        work.color = action.color
        if choice.draws:
            work.draw(choice.victim, choice.draws)
        work.turn(choice.next)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        # TRANSLATORS: a refusal: {seat} is a player, {action} the action refused, in notation; keep 'color g'
        reason = said(
            "{seat} names the first Wild's colour ('color g'), not {action}",
            seat=f"seat {seat}",
            action=repr(A.format_action(action)),
        )
        return "D-6", reason


class DumpHandler(PendingHandler):
    """D-15: play every card of the colour, one at a time; ``pass`` only before the first."""

    def details(self, state: GameState, seat: Seat | None) -> tuple[tuple[str, Any], ...]:
        dump = state.pending
        assert type(dump) is Dump
        return (("dump_color", dump.color),)

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        dump = state.pending
        assert type(dump) is Dump
        tables = state.tables
        hand = state.hand_bytes[seat]
        target = color_index(dump.color)
        plays = tables.plays_uno if len(hand) == 2 else tables.plays
        kinds = sorted({tables.kind_of[c] for c in hand if tables.kind_color[tables.kind_of[c]] == target})
        out: list[A.Action] = [p for kind in kinds for p in plays[kind]]
        if not dump.started:
            out.append(A.PASS)
        return out

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        dump = work.prior
        assert type(dump) is Dump
        if type(action) is A.Play:
            work.play_card(seat, work.find(seat, action.card), action, DUMP_EFFECT)
        else:
            work.turn(dump.on_decline)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        dump = state.pending
        assert type(dump) is Dump
        if type(action) is A.Pass:
            return "D-15", said("the dump has started: every card of that colour must be played")
        if type(action) is A.Play and action.uno:
            return "C-19", said("' uno' goes with the play that leaves one card")
        seat_, color, refused = f"seat {seat}", dump.color.word, repr(A.format_action(action))
        if dump.started:
            # TRANSLATORS: a refusal: {seat} is a player, {color} a colour word, {action} the action refused
            return "D-15", said(
                "{seat} plays its {color} cards one by one, not {action}", seat=seat_, color=color, action=refused
            )
        # TRANSLATORS: a refusal: {seat} is a player, {color} a colour word, {action} the action refused; keep 'pass'
        return "D-15", said(
            "{seat} plays its {color} cards one by one or declines with 'pass', not {action}",
            seat=seat_,
            color=color,
            action=refused,
        )


def duo_score(work: Work, winner: Seat) -> tuple[int, ...]:
    """D-19: the winner scores 0, the other scores the cards in their own hand."""
    loser = other(winner)
    points = work.tables.points
    total = sum(points[card] for card in work.hands[loser])
    return tuple(total if seat == loser else 0 for seat in range(2))


def duo_game_winner(work: Work, round_winner: Seat | None) -> tuple[bool, Seat | None]:
    """D-20: reaching the target loses; ``single_round``: the player who went out wins."""
    if work.options.single_round:
        return True, round_winner
    for seat in range(2):
        if work.scores[seat] >= work.options.target_score:
            return True, other(seat)
    return False, None


DUO_WORDS: dict[Rank, str] = {
    **CLASSIC_WORDS,
    Rank.SKIP: said("play again"),
    Rank.REVERSE: said("then you may play every card of its colour, one by one"),
    Rank.DRAW_TWO: said("the other player draws 2, or adds a Draw Two to the volley"),
    Rank.WILD_DRAW_FOUR: said("name the colour; the other player draws 4 or challenges"),
}
"""D-13 … D-18 in a few words."""


def describe_duo(card: Card, flex: bool) -> str:
    """What a Duo card does (D-13 … D-18)."""
    return describe_with(DUO_WORDS, card)


def duo_json(state: GameState) -> dict[str, Any]:
    """``uno replay --json``: the volley's total (0 when none is pending)."""
    pending = state.pending
    return {"volley": pending.total if type(pending) is Volley else 0}


def duo_decision_words(kind: str, facts: Mapping[str, Any], action: A.Action | None) -> Words | None:
    """Duo's own decisions and their actions in words (``RuleSet.decision_words``; D-3, D-6, D-13, D-15)."""
    if kind == "volley":
        total = facts.get("volley", 0)
        if action is None:
            title = said("Draw Two volley")
            # TRANSLATORS: {total} is the number of cards the volley makes the player draw
            return title, said("Draw Two volley: add a Draw Two, or take {total}", total=total)
        if action is A.DRAW:
            # TRANSLATORS: {total} is the number of cards the volley makes the player draw
            label = said("Take {total}", total=total)
            # TRANSLATORS: {total} is the number of cards the volley makes the player draw
            return label, said("Take {total}: draw the volley's {total} cards", total=total)
        return None
    if kind == "dump":
        color = facts.get("dump_color")
        word = color.word if color else ""
        if action is None:
            title = said("Reverse dump")
            if facts.get("started"):
                # TRANSLATORS: {color} is a colour word (red)
                return title, said("Reverse dump: play all your {color} cards one by one", color=word)
            # TRANSLATORS: {color} is a colour word (red)
            return title, said("Reverse dump: play all your {color} cards one by one, or decline the dump", color=word)
        if action is A.PASS:  # D-15 is all or nothing: passing declines the whole dump
            label = said("Decline the dump")
            if not word:
                return label, said("Decline the dump: keep all your cards")
            # TRANSLATORS: {color} is a colour word (red)
            return label, said("Decline the dump: keep all your {color} cards", color=word)
        return None
    if kind == "draft":
        card = facts.get("draft_card")
        if action is None:
            if card:
                return said("Draft"), said("Draft: keep the card you drew, or reject it and take the next one")
            return said("Draft")
        if action is A.KEEP:
            return said("Keep it"), said("Keep it: add it to your hand")
        if action is A.REJECT:
            return said("Reject it"), said("Reject it: take the next card instead")
        return None
    if kind == "color" and action is None:
        return said("Colour"), said("Colour: name the colour of the first card")
    return None


DUO = RuleSet(
    name="duo",
    title="UNO Duo",
    aliases=("uno duo",),
    seats=range(2, 3),
    make_deck=lambda options: DECKS[options.duo_deck],
    points=duo_points,
    option_specs=rule_set_options(
        "duo",
        [
            wild_draw_four_option("challenge", "D-18"),
            OptionSpec(
                "duo_deck",
                "standard112",
                "D-1",
                said("standard112: the 4 special wilds play as plain Wilds; standard108: the deck of C-1"),
                choices=tuple(DECKS),
                rulesets=("duo",),
                deck=True,
                title=said("Deck"),
                choice_words=(
                    ("standard112", said("112 cards: the special wilds play as plain Wilds")),
                    ("standard108", said("108 cards: the Classic deck")),
                ),
            ),
        ],
        target_score=200,
    ),
    deal=duo_deal,
    effects=DUO_EFFECTS,
    wild_draw_four_legal=duo_wild_draw_four_legal,
    score_round=duo_score,
    game_winner=duo_game_winner,
    next_dealer=lambda work: other(work.dealer),
    first_dealer=cut,
    turn_over_discards=True,
    handlers=with_base(
        {
            "draft": DraftHandler(),
            "color": ColorHandler(),
            "volley": StackHandler("draw_two", "D-13", "volley"),  # D-13: Draw-Two stacking (H-1's decision)
            "dump": DumpHandler(),
        }
    ),
    decisions={**BASE_DECISIONS, "draft": Draft, "color": ColorChoice, "volley": Volley, "dump": Dump},
    hides_top=frozenset({Draft}),
    state_json=duo_json,
    describe_side=describe_duo,
    decision_words=duo_decision_words,
    house=allowed("duo"),
    rule_letter="D",
    cite={"match": "D-8", "drawn": "D-9", "wild": "D-16", "wd4": "D-18", "uno": "D-11", "flex": "D-8"},
)
