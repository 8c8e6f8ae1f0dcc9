"""The narrator: what happened, in sentences, for one seat (every client's log).

Pure and without I/O: it reads only the seat's views before and after a step
and the step's events, redacted for that seat (G-2), so a client never tells a
seat more than its view. The terminal game and the browser use the same
sentences, so the two never describe a turn differently.

The reader's own seat is "You" ("Your challenge …", "Bot 2 skips you"); the
other seats are their names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

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
    PowerFlipped,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    redact,
)
from unoengine.core.house.teams import partner_in, team_name
from unoengine.core.rules import find_rules
from unoengine.core.views import PlayerView

__all__ = ["Names", "card_words", "first_card", "name_seats", "narrate", "shown_card"]


def card_words(card: Card) -> str:
    """A card in words for a log (``red 7``, ``Wild Draw Four``), never in notation: what both clients show."""
    return card.words.split(", flex side")[0]


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
        return "You" if seat == self.reader else self.seats[seat]

    def object(self, seat: Seat) -> str:
        """A seat inside a sentence: "you", "Bot 1"."""
        return "you" if seat == self.reader else self.seats[seat]

    def possessive(self, seat: Seat) -> str:
        """Whose, starting a sentence: "Your", "Bot 1's"."""
        return "Your" if seat == self.reader else f"{self.seats[seat]}'s"

    @property
    def objects(self) -> list[str]:
        """Every seat inside a sentence."""
        return [self.object(seat) for seat in range(len(self.seats))]


_SEAT = re.compile(r"\bseat (\d+)('s)?(?: (holds|has|names|adds|plays its|plays|takes))?")
_YOU_VERBS = {"holds": "hold", "has": "have", "names": "name", "adds": "add", "plays its": "play your", "plays": "play"}
_OR_VERBS = {" or takes ": " or take ", " or declines ": " or decline "}
"""A second verb of the same seat ("seat 0 adds … or takes …"): "you add … or take …"."""


def name_seats(text: str, names: Names) -> str:
    """An engine message with its seat numbers replaced by names ("seat 1" → "Bot 1", the reader's → "you")."""
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

    named_text = _SEAT.sub(named, text)
    if any(f"you {verb} " in named_text for verb in _YOU_VERBS.values()):  # the reader's second verb agrees too
        for third, second in _OR_VERBS.items():
            named_text = named_text.replace(third, second)
    return named_text


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
    who = "nobody" if view.to_act is None else names.object(view.to_act)
    pending = view.words.title.lower()
    top = card_words(view.top)
    named = view.color is not None and not top.startswith(view.color.word)
    colour = f" ({view.color.word})" if named and view.color is not None else ""
    covered = ""
    if len(view.discard_pile) > 1:
        turned = ", ".join(card_words(card) for card in view.discard_pile[:-1])
        covered = f" ({turned} turned first and covered)"
    return f"Round {view.round}: the first card is {top}{colour}{covered}; next: {who} ({pending})"


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
        verb = ("now " if not parts else "") + ("hold" if seat == names.reader else "holds")
        parts.append(f"{names.object(seat)} {verb} {after.hand_sizes[seat]}")
    return ", ".join(parts)


def _hands_moved(event: HandsSwapped, after: PlayerView, names: Names) -> str:
    """H-2: a 7's swap or a 0's rotation, with each moved hand's new size (the cards stay hidden)."""
    holdings = _holdings(event.seats, after, names)
    if event.target is None:
        way = "clockwise" if after.direction >= 0 else "counterclockwise"
        return f"Every hand passed on ({way}): {holdings}"
    return f"{names.subject(event.player)} swapped hands with {names.object(event.target)}: {holdings}"


def _timed_out(event: ActionTaken, after: PlayerView, names: Names) -> str:
    """ "Time ran out: drew for Hank": the action the turn timer's stand-in took for a seat."""
    words = name_seats(past_words(find_rules(after.rules), event.action), names)
    return f"Time ran out: {words} for {names.object(event.seat)}"


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
    verb = "skip" if actor == names.reader else "skips"
    return f"{names.subject(actor)} {verb} {' and '.join(names.object(seat) for seat in passed)}"


def _draft(before: PlayerView | None, after: PlayerView, seat: Seat, text: str, names: Names) -> str:
    """A Duo draft step (D-3): what was kept (seen by its drafter only) and what went face up (R-9)."""
    who = names.subject(seat)
    mine = seat == names.reader
    if before is None:
        return f"{who} {'kept' if text == 'keep' else 'rejected'} the card"
    looked = shown_card(before)
    discard = after.discard_pile[-1] if after.discard_pile and after.pending == before.pending else None
    gained = [card for card in after.hand if after.hand.count(card) > before.hand.count(card)]
    if text == "keep":
        kept = card_words(looked) if mine and looked is not None else "a card"
        if discard is None:
            return f"{who} kept {kept}"
        return f"{who} kept {kept}; {card_words(discard)} went to the draft discards"
    taken = card_words(gained[0]) if mine and gained else "the next card"
    rejected = looked if mine else discard
    shown = card_words(rejected) if rejected is not None else "the drafted card"
    return f"{who} rejected {shown} and took {taken}"


def _passes_total(before: PlayerView | None, play: Play, after: PlayerView) -> bool:
    """H-9: a play that faced a draw total and left one for another seat, without adding to it (a Skip, a Reverse)."""
    return (
        before is not None
        and before.pending in ("stack", "challenge")
        and after.pending == "stack"
        and after.round == before.round
        and play.card.rank in (Rank.SKIP, Rank.REVERSE)
    )


def _event_line(
    before: PlayerView | None, event: Event, after: PlayerView, names: Names, cards: Sequence[Card]
) -> str | None:
    reader = names.reader
    who, them = names.subject, names.object
    if isinstance(event, ActionTaken):
        text = action_type(event.action)
        if text in ("draw", "catch"):
            return None  # the cards drawn and the catch have their own lines
        if text in ("keep", "reject"):
            return _draft(before, after, event.seat, text, names)
        words = name_seats(past_words(find_rules(after.rules), event.action), names)
        if isinstance(event.action, Play) and before is not None and event.seat != before.to_act:
            words = words.replace("played ", "jumped in with ", 1)  # H-3: a play out of turn is a jump-in
        elif isinstance(event.action, Play) and after.to_act is not None and _passes_total(before, event.action, after):
            total = dict(after.decision).get("total")  # H-9: a Skip or Reverse passed a draw total on
            words += f" and passed the draw total ({total}) to {them(after.to_act)}"
        return f"{who(event.seat)} {words}"
    if isinstance(event, CardsDrawn):
        if before is not None and before.pending == "draft" and before.to_act == event.seat:
            return None  # the card a keep/reject step put in a hand: its own line names it
        if event.cards is not None and event.seat == reader:
            drawn = ", ".join(card_words(cards[card]) for card in event.cards)
            return f"You drew {drawn}" if drawn else "You drew nothing (the draw pile is empty)"
        return f"{who(event.seat)} drew {event.number}"
    if isinstance(event, Reshuffled):
        how = "turned over" if event.turned_over else "shuffled"
        return f"The discard pile ({event.cards} cards) was {how} to make the draw pile"
    if isinstance(event, HandShown):
        if event.cards is None:
            whose = "your" if event.seat == reader else "their"
            return f"{who(event.seat)} showed {whose} hand to {them(event.to)}"
        shown = ", ".join(card_words(cards[card]) for card in event.cards)
        return f"{who(event.seat)} showed {them(event.to)} their hand: {shown}"
    if isinstance(event, ChallengeResolved):
        result = "succeeded" if event.success else "failed"
        return f"{names.possessive(event.challenger)} challenge of {them(event.player)} {result}"
    if isinstance(event, PowerFlipped):
        return "Power Cards: " + ", ".join(
            f"{who(seat)} {'green' if green else 'red'}" for seat, green in enumerate(event.power)
        )
    if isinstance(event, Caught):
        draws = "you draw 2" if event.seat == reader else f"{who(event.seat)} draws 2"
        return f"{who(event.catcher)} caught {them(event.seat)} without UNO: {draws}"
    if isinstance(event, RoundEnded):
        winner = "nobody (blocked)" if event.winner is None else them(event.winner)
        mate = None if event.winner is None else partner_in(after.options, after.seats, event.winner)
        if event.winner is not None and mate is not None:  # H-11: the round is the team's
            team = "your team" if reader in (event.winner, mate) else team_name(after.seats, event.winner)
            winner = f"{team} ({winner})"
        deltas = ", ".join(f"{who(seat)} {delta:+d}" for seat, delta in enumerate(event.deltas))
        return f"Round {event.round} won by {winner}: {deltas}"
    if isinstance(event, GameEnded):
        if event.winner is None:
            return "Game over: nobody won"
        if event.winner == reader:
            return "Game over: you won"
        mate = partner_in(after.options, after.seats, event.winner)
        if mate is not None and mate == reader:  # without teams no seat has a partner, and a spectator no seat
            return f"Game over: your team won ({who(event.winner)} went out)"  # H-11
        return f"Game over: {who(event.winner)} won"
    if isinstance(event, RoundStarted):
        return f"Round {event.round} begins"
    if isinstance(event, HandsSwapped):
        return _hands_moved(event, after, names)
    return None
