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
from unoengine.core.cards import Card, Color, Rank, Seat, card_name
from unoengine.core.errors import InvalidNotationError
from unoengine.core.rules.option_specs import Options
from unoengine.core.rules.ruleset import RuleSet, Words
from unoengine.i18n import Said, said, translate

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


def _rule_words(rules: RuleSet, kind: str, facts: Mapping[str, Any], action: A.Action | None) -> Words | None:
    hook = rules.decision_words
    words: Words | None = None if hook is None else hook(kind, facts, action)
    if words is None:
        for house in rules.house:  # a house rule's own decisions (H-10's more)
            if kind in house.kinds:
                words = house.decision_words(kind, facts, action)
    return words


class _Lower(str):
    """A decision's title inside a sentence, in lower case (``Waiting for seat 2 (drawn card)``): English lowers
    it, and so does every language with cases; the title is translated first (:class:`~unoengine.i18n.Translatable`)."""

    source: str

    def __new__(cls, source: str) -> _Lower:
        self = super().__new__(cls, source.lower())
        self.source = source
        return self

    def translated(self, lang: str) -> str:
        return translate(self.source, lang).lower()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Lower, (self.source,))


def _seat(seat: object) -> str:
    """The token ``seat N`` that every client replaces by the seat's name (never translated here)."""
    return f"seat {seat}"


def _stack_prompt(facts: Mapping[str, Any]) -> str:
    """H-1's stack, and H-9's deflection of it, in a sentence: what the seat may do with the draw total."""
    total = facts.get("stack", 0)
    deflect = facts.get("deflect", "none")
    adds = facts.get("stack_draw", "none") != "none"
    if deflect == "none":
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        return said("Draw stack: add a card to it, or take {total}", total=total)
    # H-9: a Skip or Reverse of the current colour passes the total on
    if deflect == "skip" and adds:
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        return said("Draw stack: add a card to it, pass it on with a Skip of the colour, or take {total}", total=total)
    if deflect == "skip":
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        return said("Draw stack: pass it on with a Skip of the colour, or take {total}", total=total)
    if deflect == "reverse" and adds:
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        return said(
            "Draw stack: add a card to it, pass it on with a Reverse of the colour, or take {total}", total=total
        )
    if deflect == "reverse":
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        return said("Draw stack: pass it on with a Reverse of the colour, or take {total}", total=total)
    if adds:
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        return said(
            "Draw stack: add a card to it, pass it on with a Skip or Reverse of the colour, or take {total}",
            total=total,
        )
    # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
    return said("Draw stack: pass it on with a Skip or Reverse of the colour, or take {total}", total=total)


def decision_words(view: Any, rules: RuleSet) -> DecisionWords:
    """The words of the view's pending decision (:class:`DecisionWords`)."""
    kind: str = view.pending
    facts = _facts(view)
    own = view.seat is not None and view.seat == view.to_act
    rule = _rule_words(rules, kind, facts, None)
    title, prompt = _base_words(kind)
    if kind == "drawn" and not facts.get("drew", True):
        prompt = said("Nothing left to draw: pass")
    elif kind == "drawn" and view.drawn_card is not None:
        # TRANSLATORS: {card} is a card's name (green 7)
        if A.PASS in view.legal:
            prompt = said("You drew {card}: play it, or keep it and pass", card=view.drawn_card.words)
        else:  # it must be played (No Mercy N-9, forced play H-4)
            # TRANSLATORS: {card} is a card's name (green 7), which the player must play
            prompt = said("You drew {card}: play it", card=view.drawn_card.words)
    elif kind == "stack":
        prompt = _stack_prompt(facts)
    elif kind == "challenge" and view.challenger_of is not None:
        # TRANSLATORS: {seat} is the player who played the card; {draws} the number of cards to draw on accepting
        prompt = said(
            "{seat} played a Wild Draw Four on you: accept (draw {draws}) or challenge",
            seat=_seat(view.challenger_of),
            draws=facts.get("draws", 4),
        )
    if isinstance(rule, tuple):
        title, prompt = rule
    elif rule is not None:
        title, prompt = rule, prompt or rule
    if view.outcome is not None:
        return DecisionWords(said("Game over"), said("The game is over"))
    if not own:
        who = said("nobody") if view.to_act is None else _seat(view.to_act)
        # TRANSLATORS: {who} is a player (or "nobody"), {decision} the decision's title in lower case (drawn card)
        return DecisionWords(title, said("Waiting for {who} ({decision})", who=who, decision=_Lower(title)))
    return DecisionWords(title, prompt or title)


_BASE_WORDS: dict[str, tuple[str, str]] = {
    "turn": (said("Turn"), said("Your turn: play a card or draw")),
    "drawn": (said("Drawn card"), said("Play the card you drew, or keep it and pass")),
    "challenge": (said("Wild Draw Four"), said("A Wild Draw Four: accept the draw or challenge")),
    "game_over": (said("Game over"), said("The game is over")),
    "stack": (said("Draw stack"), said("Draw stack: add a card to it, or take the cards")),
}
"""The core's own decisions (C-7, C-8, C-11, C-17, H-1's stack) in words."""


