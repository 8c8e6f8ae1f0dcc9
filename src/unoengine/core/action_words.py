"""Each legal action of a view as structured fields and words, and the decision's own words.

Interfaces render a decision from these, never from its name or by re-reading
action notation: a new decision, or a house rule that adds actions, shows in every
client with no client change. Words name seats as ``seat N`` (interfaces put their
own names in); a rule set may word its own decisions and actions through its
``decision_words`` hook (``RuleSet.decision_words``), and whatever it leaves out
gets the generic words below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from unoengine.core import actions as A
from unoengine.core.action_ids import action_id
from unoengine.core.cards import Card, Color, Rank, Seat
from unoengine.core.errors import InvalidNotationError
from unoengine.core.rules.option_specs import Options
from unoengine.core.rules.ruleset import RuleSet

GROUPS = ("hand", "decision", "choice", "react")
"""How interfaces offer an action (:attr:`ActionInfo.group`):

* ``hand``: a card of the seat's own hand, played on its decision (pick the card, then
  narrow its plays by ``flex``, ``color``, ``target`` and ``uno``);
* ``decision``: ``draw`` or ``pass`` on the seat's decision (a key and a button);
* ``choice``: any other answer to the seat's decision (``accept``, ``challenge``,
  ``keep``, ``color g`` …): a question with one answer each;
* ``react``: out of turn, by a seat that is not to act (``uno``, ``catch N``, a play
  that jumps in): a visible window with a key and a button.
