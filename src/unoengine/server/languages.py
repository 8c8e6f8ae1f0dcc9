"""The server's words in each reader's language over HTTP (docs/PROTOCOL.md, "Languages").

``GET /i18n/{lang}.json`` is the browser's catalog (:func:`unoengine.i18n.catalog_json`);
``?lang=`` on the API's routes says their words in that language, and their JSON errors
follow ``?lang=`` or the ``Accept-Language`` header. The WebSocket's language is its
``hello``'s ``lang`` (:mod:`unoengine.server.outbox`). The fonts of the scripts English
fonts lack are served here too, as ``font/woff2`` and cacheable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from unoengine.i18n import DEFAULT, LANGUAGES, catalog_json, negotiate, said, translate
from unoengine.play.narrator import in_language

__all__ = ["CACHE_DAY", "catalog", "error", "font", "query_lang", "reader_lang", "rules_in"]

CACHE_DAY = "public, max-age=86400"
"""What a catalog and a font may be kept for (a day: a new release's words reach a browser by the next day)."""
FONTS = Path(__file__).parent / "static" / "fonts"


def query_lang(request: Request) -> str:
    """The language a route's words are in: its ``?lang=`` (one of ``LANGUAGES``), else English."""
    lang = request.query_params.get("lang", DEFAULT)
    return lang if lang in LANGUAGES else DEFAULT


def reader_lang(request: Request) -> str:
    """The language of a route's errors: its ``?lang=``, else the best of the ``Accept-Language`` header."""
    lang = request.query_params.get("lang")
    if lang in LANGUAGES:
        return str(lang)
    return negotiate(request.headers.get("accept-language"))


def error(status: int, code: str, message: str, lang: str = DEFAULT) -> JSONResponse:
    """An HTTP route's JSON error: ``{"error": code, "message": …}``, the message in ``lang`` (the code never)."""
    return JSONResponse({"error": code, "message": translate(message, lang)}, status_code=status)


async def catalog(request: Request) -> Response:
    """``GET /i18n/{lang}.json``: a language's messages for the browser (404 for a language we do not speak)."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        return error(
            404, "no_lang", said("unknown language {lang} (known: {known})", lang=repr(lang[:20]), known=known)
        )
    return JSONResponse(catalog_json(lang), headers={"Cache-Control": CACHE_DAY})


_FONT_FILES = frozenset(path.name for path in FONTS.glob("*.woff2")) if FONTS.is_dir() else frozenset()


async def font(request: Request) -> Response:
    """``GET /static/fonts/{name}``: a ``.woff2`` font as ``font/woff2``, kept a day (other files: static files)."""
    name = request.path_params["name"]
    if name not in _FONT_FILES:
        if name == "OFL.txt":
            return FileResponse(
                FONTS / name, media_type="text/plain; charset=utf-8", headers={"Cache-Control": CACHE_DAY}
            )
        return error(404, "no_file", said("there is no such file"), reader_lang(request))
    return FileResponse(FONTS / name, media_type="font/woff2", headers={"Cache-Control": CACHE_DAY})


def rules_in(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """``GET /api/rules``'s body in ``lang``: the options' and presets' words, each rule set's title and summary."""
    if lang == DEFAULT:
        return body
    out: dict[str, Any] = in_language(body, lang)
    for given, said_in in zip(body["rules"], out["rules"], strict=True):
        pairs = zip((*given["specs"], *given["presets"]), (*said_in["specs"], *said_in["presets"]), strict=True)
        for item, translated in pairs:
            translated["words"] = translate(item["words"], lang)  # a plain str is looked up as a message id
    return out


def summary_of(name: str) -> str | None:
    """A rule set's summary (the core's ``summaries.summary``), or ``None`` where this build has none."""
    try:
        from unoengine.core.rules.summaries import summary
    except ImportError:
        return None
    try:
        found: str = summary(name)
    except (KeyError, LookupError, ValueError):
        return None
    return found
