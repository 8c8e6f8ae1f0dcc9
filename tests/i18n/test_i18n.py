"""The words layer (unoengine.i18n): a Said is its English text, knows its message, and says it in
any language; plural forms per CLDR; the language a browser or a terminal asks for."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest
from babel import Locale

from unoengine import i18n
from unoengine.i18n import LANGUAGES, PLURAL_FORMS, Said, catalog_json, catalogs, said, said_n, translate


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A tiny Khmer catalog whose translations are marked, so that a test sees which text was looked up."""
    fake = {
        "{who} drew {n}": "«{n} drawn by {who}»",
        "You": "«you»",
        "{n} card": ("«{n} card(s)»",),
        "green": "«green»",
    }
    monkeypatch.setattr(i18n, "_catalog", lambda lang: fake if lang == "km" else {})
    yield


def test_a_said_is_its_english_text_and_keeps_its_message() -> None:
    line = said("{who} drew {n}", who=said("You"), n=3)
    assert line == "You drew 3" and isinstance(line, str) and isinstance(line, Said)
    assert line.template == "{who} drew {n}" and line.args["n"] == 3
    assert translate(line, "en") == "You drew 3"
    assert type(translate(line, "en")) is str


def test_plural_english_chooses_by_count() -> None:
    assert said_n("{n} card", "{n} cards", 1) == "1 card"
    assert said_n("{n} card", "{n} cards", 0) == "0 cards"
    assert said_n("{n} card", "{n} cards", 7, color="red") == "7 cards"


def test_a_said_survives_pickling() -> None:
    line = said_n("{n} card", "{n} cards", 2, who=said("You"))
    again = pickle.loads(pickle.dumps(line))
    assert again == line and isinstance(again, Said) and again.template == "{n} card" and again.args == line.args


def test_translation_uses_the_catalog_and_translates_said_arguments_only(marked: None) -> None:
    line = said("{who} drew {n}", who=said("You"), n=3)
    assert translate(line, "km") == "«3 drawn by «you»»"
    named = said("{who} drew {n}", who="green", n=1)  # a plain str argument (a name) is never looked up
    assert translate(named, "km") == "«1 drawn by green»"
    assert translate(said_n("{n} card", "{n} cards", 5), "km") == "«5 card(s)»"
    assert translate("green", "km") == "«green»" and translate("no such message", "km") == "no such message"
    assert translate(said("{who} drew {n}", who="x", n=1), "si") == "x drew 1", "no catalog entry: English"


def test_an_unknown_placeholder_stays_and_no_other_format_syntax_is_read() -> None:
    assert said("{a} and {b}", a=1) == "1 and {b}"
    assert said("a {0} {x:+d} b", x=1) == "a {0} {x:+d} b"


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_plural_forms_follow_cldr(lang: str) -> None:
    """Khmer and Lao have one form; Sinhala's first form is CLDR's `one` (0 and 1), so is the header's."""
    rule = Locale.parse(lang).plural_form
    forms = int(PLURAL_FORMS[lang].split(";")[0].split("=")[1])
    assert forms == len(rule.rules) + 1
    browser = catalog_json(lang)
    assert browser["plurals"] == forms
    for n in range(300):
        expected = 0 if forms == 1 or rule(n) == "one" else 1
        assert i18n.plural_index(lang, n) == expected, (lang, n)
        if forms == 2:
            assert (n in browser["one"]) == (expected == 0) or n > 1


def test_each_catalog_declares_its_languages_plural_forms() -> None:
    for lang in LANGUAGES:
        if lang == "en":
            continue
        text = (catalogs.LOCALE / f"{lang}.po").read_text(encoding="utf-8")
        assert f'"Plural-Forms: {PLURAL_FORMS[lang]}\\n"' in text, lang
        assert f'"Language: {lang}\\n"' in text


@pytest.mark.parametrize(
    ("accepted", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("km-KH,km;q=0.9,en;q=0.8", "km"),
        ("fr-FR, si;q=0.5, lo;q=0.7", "lo"),
        ("de,fr", "en"),
        (["lo-LA", "en-US"], "lo"),
        ("si_LK.UTF-8", "si"),
        ("en;q=0.1, km;q=0.9", "km"),
        ("km;q=abc, si", "si"),
    ],
)
def test_negotiate_picks_our_best_language(accepted: str | list[str] | None, lang: str) -> None:
    assert i18n.negotiate(accepted) == lang


def test_the_terminal_language_comes_from_the_environment() -> None:
    assert i18n.language_from_env({"LANG": "km_KH.UTF-8"}) == "km"
    assert i18n.language_from_env({"LC_ALL": "si_LK.UTF-8", "LANG": "lo_LA.UTF-8"}) == "si"
    assert i18n.language_from_env({"LANG": "C.UTF-8"}) == "en"
    assert i18n.language_from_env({}) == "en"
