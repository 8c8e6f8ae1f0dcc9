"""H-1 ``stack_draw``: draw cards stack (docs/RULES.md H-1, with every interaction).

When a card that may be stacked is played, the next player does not draw at
once: they decide (``stack``, the shared :class:`~unoengine.core.rules.stacking.StackHandler`,
which is also Duo's volley, D-13) whether to add a card that stacks on it, or to
draw the total. With the Wild Draw Four challenge (C-17) the player facing a Wild
Draw Four may also stack, which accepts the card; a challenge settles only the
last Wild Draw Four. Readings (H-1): the decision is offered even to a player
with nothing to add; a round won on a stacked card ends with the next player
drawing the total (C-20); Duo and Flex! refuse the option.
"""

from __future__ import annotations

from typing import Final

from unoengine.core import actions as A
from unoengine.core.cards import Card, Rank, Seat
from unoengine.core.errors import excerpt
from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.decisions import ChallengeHandler, show_challenged_hand
from unoengine.core.rules.effects import WildDrawFour
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.plays import play_from_hand
from unoengine.core.rules.ruleset import Effect
from unoengine.core.rules.stacking import FOUR_STACKS, TWO_STACKS, StackHandler, stack_plays, stack_total
from unoengine.core.state import ChallengeWindow, DrawStack, GameState
from unoengine.core.work import Work
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "stack_draw",
    "none",
    "H-1",
    said("draw cards stack: the total grows until a seat cannot or will not add and draws it"),
    choices=("none", "draw_two", "draw_four", "same", "mixed"),
    rulesets=("classic",),
    absent=(
        ("duo", said("Duo's Draw Twos already volley (D-13)")),
        ("flex", said("Flex!'s draw cards have flex sides and targets (F-19, F-22, F-25)")),
    ),
    title=said("Stack draw cards"),
    choice_words=(
        ("none", said("no stacking")),
        ("draw_two", said("Draw Two on Draw Two")),
        ("draw_four", said("Wild Draw Four on Wild Draw Four")),
        ("same", said("a draw card on the same card")),
        ("mixed", said("any draw card on any draw card")),
    ),
)


class StackingDrawTwo(Effect):
    """C-14 under H-1: the next player faces the stack's total (a final Draw Two: the total is drawn at once, C-20)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        total = stack_total(work.prior) + 2
        victim = work.next_seat(seat)
        if final:
            work.draw(victim, total)
        else:
            work.pending = DrawStack(victim, total)


class StackingWildDrawFour(WildDrawFour):
    """C-16 under H-1: the next player faces the stack's total; with the challenge (C-17), a challenge window
    whose total is the stack's."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        victim = work.next_seat(seat)
        total = stack_total(work.prior) + 4
        if final:
            work.draw(victim, total)
            return
        if work.options.wild_draw_four == "strict":
            work.pending = DrawStack(victim, total)
            return
        legal = work.rules.wild_draw_four_legal(work, seat, work.hands[seat], action)
        after = work.next_seat(victim)
        work.pending = ChallengeWindow(victim, seat, legal, total, after, victim, after)


class StackingChallenge(ChallengeHandler):
    """C-17 under H-1: ``accept``, ``challenge``, or stack on the Wild Draw Four (which accepts it); a challenge
    settles only the last Wild Draw Four: if it succeeds, its player draws 4 and the challenger the rest."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return stack_plays(state, seat, self.mode) + super().legal(state, seat)

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play:
            play_from_hand(work, seat, action)  # stacking accepts the card
            return
        prior = work.prior
        assert type(prior) is ChallengeWindow
        if type(action) is A.Challenge and not prior.legal and prior.draws > 4:
            show_challenged_hand(work, seat, prior)
            work.draw(prior.player, 4)
            work.draw(seat, prior.draws - 4)
            work.turn(prior.after_success)
            return
        super().apply(work, seat, action)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Play:
            text = A.format_action(action)
            # TRANSLATORS: a refusal: {action} is the action in notation
            reason = said(
                "only a card that stacks on the Wild Draw Four may be played now, not {action}", action=excerpt(text)
            )
            return "H-1", reason
        return super().refusal(state, seat, action)


STACKED_CARDS: Final = {"draw_two": "a Draw Two", "draw_four": "a Wild Draw Four"}


class StackDraw(HouseRule):
    """H-1: the stack decision, the stacking Draw Two and Wild Draw Four, and stacking in the challenge window."""

    name = "stack_draw"
    rule = "H-1"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.stack_draw != "none"

    def compose(self, parts: GameParts, options: Options) -> None:
        mode = options.stack_draw
        parts.handlers["stack"] = StackHandler(mode, "H-1", "stack")
        if mode in TWO_STACKS:
            parts.effects[(Rank.DRAW_TWO, False)] = StackingDrawTwo()
        if mode in FOUR_STACKS:
            parts.effects[(Rank.WILD_DRAW_FOUR, False)] = StackingWildDrawFour()
            parts.wrap("challenge", StackingChallenge(mode))

    def describe(self, card: Card, flex: bool, text: str, options: Options) -> str:
        mode = options.stack_draw
        rank = card.rank
        if flex or not (
            (rank is Rank.DRAW_TWO and mode in TWO_STACKS) or (rank is Rank.WILD_DRAW_FOUR and mode in FOUR_STACKS)
        ):
            return text
        if mode == "mixed":
            # TRANSLATORS: {text} is what a draw card does (red Draw Two: the next player draws 2 ...)
            return said("{text}, unless they stack a Draw Two or Wild Draw Four on it", text=text)
        if rank is Rank.DRAW_TWO:
            # TRANSLATORS: {text} is what a draw card does (red Draw Two: the next player draws 2 ...)
            return said("{text}, unless they stack a Draw Two on it", text=text)
        # TRANSLATORS: {text} is what a draw card does (red Draw Two: the next player draws 2 ...)
        return said("{text}, unless they stack a Wild Draw Four on it", text=text)


STACK_DRAW: Final = StackDraw()
