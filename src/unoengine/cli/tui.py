"""The full-screen terminal client of ``uno play`` (Textual).

One person (seat 0) plays against bots. The game logic lives in
:class:`Session` (a state, the actions so far, the bots, the record file); the
:class:`UnoApp` shows a seat-0 view of it (G-2), turns keys and typed notation
into actions, asks for every decision in a prompt, and runs the bots on timers
so that the screen stays live. Every coloured card carries its colour-blind
markers (F-5) unless they are turned off.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from unoengine.bots.base import Bot, make_bot
from unoengine.bots.heuristic import HeuristicBot
from unoengine.cli.files import read_text, write_text
from unoengine.core.action_words import action_type, past_words
from unoengine.core.actions import (
    CALL_UNO,
    DRAW,
    PASS,
    Action,
    Play,
    catch,
    format_action,
    parse_action,
    play,
)
from unoengine.core.cards import COLORS, Card, Color, Rank, Seat, format_card
from unoengine.core.engine import apply, legal_actions, new_game
from unoengine.core.errors import IllegalActionError, InvalidNotationError
from unoengine.core.events import (
    ActionTaken,
    CardsDrawn,
    Caught,
    ChallengeResolved,
    Event,
    GameEnded,
    HandShown,
    PowerFlipped,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    redact,
)
from unoengine.core.record import format_record, parse_record, record_of, replay
from unoengine.core.rules import RuleSet, find_rules
from unoengine.core.state import GameState
from unoengine.core.views import PlayerView, view_for
from unoengine.play.table import Table, TableStep

HUMAN: Seat = 0
"""The person always sits at seat 0."""

RESUME_LINES = 6
"""How many of the last actions the log shows when a game is resumed."""

FORGET_UNO = 0.15
"""How often the heuristic bots forget to call UNO, so that they can be caught."""

MARKER = "▲"
FLEX_SIDE = "flex-side"
"""The prompt answer that picks a Flex card's flex side."""

_CARD_STYLES: dict[Color, str] = {
    Color.RED: "bold white on #b71c1c",
    Color.YELLOW: "bold black on #fdd835",
    Color.GREEN: "bold white on #2e7d32",
    Color.BLUE: "bold white on #1565c0",
}
_WILD_STYLE = "bold white on #212121"


# -- text forms ----------------------------------------------------------------------


def markers(color: Color) -> str:
    """The colour-blind markers of a colour (F-5): ▲ yellow, ▲▲ green, ▲▲▲ blue, ▲▲▲▲ red."""
    return MARKER * color.markers


def card_text(card: Card, *, show_markers: bool = True) -> Text:
    """A card in its colours, with its notation and markers; both sides of a Flex card."""
    text = Text()
    notation = format_card(card)
    if card.color is None:
        text.append(f" {notation} ", style=_WILD_STYLE)
        return text
    normal = notation.split("|", 1)[0]
    label = f" {normal} {markers(card.color)} " if show_markers else f" {normal} "
    text.append(label, style=_CARD_STYLES[card.color])
    if card.flex_color is not None:
        side = f"|{card.flex_color.value} {markers(card.flex_color)} " if show_markers else f"|{card.flex_color.value} "
        text.append(side, style=_CARD_STYLES[card.flex_color])
    return text


def color_text(color: Color | None, *, show_markers: bool = True) -> Text:
    """The current colour in words, in that colour, with its markers."""
    if color is None:
        return Text("none")
    label = f" {color.word} {markers(color)} " if show_markers else f" {color.word} "
    return Text(label, style=_CARD_STYLES[color])


def flow(items: Sequence[Text], width: int, *, gap: str = " ", indent: str = "") -> Text:
    """Items on lines of at most ``width`` cells, breaking only between items (never inside one)."""
    out = Text()
    column = 0
    for item in items:
        size = item.cell_len
        if column and column + len(gap) + size > width:
            out.append("\n" + indent)
            column = len(indent)
        elif column:
            out.append(gap)
            column += len(gap)
        out.append_text(item)
        column += size
    return out


def side_labels(rules: RuleSet, card: Card) -> tuple[str, str]:
    """The two answers of the Flex side prompt (F-14): what each side of the card does (the rule set's words)."""
    normal = f"Normal side: {rules.describe_side(card, False)}"
    flex = f"Flex side: {rules.describe_side(card, True)} (your Power Card turns red)"
    return normal, flex


def _color_key(card: Card) -> tuple[int, int, int, str]:
    colour = COLORS.index(card.color) if card.color is not None else len(COLORS)
    rank = list(Rank).index(card.rank)
    return (colour, rank, card.number if card.number is not None else -1, format_card(card))


# -- the game session (no UI) ------------------------------------------------------------


def make_bots(names: Sequence[str], seats: int, seed: int) -> dict[Seat, Bot]:
    """The bots of seats 1..N-1: one name for all, or one name per bot seat.

    ``heuristic`` bots forget UNO now and then (:data:`FORGET_UNO`).

    Raises:
        ValueError: an unknown bot, or a number of names that fits neither.
    """
    wanted = list(names) or ["heuristic"]
    if len(wanted) == 1:
        wanted *= seats - 1
    if len(wanted) != seats - 1:
        raise ValueError(f"{len(wanted)} bots named for {seats - 1} bot seats")
    bots: dict[Seat, Bot] = {}
    for seat, name in enumerate(wanted, start=1):
        rng = random.Random(f"{seed}:bot:{seat}")
        bots[seat] = HeuristicBot(rng, forget_uno=FORGET_UNO) if name == "heuristic" else make_bot(name, rng)
    return bots


class _SeatBots(dict[Seat, Bot]):
    """A session's bots by seat, writing through to its table's controllers."""

    def __init__(self, session: Session) -> None:
        super().__init__((seat, bot) for seat, bot in enumerate(session.table.controllers) if bot is not None)
        self._session = session

    def __setitem__(self, seat: Seat, bot: Bot) -> None:
        super().__setitem__(seat, bot)
        self._session.table.set_controller(seat, bot)


