"""The terminal's game review: a finished game of ``uno play`` step by step, every hand face up.

The steps are :func:`~unoengine.play.review.review_steps` of the game's record (the
browser's review shows the same): the table after each action as a spectator sees it,
every hand face up and the narrator's sentences. Beside each decision of the person
(seat 0; everyone's with ``m``) goes its mark from :func:`unoengine.analysis.analyze`
with the better move and the win chances, and a graph shows the person's win chance
across the game. The analysis searches, so it runs in a worker thread with a small
budget, the person's decisions first and the others' only once ``m`` asks for them:
the steps are shown at once, the marks once they are rated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from unoengine.cli.lang import translate_bindings, words
from unoengine.cli.session import HUMAN
from unoengine.cli.texts import card_text, flow, hand_order, in_round, out_text, status_text
from unoengine.core.cards import parse_card
from unoengine.core.record import Record
from unoengine.i18n import DEFAULT, said, translate
from unoengine.play.narrator import Names
from unoengine.play.review import ReviewStep, review_steps

if TYPE_CHECKING:
    from unoengine.analysis import Analysis, DecisionReview, PlayerReview

__all__ = ["REVIEW_ITERATIONS", "Analyser", "ReviewScreen", "review_names", "win_graph"]

REVIEW_ITERATIONS = 200
"""The deals of each decision in the terminal's review: far below ``uno analyze``'s default, so that the
person's decisions of a whole game take seconds, yet enough that the noise (a drop's deviation of about
0.02, docs/REVIEW.md) stays well under an inaccuracy's 0.05 (``uno analyze`` is the place for a deeper look)."""

MARK_STYLES: dict[str, str] = {"inaccuracy": "bold yellow", "mistake": "bold dark_orange", "blunder": "bold red"}
"""Each mark's colour: the worse, the hotter."""

BLOCKS = "▁▂▃▄▅▆▇█"
"""The graph's bars, from a win chance of 0 to 1."""


class Progress(Protocol):
    """How far the analysis is: ``done`` of ``total`` decisions."""

    def __call__(self, done: int, total: int) -> None: ...


Analyser = Callable[[Record, Sequence[int], Progress], "Analysis"]
"""Rates the decisions of some seats of a record, telling its progress (tests give a fast fake)."""


def analyse(record: Record, seats: Sequence[int], progress: Progress) -> Analysis:
    """The decisions of ``seats``, with the terminal's small budget (:data:`REVIEW_ITERATIONS`)."""
    from unoengine.analysis import analyze

    return analyze(record, seats, iterations=REVIEW_ITERATIONS, progress=progress)


def review_names(seats: int, lang: str = DEFAULT) -> tuple[str, ...]:
    """The seats' names in the review: "Player" (the person) and "Bot 1", … as in the game (in ``lang``).

    The narrator speaks to a spectator here (the review shows every hand), so the person is
    named in the third person rather than "You" ("Player plays R7").
    """
    # TRANSLATORS: the person in the review of a game, named in the third person ("Player plays R7")
    player = translate(said("Player"), lang)
    # TRANSLATORS: a bot's name in the terminal game ("Bot 1"); {number} is its seat number
    return (player, *(translate(said("Bot {number}", number=seat), lang) for seat in range(1, seats)))


MARK_WORDS = {"inaccuracy": said("inaccuracy"), "mistake": said("mistake"), "blunder": said("blunder")}
"""Each mark in words (translated; the analysis names them in English)."""


def mark_text(decision: DecisionReview, names: Sequence[str], lang: str = DEFAULT) -> Text:
    """One decision's mark in its colour, with the better move and the win chances ("better: G5 (win 62% → 48%)")."""
    text = Text(f"{names[decision.seat]}: {decision.action}  ")
    if decision.mark is None:
        text.append(translate(said("✓ good"), lang), style="bold green")
        if decision.best != decision.action:
            # TRANSLATORS: {best} is an action in notation (G5)
            text.append("  " + translate(said("(also good: {best})", best=decision.best), lang), style="dim")
        # TRANSLATORS: the win chance after a decision ({chance}: 62%)
        text.append("  " + translate(said("win {chance}", chance=f"{decision.win:.0%}"), lang))
        return text
    text.append(words(MARK_WORDS.get(decision.mark, decision.mark), lang), style=MARK_STYLES.get(decision.mark, "bold"))
    # TRANSLATORS: {best} is the better action in notation (G5); {best_win} and {win} are win chances (62%)
    better = said(
        "better: {best} (win {best_win} → {win})",
        best=decision.best,
        best_win=f"{decision.best_win:.0%}",
        win=f"{decision.win:.0%}",
    )
    text.append("  " + translate(better, lang))
    return text


