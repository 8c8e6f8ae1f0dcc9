"""The terminal game in the reader's language: its names, the core's words, and widths by grapheme cluster.

Every text ``uno play`` shows is rendered with :func:`~unoengine.i18n.translate` in the
language of ``--lang`` (default: the terminal's, :func:`~unoengine.i18n.language_from_env`).
The core's words keep the token ``seat N``: :func:`named` puts the seats' names in, in that
language. Keys stay letters in every language.

Khmer, Sinhala and Lao write a syllable as a grapheme cluster (a letter with its vowel
signs, a subscript consonant after a coeng or virama): a terminal draws one cluster in one
or two cells, whatever its code points. Where the terminal game measures text itself (a
name padded to a column, cards broken between lines, a line folded to the screen) it counts
:func:`cells`, the sum over the text's clusters of each cluster's width. Rich's ``cell_len``
counts code points and gives a spacing vowel sign (Sinhala ``ං``, ``ා``) no cell, where
terminals that follow glibc's ``wcwidth`` (VTE, xterm) give it one: a cluster is counted at the
larger of the two, so that a line measured here fits whichever way the terminal counts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

import wcwidth
from rich.cells import cell_len
from rich.text import Text

from unoengine.i18n import DEFAULT, LANGUAGES, said, translatable, translate
from unoengine.play.narrator import Names, name_seats

if TYPE_CHECKING:
    from textual.dom import DOMNode

__all__ = [
    "LANG_CODES",
    "cells",
    "fit",
    "graphemes",
    "named",
    "object_name",
    "pad",
    "rpad",
    "subject",
    "translate_bindings",
    "use_terminal_widths",
    "words",
]

LANG_CODES = tuple(LANGUAGES)
"""The languages ``uno play --lang`` and ``uno rules --lang`` accept."""

_SCRIPTS = ((0x0D80, 0x0DFF), (0x0E80, 0x0EFF), (0x1780, 0x17FF))
"""The Sinhala, Lao and Khmer blocks."""


def graphemes(text: str) -> list[str]:
    """The text's grapheme clusters (Unicode's extended clusters, with Indic conjuncts: ``ខ្មែ`` is one)."""
    return list(wcwidth.iter_graphemes(text))


@lru_cache(maxsize=8192)
def cluster_cells(cluster: str) -> int:
    """The cells one cluster takes: the larger of wcwidth's count and Rich's (a control character takes none)."""
    return max(0, wcwidth.width(cluster), cell_len(cluster))


@lru_cache(maxsize=8192)
def cells(text: str) -> int:
    """The terminal cells a line of text takes: the sum over its grapheme clusters (:func:`cluster_cells`)."""
    if text.isascii():
        return sum(1 for char in text if char.isprintable())
    return sum(cluster_cells(cluster) for cluster in graphemes(text))


def use_terminal_widths() -> None:
    """Count each spacing vowel sign of Khmer, Sinhala and Lao (Unicode's ``Mc``: ``ា``, ``ා``) as one cell in
    Rich, and so in Textual, as glibc's ``wcwidth`` counts it and so as tmux, VTE terminals and xterm draw it.

    Rich counts those signs as no cell: Textual then pads a line with one cell too few per sign and a
    box's right border drifts. (A zero-width joiner, Sinhala's ``ක්‍ර``, Rich and tmux both read as an
    emoji sequence's: the letter after it joins the cell before, so they agree there.) ``uno play`` calls
    this once, before its screen is drawn, for a language other than English (Rich's width table is the
    process's; English text has no such sign).
    """
    from rich import cells as rich_cells
    from rich._unicode_data import load

    spacing = {
        code for start, end in _SCRIPTS for code in range(start, end + 1) if unicodedata.category(chr(code)) == "Mc"
    }
    for version in ("auto", "latest"):
        widths = load(version).widths
        changed: list[tuple[int, int, int]] = []
        for start, end, width in widths:
            marks = [code for code in range(start, end + 1) if code in spacing] if width != 1 else []
            if not marks:
                changed.append((start, end, width))
                continue
            begin = start
            for code in marks:
                if begin < code:
                    changed.append((begin, code - 1, width))
                changed.append((code, code, 1))
                begin = code + 1
            if begin <= end:
                changed.append((begin, end, width))
        widths[:] = changed  # type: ignore[index]
    rich_cells.get_character_cell_size.cache_clear()
    rich_cells.cached_cell_len.cache_clear()


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` cells (``str.ljust`` by cells)."""
    return text + " " * max(0, width - cells(text))


def rpad(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` cells (``str.rjust`` by cells)."""
    return " " * max(0, width - cells(text)) + text


_BREAK = re.compile(r"(?<=[ \u200b])")
"""Where a line may break: after a space or a zero-width space (Khmer and Lao write no spaces between words)."""


def _pieces(line: str, width: int) -> list[tuple[int, int]]:
    """Spans of one line that each fit in ``width`` cells: a word with its space, else (too wide) its clusters."""
    spans: list[tuple[int, int]] = []
    start = 0
    for word in _BREAK.split(line):
        if not word:
            continue
        end = start + len(word)
        if cells(word.rstrip(" \u200b")) <= width:
            spans.append((start, end))
        else:  # a word wider than the line: fold it between clusters
            at = start
            for cluster in graphemes(word):
                spans.append((at, at + len(cluster)))
                at += len(cluster)
        start = end
    return spans


def fit(text: Text, width: int) -> Text:
    """``text`` with a line break wherever a line would be wider than ``width`` cells (:func:`cells`).

    Lines are broken after a space (or a zero-width space), and inside a word only between
    grapheme clusters, so that Rich (which counts some clusters narrower) never folds a line
    again inside a cluster. A text that fits is returned as it is.
    """
    width = max(1, width)
    cuts: list[int] = []
    offset = 0
    for line in text.plain.split("\n"):
        column = 0
        for start, end in _pieces(line, width):
            size = cells(line[start:end].rstrip(" \u200b"))
            if column and column + size > width:
                cuts.append(offset + start)
                column = 0
            column += cells(line[start:end])
        offset += len(line) + 1
    if not cuts:
        return text
    parts: list[Text] = []
    previous = 0
    for cut in cuts:
        parts.append(text[previous:cut])
        previous = cut
    parts.append(text[previous:])
    return text.blank_copy("\n").join(parts)


# -- names and the core's words --------------------------------------------------------

_BOT = re.compile(r"Bot (\d+)")


def _seat_name(names: Names, seat: int, lang: str) -> str:
    """Another seat's name in ``lang``: "Bot N" in the language's words, any other name as it is."""
    name = names.seats[seat]
    if translatable(name):
        return translate(name, lang)
    found = _BOT.fullmatch(name)
    if found is not None:
        # TRANSLATORS: a bot's name in the terminal game ("Bot 1"); {number} is its seat number
        return translate(said("Bot {number}", number=int(found.group(1))), lang)
    return name


def subject(names: Names, seat: int, lang: str = DEFAULT) -> str:
    """A seat starting a sentence, in ``lang``: "You", "Bot 1" (as :meth:`Names.subject` in English)."""
    if lang == DEFAULT:
        return names.subject(seat)
    if seat == names.reader:
        # TRANSLATORS: the person playing, as a name on its own (a column of names, "Turn: You")
        return translate(said("You"), lang)
    return _seat_name(names, seat, lang)


def object_name(names: Names, seat: int, lang: str = DEFAULT) -> str:
    """A seat inside a sentence, in ``lang``: "you", "Bot 1"."""
    if lang == DEFAULT:
        return names.object(seat)
    if seat == names.reader:
        # TRANSLATORS: the person playing, inside a sentence ("Waiting for you")
        return translate(said("you"), lang)
    return _seat_name(names, seat, lang)


_SEAT = re.compile(r"\bseat (\d+)('s)?")


def named(text: object, names: Names, lang: str = DEFAULT) -> str:
    """The core's words (``seat N`` inside) in ``lang`` with the seats' names put in (English: as before)."""
    translated = translate(text, lang)
    if lang == DEFAULT:
        return name_seats(translated, names)
    return name_seats(translated, names, lang)


def words(text: object, lang: str = DEFAULT) -> str:
    """Any text in ``lang``: a :class:`~unoengine.i18n.Said` by its message id, a plain string as it is when no
    catalog has it (a name, notation), in English as it is."""
    return translate(text, lang)


# -- the keys' words (the keys stay letters) -----------------------------------------

KEY_WORDS = (
    # TRANSLATORS: what a key does, in the footer of the terminal game (short: one or two words)
    said("First"),
    said("Last"),
    said("Play"),
    said("Draw"),
    said("Pass"),
    said("UNO"),
    said("Catch"),
    said("Jump in"),
    said("Log"),
    said("Log ↑"),
    said("Log ↓"),
    said("Type"),
    said("Help"),
    said("Review"),
    said("Quit"),
    said("Cancel"),
    said("Close"),
    said("Back"),
    said("Next"),
    said("Everyone's marks"),
)
"""The footer's words for the keys, as messages to translate (a binding's description is looked up by its English)."""


def translate_bindings(node: DOMNode, lang: str) -> None:
    """Put what each key of ``node`` (an app, a screen) does in ``lang``: the footer shows it (the keys stay)."""
    if lang == DEFAULT:
        return
    keys = node._bindings.key_to_bindings
    for key, bindings in keys.items():
        keys[key] = [replace(b, description=translate(b.description, lang)) if b.description else b for b in bindings]