class Session:
    """A game between the person at seat 0 and bots, on a :class:`~unoengine.play.table.Table`, with its record."""

    def __init__(
        self,
        start: GameState,
        state: GameState,
        bots: dict[Seat, Bot],
        actions: Sequence[tuple[Seat, str]] = (),
        save: Path | None = None,
        deck: tuple[str, ...] | None = None,
    ) -> None:
        controllers: list[Bot | None] = [bots.get(seat) for seat in range(start.seats)]
        controllers[HUMAN] = None
        parsed = [(seat, parse_action(text)) for seat, text in actions]
        self.table = Table(state, controllers, start=start, actions=parsed)
        self.save = save
        self.deck = deck
        """The first round's deck, when the game was dealt from a given deck (a stacked record)."""
        self.previous: GameState | None = None
        """The state before the last action."""
        self.save_error: str | None = None
        """Why the last save failed (the game goes on), or None when the save file is up to date."""

    @property
    def start(self) -> GameState:
        """The game's first state."""
        return self.table.start

    @property
    def state(self) -> GameState:
        """The current state."""
        return self.table.state

    @state.setter
    def state(self, state: GameState) -> None:
        """Put the table in another state (tests arrange positions this way); the record is kept."""
        self.table = Table(state, self.table.controllers, start=self.table.start, actions=self.table.actions)

    @property
    def bots(self) -> dict[Seat, Bot]:
        """The bots by seat; assigning one (``session.bots[2] = bot``) gives it that seat at the table."""
        return _SeatBots(self)

    @property
    def actions(self) -> list[tuple[Seat, str]]:
        """Every action so far with its seat, in notation."""
        return [(seat, format_action(action)) for seat, action in self.table.actions]

    @classmethod
    def new(
        cls,
        rules: str = "classic",
        seats: int | None = None,
        *,
        bots: Sequence[str] = ("heuristic",),
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        save: Path | None = None,
    ) -> Session:
        """A new game.

        Raises:
            InvalidNotationError: unknown rules or option, or a bad seat count.
            ValueError: unknown bots.
            FileRefusedError: ``save`` cannot be written.
        """
        ruleset = find_rules(rules)
        if seats is None:
            seats = 4 if 4 in ruleset.seats else ruleset.seats.start
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        start = new_game(ruleset, seats, seed=seed, options=options)
        session = cls(start, start, make_bots(bots, seats, seed), save=save)
        session.write()
        return session

    @classmethod
    def resume(cls, path: Path, *, bots: Sequence[str] = ("heuristic",), save: Path | None = None) -> Session:
        """Continue the game of a record; seat 0 is the person.

        Raises:
            FileRefusedError: ``path`` cannot be read (not a regular file, over
                16 MiB, not UTF-8), or ``save`` cannot be written.
            RecordError, ReplayError: the record cannot be replayed.
            ValueError: unknown bots.
        """
        record = parse_record(read_text(path))
        start = record.start()
        state = replay(record)
        session = cls(start, state, make_bots(bots, start.seats, start.seed), list(record.actions), save, record.deck)
        session.write()
        return session

    @property
    def names(self) -> list[str]:
        """The seats' names: "You", "Bot 1", ..."""
        return ["You" if seat == HUMAN else f"Bot {seat}" for seat in range(self.state.seats)]

    def object_name(self, seat: Seat) -> str:
        """A seat's name inside a sentence: "you", "Bot 1", ..."""
        return "you" if seat == HUMAN else f"Bot {seat}"

    @property
    def object_names(self) -> list[str]:
        """The seats' names inside a sentence: "you", "Bot 1", ..."""
        return [self.object_name(seat) for seat in range(self.state.seats)]

    def act(self, seat: Seat, action: Action | str) -> tuple[Event, ...]:
        """Apply an action (or its notation) of ``seat``; record it; return its events.

        Raises:
            InvalidNotationError: the text is not an action.
            IllegalActionError: the rules refuse it (the state is unchanged).
        """
        before = self.state
        step = self.table.submit(seat, action)
        return self._after(before, step)

    def bot_reaction(self) -> tuple[Event, ...] | None:
        """The bots react to an open UNO window (the table's reaction policy), or ``None``."""
        before = self.state
        step = self.table.bot_reaction()
        return None if step is None else self._after(before, step)

    def bot_turn(self) -> tuple[Event, ...] | None:
        """The bot whose turn it is plays, or ``None`` when the seat to act is not a bot."""
        before = self.state
        step = self.table.bot_turn()
        return None if step is None else self._after(before, step)

    def _after(self, before: GameState, step: TableStep) -> tuple[Event, ...]:
        self.previous = before
        self.keep_saved()
        return step.events

    def recent(self, count: int = 5) -> list[str]:
        """The log lines of the last ``count`` actions so far (shown when a game is resumed)."""
        actions = self.table.actions
        split = max(0, len(actions) - count)
        state = self.start
        for seat, action in actions[:split]:
            state = apply(state, seat, action).state
        keep, lines = self.table, []
        try:
            for seat, action in actions[split:]:
                transition = apply(state, seat, action)
                self.previous = state
                self.table = Table(transition.state, keep.controllers, start=keep.start)
                lines += [line for event in transition.events if (line := self.describe(event)) is not None]
                state = transition.state
        finally:
            self.table, self.previous = keep, None
        return lines

    def write(self) -> None:
        """Write the game record to the save file, if there is one, atomically (the old record or the new).

        Raises:
            FileRefusedError: the file cannot be written; it is left as it was.
        """
        if self.save is not None:
            deck: Sequence[str] | bool = self.deck if self.deck is not None else False
            write_text(self.save, format_record(record_of(self.start, self.actions, deck=deck)))

    def keep_saved(self) -> None:
        """Save after an action. A failed save does not stop the game: :attr:`save_error` says why."""
        try:
            self.write()
        except OSError as error:
            self.save_error = f"The game could not be saved: {error}"
        else:
            self.save_error = None

    def _draft(self, seat: Seat, text: str) -> str:
        """A Duo draft step (D-3): what was kept (seen by its drafter only) and what went face up.

        Told from seat 0's views before and after the step (G-2): the card the person
        looked at, the card they took, and the draft discard everyone saw (R-9).
        """
        previous = self.previous
        who = self.names[seat]
        if previous is None:
            return f"{who} {'kept' if text == 'keep' else 'rejected'} the card"
        before, after = view_for(previous, HUMAN), self.view_now()
        looked = shown_card(before)
        discard = after.discard_pile[-1] if after.discard_pile and after.pending == before.pending else None
        gained = [card for card in after.hand if after.hand.count(card) > before.hand.count(card)]
        if text == "keep":
            kept = format_card(looked) if seat == HUMAN and looked is not None else "a card"
            if discard is None:
                return f"{who} kept {kept}"
            return f"{who} kept {kept}; {format_card(discard)} went to the draft discards"
        taken = format_card(gained[0]) if seat == HUMAN and gained else "the next card"
        rejected = looked if seat == HUMAN else discard
        shown = format_card(rejected) if rejected is not None else "the drafted card"
        return f"{who} rejected {shown} and took {taken}"

    def view_now(self) -> PlayerView:
        """Seat 0's view of the current state."""
        return view_for(self.state, HUMAN)

    def _draft_card(self, event: CardsDrawn) -> bool:
        """True for the card a ``keep``/``reject`` step put in a hand (its own line names it)."""
        previous = self.previous
        return (
            previous is not None
            and previous.pending.seat == event.seat
            and any(action_type(action) == "keep" for action in legal_actions(previous, event.seat))
        )

    def describe(self, event: Event) -> str | None:
        """One log line for an event, as seat 0 may see it (G-2)."""
        if type(event) is CardsDrawn and self._draft_card(event):
            return None
        event = redact(event, HUMAN)
        names = self.names
        them = self.object_name
        cards = self.state.tables.cards
        kind = type(event)
        if kind is ActionTaken:
            assert isinstance(event, ActionTaken)
            who, text = names[event.seat], action_type(event.action)
            if text in ("draw", "catch"):
                return None  # the cards drawn and the catch have their own lines
            if text in ("keep", "reject"):
                return self._draft(event.seat, text)
            if isinstance(event.action, Play):
                return f"{who} played {format_action(event.action)}"
            return f"{who} {name_seats(past_words(self.state.rules, event.action), self.object_names)}"
        if kind is CardsDrawn:
            assert isinstance(event, CardsDrawn)
            if event.cards is not None and event.seat == HUMAN:
                drawn = ", ".join(format_card(cards[card]) for card in event.cards)
                return f"You drew {drawn}" if drawn else "You drew nothing (the draw pile is empty)"
            return f"{names[event.seat]} drew {event.number}"
        if kind is Reshuffled:
            assert isinstance(event, Reshuffled)
            how = "turned over" if event.turned_over else "shuffled"
            return f"The discard pile ({event.cards} cards) was {how} to make the draw pile"
        if kind is HandShown:
            assert isinstance(event, HandShown)
            if event.cards is None:
                whose = "your" if event.seat == HUMAN else "their"
                return f"{names[event.seat]} showed {whose} hand to {them(event.to)}"
            shown = ", ".join(format_card(cards[card]) for card in event.cards)
            return f"{names[event.seat]} showed you their hand: {shown}"
        if kind is ChallengeResolved:
            assert isinstance(event, ChallengeResolved)
            result = "succeeded" if event.success else "failed"
            whose = "Your" if event.challenger == HUMAN else f"{names[event.challenger]}'s"
            return f"{whose} challenge of {them(event.player)} {result}"
        if kind is PowerFlipped:
            assert isinstance(event, PowerFlipped)
            return "Power Cards: " + ", ".join(
                f"{names[seat]} {'green' if green else 'red'}" for seat, green in enumerate(event.power)
            )
        if kind is Caught:
            assert isinstance(event, Caught)
            draws = "you draw 2" if event.seat == HUMAN else f"{names[event.seat]} draws 2"
            return f"{names[event.catcher]} caught {them(event.seat)} without UNO: {draws}"
        if kind is RoundEnded:
            assert isinstance(event, RoundEnded)
            winner = "nobody (blocked)" if event.winner is None else them(event.winner)
            deltas = ", ".join(f"{names[seat]} {delta:+d}" for seat, delta in enumerate(event.deltas))
            return f"Round {event.round} won by {winner}: {deltas}"
        if kind is GameEnded:
            assert isinstance(event, GameEnded)
            if event.winner == HUMAN:
                return "Game over: you won"
            winner = "nobody" if event.winner is None else names[event.winner]
            return f"Game over: {winner} won"
        if kind is RoundStarted:
            assert isinstance(event, RoundStarted)
            return f"Round {event.round} begins"
        return None


