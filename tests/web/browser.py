"""Real browsers for the page's tests: Debian's Chromium through Playwright, desktop and phone pages.

Tables are made through the HTTP API (the forms have their own tests in tests/server/test_browser.py)
and the page is given the seat's token the way the browser keeps it (``localStorage``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, Playwright, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from tests.server.harness import Live

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--disable-background-networking",
]
DESKTOP = {"width": 1200, "height": 860}
PHONE = {"width": 390, "height": 844}
PAGES = {"desktop": DESKTOP, "phone": PHONE}
SHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("UNO_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "unoengine-web-screenshots"
)
"""UNO_SCREENSHOTS=1 refreshes the docs' screenshots (docs/screenshots/); otherwise they go to a temporary folder."""


async def shot(page: Page, name: str, *, full_page: bool = False) -> Path:
    """A screenshot of the page as ``name``; for the docs, reduced to a small 128-colour PNG (Pillow)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    await page.wait_for_timeout(600)  # the card just played has landed (its flight takes 350 ms)
    await page.screenshot(path=path, full_page=full_page)
    if os.environ.get("UNO_SCREENSHOTS"):
        from PIL import Image  # matplotlib's dependency: only needed to refresh the docs' pictures

        with Image.open(path) as image:
            small = image.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        small.save(path, optimize=True)
    return path


async def launch() -> tuple[Playwright, Browser]:
    """Debian's Chromium under Playwright; the caller closes the browser and stops Playwright."""
    playwright = await async_playwright().start()
    browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    return playwright, browser


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    playwright, browser = await launch()
    try:
        yield browser
    finally:
        await browser.close()
        await playwright.stop()


async def new_page(browser: Browser, viewport: dict[str, int], **context: Any) -> Page:
    page = await (await browser.new_context(viewport=viewport, **context)).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


async def create_table(live: Live, rules: str, bots: list[str | None], **settings: Any) -> dict[str, Any]:
    """A table with seat 0 for a person (``bots[i]`` for seat i + 1; ``None`` leaves it open)."""
    status, body = await live.post(
        "/api/tables",
        {"rules": rules, "seats": len(bots) + 1, "bots": bots, "name": "Alice", "grace": 30, **settings},
    )
    assert status == 200, body
    return body  # type: ignore[no-any-return]


async def join(live: Live, code: str, name: str) -> dict[str, Any]:
    status, body = await live.post(f"/api/tables/{code}/join", {"name": name})
    assert status == 200, body
    return body  # type: ignore[no-any-return]


async def open_seat(page: Page, live: Live, code: str, seat: int, token: str) -> None:
    """Open the table's page as that seat, as a browser that took the seat earlier would."""
    await page.goto(live.url + "/nothing-here")
    await page.evaluate(
        "([code, seat, token]) => localStorage.setItem('uno.seats', JSON.stringify({[code]: {seat, token}}))",
        [code, seat, token],
    )
    await page.goto(f"{live.url}/t/{code}")
    await page.wait_for_function("() => window.unoSession && window.unoSession.lobby")


async def start(page: Page) -> None:
    await page.click("#start")
    await page.wait_for_function("() => window.unoSession.view")


async def state(page: Page) -> dict[str, Any]:
    return await page.evaluate(  # type: ignore[no-any-return]
        "() => { const t = window.unoSession; return {seat: t.seat, v: t.v, game: t.game, view: t.view,"
        " lobby: t.lobby, log: t.log.map((l) => l.text), selected: t.selected, summary: t.summary, banner: t.banner}; }"
    )


async def wait_for(page: Page, script: str, timeout: float = 15.0) -> None:
    await page.wait_for_function(script, timeout=timeout * 1000)


async def draft_step(page: Page, view: dict[str, Any], version: int) -> None:
    """Answer one Duo draft step (D-3) by its button: reject while fewer than two draft discards lie face up, then
    keep; wait for the step."""
    answer = "reject" if len(view["discard_pile"]) < 2 else "keep"
    buttons = [a for a in view["actions"] if a["type"] == answer] or view["actions"]
    await page.click(f'.actions button[data-action="{buttons[0]["action"]}"]')
    await wait_for(page, f"() => window.unoSession.v > {version}")


async def click_through(page: Page, action: dict[str, Any]) -> None:
    """Answer the open picker's questions, one at a time, as the chosen ``action`` (one of the view's ``actions``)."""
    fields = {"side": action["flex"], "colour": action["color"], "target": action["target"], "uno": action["uno"]}
    for _ in range(6):
        if await page.locator("#dialog").is_hidden():
            return
        exact = page.locator(f'#dialog button[data-action="{action["action"]}"]')
        if await exact.count():
            await exact.click()
            continue
        key = await page.locator("#dialog button[data-key]").first.get_attribute("data-key")
        assert key in fields, key
        value = fields[key]
        text = str(value).lower() if isinstance(value, bool) else str(value)
        await page.locator(f'#dialog button[data-key="{key}"][data-value="{text}"]').click()
        await asyncio.sleep(0)
    raise AssertionError("the picker did not close")


async def tap_play(page: Page, version: int) -> None:
    """After a tap on a card: on a phone the first tap only shows it, so press its Play button."""
    shown = await page.evaluate(
        "(v) => window.unoSession.v === v && document.getElementById('dialog').hidden"
        " && !!document.getElementById('play-selected')",
        version,
    )
    if shown:
        try:
            await page.locator("#play-selected").click(timeout=10_000)
        except PlaywrightTimeoutError:
            # The game moved on between the check and the click (a step arrived, its render took the
            # button away): the driver sees the new version and decides again. Anything else is a failure.
            if await page.evaluate("(v) => window.unoSession.v === v", version):
                raise


async def seated(
    live: Live, browser: Browser, rules: str, bots: list[str | None], viewport: dict[str, int], **settings: Any
) -> tuple[dict[str, Any], Page]:
    """A new table (seat 0 a person, ``bots`` in the others) and its page open as seat 0."""
    table = await create_table(live, rules, bots, **settings)
    page = await new_page(browser, viewport)
    await open_seat(page, live, table["code"], 0, table["token"])
    return table, page
