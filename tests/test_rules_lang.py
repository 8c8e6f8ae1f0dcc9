"""``uno rules --lang``: each rule set's summary and what each kind of card does, in a language."""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from click.testing import CliRunner

from unoengine import i18n
from unoengine.cli.main import cli
from unoengine.core.rules.summaries import summary

NOTE = "The full rulebook is in English: uno rules (or uno rules --lang en)."


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["rules", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


@pytest.mark.parametrize("lang", ["km", "si", "lo"])
def test_rules_in_a_language_without_a_catalog_shows_the_english_words(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(i18n, "_catalog", lambda lang: {})
    code, output = run("--lang", lang)
    assert code == 0, output
    for name in ("classic", "duo", "flex"):
        assert str(summary(name))[:40] in output
    assert "Skip: the next player misses their turn" in output
    assert "Wild Draw Four" in output
    assert "FW+4" in output, "Flex cards, in notation"
    assert NOTE in output
    assert "## " not in output and "C-1" not in output, "not the rulebook"


def test_rules_in_khmer_show_the_catalog_s_words(monkeypatch: pytest.MonkeyPatch) -> None:
    messages: dict[str, str] = {str(summary("classic").template): "ក្បួនខ្មែរ", NOTE: "សៀវភៅក្បួនជាភាសាអង់គ្លេស"}

    def catalog(lang: str) -> Mapping[str, str]:
        return messages if lang == "km" else {}

    monkeypatch.setattr(i18n, "_catalog", catalog)
    code, output = run("classic", "--lang", "km")
    assert code == 0, output
    assert "ក្បួនខ្មែរ" in output
    assert "សៀវភៅក្បួនជាភាសាអង់គ្លេស" in output
    assert str(summary("duo"))[:20] not in output, "one rule set only"
    assert "R+2" in output and "W+4" in output


def test_rules_in_english_is_the_rulebook() -> None:
    code, plain = run("classic")
    assert code == 0
    code, english = run("classic", "--lang", "en")
    assert code == 0
    assert english == plain
    assert NOTE not in english


def test_an_unknown_language_is_a_usage_error() -> None:
    code, output = run("--lang", "fr")
    assert code == 2
    assert "'fr' is not one of 'en', 'km', 'si', 'lo'" in output


ENGLISH_RUN = re.compile(r"\b[a-z]{3,}(?: [a-z]{2,}){2,}\b")
"""Three English words in a row (lower case: a brand or card name kept in Latin is capitalised)."""


@pytest.mark.parametrize("lang", ["km", "si", "lo"])
@pytest.mark.parametrize("rules", ["classic", "duo", "flex"])
def test_rules_in_a_language_with_its_catalog_leave_no_english_sentence(lang: str, rules: str) -> None:
    """With the shipped catalogs, every summary and every card's effect is in the language: no English
    sentence is left (a message that escaped translation would show here)."""
    code, output = run(rules, "--lang", lang)
    assert code == 0, output
    assert not ENGLISH_RUN.findall(output.replace("uno rules", "")), ENGLISH_RUN.findall(output)