_SEAT = re.compile(r"\bseat (\d+)('s)?(?: (holds|has|names|adds|plays its|plays|takes))?")
_YOU_VERBS = {"holds": "hold", "has": "have", "names": "name", "adds": "add", "plays its": "play your", "plays": "play"}


def shown_card(view: PlayerView) -> Card | None:
    """A card the view's decision shows its seat (a detail that is a card: a drafted card …)."""
    return next((value for _, value in view.details if isinstance(value, Card)), None)


def name_seats(text: str, names: Sequence[str]) -> str:
    """An engine message with its seat numbers replaced by screen names ("seat 1" → "Bot 1", "seat 0" → "you")."""

    def named(match: re.Match[str]) -> str:
        seat, possessive, verb = int(match.group(1)), match.group(2), match.group(3)
        if seat >= len(names):
            return match.group(0)
        if seat != HUMAN:
            return names[seat] + (possessive or "") + (f" {verb}" if verb else "")
        if possessive:
            rest = text[match.end() :]
            return "your" if rest[:1] == " " and rest[1:2].isalnum() else "yours"
        return "you" + (f" {_YOU_VERBS.get(verb, verb)}" if verb else "")

    named_text = _SEAT.sub(named, text)
    if "you add " in named_text:
        named_text = named_text.replace(" or takes ", " or take ")
    return named_text


