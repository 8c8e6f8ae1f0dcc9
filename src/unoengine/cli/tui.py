"""The full-screen terminal client of ``uno play`` (Textual).

One person (seat 0) plays against bots. The game lives in a headless
:class:`~unoengine.cli.session.Session`; the :class:`UnoApp` shows the seat-0
view of each :class:`~unoengine.cli.session.Step` it gets back (G-2) and never
reads the game state: it turns keys and typed notation into the session's
``act``, runs the bots with ``bot_turn`` and ``bot_reaction`` on timers so that
the screen stays live, and asks for every decision in a prompt beside the log.
The texts are :mod:`unoengine.cli.texts`, the prompts :mod:`unoengine.cli.screens`, and
the review of a finished game (``r``) :mod:`unoengine.cli.review`.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Footer, Input, Static

from unoengine.cli.common import CATCH_SECONDS
from unoengine.cli.lang import named, subject, translate_bindings, words
from unoengine.cli.review import ReviewScreen
from unoengine.cli.screens import ChoiceScreen, NoticeScreen, QuitScreen
from unoengine.cli.session import HUMAN, RoundEnd, Session, Step
from unoengine.cli.stats import StatsUpdate
from unoengine.cli.texts import (
    HELP,
    card_text,
    color_text,
    game_over_text,
    hand_order,
    hand_text,
    help_text,
    in_round,
    players_text,
    prompt_text,
    round_summary,
    side_labels,
    status_text,
)
from unoengine.core.actions import CALL_UNO, DRAW, PASS, Action, Play, catch, format_action, play
from unoengine.core.cards import COLORS, Card, Color, format_card
from unoengine.core.errors import IllegalActionError, InvalidNotationError
from unoengine.core.rules import find_rules
from unoengine.core.views import PlayerView
from unoengine.i18n import DEFAULT, said, said_n, translate
from unoengine.play.narrator import shown_card

__all__ = ["FLEX_SIDE", "HELP", "ChoiceScreen", "NoticeScreen", "QuitScreen", "UnoApp", "card_text"]

RESUME_LINES = 6
"""How many of the last actions the log shows when a game is resumed."""

FLEX_SIDE = "flex-side"
"""The prompt answer that picks a Flex card's flex side."""

CANCEL = "cancel"
"""The prompt answer that plays nothing."""

TICK = 0.25
"""Seconds between two updates of the catch window's countdown."""

_GAME_ACTIONS = frozenset(
    {
        "select",
        "pick",
        "play",
        "draw",
        "pass",
        "uno",
        "catch",
        "jump",
        "command",
        "leave_input",
        "help",
        "ask_quit",
        "review",
    }
)


