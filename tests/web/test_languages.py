"""The page in every language it speaks (English, Khmer, Sinhala, Lao), on a phone and a desktop.

A browser whose language is one of them gets the page in it (``navigator.languages``; a choice made
with the header's picker is remembered instead): ``<html lang>``, the picker, the ``lang`` of every
``hello`` and of the page's requests, the fonts of the script. A whole round of each rule set is played
through the page in each language, and at each moment (the form, the lobby, the table with a decision,
the round's summary) nothing visible overflows its box. The tests assert no translation (the catalogs
may still be empty, and their words English); the picker's test makes its own small catalog.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from playwright.async_api import Page

from tests.server.harness import Live, live_server
from tests.server.test_browser import Driver, create_in_ui, play_until_over
from tests.web.browser import DESKTOP, PHONE, chromium, draft_step, new_page, open_seat, shot, state, wait_for
from tests.web.test_page import play_something, seeded
from unoengine import i18n
from unoengine.i18n.catalogs import PASSES

LOCALES = {"en": "en-US", "km": "km-KH", "si": "si-LK", "lo": "lo-LA"}
FONTS = {"km": "Noto Sans Khmer", "si": "Noto Sans Sinhala", "lo": "Noto Sans Lao"}
SEATS = {"classic": 2, "duo": 2, "flex": 2}
CASES = [(lang, viewport, rules) for lang in LOCALES for viewport in ("phone", "desktop") for rules in SEATS]
"""A whole round of each rule set in every language, on a phone and on a desktop."""

SENT = """
window.unoSent = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { window.unoSent.push(JSON.parse(data)); } catch (e) {}
  return send.call(this, data);
};
"""
"""Every message the page sends on its WebSocket, kept in ``window.unoSent`` (installed before the page's scripts)."""

OVERFLOWING = """() => {
  const seen = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const bad = [];
  for (const e of document.querySelectorAll('button, a.button, .card, [role=dialog], .box, label, select#lang')) {
    if (!seen(e) || e.scrollWidth <= e.clientWidth + 1) continue;
    const text = (e.innerText || e.getAttribute('aria-label') || '').replace(/\\s+/g, ' ').slice(0, 80);
    bad.push(`${e.tagName.toLowerCase()}.${e.className}: "${text}" (${e.scrollWidth} > ${e.clientWidth})`);
  }
  return bad;
}"""
"""Every visible button, card, dialog and label whose text is wider than its box, with its text."""

FONT_FACES = """() => [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules])
  .filter((rule) => rule instanceof CSSFontFaceRule)
  .map((rule) => [rule.style.getPropertyValue('font-family').replaceAll('"', ''),
                  rule.style.getPropertyValue('font-weight')])"""


async def fits(page: Page, moment: str) -> None:
    bad = await page.evaluate(OVERFLOWING)
    assert bad == [], f"{moment}: {bad}"


async def in_language(page: Page, lang: str) -> None:
    """The page speaks ``lang``: ``<html lang>``, the picker, the fonts' rules and the body's font."""
    assert await page.evaluate("() => document.documentElement.lang") == lang
    assert await page.locator("#lang").input_value() == lang
    faces = await page.evaluate(FONT_FACES)
    for family in FONTS.values():
        assert sorted(weight for name, weight in faces if name == family) == ["400", "700"], faces
    body = await page.evaluate("() => getComputedStyle(document.body).fontFamily")
    if lang in FONTS:
        assert body.startswith(f'"{FONTS[lang]}"'), body
    else:
        assert "Noto" not in body, body


async def told(page: Page, lang: str) -> None:
    """Every ``hello`` the page sent told the server the language."""
    hellos = await page.evaluate("() => window.unoSent.filter((m) => m.type === 'hello')")
    assert hellos and all(h["lang"] == lang for h in hellos), hellos


async def create_through_the_form(page: Page, live: Live, rules: str) -> None:
    """A table for two (seat 1 a bot), three cards each, made with the start page's form."""
    await page.goto(live.url + "/")
    await page.wait_for_selector("#create-button")
    await page.select_option("#rules", rules)
    await page.fill("#seats", str(SEATS[rules]))
    await page.locator("#seats").dispatch_event("change")
    await page.fill("#opt-hand_size", "3")
    await fits(page, "the form")
    await page.click("#create-button")
    await page.wait_for_function("() => window.unoSession && window.unoSession.lobby")


async def play_a_round(page: Page, picture: str | None = None) -> None:
    """Play through the page until the round's summary shows (Duo's draft by its buttons); ``picture``: a
    screenshot of the first decision under that name (docs/screenshots/ with UNO_SCREENSHOTS=1)."""
    decided = False
    for _ in range(1500):
        if await page.locator("#summary").count():
            return
        s = await state(page)
        view = s["view"]
        if view and view["round"] > 1:  # the round ended and the next one is dealt: its summary is coming
            await page.wait_for_selector("#summary")
            return
        if view and view["outcome"] is None and view["to_act"] == s["seat"] and view["actions"]:
            if not decided:
                decided = True
                await fits(page, "the table with a decision")
                if picture is not None:
                    await shot(page, picture)
            if any(a["type"] in ("keep", "reject") for a in view["actions"]):
                await draft_step(page, view, s["v"])
                continue
        await page.wait_for_timeout(20)
        await play_something(page)
    raise AssertionError("no round ended")


@pytest.mark.parametrize(("lang", "viewport", "rules"), CASES, ids=["-".join(case) for case in CASES])
async def test_a_round_in_each_language(monkeypatch: pytest.MonkeyPatch, lang: str, viewport: str, rules: str) -> None:
    seeded(monkeypatch, 7)  # the same deals in every language
    async with live_server(bot_delay=0.02, round_wait=60.0) as live, chromium() as browser:
        page = await new_page(browser, PHONE if viewport == "phone" else DESKTOP, locale=LOCALES[lang])
        fonts: list[str] = []
        page.on("request", lambda request: fonts.append(request.url) if "/static/fonts/" in request.url else None)
        await page.add_init_script(SENT)
        await create_through_the_form(page, live, rules)
        await in_language(page, lang)
        await fits(page, "the lobby")
        await page.click("#start")
        await wait_for(page, "() => window.unoSession.view")
        await play_a_round(page, f"lang-{lang}-{viewport}.png" if rules == "classic" and lang != "en" else None)
        await fits(page, "the round's summary")
        await told(page, lang)
        await in_language(page, lang)
        if lang != "en":
            # Seats are named, never the server's "seat N" token (nor English's "you's").
            text = await page.inner_text("main")
            assert "you's" not in text
            for selector in ("#whose", "#actions", "#summary"):
                if await page.locator(selector).count():
                    words = await page.inner_text(selector)
                    assert not any(f"seat {n}" in words for n in range(10)), words
        else:
            assert fonts == [], "an English page downloads no font"
        assert page.errors == []  # type: ignore[attr-defined]


async def test_the_picker_changes_the_words_at_once_and_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """An English browser; the picker's Khmer loads the catalog (GET /i18n/km.json) and draws the page's
    own words again at once, asks the server in Khmer (``?lang=km``, a new ``hello``) and is remembered."""
    catalog: dict[str, Any] = {
        "New table": "តុថ្មី",
        "Create table": "បង្កើតតុ",
        "What happened": "អ្វីដែលបានកើតឡើង",
        "Start": "ចាប់ផ្តើម",
        "{n} card": ("{n} សន្លឹក",),
    }
    monkeypatch.setattr(i18n, "_catalog", lambda lang: catalog if lang == "km" else {})
    async with live_server() as live, chromium() as browser:
        page = await new_page(browser, PHONE, locale="en-US")
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        await page.add_init_script(SENT)
        await page.goto(live.url + "/")
        await page.wait_for_selector("#create-button")
        await in_language(page, "en")
        assert await page.inner_text("#create-button") == "Create table"
        assert await page.eval_on_selector_all("#lang option", "(os) => os.map((o) => o.textContent)") == [
            "English",
            "ខ្មែរ",
            "සිංහල",
            "ລາວ",
        ]
        await page.select_option("#lang", "km")
        await wait_for(page, "() => document.getElementById('create-button').innerText === 'បង្កើតតុ'")
        await in_language(page, "km")
        assert await page.inner_text("section h2") == "តុថ្មី"
        assert any(url.endswith("/i18n/km.json") for url in requests), requests
        assert any("/api/rules?lang=km" in url for url in requests), requests
        assert await page.evaluate("() => localStorage.getItem('uno.lang')") == "km"
        loaded = await page.evaluate("() => document.fonts.load('16px \"Noto Sans Khmer\"', 'ខ្មែរ')")
        assert loaded, "the Khmer font loads for Khmer text"

        await page.reload()  # remembered, although the browser speaks English
        await page.wait_for_selector("#create-button")
        await in_language(page, "km")
        assert await page.inner_text("#create-button") == "បង្កើតតុ"

        # At a table: the words again at once, and the connection says hello again in the new language.
        status, table = await live.post(
            "/api/tables", {"rules": "classic", "seats": 2, "bots": ["heuristic"], "name": "Alice"}
        )
        assert status == 200, table
        await open_seat(page, live, table["code"], 0, table["token"])
        assert await page.inner_text("#start") == "ចាប់ផ្តើម"
        await told(page, "km")
        await page.select_option("#lang", "en")
        await wait_for(
            page, "() => document.getElementById('start') && document.getElementById('start').innerText === 'Start'"
        )
        await wait_for(page, "() => window.unoSent.filter((m) => m.type === 'hello').pop().lang === 'en'")
        assert await page.inner_text(".side h3") == "What happened"
        await in_language(page, "en")
        assert await page.evaluate("() => localStorage.getItem('uno.lang')") == "en"
        assert page.errors == []  # type: ignore[attr-defined]


def long_khmer(text: str) -> str:
    """A stand-in Khmer translation: a third longer than the English, one run without spaces, the placeholders kept."""
    fields = re.findall(r"\{\w+\}", text)
    letters = len(re.sub(r"\{\w+\}", "", text))
    return ("ការលេងបៀ" * 60)[: max(2, letters * 4 // 3)] + "".join(f" {field}" for field in fields)


def page_messages() -> list[str | tuple[str, ...]]:
    """Every message of the page (its t() and tn() calls), as the catalogs' extractor reads them."""
    static = Path(i18n.__file__).resolve().parents[1] / "server" / "static"
    found = extract_from_dir(
        str(static),
        method_map=[("**.js", "javascript")],
        options_map={"**.js": {"parse_template_string": True}},
        keywords=PASSES[1][1],
    )
    return [message if isinstance(message, str) else tuple(message) for _, _, message, _, _ in found]


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
async def test_long_khmer_words_wrap_and_fit(monkeypatch: pytest.MonkeyPatch, viewport: str) -> None:
    """Every word of the page a third longer and in Khmer, without spaces: the form, the lobby, the table
    and the summary still fit their boxes (lines break inside the runs, buttons take two lines)."""
    catalog: dict[str, Any] = {}
    for message in page_messages():
        if isinstance(message, tuple):
            catalog[message[0]] = (long_khmer(message[1]),)
        else:
            catalog[message] = long_khmer(message)
    assert len(catalog) > 150, "the page's words are extracted"
    monkeypatch.setattr(i18n, "_catalog", lambda lang: catalog if lang == "km" else {})
    async with live_server(bot_delay=0.02, round_wait=60.0) as live, chromium() as browser:
        page = await new_page(browser, PHONE if viewport == "phone" else DESKTOP, locale="km-KH")
        await page.add_init_script(SENT)
        await create_through_the_form(page, live, "flex")
        assert await page.inner_text("#start") == catalog["Start"]
        await fits(page, "the lobby")
        await page.click("#start")
        await wait_for(page, "() => window.unoSession.view")
        await play_a_round(page)
        await fits(page, "the round's summary")
        assert (await page.inner_text("#next-round")).startswith(catalog["Next round"])
        assert page.errors == []  # type: ignore[attr-defined]


ENGLISH_RUN = re.compile(r"\b[a-z]{3,}(?: [a-z]{2,}){2,}\b")
"""Three English words in a row (names kept in Latin, "Bot 2", "Wild", are capitalised or short)."""


@pytest.mark.parametrize("lang", ["km", "si", "lo"])
async def test_a_review_reads_in_the_language_on_a_phone(lang: str) -> None:
    """A finished game's review in the page's language: its own words, the narrator's lines of every
    step and the decisions' words come in the language, and nothing overflows the phone."""
    async with live_server(bot_delay=0.0, review_iterations=2) as live, chromium() as browser:
        page = await new_page(browser, PHONE, locale=LOCALES[lang])
        code = (await create_in_ui(page, live.url, "classic", 2, ["heuristic"], single=True)).rsplit("/", 1)[1]
        await page.click("#start")
        await page.wait_for_function("() => window.unoSession && window.unoSession.view")
        await play_until_over([Driver(page, random.Random(3))])
        await page.goto(f"{live.url}/t/{code}/games/1/review")
        await page.wait_for_selector("#review-stage")
        await in_language(page, lang)
        steps = await page.evaluate("() => window.unoReview.steps.length")
        for index in range(0, steps, max(1, steps // 12)):
            await page.fill("#review-slider", str(index))
            text = await page.inner_text("#review")
            assert not ENGLISH_RUN.findall(text), (index, ENGLISH_RUN.findall(text))
            await fits(page, f"the review at step {index}")
        assert page.errors == []  # type: ignore[attr-defined]
