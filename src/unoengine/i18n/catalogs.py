"""The catalogs' upkeep: extract every message, merge it into each language's catalog, check them.

``python -m unoengine.i18n.catalogs update`` extracts the messages of the Python
sources (:func:`~unoengine.i18n.said`, :func:`~unoengine.i18n.said_n`) and of the
browser's scripts (``t(...)``, ``tn(...)``) and merges them into every
``locale/<lang>.po``: a new message arrives untranslated, a gone one is dropped.
``check`` (run by the test suite) lists each problem: a message that is
untranslated, fuzzy, missing from a catalog or no longer used, a translation
whose ``{placeholders}`` differ from its message's, and a message with a brace
that is no ``{name}`` placeholder. ``load LANG FILE.json`` fills a
catalog from a JSON object of message → translation (a plural message: its
singular → the list of forms). A development tool: the game never runs it.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from unoengine.i18n import DEFAULT, LANGUAGES, PLURAL_FORMS

__all__ = ["LOCALE", "SOURCE", "check", "extract", "load", "main", "update"]

SOURCE = Path(__file__).resolve().parent.parent
"""The package's sources (``src/unoengine``)."""
LOCALE = Path(__file__).resolve().parent / "locale"
PASSES: list[tuple[tuple[str, str], dict[str, Any]]] = [
    (("**.py", "python"), {"said": None, "said_n": (1, 2)}),
    (("**/static/**.js", "javascript"), {"t": None, "tn": (1, 2)}),
]
"""The sources and their message calls: Python's said/said_n, the browser's t/tn."""
_FIELD = re.compile(r"\{(\w+)\}")


def extract() -> Catalog:
    """Every message of the sources, with where it is used and its ``TRANSLATORS:`` comments."""
    catalog = Catalog(project="unoengine", charset="utf-8")
    for method, keywords in PASSES:  # each language's own keywords: a Python method named t is no message
        found = extract_from_dir(
            str(SOURCE),
            method_map=[method],
            options_map={"**/static/**.js": {"parse_template_string": True}},
            keywords=keywords,
            comment_tags=["TRANSLATORS:"],
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def _read(lang: str) -> Catalog:
    path = LOCALE / f"{lang}.po"
    if not path.exists():
        return Catalog(locale=lang, project="unoengine", charset="utf-8")
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def update(langs: list[str] | None = None) -> None:
    """Merge the sources' messages into each catalog (new ones untranslated, gone ones removed)."""
    template = extract()
    for lang in langs or [code for code in LANGUAGES if code != DEFAULT]:
        catalog = _read(lang)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        _write(lang, catalog)


def _write(lang: str, catalog: Catalog) -> None:
    """The catalog to ``locale/<lang>.po``, with a fixed header (dates, Plural-Forms from CLDR)."""
    catalog.fuzzy = False
    catalog.project, catalog.version = "unoengine", "0.1.0"
    catalog.msgid_bugs_address = catalog.last_translator = ""
    catalog.language_team = f"{LANGUAGES[lang]} <{lang}>"
    catalog.creation_date = catalog.revision_date = datetime(2026, 12, 5, tzinfo=UTC)
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=False, include_previous=False)
    plural = f'"Plural-Forms: {PLURAL_FORMS[lang]}\\\\n"'
    text = re.sub(r'"Plural-Forms: [^"]*\\n"', plural, out.getvalue().decode())
    text = re.sub(r"\A(?:#[^\n]*\n)+", f"# {LANGUAGES[lang]} ({lang}) messages of unoengine.\n", text)
    (LOCALE / f"{lang}.po").write_text(text, encoding="utf-8")


def load(lang: str, translations: Mapping[str, str | list[str]]) -> int:
    """Fill ``lang``'s catalog from a mapping of message (a plural one by its singular) to translation
    (a plural one as its list of forms); returns how many messages it filled. Unknown messages are ignored."""
    catalog = _read(lang)
    filled = 0
    for message in catalog:
        if not message.id:
            continue
        found = translations.get(_key(message.id))
        if found is None:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = [found] if isinstance(found, str) else list(found)
            message.string = tuple(forms[: catalog.num_plurals] + forms[-1:] * (catalog.num_plurals - len(forms)))
        else:
            message.string = found if isinstance(found, str) else found[0]
        message.flags.discard("fuzzy")
        filled += 1
    _write(lang, catalog)
    return filled


def _key(message_id: str | tuple[str, ...] | list[str]) -> str:
    """A message's key: its id, or a plural message's singular."""
    return message_id if isinstance(message_id, str) else message_id[0]


def _fields(text: str) -> set[str]:
    return set(_FIELD.findall(text))


def check(langs: list[str] | None = None) -> list[str]:
    """Every problem of the catalogs against the sources, as ``<lang>: <problem>: <message>`` lines."""
    template = extract()
    wanted = {_key(message.id): message for message in template if message.id}
    problems: list[str] = []
    for key, message in wanted.items():  # only {name} placeholders: a Said's English is str.format_map's
        texts = [message.id] if isinstance(message.id, str) else list(message.id)
        if any(re.search(r"[{}]", _FIELD.sub("", text)) for text in texts):
            problems.append(f"source: a brace that is no {{name}} placeholder: {key!r}")
    for lang in langs or [code for code in LANGUAGES if code != DEFAULT]:
        problems.extend(_check_one(lang, wanted))
    return problems


def _check_one(lang: str, wanted: Mapping[str, object]) -> Iterator[str]:
    if not (LOCALE / f"{lang}.po").exists():
        yield f"{lang}: no catalog (locale/{lang}.po)"
        return
    catalog = _read(lang)
    have: dict[str, object] = {}
    for message in catalog:
        if not message.id:
            continue
        key = _key(message.id)
        have[key] = message
        if key not in wanted:
            yield f"{lang}: unused: {key!r}"
            continue
        if message.fuzzy:
            yield f"{lang}: fuzzy: {key!r}"
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string or ())
        if not all(forms):
            yield f"{lang}: untranslated: {key!r}"
            continue
        expected = set().union(*(_fields(text) for text in ids))
        for form in forms:
            if _fields(form) != expected:
                yield f"{lang}: placeholders differ ({sorted(_fields(form))} for {sorted(expected)}): {key!r}"
        if isinstance(message.id, tuple) and len(forms) != catalog.num_plurals:
            yield f"{lang}: {len(forms)} plural forms for {catalog.num_plurals}: {key!r}"
    for key in wanted:
        if key not in have:
            yield f"{lang}: missing: {key!r}"


def main(argv: list[str] | None = None) -> int:
    """``update`` or ``check`` (exit 1 with the problems listed)."""
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "check"
    if command == "update":
        update(args[1:] or None)
        return 0
    if command == "load" and len(args) >= 3:
        import json

        for name in args[2:]:
            print(f"{args[1]}: {load(args[1], json.loads(Path(name).read_text(encoding='utf-8')))} from {name}")
        return 0
    if command == "check":
        problems = check(args[1:] or None)
        for line in problems:
            print(line)
        print(f"{len(problems)} problem(s)")
        return 1 if problems else 0
    print("usage: python -m unoengine.i18n.catalogs update|check [LANG ...] | load LANG FILE.json ...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
