"""The game's terms in every language, and where each word comes from (docs/GLOSSARY.md).

Each term is a message of the catalogs (the cards' names are the very messages the
game shows), so the glossary cannot drift from the game's words. Where a word comes
from is kept per language in ``locale/<lang>.terms.tsv`` (term, a tab, the source:
the original rulebook that uses the word, or why another word was chosen).
``python -m unoengine.i18n.glossary`` writes docs/GLOSSARY.md; a test checks it is current.
"""

from __future__ import annotations

import sys
from pathlib import Path

from unoengine.i18n import DEFAULT, LANGUAGES, Said, gettext, said

__all__ = ["TERMS", "glossary_markdown", "sources"]

TERMS: tuple[Said, ...] = (
    said("UNO"),
    said("card"),
    said("hand"),
    said("draw pile"),
    said("discard pile"),
    said("draw"),
    said("play"),
    said("pass"),
    said("turn"),
    said("round"),
    said("points"),
    said("red"),
    said("yellow"),
    said("green"),
    said("blue"),
    said("Skip"),
    said("Reverse"),
    said("Draw Two"),
    said("Wild"),
    said("Wild Draw Four"),
    said("challenge"),
    said("Power Card"),
    said("flex side"),
    said("Wild All Flip"),
    said("Flex Wild Draw Two"),
    said("Flex Wild All Draw"),
    said("Flex Wild Draw Four"),
    said("draft"),
    said("clockwise"),
    said("counterclockwise"),
)
"""The terms, in the order of the glossary: the things of the game, the colours, the cards, then each rule set's own."""

_LOCALE = Path(__file__).resolve().parent / "locale"


def sources(lang: str) -> dict[str, str]:
    """Where each term's word in ``lang`` comes from (``locale/<lang>.terms.tsv``)."""
    path = _LOCALE / f"{lang}.terms.tsv"
    found: dict[str, str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                term, _, source = line.partition("\t")
                found[term.strip()] = source.strip()
    return found


def glossary_markdown() -> str:
    """docs/GLOSSARY.md: the terms in the four languages, then each language's sources."""
    langs = [code for code in LANGUAGES if code != DEFAULT]
    lines = [
        "# Glossary",
        "",
        "<!-- Written by `python -m unoengine.i18n.glossary` from the catalogs "
        "(src/unoengine/i18n/locale/*.po) and their sources (locale/*.terms.tsv); do not edit. -->",
        "",
        "The game's terms as unoengine says them in each language. Card names and game terms follow",
        "the original rulebooks' own words where those name the thing; the sources below say, for each",
        "language and term, which rulebook the word comes from, or why another word was chosen. The",
        "rulebooks are Khmer (Classic UNO, UNO Duo, UNO Flex!), Sinhala (Classic UNO) and Lao (UNO Duo)",
        "web pages, partly machine-translated, so some of their words were not kept.",
        "",
        "| English | " + " | ".join(f"{LANGUAGES[lang]} ({lang})" for lang in langs) + " |",
        "|---|" + "---|" * len(langs),
    ]
    for term in TERMS:
        lines.append(f"| {term} | " + " | ".join(gettext(lang, term.template) for lang in langs) + " |")
    for lang in langs:
        found = sources(lang)
        lines += ["", f"## {LANGUAGES[lang]} ({lang}): where the words come from", ""]
        for term in TERMS:
            lines.append(f"- **{term}** ({gettext(lang, term.template)}): {found.get(str(term), '(no source given)')}")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Write docs/GLOSSARY.md (the path is the argument, by default ``docs/GLOSSARY.md``)."""
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/GLOSSARY.md")
    target.write_text(glossary_markdown(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
