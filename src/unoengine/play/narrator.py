"""The narrator: what happened, in sentences, for one seat (every client's log).

Pure and without I/O: it reads only the seat's views before and after a step
and the step's events, redacted for that seat (G-2), so a client never tells a
seat more than its view. The terminal game and the browser use the same
sentences, so the two never describe a turn differently.

The reader's own seat is "You" ("Your challenge …", "Bot 2 skips you"); the
other seats are their names.

Every line is a :class:`~unoengine.i18n.Said` (or holds one): its ``str`` is the
English sentence, and ``translate(line, lang)`` says it in another language with
the seats' names filled in (the core's words inside a line are translated first and
their ``seat N`` tokens named after: :class:`Named`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from unoengine.core.action_words import action_type, past_words
from unoengine.core.actions import Play
from unoengine.core.cards import Card, Rank, Seat
from unoengine.core.events import (
    ActionTaken,
    CardsDrawn,
    Caught,
    ChallengeResolved,
    Event,
    GameEnded,
    HandShown,
    HandsSwapped,
    KnockedOut,
    PowerFlipped,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    redact,
)
from unoengine.core.house.teams import partner_in, team_name
from unoengine.core.rules import find_rules
from unoengine.core.views import PlayerView
from unoengine.i18n import DEFAULT, Said, said, said_n, translatable, translate

__all__ = [
    "Listed",
    "Named",
    "Names",
    "Word",
    "card_words",
    "first_card",
    "in_language",
    "name_seats",
    "narrate",
    "shown_card",
]


class Word(str):
    """A word the core gives as a plain ``str`` (a colour, a decision's title): looked up as a message id.

    ``lower``: said in lower case inside a sentence (the decision's title in the first card's line)."""

    source: str
    lower_case: bool

    def __new__(cls, text: str, lower_case: bool = False) -> Word:
        self = super().__new__(cls, text.lower() if lower_case else text)
        self.lower_case = lower_case
        self.source = text
        return self

    def translated(self, lang: str) -> str:
        text = translate(self.source, lang)
        return text.lower() if self.lower_case else text

    def __reduce__(self) -> tuple[Any, ...]:
        return (Word, (self.source, self.lower_case))


def word(text: str, lower_case: bool = False) -> str:
    """``text`` as an argument of a sentence: itself when it can say itself in a language, else a :class:`Word`."""
    if translatable(text) and not lower_case:
        return text
    return Word(text, lower_case)


class Listed(str):
    """Items joined by ``sep`` (a list of cards, of seats' scores), each item said in the reader's language."""

    items: tuple[str, ...]
    sep: str

    def __new__(cls, items: Sequence[str], sep: str = ", ") -> Listed:
        self = super().__new__(cls, sep.join(items))
        self.items, self.sep = tuple(items), sep
        return self

    def translated(self, lang: str) -> str:
        return self.sep.join(translate(item, lang) for item in self.items)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Listed, (self.items, self.sep))


def _and(items: Sequence[str]) -> str:
    """ "Bot 1 and Bot 2": seats joined by "and", in the reader's language (one template, folded)."""
    joined = items[0]
    for item in items[1:]:
        # TRANSLATORS: two seats (names, or "you") in a list: "Bot 1 and you"
        joined = said("{first} and {second}", first=joined, second=item)
    return joined


@cache
def _front(card: Card) -> str:
    return Card(card.color, card.rank, card.number, None, card.flip).words


def card_words(card: Card) -> str:
    """A card in words for a log (``red 7``, ``Wild Draw Four``), never in notation: what both clients show.

    A two-sided card is said by its normal side (the core's words of the same card without a flex side)."""
    return card.words if card.flex_color is None else _front(card)


def _you() -> Said:
    # TRANSLATORS: the reader's own seat inside a sentence ("Bot 2 skips you")
    return said("you")


@dataclass(frozen=True)
class Names:
    """The seats' names as ``reader`` reads them: its own seat is "You"."""

    seats: tuple[str, ...]
    """Every seat's name ("Bot 1", "Ann", …); the reader's own is replaced by "You"."""
    reader: Seat | None
    """The seat the sentences are for (``None``: a spectator)."""

    @classmethod
    def bots(cls, seats: int, reader: Seat = 0) -> Names:
        """The terminal game's names: the reader is "You", every other seat "Bot N"."""
        return cls(tuple(f"Bot {seat}" for seat in range(seats)), reader)

    def subject(self, seat: Seat) -> str:
        """A seat starting a sentence: "You", "Bot 1"."""
        # TRANSLATORS: the reader's own seat starting a sentence ("You drew 2")
        return said("You") if seat == self.reader else self.seats[seat]

    def object(self, seat: Seat) -> str:
        """A seat inside a sentence: "you", "Bot 1"."""
        return _you() if seat == self.reader else self.seats[seat]

    def possessive(self, seat: Seat) -> str:
        """Whose, starting a sentence: "Your", "Bot 1's"."""
        # TRANSLATORS: the reader's own, starting a sentence ("Your turn")
        return said("Your") if seat == self.reader else f"{self.seats[seat]}'s"

    @property
    def objects(self) -> list[str]:
        """Every seat inside a sentence."""
        return [self.object(seat) for seat in range(len(self.seats))]


_SEAT = re.compile(r"\bseat (\d+)('s)?(?: (holds|has|names|adds|plays its|plays|takes))?")
_YOU_VERBS = {"holds": "hold", "has": "have", "names": "name", "adds": "add", "plays its": "play your", "plays": "play"}
_OR_VERBS = {" or takes ": " or take ", " or declines ": " or decline "}
"""A second verb of the same seat ("seat 0 adds … or takes …"): "you add … or take …"."""
_TOKEN = re.compile(r"\bseat (\d+)")


def name_seats(text: str, names: Names, lang: str = DEFAULT) -> str:
    """An engine message with its seat numbers replaced by names ("seat 1" → "Bot 1", the reader's → "you").

    In English the verbs after the reader's "you" agree ("seat 0 holds" → "you hold"). In another
    language ``text`` is the core's words already in that language (``translate(words, lang)``):
    each ``seat N`` becomes the seat's name, the reader's the language's word for "you".
    """
    if lang != DEFAULT:
        you = translate(_you(), lang)

        def token(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            if seat >= len(names.seats):
                return match.group(0)
            return you if seat == names.reader else names.seats[seat]

        return _TOKEN.sub(token, text)
    objects = names.objects

    def named(match: re.Match[str]) -> str:
        seat, possessive, verb = int(match.group(1)), match.group(2), match.group(3)
        if seat >= len(objects):
            return match.group(0)
        if seat != names.reader:
            return objects[seat] + (possessive or "") + (f" {verb}" if verb else "")
        if possessive:
            rest = text[match.end() :]
            return "your" if rest[:1] == " " and rest[1:2].isalnum() else "yours"
        return "you" + (f" {_YOU_VERBS.get(verb, verb)}" if verb else "")

    named_text = _SEAT.sub(named, str(text))
    if any(f"you {verb} " in named_text for verb in _YOU_VERBS.values()):  # the reader's second verb agrees too
        for third, second in _OR_VERBS.items():
            named_text = named_text.replace(third, second)
    return named_text


class Named(str):
    """The core's words (``past_words``: ``played red 7, and seat 2 draws``) with their seats named for a reader.

    Its ``str`` is the English (:func:`name_seats`); in another language the core's words are
    translated first, then named. ``jumped``: a play out of turn (H-3), "jumped in with red 1".
    """

    words: str
    names: Names
    jumped: bool

    def __new__(cls, words: str, names: Names, jumped: bool = False) -> Named:
        text = name_seats(words, names)
        if jumped:
            text = text.replace("played ", "jumped in with ", 1)
        self = super().__new__(cls, text)
        self.words, self.names, self.jumped = words, names, jumped
        return self

    def translated(self, lang: str) -> str:
        if lang == DEFAULT:
            return str.__str__(self)
        text = name_seats(translate(self.words, lang), self.names, lang)
        if self.jumped:
            # TRANSLATORS: after a player's name: a play out of turn (a jump-in); {words} is what they did,
            # "played red 1" (in English the line reads "Bot 2 jumped in with red 1")
            text = said("jumped in: {words}", words=text).translated(lang)
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (Named, (self.words, self.names, self.jumped))


def in_language(value: Any, lang: str) -> Any:
    """A JSON value (a message, a view's JSON) with every :class:`~unoengine.i18n.Translatable` string in it
    said in ``lang``; ``value`` itself in English (nothing copied)."""
    if lang == DEFAULT:
        return value
    return _said_in(value, lang)


def _said_in(value: Any, lang: str) -> Any:
    if isinstance(value, str):
        return translate(value, lang) if translatable(value) else value
    if isinstance(value, Mapping):
        return {key: _said_in(item, lang) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_said_in(item, lang) for item in value]
    return value


def shown_card(view: PlayerView) -> Card | None:
    """A card the view's decision shows its seat (a detail that is a card: a drafted card …)."""
    return next((value for _, value in view.details if isinstance(value, Card)), None)


def first_card(view: PlayerView, names: Names) -> str | None:
    """The round's first card, once it is turned (after the deal, or after a Duo draft).

    When action cards were turned and covered first (F-7), they are named too. ``None``
    while no card is turned yet.
    """
    if view.top is None:
        return None
    # TRANSLATORS: nobody is to act next (the game is over)
    who = said("nobody") if view.to_act is None else names.object(view.to_act)
    args: dict[str, Any] = {
        "round": view.round,
        "card": card_words(view.top),
        "who": who,
        "pending": word(view.words.title, lower_case=True),
    }
    top = str(args["card"])
    named = view.color is not None and not top.startswith(view.color.word)
    if named and view.color is not None:
        args["color"] = word(view.color.word)
    if len(view.discard_pile) > 1:
        args["turned"] = Listed([card_words(card) for card in view.discard_pile[:-1]])
        if "color" in args:
            # TRANSLATORS: a round's first card, its chosen colour, the action cards turned before it and covered
            # (F-7), who acts next and their decision ("next: you (your turn)")
            return said(
                "Round {round}: the first card is {card} ({color}) ({turned} turned first and covered);"
                " next: {who} ({pending})",
                **args,
            )
        # TRANSLATORS: a round's first card, the action cards turned before it and covered (F-7), who acts next
        return said(
            "Round {round}: the first card is {card} ({turned} turned first and covered); next: {who} ({pending})",
            **args,
        )
    if "color" in args:
        # TRANSLATORS: a round's first card and its chosen colour, who acts next and their decision
        return said("Round {round}: the first card is {card} ({color}); next: {who} ({pending})", **args)
    # TRANSLATORS: a round's first card, who acts next and their decision ("next: Bot 2 (turn)")
    return said("Round {round}: the first card is {card}; next: {who} ({pending})", **args)


def narrate(
    before: PlayerView | None,
    events: Sequence[Event],
    after: PlayerView,
    names: Names,
    cards: Sequence[Card],
    *,
    timed_out: bool = False,
) -> list[str]:
    """The sentences of one step for ``names.reader``: its events, who was skipped, a new round's first card.

    A play by a seat that was not to act is a jump-in (H-3: "Bot 2 jumped in with red 1"); one
    seat's draws in a row are one line (C-22: "Bot 3 drew 10"); a 7's swap or a 0's rotation
    (H-2) names each moved hand's new size ("Every hand passed on (clockwise): you now hold 5, …").

    ``before`` and ``after`` are the reader's views around the step (``before`` is
    ``None`` when it is unknown); ``cards`` is the deck's card table (the card of
    each card id, public). Events are redacted for the reader here, whatever the
    caller passes. ``timed_out``: the step's action was taken for its seat because
    its turn time ran out ("Time ran out: drew for Hank").

    Every line is a :class:`~unoengine.i18n.Said`: ``translate(line, lang)`` says it in ``lang``.
    """
    lines: list[str] = []
    for raw in _coalesced([redact(event, names.reader) for event in events]):
        if timed_out and isinstance(raw, ActionTaken):
            lines.append(_timed_out(raw, after, names))
            continue
        line = _event_line(before, raw, after, names, cards)
        if line is not None:
            lines.append(line)
    skipped = _skipped(before, events, after, names)
    if skipped is not None:
        lines.append(skipped)
    turned = before is not None and (before.top is None or before.round != after.round)
    if turned and after.outcome is None and (line := first_card(after, names)) is not None:
        lines.append(line)
    return lines


def _coalesced(events: Sequence[Event]) -> list[Event]:
    """The (redacted) events with each run of one seat's draws made one draw (C-22: "Bot 3 drew 10").

    Only draws that follow each other are joined: whatever lies between two draws
    (a reshuffle, C-10) keeps its own line between theirs.
    """
    out: list[Event] = []
    for event in events:
        last = out[-1] if out else None
        if isinstance(event, CardsDrawn) and isinstance(last, CardsDrawn) and last.seat == event.seat:
            if last.cards is not None and event.cards is not None:
                out[-1] = CardsDrawn(event.seat, last.cards + event.cards)
            else:
                out[-1] = CardsDrawn(event.seat, None, last.number + event.number)
            continue
        out.append(event)
    return out


def _holdings(seats: Sequence[Seat], after: PlayerView, names: Names) -> str:
    """ "you now hold 5, Bot 1 holds 1": the hand sizes of the seats whose hands moved (H-2), the reader first."""
    order = sorted(seats, key=lambda seat: seat != names.reader)
    parts: list[str] = []
    for seat in order:
        n = after.hand_sizes[seat]
        if seat == names.reader:  # always first
            # TRANSLATORS: after a hand swap or rotation: the reader's new hand size
            parts.append(said("you now hold {n}", n=n))
        elif not parts:
            # TRANSLATORS: after a hand swap or rotation: a seat's new hand size ({who}: its name), first in a list
            parts.append(said("{who} now holds {n}", who=names.seats[seat], n=n))
        else:
            # TRANSLATORS: after a hand swap or rotation: a seat's new hand size ({who}: its name), later in a list
            parts.append(said("{who} holds {n}", who=names.seats[seat], n=n))
    return Listed(parts)


def _hands_moved(event: HandsSwapped, after: PlayerView, names: Names) -> str:
    """H-2: a 7's swap or a 0's rotation, with each moved hand's new size (the cards stay hidden)."""
    holdings = _holdings(event.seats, after, names)
    if event.target is None:
        if after.direction >= 0:
            # TRANSLATORS: a 0 was played: every hand moved to the next seat; {holdings}: the new hand sizes
            return said("Every hand passed on (clockwise): {holdings}", holdings=holdings)
        # TRANSLATORS: a 0 was played: every hand moved to the next seat; {holdings}: the new hand sizes
        return said("Every hand passed on (counterclockwise): {holdings}", holdings=holdings)
    # TRANSLATORS: a 7's swap; {who}: a name or "You", {whom}: a name or "you"; {holdings}: the new hand sizes
    return said(
        "{who} swapped hands with {whom}: {holdings}",
        who=names.subject(event.player),
        whom=names.object(event.target),
        holdings=holdings,
    )


def _timed_out(event: ActionTaken, after: PlayerView, names: Names) -> str:
    """ "Time ran out: drew for Hank": the action the turn timer's stand-in took for a seat."""
    words = Named(past_words(find_rules(after.rules), event.action), names)
    # TRANSLATORS: a turn timer ran out and a bot acted for a player; {words}: what it did ("drew"),
    # {whom}: the player's name or "you"
    return said("Time ran out: {words} for {whom}", words=words, whom=names.object(event.seat))


def _skipped(before: PlayerView | None, events: Sequence[Event], after: PlayerView, names: Names) -> str | None:
    """ "Bot 2 skips you": the seats a play passed over, read from the views (who acted, who acts next)."""
    plays = [event for event in events if isinstance(event, ActionTaken) and isinstance(event.action, Play)]
    if (
        before is None
        or len(plays) != 1
        or any(isinstance(event, RoundEnded | RoundStarted) for event in events)
        or after.to_act is None
        or after.pending != "turn"
        or after.round != before.round
    ):
        return None
    actor = plays[0].seat
    step = 1 if after.direction >= 0 else -1
    passed: list[Seat] = []
    seat = (actor + step) % after.seats
    while seat != after.to_act and len(passed) < after.seats:
        passed.append(seat)
        seat = (seat + step) % after.seats
    if after.to_act == actor and after.seats == 2:
        passed = [1 - actor]
    passed = [seat for seat in passed if seat != actor]
    if not passed:
        return None
    whom = _and([names.object(seat) for seat in passed])
    if actor == names.reader:
        # TRANSLATORS: the reader's play passed over other seats' turns; {whom}: names ("Bot 1 and Bot 2")
        return said("You skip {whom}", whom=whom)
    # TRANSLATORS: a seat's play passed over other seats' turns; {who}: a name, {whom}: names or "you"
    return said("{who} skips {whom}", who=names.seats[actor], whom=whom)


def _draft(before: PlayerView | None, after: PlayerView, seat: Seat, text: str, names: Names) -> str:
    """A Duo draft step (D-3): what was kept (seen by its drafter only) and what went face up (R-9)."""
    who = names.subject(seat)
    mine = seat == names.reader
    if before is None:
        if text == "keep":
            # TRANSLATORS: the Duo draft; {who}: a name or "You"
            return said("{who} kept the card", who=who)
        # TRANSLATORS: the Duo draft; {who}: a name or "You"
        return said("{who} rejected the card", who=who)
    looked = shown_card(before)
    discard = after.discard_pile[-1] if after.discard_pile and after.pending == before.pending else None
    gained = [card for card in after.hand if after.hand.count(card) > before.hand.count(card)]
    if text == "keep":
        # TRANSLATORS: a card the reader does not see (the Duo draft: "Bot 1 kept a card")
        kept = card_words(looked) if mine and looked is not None else said("a card")
        if discard is None:
            # TRANSLATORS: the Duo draft; {who}: a name or "You"; {card}: a card in words, or "a card"
            return said("{who} kept {card}", who=who, card=kept)
        # TRANSLATORS: the Duo draft; {card}: the card kept, {discard}: the card that went face up
        return said(
            "{who} kept {card}; {discard} went to the draft discards", who=who, card=kept, discard=card_words(discard)
        )
    # TRANSLATORS: the Duo draft: a card the reader does not see
    taken = card_words(gained[0]) if mine and gained else said("the next card")
    rejected = looked if mine else discard
    # TRANSLATORS: the Duo draft: a card rejected, not named
    shown = card_words(rejected) if rejected is not None else said("the drafted card")
    # TRANSLATORS: the Duo draft; {who}: a name or "You"; {card}: the card rejected, {taken}: the card taken instead
    return said("{who} rejected {card} and took {taken}", who=who, card=shown, taken=taken)


def _passes_total(before: PlayerView | None, play: Play, after: PlayerView) -> bool:
    """H-9: a play that faced a draw total and left one for another seat, without adding to it (a Skip, a Reverse)."""
    return (
        before is not None
        and before.pending in ("stack", "challenge")
        and after.pending == "stack"
        and after.round == before.round
        and play.card.rank in (Rank.SKIP, Rank.REVERSE)
    )


def _action_line(before: PlayerView | None, event: ActionTaken, after: PlayerView, names: Names) -> str | None:
    text = action_type(event.action)
    if text in ("draw", "catch"):
        return None  # the cards drawn and the catch have their own lines
    if text in ("keep", "reject"):
        return _draft(before, after, event.seat, text, names)
    action = event.action
    jumped = isinstance(action, Play) and before is not None and event.seat != before.to_act  # H-3: a jump-in
    words = Named(past_words(find_rules(after.rules), action), names, jumped)
    who = names.subject(event.seat)
    if not jumped and isinstance(action, Play) and after.to_act is not None and _passes_total(before, action, after):
        total = dict(after.decision).get("total")  # H-9: a Skip or Reverse passed a draw total on
        # TRANSLATORS: {who}: a name or "You"; {words}: what they did ("played blue Skip"); {whom}: a name or "you"
        return said(
            "{who} {words} and passed the draw total ({total}) to {whom}",
            who=who,
            words=words,
            total=total,
            whom=names.object(after.to_act),
        )
    # TRANSLATORS: a seat's action: {who} is a name or "You", {words} what they did ("played red 7, naming blue")
    return said("{who} {words}", who=who, words=words)


def _event_line(
    before: PlayerView | None, event: Event, after: PlayerView, names: Names, cards: Sequence[Card]
) -> str | None:
    reader = names.reader
    who, them = names.subject, names.object
    if isinstance(event, ActionTaken):
        return _action_line(before, event, after, names)
    if isinstance(event, CardsDrawn):
        if before is not None and before.pending == "draft" and before.to_act == event.seat:
            return None  # the card a keep/reject step put in a hand: its own line names it
        if event.cards is not None and event.seat == reader:
            drawn = Listed([card_words(cards[card]) for card in event.cards])
            if drawn:
                # TRANSLATORS: {cards}: the cards the reader drew, in words ("red 7, Wild")
                return said("You drew {cards}", cards=drawn)
            return said("You drew nothing (the draw pile is empty)")
        # TRANSLATORS: {who}: a name or "You"
        return said_n("{who} drew {n}", "{who} drew {n}", event.number, who=who(event.seat))
    if isinstance(event, Reshuffled):
        if event.turned_over:
            return said("The discard pile ({n} cards) was turned over to make the draw pile", n=event.cards)
        return said("The discard pile ({n} cards) was shuffled to make the draw pile", n=event.cards)
    if isinstance(event, HandShown):
        return _hand_shown(event, names, cards)
    if isinstance(event, ChallengeResolved):
        return _challenged(event, names)
    if isinstance(event, PowerFlipped):
        return said(
            "Power Cards: {power}", power=Listed([_power(who(seat), on) for seat, on in enumerate(event.power)])
        )
    if isinstance(event, Caught):
        if event.seat == reader:
            # TRANSLATORS: {who}: the name of the seat that caught the reader
            return said("{who} caught you without UNO: you draw 2", who=who(event.catcher))
        # TRANSLATORS: {who}: a name or "You"; {whom}: the name of the seat caught
        return said("{who} caught {whom} without UNO: {whom} draws 2", who=who(event.catcher), whom=them(event.seat))
    if isinstance(event, RoundEnded):
        return _round_ended(event, after, names)
    if isinstance(event, GameEnded):
        if event.winner is None:
            return said("Game over: nobody won")
        if event.winner == reader:
            return said("Game over: you won")
        mate = partner_in(after.options, after.seats, event.winner)
        if mate is not None and mate == reader:  # without teams no seat has a partner, and a spectator no seat
            # TRANSLATORS: H-11 teams: the reader's partner {who} went out
            return said("Game over: your team won ({who} went out)", who=who(event.winner))
        # TRANSLATORS: {who}: the winner's name
        return said("Game over: {who} won", who=who(event.winner))
    if isinstance(event, RoundStarted):
        return said("Round {round} begins", round=event.round)
    if isinstance(event, HandsSwapped):
        return _hands_moved(event, after, names)
    if isinstance(event, KnockedOut):
        if event.seat == reader:
            # TRANSLATORS: No Mercy's Mercy Rule (N-21); {n} is 25 or more
            return said("You hold {n} cards: the Mercy Rule puts you out of the round", n=event.cards)
        # TRANSLATORS: No Mercy's Mercy Rule (N-21); {who}: a name; {n} is 25 or more
        return said(
            "{who} holds {n} cards: the Mercy Rule puts them out of the round", who=who(event.seat), n=event.cards
        )
    return None


def _power(who: str, green: bool) -> str:
    if green:
        # TRANSLATORS: a seat's Power Card is green; {who}: a name or "You"
        return said("{who} green", who=who)
    # TRANSLATORS: a seat's Power Card is red; {who}: a name or "You"
    return said("{who} red", who=who)


def _hand_shown(event: HandShown, names: Names, cards: Sequence[Card]) -> str:
    if event.cards is None:
        if event.seat == names.reader:
            # TRANSLATORS: {whom}: a name
            return said("You showed your hand to {whom}", whom=names.object(event.to))
        # TRANSLATORS: {who}: a name; {whom}: a name or "you"
        return said("{who} showed their hand to {whom}", who=names.subject(event.seat), whom=names.object(event.to))
    shown = Listed([card_words(cards[card]) for card in event.cards])
    # TRANSLATORS: {who}: a name or "You"; {whom}: a name or "you"; {cards}: the cards, in words
    return said(
        "{who} showed {whom} their hand: {cards}",
        who=names.subject(event.seat),
        whom=names.object(event.to),
        cards=shown,
    )


def _challenged(event: ChallengeResolved, names: Names) -> str:
    whom = names.object(event.player)
    if event.challenger == names.reader:
        if event.success:
            # TRANSLATORS: a Wild Draw Four challenge; {whom}: the name of the seat that played it
            return said("Your challenge of {whom} succeeded", whom=whom)
        # TRANSLATORS: a Wild Draw Four challenge; {whom}: the name of the seat that played it
        return said("Your challenge of {whom} failed", whom=whom)
    who = names.seats[event.challenger]
    if event.success:
        # TRANSLATORS: a Wild Draw Four challenge; {who}: the challenger's name; {whom}: a name or "you"
        return said("{who}'s challenge of {whom} succeeded", who=who, whom=whom)
    # TRANSLATORS: a Wild Draw Four challenge; {who}: the challenger's name; {whom}: a name or "you"
    return said("{who}'s challenge of {whom} failed", who=who, whom=whom)


def _round_ended(event: RoundEnded, after: PlayerView, names: Names) -> str:
    reader = names.reader
    # TRANSLATORS: a seat's score change in a round ("Bot 1 +23"); {who}: a name or "You"
    deltas = Listed(
        [said("{who} {delta}", who=names.subject(seat), delta=f"{delta:+d}") for seat, delta in enumerate(event.deltas)]
    )
    if event.winner is None:
        # TRANSLATORS: a blocked round nobody won; {deltas}: each seat's score change
        return said("Round {round} won by nobody (blocked): {deltas}", round=event.round, deltas=deltas)
    winner = names.object(event.winner)
    mate = partner_in(after.options, after.seats, event.winner)
    if mate is not None:  # H-11: the round is the team's
        # TRANSLATORS: H-11 teams: the reader's team
        team = said("your team") if reader in (event.winner, mate) else word(team_name(after.seats, event.winner))
        # TRANSLATORS: H-11 teams: {team} ("Team A", "your team") won the round, {winner} went out
        return said(
            "Round {round} won by {team} ({winner}): {deltas}",
            round=event.round,
            team=team,
            winner=winner,
            deltas=deltas,
        )
    # TRANSLATORS: {winner}: a name or "you"; {deltas}: each seat's score change
    return said("Round {round} won by {winner}: {deltas}", round=event.round, winner=winner, deltas=deltas)
