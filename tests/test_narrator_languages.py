"""The narrator in every language: each line is Translatable, said whole in each language with the names in."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from unoengine import i18n
from unoengine.core.engine import apply, legal_actions, new_game
from unoengine.core.views import view_for
from unoengine.i18n import LANGUAGES, Translatable, said, translate
from unoengine.play.narrator import Named, Names, first_card, in_language, name_seats, narrate

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 3, {"wild_draw_four": "challenge", "single_round": False, "target_score": 40}),
    ("duo", 2, {"single_round": False, "target_score": 30}),
    (
        "classic",
        4,
        {"stack_draw": "mixed", "wild_draw_four": "challenge", "seven_zero": True, "jump_in": True, "multi_play": True},
    ),
    (
        "classic",
        4,
        {"teams": "pairs", "stack_draw": "mixed", "deflect": "both", "seven_zero": True, "single_round": True},
    ),
    ("flex", 4, {"single_round": False, "target_score": 40, "draw_until_playable": True}),
]
PLACEHOLDER = re.compile(r"\{\w+\}")
SEAT = re.compile(r"\bseat \d+")
NAMES = ("Ann", "Bob", "Cy", "Dee")


def told(rules: str, seats: int, options: dict[str, Any], seed: int, steps: int = 250) -> Iterator[tuple[str, Names]]:
    """Every line of a random game, for every reader (each seat and a spectator)."""
    state = new_game(rules, seats, seed=seed, options=options)
    rng = random.Random(seed)
    readers = [*range(seats), None]
    for reader in readers:
        names = Names(NAMES[:seats], reader)
        line = first_card(view_for(state, reader), names)
        if line is not None:
            yield line, names
    for _ in range(steps):
        if state.is_over:
            return
        seat = state.to_act
        assert seat is not None
        transition = apply(state, seat, rng.choice(legal_actions(state, seat)))
        for reader in readers:
            names = Names(NAMES[:seats], reader)
            before, after = view_for(state, reader), view_for(transition.state, reader)
            yield from ((line, names) for line in narrate(before, transition.events, after, names, state.tables.cards))
        state = transition.state


def marked(lang: str) -> Mapping[str, str | tuple[str, ...]]:
    """A fake catalog: every message the narrator's lines use, marked «…» (what a translation would do)."""
    if lang == "en":
        return {}
    return _MARKED


PLURALS = {"{who} drew {n}"}
"""The narrator's messages with a count (one form in Khmer)."""


class _Marks(dict[str, str]):
    """Any message id is "translated" to itself marked with « », so every template can be told apart."""

    def get(self, key: str, default: Any = None) -> Any:
        return (f"«{key}»",) if key in PLURALS else f"«{key}»"


_MARKED = _Marks()


@pytest.mark.parametrize(("rules", "seats", "options"), CONFIGS)
def test_every_line_is_translatable_and_said_whole_with_the_names(
    rules: str, seats: int, options: dict[str, Any]
) -> None:
    lines = 0
    for seed in range(3):
        for line, _names in told(rules, seats, options, seed):
            assert isinstance(line, Translatable), line
            assert translate(line, "en") == str(line)
            for lang in LANGUAGES:
                text = translate(line, lang)
                assert not PLACEHOLDER.search(text), (lang, line, text)
                assert not SEAT.search(text), (lang, line, text)
            lines += 1
    assert lines > 50


def test_a_translated_line_uses_the_translated_templates_and_keeps_the_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_catalog", marked)
    seen: set[str] = set()
    for rules, seats, options in CONFIGS:
        for line, names in told(rules, seats, options, 1, steps=120):
            text = translate(line, "km")
            assert str(line) != text and text.startswith("«"), (line, text)  # the whole sentence's template
            assert not PLACEHOLDER.search(text) and not SEAT.search(text), text
            for seat, name in enumerate(names.seats):
                if seat != names.reader and re.search(rf"\b{name}\b", str(line)):
                    assert name in text, (line, text)  # a name is never translated
            if names.reader is not None:
                assert translate(names.object(names.reader), "km") == "«you»"  # the reader's word is translated
            seen.add(type(line).__name__)
    assert "Said" in seen


def test_the_english_lines_are_unchanged_and_carry_their_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_catalog", lambda lang: {})
    line = said("{who} drew {n}", who=said("You"), n=3)
    assert line == "You drew 3" and translate(line, "si") == "You drew 3"  # an empty catalog says English


def test_named_core_words_are_translated_first_and_named_after(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = {"caught {seat}": "ចាប់ {seat}", "you": "អ្នក", "{who} {words}": "{who}៖ {words}"}
    monkeypatch.setattr(i18n, "_catalog", lambda lang: {} if lang == "en" else catalog)
    names = Names(("Ann", "Bob"), 0)
    words = said("caught {seat}", seat="seat 1")
    assert Named(words, names) == "caught Bob"
    assert translate(Named(words, names), "km") == "ចាប់ Bob"
    assert translate(Named(said("caught {seat}", seat="seat 0"), Names(("Ann", "Bob"), 0)), "km") == "ចាប់ អ្នក"
    line = said("{who} {words}", who="Ann", words=Named(words, names))
    assert line == "Ann caught Bob" and translate(line, "km") == "Ann៖ ចាប់ Bob"
    assert name_seats("ចាប់ seat 0 និង seat 1", names, "km") == "ចាប់ អ្នក និង Bob"
    assert name_seats("seat 0 holds 3", names) == "you hold 3"  # English: the verb agrees


def test_in_language_translates_every_said_in_a_json_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_catalog", lambda lang: {} if lang == "en" else {"red": "ក្រហម"})
    value = {"a": [said("red"), "red", 3, None], "b": {"c": said("red")}}
    assert in_language(value, "en") is value
    assert in_language(value, "km") == {"a": ["ក្រហម", "red", 3, None], "b": {"c": "ក្រហម"}}
