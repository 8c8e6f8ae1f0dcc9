"""Words in the reader's language: English in the core, translated at the edge (docs/LANGUAGES.md).

The core, the ``Table`` and the narrator make their sentences with :func:`said`
(and :func:`said_n` for a count): a :class:`Said` *is* the English sentence (a
``str``, so every English caller and test reads it as before) and also keeps its
message id (the English template, ``"{who} drew {n}"``) and its arguments. An
interface renders it in a reader's language with :func:`translate`, which looks
the template up in that language's gettext catalog (``locale/<lang>.po``, read
with Babel) and fills in the arguments, themselves translated when they are
:class:`Said`. Records, notation and action ids never change with language.

Seats inside the core's words stay ``seat N`` in every language: each client puts
its own names in (and the reader's own word for "you").

The browser reads the same catalogs as JSON (:func:`catalog_json`), so a message
exists once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "PLURAL_FORMS",
    "Said",
    "Translatable",
    "catalog_json",
    "gettext",
    "language_from_env",
    "negotiate",
    "ngettext",
    "plural_index",
    "said",
    "said_n",
    "translatable",
    "translate",
]

DEFAULT = "en"
LANGUAGES: dict[str, str] = {"en": "English", "km": "ខ្មែរ", "si": "සිංහල", "lo": "ລາວ"}
"""Every language unoengine speaks, by its code, with its own name for itself (the pickers show it).

A new language is one catalog (``src/unoengine/i18n/locale/<code>.po``) and one line here
(docs/LANGUAGES.md, "Add a language")."""

PLURAL_FORMS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "km": "nplurals=1; plural=0;",
    "lo": "nplurals=1; plural=0;",
    "si": "nplurals=2; plural=(n != 0 && n != 1);",
}
"""Each language's gettext Plural-Forms, from CLDR: Khmer and Lao have one form; Sinhala two, the
first for 0 and 1 (CLDR's ``one: n = 0,1``; Babel's gettext table has ``n != 1`` for it, so the
catalogs' headers are written from here). :func:`plural_index` is the same rule in Python."""


def plural_index(lang: str, n: int) -> int:
    """Which plural form of ``lang`` a count takes (the browser's copy is checked against this)."""
    if lang in ("km", "lo"):
        return 0
    if lang == "si":
        return 0 if n in (0, 1) else 1
    return 0 if n == 1 else 1


@runtime_checkable
class Translatable(Protocol):
    """Anything :func:`translate` renders in a language by itself (a :class:`Said`, a sentence with names)."""

    def translated(self, lang: str) -> str: ...


def translatable(value: object) -> bool:
    """Whether ``value`` says itself in a language (a :class:`Translatable`): the fast test, where
    ``isinstance`` of the Protocol walks its members at every call (the servers' path is full of them)."""
    return callable(getattr(value, "translated", None))


class Said(str):
    """An English sentence that knows its message id and arguments, so that it can be said in any language.

    Made by :func:`said` and :func:`said_n`; as a ``str`` it is the English text.
    """

    template: str
    plural: str | None
    args: dict[str, Any]

    def __new__(cls, template: str, plural: str | None = None, /, **args: Any) -> Said:
        chosen = template
        if plural is not None:
            n = args.get("n")
            if isinstance(n, int) and n != 1:
                chosen = plural
        self = super().__new__(cls, _english(chosen, args) if args else chosen)
        self.template = template
        self.plural = plural
        self.args = args
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.template, self.plural), self.args

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_remake, (self.template, self.plural, self.args))

    def translated(self, lang: str) -> str:
        """This sentence in ``lang`` (English for ``en``, or for a message no catalog has)."""
        if lang == DEFAULT:
            return str.__str__(self)
        n = self.args.get("n")
        if self.plural is not None and isinstance(n, int):
            text = ngettext(lang, self.template, self.plural, n)
        else:
            text = gettext(lang, self.template)
        return _fill(text, self.args, lang)


def _remake(template: str, plural: str | None, args: dict[str, Any]) -> Said:
    return Said(template, plural, **args)


said = Said
"""A sentence to translate: ``said("{who} drew {n}", who=..., n=3)`` (extracted into the catalogs).

The class itself (a call less on the servers' path); a second positional argument would be a plural
form: use :func:`said_n` for a count."""