# -- prompts -------------------------------------------------------------------------


class ChoiceScreen(ModalScreen[str | None]):
    """A question and its answers; 1-9 or arrows and Enter choose, Escape cancels."""

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: 90%; max-width: 92; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    ChoiceScreen #question { margin-bottom: 1; }
    ChoiceScreen OptionList { height: auto; max-height: 14; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("q", "app.ask_quit", "Quit"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]

    def __init__(self, kind: str, question: Text | str, answers: Sequence[tuple[Text | str, str]]) -> None:
        super().__init__()
        self.kind = kind
        self.question = question
        self.answers = list(answers)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            options = [
                Option(Text(f"{n}. ") + (label if isinstance(label, Text) else Text(label)), id=value)
                for n, (label, value) in enumerate(self.answers, start=1)
            ]
            yield OptionList(*options, id="answers")

    def on_mount(self) -> None:
        answers = self.query_one(OptionList)
        answers.highlighted = 0
        answers.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.answers):
            self.dismiss(self.answers[index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class NoticeScreen(ModalScreen[None]):
    """A text to read (help, round summary, game over); Enter or Escape closes it, arrows scroll it."""

    DEFAULT_CSS = """
    NoticeScreen { align: center middle; }
    NoticeScreen > VerticalScroll {
        width: 90%; max-width: 84; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    NoticeScreen #notice { width: 100%; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Close"),
        Binding("escape", "close", "Close"),
        Binding("q", "app.ask_quit", "Quit"),
    ]

    def __init__(self, kind: str, body: Text | str) -> None:
        super().__init__()
        self.kind = kind
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="notice-box"):
            yield Static(self.body, id="notice")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """Quit? y or Enter quits, n or Escape goes back to the game."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static { width: auto; height: auto; border: thick $error; background: $surface; padding: 1 4; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Quit"),
        Binding("enter", "answer(True)", "Quit", show=False),
        Binding("n", "answer(False)", "Back"),
        Binding("escape", "answer(False)", "Back", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static("Quit? y/n", id="quit")

    def action_answer(self, quit_game: bool) -> None:
        self.dismiss(quit_game)


HELP = """\
UNO — keys (Enter or Escape closes this)

  ← / →, Home/End  pick a card of your hand
  1-9, 0           pick the 1st-9th card (0 is the 10th)
  Enter            play the picked card (prompts ask for a colour,
                   a side, a target, and UNO when it matters)
  d                draw (or take a total of cards to draw)
  p                pass: keep the drawn card, or stop (the prompt says)
  u                call UNO (you hold one card and have not called)
  c                catch a player who has one card and no UNO
  j                jump in: play out of turn (when the prompt says)
  / or :           type an action in notation: R7, W:g, G2|Y@flex,
                   FW+2@flex:r>2, draw, pass, uno, catch 1, accept,
                   challenge, keep, reject, color g
  Escape           leave the input
  ?                this help
  q                quit (asks first)

Highlighted (★) cards can be played now.
Markers: ▲ yellow, ▲▲ green, ▲▲▲ blue, ▲▲▲▲ red.
"""


# -- the app -------------------------------------------------------------------------

_GAME_ACTIONS = frozenset(
    {"select", "pick", "play", "draw", "pass", "uno", "catch", "jump", "command", "leave_input", "help", "ask_quit"}
)


class UnoApp(App[None]):
    """Play UNO against bots in the terminal."""

    TITLE = "unoengine"
    CSS = """
    #status { height: auto; max-height: 4; padding: 0 1; background: $boost; }
    #middle { height: 1fr; }
    #players { width: 1fr; max-width: 58; padding: 0 1; border: round $secondary; }
    #log-box { width: 1fr; padding: 0 1; border: round $secondary; scrollbar-size-vertical: 1; }
    #log { width: 100%; height: auto; }
    #prompt { height: auto; max-height: 2; padding: 0 1; color: $warning; }
    #hand { height: auto; min-height: 4; padding: 0 1; border: round $accent; }
    #message { height: auto; max-height: 2; padding: 0 1; color: $error; }
    #command { height: 3; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "select(-1)", "←", show=False),
        Binding("right", "select(1)", "→", show=False),
        Binding("home", "pick(0)", "First", show=False),
        Binding("end", "pick(-1)", "Last", show=False),
        Binding("enter", "play", "Play"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass", "Pass"),
        Binding("u", "uno", "UNO"),
        Binding("c", "catch", "Catch"),
        Binding("j", "jump", "Jump in"),
        Binding("slash", "command", "Type"),
        Binding("colon", "command", "Type", show=False),
        Binding("escape", "leave_input", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("q", "ask_quit", "Quit"),
        *(Binding(str(n), f"pick({(n - 1) % 10})", show=False) for n in range(10)),
    ]
    AUTO_FOCUS = None

    def __init__(
        self,
        session: Session,
        *,
        bot_delay: float = 0.6,
        uno_window: float | None = None,
        show_markers: bool = True,
    ) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        # A person needs time to press `u` or `c`, whatever the bots' pace.
        self.uno_window = uno_window if uno_window is not None else max(1.5, 2 * bot_delay)
        self.show_markers = show_markers
        self.selected = 0
        self.last_round: RoundEnded | None = None
        self.lines: list[str] = []
        self.modal: str | None = None
        self.quitting = False
        """True while the "Quit? y/n" prompt is open (the bots wait)."""
        self.first_shown: int | None = None
        """The round whose first card the log has named."""
        self._token = 0
        self._reacted: int | None = None

    # -- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            yield Static(id="players")
            with VerticalScroll(id="log-box"):
                yield Static(id="log")
        yield Static(id="prompt")
        yield Static(id="hand")
        yield Static(id="message")
        yield Input(placeholder="/ or : to type an action (R7, W:g, draw, pass, uno, catch 1, ...)", id="command")
        yield Footer()

    def on_mount(self) -> None:
        state = self.session.state
        self.sub_title = f"{state.rules.title} · seed {state.seed}"
        if self.session.actions:
            recent = self.session.recent(RESUME_LINES)
            self.add_log(f"Resumed after {len(self.session.actions)} actions" + ("; the last ones:" if recent else ""))
            for line in recent:
                self.add_log(f"  {line}")
        self.add_log(f"{state.rules.title}: you against {state.seats - 1} bot(s), seed {state.seed}. Press ? for help.")
        self.log_first_card()
        self.advance()
        # The widths are known once the screen is laid out: lay the hand out again.
        self.call_after_refresh(self.refresh_view)

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_view)

    def _fatal_error(self) -> None:
        """An unexpected error ends the app: its traceback, *without* local variables (they hold every hand)."""
        import rich
        from rich.traceback import Traceback

        self.bell()
        error = sys.exc_info()[1]
        if error is None:
            self.panic(Text("unoengine stopped on an unexpected error"))
            return
        trace = Traceback.from_exception(
            type(error), error, error.__traceback__, show_locals=False, width=None, suppress=[rich]
        )
        self.panic(trace)

    # -- what the person sees ------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.session.state

    def view(self) -> PlayerView:
        return self.session.view_now()

    def hand_cards(self) -> list[Card]:
        """The hand as shown: sorted by colour, then rank and number."""
        return sorted(self.view().hand, key=_color_key)

    def playable(self) -> set[Card]:
        return {action.card for action in legal_actions(self.state, HUMAN) if isinstance(action, Play)}

    def waiting_for_human(self) -> bool:
        """True when nothing moves until the person acts (used by tests and scripts)."""
        state = self.state
        return self.modal is not None or state.is_over or (state.to_act == HUMAN and not self._reaction_pending())

    def catchable(self) -> bool:
        """True while a bot that did not call UNO waits to be caught (press c)."""
        unsafe = self.state.unsafe
        return unsafe is not None and unsafe != HUMAN and self._reaction_pending()

    def _reaction_pending(self) -> bool:
        """An out-of-turn window is open and the bots have not reacted yet (C-18's catch, a jump-in)."""
        if self._reacted == self.state.steps:
            return False
        return self.state.unsafe is not None or any(info.group == "react" for info in self.view().actions)

    def add_log(self, line: str) -> None:
        self.lines.append(line)
        self.lines = self.lines[-200:]

    def _width(self, widget: str, fallback: int) -> int:
        """The content width of a widget once laid out (``fallback`` before)."""
        width = self.query_one(f"#{widget}").content_size.width
        return width if width > 0 else fallback

    def refresh_view(self) -> None:
        view = self.view()
        state = self.state
        names = self.session.names
        m = self.show_markers
        items = [Text(f"{state.rules.title} · round {view.round}", style="bold") + Text(f" · seed {state.seed}")]
        if view.top is None and view.outcome is None:
            discards = Text(f"Discards: {len(view.discard_pile)}")
            if view.discard_pile:
                discards.append(", top ")
                discards.append_text(card_text(view.discard_pile[-1], show_markers=m))
            items.append(discards)
        else:
            top = card_text(view.top, show_markers=m) if view.top is not None else Text("—")
            colour = color_text(view.color, show_markers=m) if view.top is not None else Text("—")
            items += [Text("Top: ") + top, Text("Colour: ") + colour]
        arrow = "↻ clockwise" if view.direction == 1 else "↺ counterclockwise"
        items += [Text(f"Draw pile: {view.draw_pile}"), Text(f"Direction: {arrow}")]
        status = flow(items, self._width("status", max(20, self.size.width - 2)), gap="  ")
        status.append("\n")
        if view.outcome is not None:
            status.append("Game over", style="bold")
        else:
            who = names[view.to_act] if view.to_act is not None else "nobody"
            status.append(f"Turn: {who} ({view.words.title.lower()})", style="bold")
        self.query_one("#status", Static).update(status)
        self.query_one("#players", Static).update(self.players_text(view, self._width("players", 50)))
        self.query_one("#log", Static).update(Text("\n".join(self.lines)))
        self.query_one("#log-box", VerticalScroll).scroll_end(animate=False, immediate=False)
        self.query_one("#prompt", Static).update(self.prompt_text(view))
        self.query_one("#hand", Static).update(self.hand_text(view, self._width("hand", max(20, self.size.width - 4))))

    def players_text(self, view: PlayerView, width: int) -> Text:
        """Each seat's hand size, score, Power Card and UNO state; a seat's line wraps between items."""
        names = self.session.names
        players = Text()
        for seat in range(view.seats):
            mark = "▶ " if seat == view.to_act else "  "
            size = view.hand_sizes[seat]
            items = [
                Text(
                    f"{mark}{names[seat]:<6} {size:>2} card{'s' if size != 1 else ' '}",
                    style="bold" if seat == view.to_act else "",
                ),
                Text(f"score {view.scores[seat]:>4}"),
            ]
            if view.power:
                green = view.power[seat]
                power = Text("Power ")
                power.append(
                    " ✔ green " if green else " ✘ red ", style="white on #2e7d32" if green else "white on #b71c1c"
                )
                items.append(power)
            if view.unsafe == seat:
                items.append(Text("no UNO!", style="bold red"))
            players.append_text(flow(items, width, gap="  ", indent="    "))
            players.append("\n")
        if view.round_scores:
            players.append("\nRounds: " + " | ".join(" ".join(f"{d:+d}" for d in row) for row in view.round_scores))
        return players

    def hand_text(self, view: PlayerView, width: int = 78) -> Text:
        """The hand, every card numbered; lines break between cards, never inside one."""
        cards = self.hand_cards()
        if cards:
            self.selected = max(0, min(self.selected, len(cards) - 1))
        mine = view.to_act == HUMAN
        playable = self.playable() if mine else set()
        text = Text(f"Your hand ({len(cards)}):\n", style="bold")
        pieces: list[Text] = []
        for index, card in enumerate(cards):
            piece = Text()
            piece.append("▶" if index == self.selected else " ", style="bold yellow")
            piece.append(f"{index + 1}:", style="bold" if card in playable else "dim")
            face = card_text(card, show_markers=self.show_markers)
            if card in playable:
                face.stylize("underline")
                face.append("★", style="bold yellow")
            elif mine:
                face.stylize("dim")
            piece.append_text(face)
            pieces.append(piece)
        text.append_text(flow(pieces, width, gap=" "))
        if cards:
            card = cards[self.selected]
            state = "playable" if card in playable else "not playable now"
            drawn = " (drawn)" if mine and card == view.drawn_card else ""
            text.append(f"\nPicked: {format_card(card)}{drawn} — {card.words} ({state})", style="italic")
        return text

    def prompt_text(self, view: PlayerView) -> Text:
        """What the person may do now: the decision's words, with the keys of its actions."""
        state = self.state
        names = self.session.names
        lines: list[str] = []
        if state.unsafe is not None and state.unsafe != HUMAN and self._reaction_pending():
            lines.append(f"{names[state.unsafe]} has one card and did not call UNO: press c to catch!")
        if state.unsafe == HUMAN:
            lines.append("You have one card: press u to call UNO before someone catches you!")
        jumps = [info for info in view.actions if info.group == "react" and info.card is not None]
        if jumps and self._reaction_pending():
            cards = " ".join(dict.fromkeys(format_card(info.card) for info in jumps if info.card is not None))
            lines.append(f"Out of turn: press j to jump in with {cards}!")
        if view.outcome is not None:
            lines.append("The game is over. Press q to quit.")
        elif view.to_act != HUMAN:
            lines.append(f"Waiting for {names[view.to_act] if view.to_act is not None else 'nobody'}…")
        else:
            keys = {"hand": "Enter: play the picked card", "draw": "d: ", "pass": "p: "}
            hints: list[str] = []
            for info in view.actions:
                if info.group == "hand" and keys["hand"] not in hints:
                    hints.append(keys["hand"])
                elif info.group == "decision" and info.type in keys:
                    hints.append(keys[info.type] + info.label.lower())
            prompt = name_seats(view.words.prompt, self.session.object_names)
            lines.append(prompt + (f" ({' · '.join(hints)})" if hints else "") + ".")
        return Text("\n".join(lines[-2:]))

    def log_first_card(self) -> None:
        """Once a round's first card is turned (after the deal, or after a Duo draft), log it."""
        view = self.view()
        if view.top is None or view.outcome is not None or self.first_shown == view.round:
            return
        self.first_shown = view.round
        if len(view.discard_pile) != 1:
            return  # a resumed game, already under way
        who = "nobody" if view.to_act is None else self.session.object_name(view.to_act)
        pending = view.words.title.lower()
        colour = f" ({view.color.word})" if view.color is not None else ""
        self.add_log(f"Round {view.round}: the first card is {format_card(view.top)}{colour}; next: {who} ({pending})")

    def show_message(self, text: str) -> None:
        self.query_one("#message", Static).update(Text(text))

    # -- the flow of play ---------------------------------------------------------------

    def advance(self) -> None:
        """Show the state and start whatever comes next: a reaction, a bot, or a prompt."""
        self._token += 1
        self.refresh_view()
        if self.modal is not None:
            return
        state = self.state
        if state.is_over:
            self.show_game_over()
            return
        if self._reaction_pending():
            self._later(self.uno_window, self._react)
        elif state.to_act is not None and state.to_act != HUMAN:
            self._later(self.bot_delay, self._bot_move)
        if state.to_act == HUMAN:
            self.prompt_human()

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        token = self._token

        def run() -> None:
            if token == self._token and self.modal is None and not self.quitting:
                callback()

        if delay > 0:
            self.set_timer(delay, run)
        else:
            self.call_later(run)

    def _react(self) -> None:
        """Out of turn: the bots may catch a seat that did not call UNO, or call it themselves (the table's policy)."""
        steps = self.state.steps
        events = self.session.bot_reaction()
        self._reacted = steps
        if events is not None:
            self.show_events(HUMAN + 1, events)  # a bot's step
            return
        self.advance()

    def _bot_move(self) -> None:
        seat = self.state.to_act
        events = self.session.bot_turn() if seat is not None and seat != HUMAN else None
        if events is None:
            self.advance()
            return
        self.show_events(seat if seat is not None else HUMAN + 1, events)

    def perform(self, seat: Seat, action: Action | str) -> bool:
        """Apply an action; log it; show a refusal instead of failing. True if applied."""
        try:
            events = self.session.act(seat, action)
        except IllegalActionError as error:
            self.show_message(f"Refused ({error.rule}): {name_seats(error.reason, self.session.object_names)}")
            self.refresh_view()
            return False
        except InvalidNotationError as error:
            self.show_message(f"Not understood: {error}")
            return False
        self.show_events(seat, events)
        return True

    def show_events(self, seat: Seat, events: tuple[Event, ...]) -> None:
        """Log what an applied action did, show a round's summary, and go on."""
        if seat == HUMAN:
            self.show_message("")
            self.follow_cursor()
        if self.session.save_error is not None:
            self.show_message(self.session.save_error)
        for event in events:
            line = self.session.describe(event)
            if line is not None:
                self.add_log(line)
        self.log_first_card()
        ended = [event for event in events if isinstance(event, RoundEnded)]
        if ended:
            self.last_round = ended[-1]
        if ended and not self.state.is_over:
            self.show_round_summary(ended[-1])
        self.advance()

    def follow_cursor(self) -> None:
        """After the person's action: pick the card just drawn, or the first card of a Duo dump."""
        view = self.view()
        if view.to_act != HUMAN:
            return
        cards = self.hand_cards()
        playable = {info.card for info in view.actions if info.group == "hand"}
        if view.drawn_card is not None and view.drawn_card in cards:
            self.selected = cards.index(view.drawn_card)
        elif playable and 0 <= self.selected < len(cards) and cards[self.selected] not in playable:
            self.selected = next((i for i, card in enumerate(cards) if card in playable), self.selected)

    # -- prompts ---------------------------------------------------------------------

    def ask(
        self,
        kind: str,
        question: Text | str,
        answers: Sequence[tuple[Text | str, str]],
        then: Callable[[str | None], None],
    ) -> None:
        """Open a prompt; ``then`` gets the answer (None: cancelled)."""
        self.modal = kind

        def done(answer: str | None) -> None:
            self.modal = None
            then(answer)

        self.push_screen(ChoiceScreen(kind, question, answers), done)

    def notice(self, kind: str, body: Text | str, then: Callable[[], None] | None = None) -> None:
        self.modal = kind

        def done(_: None) -> None:
            self.modal = None
            if then is not None:
                then()
            else:
                self.advance()

        self.push_screen(NoticeScreen(kind, body), done)

    def _answer_then_act(self, answer: str | None) -> None:
        if answer is None or not self.perform(HUMAN, answer):
            self.advance()

    def prompt_human(self) -> None:
        """Open the question of a decision answered by choosing (not by a play from the hand, d or p)."""
        view = self.view()
        choices = [info for info in view.actions if info.group == "choice"]
        if not choices:
            return
        names = self.session.object_names
        question = Text(name_seats(view.words.prompt, names))
        card = shown_card(view)
        if card is not None:
            question.append(": ")
            question.append_text(card_text(card, show_markers=self.show_markers))
            question.append(f" ({card.words})")
        elif view.top is not None and view.challenger_of is not None:
            question.append(" — ")
            question.append_text(card_text(view.top, show_markers=self.show_markers))
        answers: list[tuple[Text | str, str]] = [
            (
                color_text(info.color, show_markers=self.show_markers)
                if info.card is None and info.color is not None
                else name_seats(info.words, names),
                info.notation,
            )
            for info in choices
        ]
        self.ask(view.pending, question, answers, self._answer_then_act)

    def color_answers(self, prefix: str) -> list[tuple[Text | str, str]]:
        return [(color_text(color, show_markers=self.show_markers), prefix + color.letter) for color in COLORS]

    def choose_play(self, candidates: list[Play], *, side_chosen: bool = False) -> None:
        """Narrow the legal plays of one card with prompts: side, colour, target, UNO."""
        if not side_chosen and all(p.flex for p in candidates):
            # Only the flex side can be played: it turns the Power Card red, so ask first.
            card = candidates[0].card

            def flex_only(answer: str | None) -> None:
                if answer == FLEX_SIDE:
                    self.choose_play(candidates, side_chosen=True)
                else:
                    self.advance()

            self.ask(
                "side",
                Text("Only the flex side of ")
                + card_text(card, show_markers=self.show_markers)
                + Text(" can be played:"),
                [(side_labels(self.state.rules, card)[1], FLEX_SIDE), ("Cancel: keep the card", "cancel")],
                flex_only,
            )
            return
        if len({p.flex for p in candidates}) > 1:
            card = candidates[0].card
            normal, flex_label = side_labels(self.state.rules, card)

            def side(answer: str | None) -> None:
                if answer is None:
                    self.advance()
                else:
                    self.choose_play([p for p in candidates if p.flex == (answer == FLEX_SIDE)], side_chosen=True)

            self.ask(
                "side",
                Text("Play which side of ") + card_text(card),
                [(normal, "normal"), (flex_label, FLEX_SIDE)],
                side,
            )
            return
        colors = list(dict.fromkeys(p.color for p in candidates))
        if len(colors) > 1:

            def colour(answer: str | None) -> None:
                if answer is None:
                    self.advance()
                else:
                    chosen = Color.parse(answer)
                    self.choose_play([p for p in candidates if p.color is chosen], side_chosen=True)

            answers: list[tuple[Text | str, str]] = [
                (color_text(c, show_markers=self.show_markers), c.letter) for c in COLORS if c in colors
            ]
            self.ask("wild", "Name the colour:", answers, colour)
            return
        targets = list(dict.fromkeys(p.target for p in candidates))
        if len(targets) > 1:
            names = self.session.names

            def target(answer: str | None) -> None:
                if answer is None:
                    self.advance()
                else:
                    self.choose_play([p for p in candidates if str(p.target) == answer], side_chosen=True)

            sizes = self.view().hand_sizes
            seats: list[tuple[Text | str, str]] = [
                (f"{names[t]} ({sizes[t]} card{'s' if sizes[t] != 1 else ''})", str(t))
                for t in targets
                if t is not None
            ]
            aims = {info.action: info.aim for info in self.view().actions}
            self.ask("target", aims.get(candidates[0]) or "Which seat?", seats, target)
            return
        if len({p.uno for p in candidates}) > 1:

            def uno(answer: str | None) -> None:
                if answer is None:
                    self.advance()
                else:
                    self.choose_play([p for p in candidates if p.uno == (answer == "uno")], side_chosen=True)

            self.ask(
                "uno",
                "This play leaves you one card.",
                [("Play and call UNO!", "uno"), ("Play without calling UNO", "quiet")],
                uno,
            )
            return
        self.perform(HUMAN, candidates[0])

    def round_cards(self, ended: RoundEnded) -> Text:
        """The hands left at the end of a round, card by card with their points (R-11)."""
        names = self.session.names
        tables = self.state.tables
        body = Text()
        # The notice is 90% of the screen wide (at most 84), less its border, padding and scroll bar.
        width = min(84, self.size.width * 9 // 10) - 7
        for seat, cards in enumerate(ended.hands):
            if not cards:
                continue
            items = [Text(f"  {names[seat]:<6}")]
            for card_id in cards:
                item = card_text(tables.cards[card_id], show_markers=self.show_markers)
                items.append(item + Text(f" {tables.points[card_id]}"))
            items.append(Text(f" = {sum(tables.points[card_id] for card_id in cards)}"))
            body.append_text(flow(items, width, gap=" ", indent=" " * 9))
            body.append("\n")
        return body

    def show_round_summary(self, ended: RoundEnded) -> None:
        names = self.session.names
        body = Text(f"Round {ended.round} is over\n\n", style="bold")
        winner = "Nobody (a blocked round)" if ended.winner is None else names[ended.winner]
        body.append(f"Winner: {winner}\n\nCards left, with their points:\n")
        body.append_text(self.round_cards(ended))
        body.append("\n")
        for seat, delta in enumerate(ended.deltas):
            body.append(f"  {names[seat]:<6} {delta:+5d}   total {self.state.scores[seat]:>5}\n")
        body.append(f"\nPlaying to {self.state.options.target_score}. Press Enter for the next round.")
        self.notice("round", body)

    def show_game_over(self) -> None:
        outcome = self.state.outcome
        assert outcome is not None
        names = self.session.names
        body = Text("Game over\n\n", style="bold")
        if outcome.winner is None:
            body.append("Nobody won.\n\n")
        elif outcome.winner == HUMAN:
            body.append("You won!\n\n", style="bold green")
        else:
            body.append(f"{names[outcome.winner]} won.\n\n")
        if self.state.round_scores:
            last = self.state.round_scores[-1]
            body.append("Last round: " + ", ".join(f"{names[s]} {d:+d}" for s, d in enumerate(last)) + "\n")
        if self.last_round is not None:
            body.append("Cards left, with their points:\n")
            body.append_text(self.round_cards(self.last_round))
        for seat, score in enumerate(outcome.scores):
            body.append(f"  {names[seat]:<6} {score:>5}\n")
        body.append("\nPress Enter to look at the table, q to quit.")
        self.notice("over", body, then=self.refresh_view)

    # -- keys ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a prompt is open, the app's own keys do not act; while "Quit?" is open, none do."""
        if self.quitting:
            return action not in _GAME_ACTIONS
        return self.modal is None or action not in ("select", "pick", "play", "draw", "pass", "command", "help")

    def action_ask_quit(self) -> None:
        """q: quit at once when the game is over, else ask "Quit? y/n" first."""
        if self.quitting:
            return
        if self.state.is_over:
            self.exit()
            return
        self.quitting = True

        def done(quit_game: bool | None) -> None:
            self.quitting = False
            if quit_game:
                self.exit()
            elif self.modal is None:
                self.advance()

        self.push_screen(QuitScreen(), done)

    def action_select(self, step: int) -> None:
        cards = self.hand_cards()
        if cards:
            self.selected = (self.selected + step) % len(cards)
        self.refresh_view()

    def action_pick(self, index: int) -> None:
        """Pick the card at ``index`` (-1: the last card)."""
        count = len(self.hand_cards())
        if index < 0:
            index += count
        if 0 <= index < count:
            self.selected = index
        self.refresh_view()

    def action_play(self) -> None:
        cards = self.hand_cards()
        if not cards:
            return
        card = cards[min(self.selected, len(cards) - 1)]
        candidates = [a for a in legal_actions(self.state, HUMAN) if isinstance(a, Play) and a.card == card]
        if candidates:
            self.choose_play(candidates)
            return
        # Not playable: let the engine say why (G-4).
        probe = play(card, COLORS[0] if card.is_wild else None)
        self.perform(HUMAN, probe)

    def action_draw(self) -> None:
        self.perform(HUMAN, DRAW)

    def action_pass(self) -> None:
        self.perform(HUMAN, PASS)

    def action_uno(self) -> None:
        self.perform(HUMAN, CALL_UNO)

    def action_catch(self) -> None:
        target = self.state.unsafe
        if target is None or target == HUMAN:
            self.show_message("Nobody to catch.")
            return
        self.perform(HUMAN, catch(target))

    def action_jump(self) -> None:
        """j: play out of turn (a jump-in) with the picked card, or else the first card that can."""
        jumps = [info for info in self.view().actions if info.group == "react" and info.card is not None]
        if not jumps:
            self.show_message("Nothing to jump in with now.")
            return
        cards = self.hand_cards()
        picked = cards[min(self.selected, len(cards) - 1)] if cards else None
        card = picked if any(info.card == picked for info in jumps) else jumps[0].card
        self.choose_play([info.action for info in jumps if info.card == card and isinstance(info.action, Play)])

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_leave_input(self) -> None:
        self.set_focus(None)

    def action_help(self) -> None:
        if self.modal is None:
            self.notice("help", HELP)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.set_focus(None)
        if not text:
            return
        if text in ("?", "help"):
            self.action_help()
            return
        self.perform(HUMAN, text)