"""


class ActionInfo(NamedTuple):
    """One legal action of a view, with its fields and its words."""

    action: A.Action
    notation: str
    id: int | None
    """The action id (docs/ACTIONS.md) for this seat, or ``None`` if the table has none."""
    type: str
    """``play``, ``draw``, ``pass``, ``uno``, ``catch``, ``accept``, ``challenge``, ``keep``, ``reject``, ``color`` …"""
    card: Card | None
    color: Color | None
    """The colour a play names, or the colour a ``color`` action names."""
    flex: bool
    target: Seat | None
    """The seat a play targets (``>N``)."""
    uno: bool
    """The play calls UNO (`` uno``)."""
    seat: Seat | None
    """The seat a ``catch`` catches."""
    out_of_turn: bool
    """Taken by a seat that is not to act (C-18's window, a jump-in)."""
    group: str
    """One of :data:`GROUPS`."""
    label: str
    """A few words telling this action from the others of its card or decision (a button)."""
    words: str
    """The action in a sentence (a prompt's answer)."""
    aim: str = ""
    """For a play with a target: the question that chooses it (``Who must draw?``, ``Swap hands with whom?``)."""


class DecisionWords(NamedTuple):
    """The pending decision in words, for the seat that views it."""

    title: str
    """A few words naming the decision (``Draw Two volley``)."""
    prompt: str
    """What the viewer is asked (its own decision), or who decides what (someone else's)."""


_TYPES: dict[type, str] = {
    A.Play: "play",
    A.Draw: "draw",
    A.Pass: "pass",
    A.CallUno: "uno",
    A.Catch: "catch",
    A.Accept: "accept",
    A.Challenge: "challenge",
    A.Keep: "keep",
    A.Reject: "reject",
    A.ChooseColor: "color",
}


def action_type(action: A.Action) -> str:
    """The type of an action (:attr:`ActionInfo.type`); a new action class gets its lower-cased name."""
    return _TYPES.get(type(action), type(action).__name__.lower())


def _facts(view: Any) -> dict[str, Any]:
    """What the words of a decision may use: its public fields, the viewer's details and the options."""
    return {**dict(view.options), **dict(view.decision), **dict(view.details)}


def _rule_words(rules: RuleSet, kind: str, facts: Mapping[str, Any], action: A.Action | None) -> str | None:
    hook = rules.decision_words
    words: str | None = None if hook is None else hook(kind, facts, action)
    if words is None:
        for house in rules.house:  # a house rule's own decisions (H-10's more)
            if kind in house.kinds:
                words = house.decision_words(kind, facts, action)
    return words


def decision_words(view: Any, rules: RuleSet) -> DecisionWords:
    """The words of the view's pending decision (:class:`DecisionWords`)."""
    kind: str = view.pending
    facts = _facts(view)
    own = view.seat is not None and view.seat == view.to_act
    rule = _rule_words(rules, kind, facts, None)
    title, prompt = _BASE_WORDS.get(kind, (kind.replace("_", " ").capitalize(), ""))
    if kind == "drawn" and not facts.get("drew", True):
        prompt = "Nothing left to draw: pass"
    elif kind == "drawn" and view.drawn_card is not None:
        prompt = f"You drew {view.drawn_card.words}: play it, or keep it and pass"
    elif kind == "stack":
        prompt = f"Draw stack: add a card to it, or take {facts.get('stack', 0)}"
        deflect = facts.get("deflect", "none")
        if deflect != "none":  # H-9: a Skip or Reverse of the current colour passes the total on
            adds = "" if facts.get("stack_draw", "none") == "none" else "add a card to it, "
            cards = {"skip": "a Skip", "reverse": "a Reverse"}.get(deflect, "a Skip or Reverse")
            prompt = f"Draw stack: {adds}pass it on with {cards} of the colour, or take {facts.get('stack', 0)}"
    elif kind == "challenge" and view.challenger_of is not None:
        prompt = (
            f"seat {view.challenger_of} played a Wild Draw Four on you: "
            f"accept (draw {facts.get('draws', 4)}) or challenge"
        )
    if rule is not None:
        title, _, rest = rule.partition(": ")
        prompt = rule if rest else prompt or rule
    if view.outcome is not None:
        return DecisionWords("Game over", "The game is over")
    if not own:
        who = "nobody" if view.to_act is None else f"seat {view.to_act}"
        return DecisionWords(title, f"Waiting for {who} ({title.lower()})")
    return DecisionWords(title, prompt or title)


_BASE_WORDS: dict[str, tuple[str, str]] = {
    "turn": ("Turn", "Your turn: play a card or draw"),
    "drawn": ("Drawn card", "Play the card you drew, or keep it and pass"),
    "challenge": ("Wild Draw Four", "A Wild Draw Four: accept the draw or challenge"),
    "game_over": ("Game over", "The game is over"),
    "stack": ("Draw stack", "Draw stack: add a card to it, or take the cards"),
}
"""The core's own decisions (C-7, C-8, C-11, C-17, H-1's stack) in words."""


def describe_action(view: Any, rules: RuleSet, action: A.Action) -> tuple[str, str]:
    """``(label, words)`` of a legal action of the view (:attr:`ActionInfo.label`, :attr:`ActionInfo.words`)."""
    return _described(view, rules, action, _facts(view))


def _described(view: Any, rules: RuleSet, action: A.Action, facts: Mapping[str, Any]) -> tuple[str, str]:
    kind: str = view.pending
    out_of_turn = view.seat != view.to_act
    rule = None if out_of_turn else _rule_words(rules, kind, facts, action)
    if type(action) is A.Play:
        label, words = _play_words(rules, action, out_of_turn, facts)
    elif type(action) is A.Catch:
        penalty = facts.get("uno_penalty", 2)
        label, words = f"Catch seat {action.seat}", f"Catch seat {action.seat} without UNO: they draw {penalty}"
    elif type(action) is A.ChooseColor:
        label, words = action.color.word.capitalize(), f"Name {action.color.word}"
    elif type(action) is A.Draw and kind == "stack":
        total = facts.get("stack", 0)
        label, words = f"Take {total}", f"Take {total}: draw the stack's {total} cards"
    elif type(action) is A.Draw:
        label, words = "Draw", "Draw a card"
    elif type(action) is A.Pass:
        kept = kind == "drawn" and view.drawn_card is not None
        label, words = ("Keep it", "Keep the drawn card and pass") if kept else ("Pass", "Pass")
    elif type(action) is A.CallUno:
        label, words = "UNO!", "Call UNO!"
    elif type(action) is A.Accept:
        draws = facts.get("draws", 4)
        label, words = "Accept", f"Accept: draw {draws} cards"
    elif type(action) is A.Challenge:
        label, words = "Challenge", "Challenge: the player shows you their hand"
    else:
        text = action_type(action).replace("_", " ").capitalize()
        label, words = text, text
    if rule is not None:
        short, _, long = rule.partition(": ")
        label, words = (short, rule) if long else (rule, rule)
    return label, words


_WILD_DRAW_FOURS = (Rank.WILD_DRAW_FOUR, Rank.FLEX_WILD_DRAW_FOUR)
"""The ranks whose card is a Wild Draw Four (C-16, D-18, F-24): ``wild_draw_four`` (C-17, H-6) is about them."""


def _table_options(rules: RuleSet, options: Options | Mapping[str, Any]) -> Options:
    """A table's options: as they are, or from a mapping (a view's ``options``, an action's facts) whose missing
    options have the rule set's defaults and whose other keys are not options."""
    if isinstance(options, Options):
        return options
    defaults = rules.default_options
    return replace(defaults, **{name: options.get(name, getattr(defaults, name)) for name in defaults.names})


def describe_card(rules: RuleSet, options: Options | Mapping[str, Any], card: Card, flex: bool = False) -> str:
    """What a card does when played at this table, in words: the rule set's (``RuleSet.describe_side``),
    changed by the table's options. Every interface shows a card's meaning through this one function.

    H-2 (``seven_zero``): a 7 swaps hands, a 0 passes every hand on. H-1 (``stack_draw``):
    a draw card that may be stacked says what may go on it. C-17, H-6 (``wild_draw_four``):
    a Wild Draw Four says when it may be played (``strict``) or that it may be challenged.
    ``options`` is an :class:`~unoengine.core.rules.option_specs.Options` or a mapping of option names
    to values (a view's ``options``); an option it lacks has the rule set's default.

    >>> from unoengine.core.cards import parse_card
    >>> from unoengine.core.rules import find_rules
    >>> describe_card(find_rules("classic"), {"seven_zero": True}, parse_card("G7"))
    'green 7: swap hands with a player you choose'
    """
    table = _table_options(rules, options)
    text = rules.describe_side(card, flex)
    for house in rules.house:  # each house rule's own words (H-1, H-2), those the table's options turn on
        if house.on(table):
            text = house.describe(card, flex, text, table)
    rank = card.rank
    if rank in _WILD_DRAW_FOURS and "draws 4" in text:
        if table.wild_draw_four == "strict":
            text = text.replace(" or challenges", "") + " (only without a card of the current colour)"
        elif "challenge" not in text:
            text += " (it may be a bluff, and be challenged)"
    return text


def _swaps(play: A.Play, facts: Mapping[str, Any]) -> bool:
    """H-2: a 7's target is the seat it swaps hands with."""
    return bool(facts.get("seven_zero")) and play.card.rank is Rank.NUMBER and play.card.number == 7


def _play_words(
    rules: RuleSet, play: A.Play, out_of_turn: bool, facts: Mapping[str, Any], *, past: bool = False
) -> tuple[str, str]:
    """``(label, words)`` of a play: the prompt's sentence, or with ``past`` the log's (``played …``).

    The log names a flex side without restating its effect; a 7 with a target was a swap
    (a target on a 7 exists only under H-2), whatever the facts at hand.
    """
    card = play.card
    name = card.words.split(", flex side")[0]
    parts: list[str] = []
    words = f"{'played' if past else 'Play'} {name}"
    if play.flex:
        parts.append("flex side")
        words += " on its flex side" if past else f" on its flex side ({describe_card(rules, facts, card, True)})"
    if play.color is not None:
        parts.append(play.color.word)
        words += f", naming {play.color.word}"
    swaps = _swaps(play, facts) or (past and card.rank is Rank.NUMBER and card.number == 7)
    if play.target is not None and swaps:
        parts.append(f"swap with seat {play.target}")
        words += f", and {'swapped' if past else 'swap'} hands with seat {play.target}"
    elif play.target is not None:
        parts.append(f"at seat {play.target}")
        words += f", and seat {play.target} draws" + (" the cards" if past else "")
    if play.uno:
        parts.append("call UNO")
        words += ", and called UNO" if past else ", and call UNO"
    if out_of_turn:
        words = "Jump in: " + words[0].lower() + words[1:]
        parts.insert(0, "jump in")
    label = ", ".join(parts) if parts else "play"
    return label[0].upper() + label[1:], words


def action_infos(view: Any, rules: RuleSet) -> tuple[ActionInfo, ...]:
    """Every legal action of the view with its fields and words, in the order of ``view.legal``."""
    seat: Seat | None = view.seat
    if seat is None:
        return ()
    out: list[ActionInfo] = []
    own = seat == view.to_act
    facts = _facts(view)
    for action in view.legal:
        kind = action_type(action)
        try:
            number: int | None = action_id(action, seat, view.seats)
        except InvalidNotationError:
            number = None
        out_of_turn = not own
        if kind in ("uno", "catch") or out_of_turn:
            group = "react"
        elif kind == "play":
            group = "hand"
        elif kind in ("draw", "pass"):
            group = "decision"
        else:
            group = "choice"
        label, words = _described(view, rules, action, facts)
        play = action if isinstance(action, A.Play) else None
        aim = ""
        if play is not None and play.target is not None:
            aim = "Swap hands with whom?" if _swaps(play, facts) else "Who must draw?"
        color = action.color if isinstance(action, A.ChooseColor) else None if play is None else play.color
        out.append(
            ActionInfo(
                action=action,
                notation=A.format_action(action),
                id=number,
                type=kind,
                card=None if play is None else play.card,
                color=color,
                flex=play is not None and play.flex,
                target=None if play is None else play.target,
                uno=play is not None and play.uno,
                seat=action.seat if isinstance(action, A.Catch) else None,
                out_of_turn=out_of_turn,
                group=group,
                label=label,
                words=words,
                aim=aim,
            )
        )
    return tuple(out)


_DONE: dict[str, str] = {
    "draw": "drew",
    "pass": "passed",
    "uno": "called UNO!",
    "accept": "accepted the Wild Draw Four",
    "challenge": "challenged the Wild Draw Four",
    "keep": "kept the card",
    "reject": "rejected the card",
}


def past_words(rules: RuleSet, action: A.Action) -> str:
    """What a seat did, in words after its name (a log line): ``played red 7, naming blue``."""
    if isinstance(action, A.Play):
        return _play_words(rules, action, False, {}, past=True)[1]
    if isinstance(action, A.Catch):
        return f"caught seat {action.seat}"
    if isinstance(action, A.ChooseColor):
        return f"named the colour {action.color.word}"
    kind = action_type(action)
    return _DONE.get(kind, kind.replace("_", " "))