def said_n(singular: str, plural: str, n: int, /, **args: Any) -> Said:
    """A sentence with a count ``n`` (``{n}`` in the text), in the plural form the count takes in each language."""
    return Said(singular, plural, n=n, **args)


_FIELD = re.compile(r"\{(\w+)\}")


def _english(template: str, args: Mapping[str, Any]) -> str:
    """``template`` filled with its arguments' English (every one is its own English: a ``Said`` is a str).

    ``str.format_map`` does it in C, the servers' every view makes many of these; a template it cannot
    fill (a missing argument, a literal brace, a positional field) is filled by :func:`_fill`, which
    replaces only ``{name}``s it has."""
    try:
        return template.format_map(args)
    except (KeyError, ValueError, IndexError, AttributeError, TypeError):
        return _fill(template, args, DEFAULT)


def _fill(template: str, args: Mapping[str, Any], lang: str) -> str:
    """``template`` with each ``{name}`` replaced by its argument in ``lang`` (no other format syntax)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in args:
            return match.group(0)
        arg = args[name]  # a plain str argument (a name, ``seat 2``, notation) is never looked up
        say = getattr(arg, "translated", None) if lang != DEFAULT else None
        return say(lang) if callable(say) else str(arg)

    return _FIELD.sub(value, template)


def translate(text: object, lang: str) -> str:
    """``text`` in ``lang``: a :class:`Said` (or other :class:`Translatable`) by its message id,
    a plain ``str`` looked up as a message id (or left as it is: a name, notation), anything else as ``str``."""
    say = getattr(text, "translated", None)  # (not isinstance of the Protocol: slow on the servers' path)
    if callable(say):
        result: str = say(lang)
        return result
    if isinstance(text, str):
        return text if lang == DEFAULT else gettext(lang, text)
    return str(text)


@cache
def _catalog(lang: str) -> Mapping[str, str | tuple[str, ...]]:
    """The language's translated messages by message id (Babel reads the package's ``.po``)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return {}
    from babel.messages.pofile import read_po  # the catalogs are read once, at first use

    source = resources.files("unoengine.i18n").joinpath("locale", f"{lang}.po")
    with source.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    messages: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = tuple(str(form) for form in message.string or ())
            if all(forms):
                messages[str(message.id[0])] = forms
        elif message.string:
            messages[str(message.id)] = str(message.string)
    return messages


def gettext(lang: str, message: str) -> str:
    """The message in ``lang`` (itself where the catalog has no translation)."""
    found = _catalog(lang).get(message)
    return found if isinstance(found, str) else message


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The message for ``n`` in ``lang``, in the plural form ``n`` takes there."""
    found = _catalog(lang).get(singular)
    if isinstance(found, tuple):
        return found[min(plural_index(lang, n), len(found) - 1)]
    return singular if n == 1 else plural


def catalog_json(lang: str) -> dict[str, Any]:
    """What the browser loads for ``lang``: its messages (a plural message as a list of forms) and plural rule.

    ``plurals`` is the number of forms; with two, a count in ``one`` takes the first (the same rule
    as :func:`plural_index` for every count: 1 in English, 0 and 1 in Sinhala)."""
    forms = 1 if lang in ("km", "lo") else 2
    one = [n for n in range(2) if plural_index(lang, n) == 0] if forms > 1 else []
    return {"lang": lang, "plurals": forms, "one": one, "messages": dict(_catalog(lang))}


def negotiate(accepted: Iterable[str] | str | None) -> str:
    """The best of our languages for an ``Accept-Language`` header, a browser's list, or ``LANG`` (else English)."""
    if accepted is None:
        return DEFAULT
    items = accepted.split(",") if isinstance(accepted, str) else list(accepted)
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(items):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, index, tag.strip()))
    for _, _, tag in sorted(ranked):
        code = re.split(r"[-_.@]", tag.lower(), maxsplit=1)[0]
        if code in LANGUAGES:
            return code
    return DEFAULT


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``km_KH.UTF-8`` → ``km``)."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return negotiate(value)
    return DEFAULT