class LogBox(VerticalScroll):
    """The log's scrolling box: it follows new lines until the person scrolls back, and again once they reach its end.

    Whether it follows is kept, not read from the scroll position when a line comes: lines that come while a prompt
    covers the game screen are laid out only once it is shown again, so the position then lags behind the end, and
    a log that decided from it stopped following after every prompt.
    """

    following: bool = True
    """Whether new lines scroll the log to its end (False while the person reads back up)."""

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """The wheel up: the person reads back."""
        self.following = False

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        """The wheel down: follow again once the end is shown."""
        self.call_after_refresh(self.check_end)

    def page(self, direction: int) -> None:
        """PageUp (reads back) or PageDown (follows again once the end is shown)."""
        if direction > 0:
            self.scroll_page_down(animate=False)
            self.call_after_refresh(self.check_end)
        else:
            self.scroll_page_up(animate=False)
            self.following = False

    def check_end(self) -> None:
        """Follow new lines again if the end of the log is shown."""
        self.following = self.scroll_y >= self.max_scroll_y

    def show_lines(self, log: Static, text: Text) -> None:
        """Show the log's text; at its end if the log follows."""
        log.update(text)
        if self.following:
            self.scroll_end(animate=False, immediate=False)


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
        Binding("l", "show_log", "Log"),
        Binding("pageup", "scroll_log(-1)", "Log ↑", show=False),
        Binding("pagedown", "scroll_log(1)", "Log ↓", show=False),
        Binding("slash", "command", "Type"),
        Binding("colon", "command", "Type", show=False),
        Binding("escape", "leave_input", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("r", "review", "Review"),
        Binding("q", "ask_quit", "Quit"),
        *(Binding(str(n), f"pick({(n - 1) % 10})", show=False) for n in range(10)),
    ]
    AUTO_FOCUS = None

    def __init__(
        self,
        session: Session,
        *,
        bot_delay: float = 0.6,
        catch_seconds: float = CATCH_SECONDS,
        show_markers: bool = True,
        clock: Callable[[], float] = time.monotonic,
        lang: str = DEFAULT,
    ) -> None:
        super().__init__()
        self.lang = lang
        """The language of every text shown (``uno play --lang``); the keys stay letters."""
        translate_bindings(self, lang)
        if lang != DEFAULT:
            session.speak(lang)
        self.session = session
        self.bot_delay = bot_delay
        self.catch_seconds = catch_seconds
        """How long an UNO window stays open for the person before the bots react (C-18)."""
        self.show_markers = show_markers
        self.clock = clock
        self.step: Step = session.now(RESUME_LINES)
        self.infos = self.step.view.actions
        self.selected = 0
        self.last_round: RoundEnd | None = None
        self.stats: StatsUpdate | None = None
        self.lines: list[str] = []
        self.modal: str | None = None
        self.quitting = False
        """True while the "Quit? y/n" prompt is open (the bots wait)."""
        self.deadline: float | None = None
        """When the open UNO window closes for the person (the bots react then), on :attr:`clock`."""
        self._window: int | None = None
        self._logged = -1
        """How many log lines the log widget shows."""
        self._shown_lines: list[str] = []
        """The log's lines in :attr:`lang`, each translated once."""
        self._token = 0
        self._reacted: int | None = None

    # -- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            yield Static(id="players")
            with LogBox(id="log-box"):
                yield Static(id="log")
        yield Static(id="prompt")
        yield Static(id="hand")
        yield Static(id="message")
        # TRANSLATORS: the input's placeholder; the actions in brackets are notation (never translated)
        hint = said("/ or : to type an action ({examples}, ...)", examples="R7, W:g, draw, pass, uno, catch 1")
        yield Input(placeholder=self.tr(hint), id="command")
        yield Footer()

    def tr(self, text: object) -> str:
        """``text`` in the app's language (:func:`~unoengine.i18n.translate`)."""
        return translate(text, self.lang)

    def on_mount(self) -> None:
        view = self.view
        title = words(find_rules(view.rules).title, self.lang)
        seed = self.session.seed
        self.sub_title = self.tr(said("{title} · seed {seed}", title=title, seed=seed))
        # TRANSLATORS: the log's first line: {title} is the rule set (UNO Duo), {bots} a count, ? the help key
        intro = said(
            "{title}: you against {bots} bot(s), seed {seed}. Press ? for help.",
            title=title,
            bots=view.seats - 1,
            seed=seed,
        )
        if view.steps:
            if self.step.lines:
                self.add_log(said("Resumed after {n} actions; the last ones:", n=view.steps))
            else:
                self.add_log(said("Resumed after {n} actions", n=view.steps))
        else:
            self.add_log(intro)
        self.lines += self.step.lines
        if view.steps:
            self.add_log(intro)
        self.set_interval(TICK, self.tick)
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
            self.panic(Text(self.tr(said("unoengine stopped on an unexpected error"))))
            return
        trace = Traceback.from_exception(
            type(error), error, error.__traceback__, show_locals=False, width=None, suppress=[rich]
        )
        self.panic(trace)

    # -- what the person sees ------------------------------------------------------------

    @property
    def view(self) -> PlayerView:
        """Seat 0's view after the last step: all the app knows of the game."""
        return self.step.view

    def hand_cards(self) -> list[Card]:
        """The hand as shown: sorted by colour, then rank and number."""
        return hand_order(self.view.hand)

    def playable(self) -> set[Card]:
        """The cards of the hand that can be played on the person's decision now."""
        return {info.card for info in self.infos if info.group == "hand" and info.card is not None}

    def waiting_for_human(self) -> bool:
        """True when nothing moves until the person acts (used by tests and scripts)."""
        view = self.view
        over = view.outcome is not None
        return self.modal is not None or over or (view.to_act == HUMAN and not self.reaction_pending())

    def catchable(self) -> bool:
        """True while a bot that did not call UNO waits to be caught (press c)."""
        unsafe = self.view.unsafe
        return unsafe is not None and unsafe != HUMAN and self.reaction_pending()

    def reaction_pending(self) -> bool:
        """An out-of-turn window is open and the bots have not reacted yet (C-18's catch, a jump-in)."""
        view = self.view
        if self._reacted == view.steps:
            return False
        if view.seat is not None and not in_round(view, view.seat):  # knocked out (No Mercy N-21): nothing to do
            return any(info.group == "react" for info in self.infos)
        return view.unsafe is not None or any(info.group == "react" for info in self.infos)

    def add_log(self, line: str) -> None:
        self.lines.append(line)

    def _width(self, widget: str, fallback: int) -> int:
        """The content width of a widget once laid out (``fallback`` before)."""
        width = self.query_one(f"#{widget}").content_size.width
        return width if width > 0 else fallback

    def refresh_view(self) -> None:
        view, names, m = self.view, self.session.names, self.show_markers
        cards = self.hand_cards()
        self.selected = max(0, min(self.selected, len(cards) - 1))
        lang = self.lang
        width = self._width("status", max(20, self.size.width - 2))
        status = status_text(view, names, self.session.seed, width, show_markers=m, lang=lang)
        self.query_one("#status", Static).update(status)
        self.query_one("#players", Static).update(players_text(view, names, self._width("players", 50), lang=lang))
        if self._logged != len(self.lines):  # a person reading back up the log is not sent to its end
            self.query_one(LogBox).show_lines(self.query_one("#log", Static), Text("\n".join(self.log_lines())))
            self._logged = len(self.lines)
        self.refresh_prompt()
        width = self._width("hand", max(20, self.size.width - 4))
        hand = hand_text(view, self.infos, self.selected, width, show_markers=m, lang=lang)
        self.query_one("#hand", Static).update(hand)

    def refresh_prompt(self) -> None:
        """The prompt line, with the catch window's countdown."""
        left = None if self.deadline is None else self.deadline - self.clock()
        text = prompt_text(
            self.view,
            self.infos,
            self.session.names,
            reaction_open=self.reaction_pending(),
            seconds_left=left,
            lang=self.lang,
            width=self._width("prompt", max(20, self.size.width - 2)),
        )
        self.query_one("#prompt", Static).update(text)

    def log_lines(self) -> list[str]:
        """The log's lines in the app's language (each line is translated once)."""
        shown = self._shown_lines
        if len(shown) > len(self.lines):
            del shown[:]
        shown += (self.tr(line) for line in self.lines[len(shown) :])
        return shown

    def show_message(self, text: str) -> None:
        self.query_one("#message", Static).update(Text(self.tr(text)))

    # -- the flow of play ---------------------------------------------------------------

    def advance(self) -> None:
        """Show the state and start whatever comes next: a reaction window, a bot, or a prompt."""
        self._token += 1
        view = self.view
        if self.reaction_pending():
            if self._window != view.steps:  # a new window: the person gets the whole countdown
                self._window = view.steps
                self.deadline = self.clock() + self.catch_seconds
        else:
            self.deadline = None
        self.refresh_view()
        if self.modal is not None:
            return
        if view.outcome is not None:
            self.show_game_over()
            return
        if self.deadline is not None:
            self.call_later(self.tick)
        elif view.to_act is not None and view.to_act != HUMAN:
            self._later(self.bot_delay, self._bot_move)
        if view.to_act == HUMAN:
            self.prompt_human()

    def tick(self) -> None:
        """The countdown of an open UNO window; at its end the bots react (unless a prompt is open)."""
        if self.deadline is None or self.quitting:  # the quit question is up, or the app is closing
            return
        if self.clock() < self.deadline or self.modal is not None:
            with contextlib.suppress(NoMatches):  # a tick that fires while the app closes: its widgets are gone
                self.refresh_prompt()
            return
        self.deadline = None
        self._react()

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
        steps = self.view.steps
        step = self.session.bot_reaction()
        self._reacted = steps
        if step is not None:
            self.show(step)
            return
        self.advance()

    def _bot_move(self) -> None:
        step = self.session.bot_turn()
        if step is None:
            self.advance()
            return
        self.show(step)

    def perform(self, action: Action | str, *, shown: str | None = None) -> bool:
        """Apply an action of the person; log it; show a refusal instead of failing. True if applied.

        ``shown``: the card the person picked, when ``action`` only probes why it is refused
        (the refusal names the card, not a colour the person never chose).
        """
        try:
            step = self.session.act(HUMAN, action)
        except IllegalActionError as error:
            reason = named(error.reason, self.session.names, self.lang)
            if shown is not None and isinstance(action, Play):
                reason = reason.replace(format_action(action), shown)
            # TRANSLATORS: an action the rules refuse: {rule} is the rule's number (C-4), {reason} why
            self.show_message(said("Refused ({rule}): {reason}", rule=error.rule, reason=reason))
            self.refresh_view()
            return False
        except InvalidNotationError as error:
            # TRANSLATORS: typed text that is not an action: {error} says why
            self.show_message(said("Not understood: {error}", error=words(str(error), self.lang)))
            return False
        self.show(step, mine=True)
        return True

    def show(self, step: Step, *, mine: bool = False) -> None:
        """Show an applied step: its log lines, a round's summary; the last message (a refusal) goes; then go on."""
        self.step = step
        self.infos = step.view.actions
        self.show_message(words(step.save_error, self.lang) if step.save_error else "")
        if mine:
            self.follow_cursor()
        self.lines += step.lines
        if step.stats is not None:
            self.stats = step.stats
        if step.round_end is not None:
            self.last_round = step.round_end
            if step.view.outcome is None:
                self.show_round_summary(step.round_end)
        self.advance()

    def follow_cursor(self) -> None:
        """After the person's action: pick the card just drawn, or the first card of a Duo dump."""
        view = self.view
        if view.to_act != HUMAN:
            return
        cards = self.hand_cards()
        playable = {info.card for info in self.infos if info.group == "hand"}
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

        self.push_screen(ChoiceScreen(kind, question, answers, lang=self.lang), done)

    def notice(self, kind: str, body: Text | str, then: Callable[[], None] | None = None, at_end: bool = False) -> None:
        self.modal = kind

        def done(_: None) -> None:
            self.modal = None
            (then or self.advance)()

        self.push_screen(NoticeScreen(kind, body, at_end=at_end, lang=self.lang), done)

    def _answer_then_act(self, answer: str | None) -> None:
        if answer is None or not self.perform(answer):
            self.advance()

    def narrow(
        self,
        kind: str,
        question: Text | str,
        answers: Sequence[tuple[Text | str, str]],
        candidates: list[Play],
        keep: Callable[[str, Play], bool],
    ) -> None:
        """Ask, then go on with the candidates that ``keep`` the answer (cancelled: nothing is played)."""

        def answered(answer: str | None) -> None:
            if answer is None or answer == CANCEL:
                self.advance()
            else:
                self.choose_play([p for p in candidates if keep(answer, p)], side_chosen=True, warned=True)

        self.ask(kind, question, answers, answered)

    def prompt_human(self) -> None:
        """Open the question of a decision answered by choosing (not by a play from the hand, d or p)."""
        view = self.view
        choices = [info for info in self.infos if info.group == "choice"]
        if not choices:
            return
        names, lang = self.session.names, self.lang
        question = Text(named(view.words.prompt, names, lang))
        card = shown_card(view)
        if card is not None:
            question.append(": ")
            question.append_text(card_text(card, show_markers=self.show_markers))
            question.append(f" ({words(card.words, lang)})")
        elif view.top is not None and view.challenger_of is not None:
            question.append(" — ")
            question.append_text(card_text(view.top, show_markers=self.show_markers))
        answers: list[tuple[Text | str, str]] = [
            (
                color_text(info.color, show_markers=self.show_markers, lang=lang)
                if info.card is None and info.color is not None
                else named(info.words, names, lang),
                info.notation,
            )
            for info in choices
        ]
        self.ask(view.pending, question, answers, self._answer_then_act)

    def choose_play(self, candidates: list[Play], *, side_chosen: bool = False, warned: bool = False) -> None:
        """Narrow the legal plays of one card with prompts: a bluff's warning, side, colour, target, UNO."""
        m, lang, tr = self.show_markers, self.lang, self.tr
        card = candidates[0].card
        face = card_text(card, show_markers=m)
        rules = find_rules(self.view.rules)
        if not warned and all(p in self.step.bluffs for p in candidates):
            # TRANSLATORS: the bluff warning: {card} is the card's face (notation in its colours), put in by the game
            warning = tr(
                said(
                    "Warning: {card} would be a bluff: you hold a card that matches the current colour."
                    " It may be challenged, and a challenge you lose makes you draw instead.",
                    card="\0",
                )
            )
            question = self.with_card(warning, face)
            answers: list[tuple[Text | str, str]] = [
                (tr(said("Play it anyway (a bluff)")), "bluff"),
                (tr(said("Keep the card")), CANCEL),
            ]
            self.ask("bluff", question, answers, lambda a: self._bluffed(a, candidates, side_chosen))
            return
        if not side_chosen and all(p.flex for p in candidates):
            # Only the flex side can be played: it turns the Power Card red, so ask first.
            # TRANSLATORS: {card} is the card's face (notation in its colours), put in by the game
            question = self.with_card(tr(said("Only the flex side of {card} can be played:", card="\0")), face)
            answers = [
                (side_labels(rules, card, dict(self.view.options), lang)[1], FLEX_SIDE),
                (tr(said("Cancel: keep the card")), CANCEL),
            ]
            self.narrow("side", question, answers, candidates, lambda a, p: True)
            return
        if len({p.flex for p in candidates}) > 1:
            normal, flex_label = side_labels(rules, card, dict(self.view.options), lang)
            answers = [(normal, "normal"), (flex_label, FLEX_SIDE)]
            # TRANSLATORS: {card} is the card's face (notation in its colours), put in by the game
            question = self.with_card(tr(said("Play which side of {card}", card="\0")), face)
            self.narrow("side", question, answers, candidates, lambda a, p: p.flex == (a == FLEX_SIDE))
            return
        colors = list(dict.fromkeys(p.color for p in candidates))
        if len(colors) > 1:
            shown = [(color_text(c, show_markers=m, lang=lang), c.letter) for c in COLORS if c in colors]
            self.narrow("wild", tr(said("Name the colour:")), shown, candidates, lambda a, p: p.color is Color.parse(a))
            return
        targets = [seat for seat in dict.fromkeys(p.target for p in candidates) if seat is not None]
        if len(targets) > 1:
            names, sizes = self.session.names, self.view.hand_sizes
            seats: list[tuple[Text | str, str]] = []
            for seat in targets:
                who = subject(names, seat, lang)
                # TRANSLATORS: a seat to aim at: {who} is a player's name, {n} the cards in their hand
                seats.append((tr(said_n("{who} ({n} card)", "{who} ({n} cards)", sizes[seat], who=who)), str(seat)))
            aims = {info.action: info.aim for info in self.infos}
            aim = aims.get(candidates[0])
            aim_question = words(aim, lang) if aim else tr(said("Which seat?"))
            self.narrow("target", aim_question, seats, candidates, lambda a, p: str(p.target) == a)
            return
        if len({p.uno for p in candidates}) > 1:
            answers = [(tr(said("Play and call UNO!")), "uno"), (tr(said("Play without calling UNO")), "quiet")]
            self.narrow(
                "uno",
                tr(said("This play leaves you one card.")),
                answers,
                candidates,
                lambda a, p: p.uno == (a == "uno"),
            )
            return
        self.perform(candidates[0])

    @staticmethod
    def with_card(sentence: str, face: Text) -> Text:
        """A translated sentence with the card's face (a coloured :class:`Text`) where its ``{card}`` was (``\\0``)."""
        before, _, after = sentence.partition("\0")
        return Text(before) + face + Text(after)

    def _bluffed(self, answer: str | None, candidates: list[Play], side_chosen: bool) -> None:
        if answer == "bluff":
            self.choose_play(candidates, side_chosen=side_chosen, warned=True)
        else:
            self.advance()

    def round_width(self) -> int:
        """The width of a notice's text: 90% of the screen (at most 84), less its border, padding and scroll bar."""
        return min(84, self.size.width * 9 // 10) - 7

    def show_round_summary(self, end: RoundEnd) -> None:
        body = round_summary(
            end, self.view, self.session.names, self.round_width(), show_markers=self.show_markers, lang=self.lang
        )
        self.notice("round", body)

    def show_game_over(self) -> None:
        width = self.round_width()
        body = game_over_text(
            self.view,
            self.session.names,
            self.last_round,
            self.stats,
            width,
            show_markers=self.show_markers,
            lang=self.lang,
        )
        self.notice("over", body, then=self.refresh_view)

    # -- keys ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a prompt is open, the app's own keys do not act; while "Quit?" is open, none do."""
        if self.quitting:
            return action not in _GAME_ACTIONS
        if action == "review":  # only a finished game's hands may be shown
            return self.view.outcome is not None and self.modal != "review"
        blocked = ("select", "pick", "play", "draw", "pass", "command", "help", "show_log")
        return self.modal is None or action not in blocked

    def action_ask_quit(self) -> None:
        """q: quit at once when the game is over, else ask "Quit? y/n" first."""
        if self.quitting:
            return
        self.quitting = True  # from here no timer touches the screen, which goes away as the app exits
        if self.view.outcome is not None:
            self.exit()
            return

        def done(quit_game: bool | None) -> None:
            if quit_game:
                self.exit()
                return
            self.quitting = False
            if self.modal is None:
                self.advance()

        self.push_screen(QuitScreen(lang=self.lang), done)

    def action_review(self) -> None:
        """r, once the game is over: step through it with every hand face up (:mod:`unoengine.cli.review`)."""
        if self.view.outcome is None or self.modal == "review":
            return
        before = self.modal
        self.modal = "review"

        def done(_: None) -> None:
            self.modal = before

        review = ReviewScreen(self.session.record(), show_markers=self.show_markers, lang=self.lang)
        self.push_screen(review, done)

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
        candidates = self.plays_of(card, "hand")
        if candidates:
            self.choose_play(candidates)
            return
        # Not playable: let the engine say why (G-4), about the card alone.
        self.perform(play(card, COLORS[0] if card.is_wild else None), shown=format_card(card))

    def plays_of(self, card: Card | None, group: str) -> list[Play]:
        """The legal plays of ``card`` offered in ``group`` (``hand``: on the person's decision; ``react``: jump-in)."""
        return [i.action for i in self.infos if i.group == group and i.card == card and isinstance(i.action, Play)]

    def action_draw(self) -> None:
        self.perform(DRAW)

    def action_pass(self) -> None:
        self.perform(PASS)

    def action_uno(self) -> None:
        self.perform(CALL_UNO)

    def action_catch(self) -> None:
        target = self.view.unsafe
        if target is None or target == HUMAN:
            self.show_message(said("Nobody to catch."))
            return
        self.perform(catch(target))

    def action_jump(self) -> None:
        """j: play out of turn (a jump-in) with the picked card, or else the first card that can."""
        jumps = [info.card for info in self.infos if info.group == "react" and info.card is not None]
        if not jumps:
            self.show_message(said("Nothing to jump in with now."))
            return
        cards = self.hand_cards()
        picked = cards[min(self.selected, len(cards) - 1)] if cards else None
        self.choose_play(self.plays_of(picked if picked in jumps else jumps[0], "react"))

    def action_scroll_log(self, direction: int) -> None:
        """PageUp / PageDown: scroll the log (it stops following new lines until its end is shown again)."""
        self.query_one(LogBox).page(direction)

    def action_show_log(self) -> None:
        """l: the whole log on one page, scrolled to its end."""
        head = self.tr(said("The whole log (Enter or Escape closes it)"))
        self.notice("log", Text(head + "\n\n" + "\n".join(self.log_lines())), at_end=True)

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_leave_input(self) -> None:
        self.set_focus(None)

    def action_help(self) -> None:
        if self.modal is None:
            self.notice("help", help_text(self.lang, max(30, self.round_width())))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.set_focus(None)
        if not text:
            return
        if text in ("?", "help"):
            self.action_help()
            return
        self.perform(text)
