"""The glossary (docs/GLOSSARY.md) is written from the catalogs and names a source for every term."""

from __future__ import annotations

from pathlib import Path

from unoengine.i18n import LANGUAGES, _catalog
from unoengine.i18n.glossary import TERMS, glossary_markdown, sources

DOC = Path(__file__).resolve().parents[2] / "docs" / "GLOSSARY.md"


def test_the_glossary_page_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == glossary_markdown(), "run: python -m unoengine.i18n.glossary"


def test_every_term_is_translated_and_has_a_source_in_every_language() -> None:
    for lang in LANGUAGES:
        if lang == "en":
            continue
        given = sources(lang)
        for term in TERMS:
            assert term.template in _catalog(lang), f"{lang}: {term!r} is not translated (a word kept in Latin is too)"
            assert given.get(str(term)), f"{lang}: no source for {term!r} in locale/{lang}.terms.tsv"
        assert set(given) <= {str(term) for term in TERMS}, f"{lang}: sources for terms the glossary lacks"
