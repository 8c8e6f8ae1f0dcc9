"""H-9 ``deflect``: facing a draw total, a Skip or Reverse of the current colour passes it on (docs/RULES.md H-9).

The rule composes on H-1's parts (:mod:`unoengine.core.house.stack_draw`): every
Draw Two and Wild Draw Four puts the next player in H-1's ``stack`` decision, even
when ``stack_draw`` is ``none`` (the shared
:class:`~unoengine.core.rules.stacking.StackHandler` then stacks nothing). The
rule wraps the ``stack`` and ``challenge`` decisions: it offers the deflecting
plays and applies them with its own effect (:class:`Deflect`). Readings (H-9): a
deflected total may be deflected again but not stacked on; deflecting a Wild Draw
Four accepts it; a round won on a deflecting card ends with the seat the total
passes to drawing it (C-20).
"""

from __future__ import annotations

from typing import Final

from unoengine.core import actions as A
from unoengine.core.cards import Card, Rank, Seat
from unoengine.core.errors import excerpt
from unoengine.core.house.stack_draw import StackingDrawTwo, StackingWildDrawFour
from unoengine.core.rules.compose import GameParts, HouseRule
from unoengine.core.rules.option_specs import Options, OptionSpec
from unoengine.core.rules.ruleset import Effect, PendingHandler, Wrapped
from unoengine.core.rules.stacking import StackHandler, stack_total
from unoengine.core.rules.tables import color_index
from unoengine.core.state import DrawStack, GameState
from unoengine.core.work import Work
from unoengine.i18n import said

SPEC: Final = OptionSpec(
    "deflect",
    "none",
    "H-9",
    said("facing a draw total, a Skip or Reverse of the current colour passes it on"),
    choices=("none", "skip", "reverse", "both"),
    rulesets=("classic",),
    absent=(
        ("duo", said("Duo's Draw Twos volley (D-13), and with two players a Skip or Reverse already means play again")),
        ("flex", said("Flex!'s draw cards have flex sides and targets (F-19, F-22, F-25)")),
    ),
    title=said("Deflect a draw total"),
    choice_words=(
        ("none", said("no")),
        ("skip", said("with a Skip")),
        ("reverse", said("with a Reverse")),
        ("both", said("with a Skip or a Reverse")),
    ),
)

DEFLECTORS: Final[dict[str, tuple[Rank, ...]]] = {
    "none": (),
    "skip": (Rank.SKIP,),
    "reverse": (Rank.REVERSE,),
    "both": (Rank.SKIP, Rank.REVERSE),
}
"""H-9: the ranks that deflect a draw total under each ``deflect`` value."""


def deflect_plays(state: GameState, seat: Seat, mode: str) -> list[A.Action]:
    """H-9: the seat's plays that deflect the total: a Skip or Reverse (as ``mode`` allows) of the current colour,
    one kind at a time (sorted by kind), with ` uno` when the play leaves one card."""
    tables = state.tables
    hand = state.hand_bytes[seat]
    kind_of = tables.kind_of
    ranks = DEFLECTORS[mode]
    color = color_index(state.color)
    kinds = sorted(
        {
            kind_of[card]
            for card in hand
            if tables.kinds[kind_of[card]].rank in ranks and tables.kind_color[kind_of[card]] == color
        }
    )
    plays = tables.plays_uno if len(hand) == 2 else tables.plays
    return [play for kind in kinds for play in plays[kind]]


def _with_deflects(out: list[A.Action], deflects: list[A.Action]) -> list[A.Action]:
    """The decision's plays, then the deflecting plays, then the rest (``draw``, ``accept``, ``challenge``)."""
    plays = [action for action in out if type(action) is A.Play]
    rest = [action for action in out if type(action) is not A.Play]
    return plays + deflects + rest


class Deflect(Effect):
    """H-9: a Skip passes the total to the next seat after its player; a Reverse changes the direction first.
    With the player's last card, that seat draws the total at once (C-20)."""

    def run(self, work: Work, seat: Seat, card: Card, action: A.Play, final: bool) -> None:
        total = stack_total(work.prior)
        if card.rank is Rank.REVERSE:
            work.direction = -work.direction
        victim = work.next_seat(seat)
        if final:
            work.draw(victim, total)
        else:
            work.pending = DrawStack(victim, total)


DEFLECT: Final = Deflect()