def win_graph(decisions: Sequence[DecisionReview], current: int | None, width: int, lang: str = DEFAULT) -> Text:
    """The win chance of each decision as a bar (marked ones in their colour), the one at ``current`` reversed.

    ``current``: the position in ``decisions`` of the step shown (``None``: none yet). Few decisions
    get up to three cells each; more decisions than ``width`` are sampled evenly, and the current one
    is always among the bars.
    """
    count = len(decisions)
    if count == 0:
        return Text(translate(said("(no decision of yours to rate)"), lang), style="dim")
    width = max(1, width)
    shown = list(range(count)) if count <= width else [i * count // width for i in range(width)]
    if current is not None and current not in shown:
        shown[max(0, min(len(shown) - 1, current * len(shown) // count))] = current
    cells = max(1, min(3, width // len(shown)))
    graph = Text()
    for position in shown:
        decision = decisions[position]
        bar = BLOCKS[max(0, min(len(BLOCKS) - 1, int(decision.win * len(BLOCKS))))]
        style = MARK_STYLES.get(decision.mark or "", "cyan")
        graph.append(bar * cells, style=style + (" reverse" if position == current else ""))
    return graph


class ReviewScreen(Screen[None]):
    """A game step by step with every hand face up; ←/→ step, ``m`` shows everyone's marks, ``q`` closes it."""

    DEFAULT_CSS = """
    ReviewScreen #review-header { height: auto; padding: 0 1; background: $boost; }
    ReviewScreen #review-mark { height: auto; padding: 0 1; }
    ReviewScreen #review-middle { height: 1fr; }
    ReviewScreen #review-hands { width: 1fr; padding: 0 1; border: round $accent; border-title-align: left; }
    ReviewScreen #review-lines-box { width: 1fr; max-width: 60; padding: 0 1; border: round $secondary; }
    ReviewScreen #review-lines { width: 100%; height: auto; }
    ReviewScreen #review-graph { height: auto; padding: 0 1; border: round $secondary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "Next"),
        Binding("h", "step(-1)", "Back", show=False),
        Binding("l", "step(1)", "Next", show=False),
        Binding("home", "jump(0)", "First"),
        Binding("end", "jump(-1)", "Last"),
        Binding("m", "toggle_marks", "Everyone's marks"),
        Binding("q", "close", "Close"),
        Binding("escape", "close", "Close", show=False),
    ]
    AUTO_FOCUS = None

    def __init__(
        self,
        record: Record,
        *,
        show_markers: bool = True,
        analyser: Analyser | None = None,
        seat: int = HUMAN,
        lang: str = DEFAULT,
    ) -> None:
        """``analyser``: rates the decisions in a worker thread (default :func:`analyse`); ``lang``: the words'."""
        super().__init__()
        self.lang = lang
        translate_bindings(self, lang)
        self.record = record
        self.show_markers = show_markers
        self.analyser: Analyser = analyser if analyser is not None else analyse
        self.seat = seat
        """The person whose decisions are marked and graphed (``m`` adds everyone's marks)."""
        self.names = review_names(record.seats, lang)
        self.steps: list[ReviewStep] = review_steps(record, self.names)
        self.at = 0
        """The position of the step shown in :attr:`steps` (0: the deal)."""
        self.everyone = False
        """Whether every seat's marks are shown, not only the person's."""
        self.decisions: dict[int, DecisionReview] = {}
        """The rated decisions so far, by their index in the record."""
        self.players: dict[int, PlayerReview] = {}
        """Each analysed seat's accuracy and marks."""
        self.running = False
        """Whether an analysis is under way (one at a time: the person's seat, then the others)."""
        self.progress = ""
        """What the analysis is doing ("analysing your decisions… 3/40", or why it failed), in the screen's language."""
        self._analysing = ""
        """Which decisions are being analysed ("analysing your decisions…"), in the screen's language."""
        self.failed = False

    def compose(self) -> ComposeResult:
        yield Static(id="review-header")
        yield Static(id="review-mark")
        with Horizontal(id="review-middle"):
            yield Static(id="review-hands")
            with VerticalScroll(id="review-lines-box"):
                yield Static(id="review-lines")
        yield Static(id="review-graph")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#review-hands").border_title = self.tr(said("Every hand, face up"))
        self.query_one("#review-lines-box").border_title = self.tr(said("What happened"))
        self.query_one("#review-graph").border_title = self.tr(said("Your win chance"))
        self.analyse_next()
        self.refresh_step()
        self.call_after_refresh(self.refresh_step)  # the widths are known once laid out

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_step)

    # -- the analysis (a worker thread) ------------------------------------------------

    def tr(self, text: object) -> str:
        """``text`` in the screen's language."""
        return translate(text, self.lang)

    def others(self) -> list[int]:
        return [seat for seat in range(self.record.seats) if seat != self.seat]

    def analyse_next(self) -> None:
        """Start the next analysis, if one is wanted and none is under way: the person's, then (``m``) the others'."""
        if self.running or self.failed:
            return
        if self.seat not in self.players:
            seats = [self.seat]
            self.progress = self._analysing = self.tr(said("analysing your decisions…"))
        elif self.everyone and any(seat not in self.players for seat in self.others()):
            seats = self.others()
            self.progress = self._analysing = self.tr(said("analysing the others' decisions…"))
        else:
            return
        self.running = True
        self.run_analysis(self.analyser, seats)

    @work(thread=True, exit_on_error=False, group="analysis")
    def run_analysis(self, analyser: Analyser, seats: list[int]) -> None:
        """Analyse the record off the screen's thread; the progress and the result come back to it."""
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:  # the review was closed: stop searching
                raise _Stopped
            self.app.call_from_thread(self.show_progress, done, total)

        try:
            analysis = analyser(self.record, seats, progress)
        except _Stopped:
            return
        except Exception as error:  # shown on the screen: the steps stay usable without marks
            if not worker.is_cancelled:
                self.app.call_from_thread(self.show_failure, error)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show_analysis, analysis)

    def show_progress(self, done: int, total: int) -> None:
        self.progress = f"{self._analysing} {done}/{total}"
        self.refresh_graph()

    def show_failure(self, error: Exception) -> None:
        self.running, self.failed = False, True
        # TRANSLATORS: the analysis of the review failed; {error} says why
        self.progress = self.tr(said("no analysis: {error}", error=str(error)))
        self.refresh_graph()

    def show_analysis(self, analysis: Analysis) -> None:
        self.running = False
        self.progress = ""
        self.decisions.update((decision.index, decision) for decision in analysis.decisions)
        self.players.update((player.seat, player) for player in analysis.players)
        self.analyse_next()
        self.refresh_step()

    # -- what is shown -------------------------------------------------------------

    @property
    def step(self) -> ReviewStep:
        return self.steps[self.at]

    def _width(self, widget: str, fallback: int) -> int:
        width = self.query_one(f"#{widget}").content_size.width
        return width if width > 0 else fallback

    def decision(self, step: ReviewStep) -> DecisionReview | None:
        """The analysed decision of a step's action, if it was rated."""
        return None if step.index is None else self.decisions.get(step.index)

    def mine(self) -> list[DecisionReview]:
        """The person's rated decisions, in the game's order."""
        return sorted((d for d in self.decisions.values() if d.seat == self.seat), key=lambda d: d.index)

    def refresh_step(self) -> None:
        """Show the step at :attr:`at`: header, mark, hands, lines, graph."""
        if not self.is_attached:
            return
        step, names = self.step, self.names
        total = len(self.steps) - 1
        header = Text()
        if step.index is None or step.seat is None:
            # TRANSLATORS: the review's first step; {total} is the number of actions
            header.append(self.tr(said("The deal (0/{total})", total=total)), style="bold")
        else:
            # TRANSLATORS: the review's step: {n} of {total} actions
            header.append(self.tr(said("Action {n}/{total}: ", n=step.index + 1, total=total)), style="bold")
            header.append(f"{names[step.seat]} — {step.action}", style="bold")
        header.append("\n")
        width = self._width("review-header", max(20, self.size.width - 2))
        header.append_text(
            status_text(
                step.view, Names(names, None), self.record.seed, width, show_markers=self.show_markers, lang=self.lang
            )
        )
        self.query_one("#review-header", Static).update(header)
        decision = self.decision(step)
        shown = decision is not None and (self.everyone or decision.seat == self.seat)
        mark = mark_text(decision, names, self.lang) if decision is not None and shown else Text("")
        if step.seat is not None and step.seat != self.seat and not self.everyone:
            mark = Text(self.tr(said("(m: every player's marks)")), style="dim")
        self.query_one("#review-mark", Static).update(mark)
        self.query_one("#review-hands", Static).update(self.hands_text())
        told = [self.tr(line) for line in step.lines]
        lines = Text("\n".join(told) if told else self.tr(said("(nothing to tell)")))
        self.query_one("#review-lines", Static).update(lines)
        self.refresh_graph()

    def hands_text(self) -> Text:
        """Every seat's hand face up, its size and score; ▶ marks the seat to act."""
        step, view = self.step, self.step.view
        width = self._width("review-hands", 60)
        text = Text()
        for seat, hand in enumerate(step.hands):
            cards = hand_order([parse_card(card) for card in hand])
            score = self.tr(said("score {score}", score=view.scores[seat]))
            head = f"{'▶' if view.to_act == seat else ' '} {self.names[seat]} ({len(cards)})  {score}"
            text.append(head + "\n", style="bold" if view.to_act == seat else "")
            faces = [card_text(card, show_markers=self.show_markers) for card in cards]
            text.append("  ")
            no_cards = Text(self.tr(said("(no cards)")), style="dim") if in_round(view, seat) else out_text(self.lang)
            text.append_text(flow(faces, width - 2, indent="  ") if faces else no_cards)
            text.append("\n" if seat == len(step.hands) - 1 else "\n\n")
        return text

    def refresh_graph(self) -> None:
        """The person's win chance across the game, the analysis's progress or result beside it."""
        if not self.is_attached:
            return
        mine = self.mine()
        index = self.step.index
        current = None
        if index is not None:
            before = [position for position, d in enumerate(mine) if d.index <= index]
            current = before[-1] if before else None
        graph = Text()
        if self.seat not in self.players:
            graph.append(self.progress or self.tr(said("no analysis")), style="italic")
        else:
            width = self._width("review-graph", max(20, self.size.width - 4))
            graph.append_text(win_graph(mine, current, width, self.lang))
            graph.append("\n")
            if current is not None:
                chance, at = f"{mine[current].win:.0%}", mine[current].index + 1
                # TRANSLATORS: {chance} is a win chance (62%), {n} the action's number
                graph.append(self.tr(said("{chance} after your decision at action {n}", chance=chance, n=at)) + " · ")
            graph.append(self.summary())
            if self.progress:
                graph.append(f" · {self.progress}", style="italic")
        self.query_one("#review-graph", Static).update(graph)

    def summary(self) -> str:
        """Each player's accuracy and marks (the person's only, unless ``m`` shows everyone's)."""
        parts = [
            self.tr(
                # TRANSLATORS: a player's accuracy (93%) and counts of inaccuracies, mistakes and blunders (short)
                said(
                    "{name} {accuracy} ({inaccuracies} inacc., {mistakes} mist., {blunders} blund.)",
                    name=self.names[p.seat],
                    accuracy=f"{p.accuracy:.0f}%",
                    inaccuracies=p.inaccuracies,
                    mistakes=p.mistakes,
                    blunders=p.blunders,
                )
            )
            for p in sorted(self.players.values(), key=lambda p: p.seat)
            if self.everyone or p.seat == self.seat
        ]
        return self.tr(said("accuracy: {players}", players="; ".join(parts))) if parts else ""

    # -- keys ------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.at = max(0, min(len(self.steps) - 1, self.at + delta))
        self.refresh_step()

    def action_jump(self, position: int) -> None:
        """Home: the deal; End: the last action."""
        self.at = position % len(self.steps)
        self.refresh_step()

    def action_toggle_marks(self) -> None:
        self.everyone = not self.everyone
        self.analyse_next()
        self.refresh_step()

    def action_close(self) -> None:
        self.workers.cancel_group(self, "analysis")
        self.dismiss(None)


class _Stopped(Exception):
    """Raised in the analysis's progress once the review is closed, to stop its search."""