def _base_words(kind: str) -> tuple[str, str]:
    """A decision's generic ``(title, prompt)``: the core's own, or its kind as a title (a decision with no words)."""
    words = _BASE_WORDS.get(kind)
    return words if words is not None else (kind.replace("_", " ").capitalize(), "")


def describe_action(view: Any, rules: RuleSet, action: A.Action) -> tuple[str, str]:
    """``(label, words)`` of a legal action of the view (:attr:`ActionInfo.label`, :attr:`ActionInfo.words`)."""
    return _described(view, rules, action, _facts(view))


def _described(view: Any, rules: RuleSet, action: A.Action, facts: Mapping[str, Any]) -> tuple[str, str]:
    kind: str = view.pending
    out_of_turn = view.seat != view.to_act
    rule = None if out_of_turn else _rule_words(rules, kind, facts, action)
    label: str
    words: str
    if type(action) is A.Play:
        label, words = _play_words(rules, action, out_of_turn, facts)
    elif type(action) is A.Catch:
        seat = _seat(action.seat)
        # TRANSLATORS: {seat} is the player to catch (who did not call UNO)
        label = said("Catch {seat}", seat=seat)
        # TRANSLATORS: {seat} is the player caught; {penalty} the number of cards they draw
        words = said("Catch {seat} without UNO: they draw {penalty}", seat=seat, penalty=facts.get("uno_penalty", 2))
    elif type(action) is A.ChooseColor:
        # TRANSLATORS: {color} is a colour word (blue)
        label, words = action.color.title, said("Name {color}", color=action.color.word)
    elif type(action) is A.Draw and kind == "stack":
        total = facts.get("stack", 0)
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        label = said("Take {total}", total=total)
        # TRANSLATORS: {total} is the number of cards the draw stack makes the player draw
        words = said("Take {total}: draw the stack's {total} cards", total=total)
    elif type(action) is A.Draw:
        label, words = said("Draw"), said("Draw a card")
    elif type(action) is A.Pass:
        kept = kind == "drawn" and view.drawn_card is not None
        label, words = (said("Keep it"), said("Keep the drawn card and pass")) if kept else (said("Pass"), said("Pass"))
    elif type(action) is A.CallUno:
        label, words = said("UNO!"), said("Call UNO!")
    elif type(action) is A.Accept:
        label = said("Accept")
        # TRANSLATORS: {draws} is the number of cards (4, or more when draw cards were stacked)
        words = said("Accept: draw {draws} cards", draws=facts.get("draws", 4))
    elif type(action) is A.Challenge:
        label, words = said("Challenge"), said("Challenge: the player shows you their hand")
    else:
        text = action_type(action).replace("_", " ").capitalize()
        label, words = text, text
    if isinstance(rule, tuple):
        label, words = rule
    elif rule is not None:
        label, words = rule, rule
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
            # TRANSLATORS: {text} is what a Wild Draw Four does (Wild Draw Four: name the colour; ...)
            text = said("{text} (only without a card of the current colour)", text=_unchallenged(text))
        elif "challenge" not in text:
            # TRANSLATORS: {text} is what a Wild Draw Four does (Wild Draw Four: name the colour; ...)
            text = said("{text} (it may be a bluff, and be challenged)", text=text)
    return text


_UNCHALLENGED: dict[str, str] = {
    said("name the colour; the other player draws 4 or challenges"): said("name the colour; the other player draws 4"),
    said("name the colour; the next player draws 4 or challenges"): said("name the colour; the next player draws 4"),
    said("name the colour; a player you choose draws 4 or challenges"): said(
        "name the colour; a player you choose draws 4"
    ),
}
"""A Wild Draw Four's words that may be challenged (D-18, F-24), and the same words where it may not (``strict``)."""


def _unchallenged(text: str) -> str:
    """``text`` without its `` or challenges`` (C-17, H-6: ``strict`` has no challenge), still to translate."""
    found = _UNCHALLENGED.get(text)
    if found is not None:
        return found
    if " or challenges" not in text:
        return text  # (Classic's words never had it: the message as it is)
    if isinstance(text, Said) and " or challenges" in text:
        args = {name: _unchallenged(arg) if isinstance(arg, str) else arg for name, arg in text.args.items()}
        again = Said(text.template, text.plural, **args)
        if again == text.replace(" or challenges", ""):
            return again
    return text.replace(" or challenges", "")  # (words no table knows: English only)


def _swaps(play: A.Play, facts: Mapping[str, Any]) -> bool:
    """H-2, N-18: a 7's target is the seat it swaps hands with (a number card has a target only there, whether
    the option ``seven_zero`` gives it or the rule set always does, as No Mercy)."""
    return play.target is not None and play.card.rank is Rank.NUMBER and play.card.number == 7


