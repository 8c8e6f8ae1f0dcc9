"""The terminal game's prompts: a question with answers, a notice to read, "Quit?".

A question opens beside the log, over the players' panel, so that the log stays
in sight while the person decides (the screen behind is not dimmed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from unoengine.cli.lang import translate_bindings
from unoengine.i18n import DEFAULT, said, translate


class ChoiceScreen(ModalScreen[str | None]):
    """A question and its answers; 1-9 or arrows and Enter choose, Escape cancels."""

    DEFAULT_CSS = """
    ChoiceScreen { align: left middle; background: transparent; }
    ChoiceScreen > Vertical {
        width: 50%; max-width: 58; min-width: 36; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ChoiceScreen #question { margin-bottom: 1; }
    ChoiceScreen OptionList { height: auto; max-height: 14; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("q", "app.ask_quit", "Quit"),
        Binding("pageup", "app.scroll_log(-1)", "Log ↑", show=False),
        Binding("pagedown", "app.scroll_log(1)", "Log ↓", show=False),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]

    def __init__(
        self, kind: str, question: Text | str, answers: Sequence[tuple[Text | str, str]], *, lang: str = DEFAULT
    ) -> None:
        super().__init__()
        translate_bindings(self, lang)
        self.kind = kind
        self.question = question
        self.answers = list(answers)

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box"):
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
    """A text to read (help, the log, a round's summary, game over); Enter or Escape closes it, arrows scroll it."""

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
        Binding("r", "app.review", "Review"),  # the app allows it once the game is over only
    ]

    def __init__(self, kind: str, body: Text | str, *, at_end: bool = False, lang: str = DEFAULT) -> None:
        super().__init__()
        translate_bindings(self, lang)
        self.kind = kind
        self.body = body
        self.at_end = at_end

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="notice-box"):
            yield Static(self.body, id="notice")

    def on_mount(self) -> None:
        box = self.query_one(VerticalScroll)
        box.focus()
        if self.at_end:
            self.call_after_refresh(box.scroll_end, animate=False)

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

    def __init__(self, *, lang: str = DEFAULT) -> None:
        super().__init__()
        translate_bindings(self, lang)
        self.lang = lang

    def compose(self) -> ComposeResult:
        # TRANSLATORS: the quit question; y and n are the keys (they stay y and n in every language)
        yield Static(translate(said("Quit? y/n"), self.lang), id="quit")

    def action_answer(self, quit_game: bool) -> None:
        self.dismiss(quit_game)