class Deflecting(Wrapped):
    """The ``stack`` or ``challenge`` decision with the deflecting plays added (deflecting a Wild Draw Four
    accepts it), and their refusals."""

    def __init__(self, inner: PendingHandler, mode: str) -> None:
        super().__init__(inner)
        self.mode = mode

    def legal(self, state: GameState, seat: Seat) -> list[A.Action]:
        return _with_deflects(self.inner.legal(state, seat), deflect_plays(state, seat, self.mode))

    def apply(self, work: Work, seat: Seat, action: A.Action) -> None:
        if type(action) is A.Play and action.card.rank in DEFLECTORS[self.mode]:
            work.play_card(seat, work.find(seat, action.card), action, effect=DEFLECT)
            return
        self.inner.apply(work, seat, action)

    def refusal(self, state: GameState, seat: Seat, action: A.Action) -> tuple[str, str]:
        if type(action) is A.Play and action.card.rank in (Rank.SKIP, Rank.REVERSE):
            card = action.card
            skip = card.rank is Rank.SKIP
            text = excerpt(A.format_action(action))
            if card.rank not in DEFLECTORS[self.mode]:
                if skip:
                    # TRANSLATORS: a refusal: {mode} is the option's value (skip, reverse), {action} in notation
                    reason = said(
                        "with deflect {mode}, a Skip does not pass the draw total on, not {action}",
                        mode=self.mode,
                        action=text,
                    )
                else:
                    # TRANSLATORS: a refusal: {mode} is the option's value (skip, reverse), {action} in notation
                    reason = said(
                        "with deflect {mode}, a Reverse does not pass the draw total on, not {action}",
                        mode=self.mode,
                        action=text,
                    )
                return "H-9", reason
            if card.color is not state.color:
                colour = said("the current colour") if state.color is None else state.color.word
                if skip:
                    # TRANSLATORS: a refusal: {color} is a colour word or "the current colour", {action} in notation
                    reason = said(
                        "only a Skip of {color} passes the draw total on, not {action}", color=colour, action=text
                    )
                else:
                    # TRANSLATORS: a refusal: {color} is a colour word or "the current colour", {action} in notation
                    reason = said(
                        "only a Reverse of {color} passes the draw total on, not {action}", color=colour, action=text
                    )
                return "H-9", reason
        inner = self.inner
        if type(inner) is StackHandler and inner.mode == "none" and not (type(action) is A.Play and action.uno):
            total = stack_total(state.pending)  # H-1 is off: nothing stacks, the total is passed on or drawn
            text = excerpt(A.format_action(action))
            # TRANSLATORS: a refusal: {seat} is a player, {total} a number of cards, {action} the action in notation
            reason = said(
                "{seat} passes the draw total ({total}) on or draws it with 'draw', not {action}",
                seat=f"seat {seat}",
                total=total,
                action=text,
            )
            return "H-9", reason
        return inner.refusal(state, seat, action)


class DeflectRule(HouseRule):
    """H-9: H-1's stack decision for every draw card, and the deflecting plays in it and in the challenge window."""

    name = "deflect"
    rule = "H-9"
    specs: tuple[OptionSpec, ...] = (SPEC,)

    def on(self, options: Options) -> bool:
        return options.deflect != "none"

    def compose(self, parts: GameParts, options: Options) -> None:
        mode = options.deflect
        effects = parts.effects
        if (Rank.DRAW_TWO, False) not in effects:
            effects[(Rank.DRAW_TWO, False)] = StackingDrawTwo()
        if (Rank.WILD_DRAW_FOUR, False) not in effects:
            effects[(Rank.WILD_DRAW_FOUR, False)] = StackingWildDrawFour()
        if options.stack_draw == "none":  # H-1 is off: its decision, stacking nothing
            parts.handlers["stack"] = StackHandler("none", "H-1", "stack")
        handlers: dict[str, PendingHandler] = parts.handlers
        parts.wrap("stack", Deflecting(handlers["stack"], mode))
        parts.wrap("challenge", Deflecting(handlers["challenge"], mode))

    def describe(self, card: Card, flex: bool, text: str, options: Options) -> str:
        mode = options.deflect
        if flex or card.rank not in DEFLECTORS[mode]:
            return text
        if card.rank is Rank.SKIP:
            # TRANSLATORS: {text} is what a Skip or Reverse does (red Skip: the next player misses their turn)
            return said("{text}; facing a draw total, passes it on to the next player", text=text)
        # TRANSLATORS: {text} is what a Skip or Reverse does (red Skip: the next player misses their turn)
        return said("{text}; facing a draw total, sends it the other way", text=text)


DEFLECT_RULE: Final = DeflectRule()