def _play_words(
    rules: RuleSet, play: A.Play, out_of_turn: bool, facts: Mapping[str, Any], *, past: bool = False
) -> tuple[str, str]:
    """``(label, words)`` of a play: the prompt's sentence, or with ``past`` the log's (``played …``).

    The log names a flex side without restating its effect; a 7 with a target was a swap
    (a target on a 7 exists only under H-2), whatever the facts at hand.
    """
    card = play.card
    name = card_name(card)
    lead = past or not out_of_turn  # the sentence starts with the play (a jump-in starts with "Jump in: ")
    head: str
    if play.flex and past:
        # TRANSLATORS: a log line after a player's name: {card} is a card's name (green 2)
        head = said("played {card} on its flex side", card=name)
    elif play.flex and lead:
        # TRANSLATORS: {card} is a card's name (green 2), {effect} what its flex side does
        head = said(
            "Play {card} on its flex side ({effect})", card=name, effect=describe_card(rules, facts, card, True)
        )
    elif play.flex:
        # TRANSLATORS: after "Jump in: ": {card} is a card's name (green 2), {effect} what its flex side does
        head = said(
            "play {card} on its flex side ({effect})", card=name, effect=describe_card(rules, facts, card, True)
        )
    elif past:
        # TRANSLATORS: a log line after a player's name: {card} is a card's name (red 7)
        head = said("played {card}", card=name)
    elif lead:
        # TRANSLATORS: {card} is a card's name (red 7)
        head = said("Play {card}", card=name)
    else:
        # TRANSLATORS: after "Jump in: ": {card} is a card's name (red 7)
        head = said("play {card}", card=name)
    clauses: list[str] = [head]
    parts: list[tuple[str, str]] = []  # each part of the label, as it starts the label and as it follows
    if play.flex:
        parts.append((said("Flex side"), said("flex side")))
    if play.color is not None:
        parts.append((play.color.title, play.color.word))
        # TRANSLATORS: a part of a play's sentence: {color} is the colour the wild card names
        clauses.append(said("naming {color}", color=play.color.word))
    swaps = _swaps(play, facts) or (past and card.rank is Rank.NUMBER and card.number == 7)
    if play.target is not None:
        seat = _seat(play.target)
        if swaps:
            # TRANSLATORS: a button's first part: {seat} is the player a 7 swaps hands with
            first = said("Swap with {seat}", seat=seat)
            # TRANSLATORS: a button's later part: {seat} is the player a 7 swaps hands with
            later = said("swap with {seat}", seat=seat)
            if past:
                # TRANSLATORS: a part of a log line: {seat} is the player a 7 swapped hands with
                clauses.append(said("and swapped hands with {seat}", seat=seat))
            else:
                # TRANSLATORS: a part of a play's sentence: {seat} is the player a 7 swaps hands with
                clauses.append(said("and swap hands with {seat}", seat=seat))
        else:
            # TRANSLATORS: a button's first part: {seat} is the player the card makes draw
            first = said("At {seat}", seat=seat)
            # TRANSLATORS: a button's later part: {seat} is the player the card makes draw
            later = said("at {seat}", seat=seat)
            if past:
                # TRANSLATORS: a part of a log line: {seat} is the player the card made draw
                clauses.append(said("and {seat} draws the cards", seat=seat))
            else:
                # TRANSLATORS: a part of a play's sentence: {seat} is the player the card makes draw
                clauses.append(said("and {seat} draws", seat=seat))
        parts.append((first, later))
    if play.uno:
        parts.append((said("Call UNO"), said("call UNO")))
        clauses.append(said("and called UNO") if past else said("and call UNO"))
    words = _listed(clauses)
    if out_of_turn:
        # TRANSLATORS: {play} is the play, in words (play red 7)
        words = said("Jump in: {play}", play=words)
        parts.insert(0, (said("Jump in"), said("jump in")))
    if not parts:
        return said("Play"), words
    return _listed([parts[0][0], *(later for _, later in parts[1:])]), words


def _listed(items: list[str]) -> str:
    """Items in a row, as English writes them: ``Play red 7, naming blue, and call UNO``."""
    if len(items) == 1:
        return items[0]
    # TRANSLATORS: two or more parts of a play, one after the other (Play red 7, naming blue); {rest} may be a list too
    return said("{first}, {rest}", first=items[0], rest=_listed(items[1:]))


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
            aim = said("Swap hands with whom?") if _swaps(play, facts) else said("Who must draw?")
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
    # TRANSLATORS: what a player did, in a log line after their name (Ana drew)
    "draw": said("drew"),
    "pass": said("passed"),
    "uno": said("called UNO!"),
    "accept": said("accepted the Wild Draw Four"),
    "challenge": said("challenged the Wild Draw Four"),
    "keep": said("kept the card"),
    "reject": said("rejected the card"),
}


def past_words(rules: RuleSet, action: A.Action) -> str:
    """What a seat did, in words after its name (a log line): ``played red 7, naming blue``."""
    if isinstance(action, A.Play):
        return _play_words(rules, action, False, {}, past=True)[1]
    if isinstance(action, A.Catch):
        # TRANSLATORS: a log line after a player's name: {seat} is the player caught without UNO
        return said("caught {seat}", seat=_seat(action.seat))
    if isinstance(action, A.ChooseColor):
        # TRANSLATORS: a log line after a player's name: {color} is a colour word
        return said("named the colour {color}", color=action.color.word)
    kind = action_type(action)
    return _DONE.get(kind, kind.replace("_", " "))
