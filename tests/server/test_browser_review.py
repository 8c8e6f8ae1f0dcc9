"""A phone (360×740) plays a short game to the end, then reviews it: steps, hands, lines, the graph and marks.

UNO_SCREENSHOTS=1 also refreshes docs/images/review-phone.png (the review on a phone, docs/REVIEW.md).
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

from tests.server.harness import live_server
from tests.server.test_browser import Driver, create_in_ui, play_until_over
from tests.web.browser import launch, new_page, shot

SMALL_PHONE = {"width": 360, "height": 740}
IMAGE = Path(__file__).resolve().parents[2] / "docs" / "images" / "review-phone.png"


async def no_horizontal_overflow(page: object) -> bool:
    return bool(
        await page.evaluate(  # type: ignore[attr-defined]
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


async def test_a_phone_reviews_the_game_it_played() -> None:
    # A tiny budget for the test; the docs' screenshot gets a real one (its marks are read by people).
    budget = 400 if os.environ.get("UNO_SCREENSHOTS") else 2
    async with live_server(bot_delay=0.0, review_iterations=budget) as live:
        playwright, browser = await launch()
        try:
            page = await new_page(browser, SMALL_PHONE)
            code = (await create_in_ui(page, live.url, "duo", 2, ["heuristic"], single=True)).rsplit("/", 1)[1]
            await page.click("#start")
            await page.wait_for_function("() => window.unoSession && window.unoSession.view")
            await play_until_over([Driver(page, random.Random(2))])
            await page.wait_for_selector("#final")
            if await page.locator("#next-round").count():
                await page.click("#next-round")  # the round's summary first
            assert await page.locator("#review-record").count() == 1  # beside the record's link too
            await page.click("#review-game")
            await page.wait_for_selector("#review-stage")
            assert page.url.endswith(f"/t/{code}/games/1/review")
            steps = await page.evaluate("() => window.unoReview.steps.length")
            assert await page.inner_text("#review-counter") == f"The deal · {steps - 1} actions"
            assert await page.locator("#review-hands .review-hand").count() == 2
            fullest = await page.evaluate(  # the step whose hands hold the most cards (Duo deals by a draft)
                "() => { const s = window.unoReview.steps.map((x) => x.hands.flat().length);"
                " return [s.indexOf(Math.max(...s)), Math.max(...s)]; }"
            )
            await page.fill("#review-slider", str(fullest[0]))
            assert await page.locator("#review-hands .card").count() == fullest[1] > 2  # every hand face up
            assert await page.locator("#review-hands .card.back").count() == 0
            await page.keyboard.press("Home")
            await page.click("#review-next")
            await page.click("#review-next")
            assert await page.inner_text("#review-counter") == f"Action 2 of {steps - 1}"
            assert await page.locator("#review-lines li").count() >= 1
            await page.click("#review-prev")
            assert await page.inner_text("#review-counter") == f"Action 1 of {steps - 1}"
            await page.keyboard.press("ArrowRight")
            await page.keyboard.press("ArrowRight")
            assert await page.inner_text("#review-counter") == f"Action 3 of {steps - 1}"
            await page.keyboard.press("ArrowLeft")
            assert await page.inner_text("#review-counter") == f"Action 2 of {steps - 1}"
            assert await no_horizontal_overflow(page)
            await page.wait_for_selector("#review-graph", timeout=180_000)  # the analysis is done
            assert "Alice (you)" in await page.inner_text("#review-accuracy")
            assert await page.locator("#review-graph polyline").count() == 1
            await page.check("#review-everyone")
            marks = await page.evaluate("() => window.unoReview.analysis.result.decisions.filter((d) => d.mark).length")
            assert await page.locator("#review-marks button").count() == marks
            if marks:
                await page.locator("#review-marks button").first.click()
                assert await page.locator("#review-better").count() == 1
            box = await page.locator("#review-graph").bounding_box()
            assert box is not None
            await page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
            assert await page.inner_text("#review-counter") == f"Action {steps - 1} of {steps - 1}"
            assert await no_horizontal_overflow(page)
            for target in await page.locator("#review button, #review a.button, #review select").all():
                if await target.is_visible():
                    size = await target.bounding_box()
                    assert size is not None and size["height"] >= 40 and size["width"] >= 40, size
            assert not page.errors  # type: ignore[attr-defined]
            await page.evaluate("() => window.scrollTo(0, 0)")
            path = await shot(page, "review-phone.png", full_page=True)
            if os.environ.get("UNO_SCREENSHOTS"):
                IMAGE.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(path, IMAGE)  # docs/images, not the README's docs/screenshots
            await page.click("#review-back")
            await page.wait_for_selector("#final")
            await page.click("#again")  # the next game: the first one's review stays one tap away
            await page.wait_for_selector("#earlier-games li[data-game='1'] a.review-earlier", state="attached")
            href = await page.get_attribute("#earlier-games li[data-game='1'] a.review-earlier", "href")
            assert href == f"/t/{code}/games/1/review"
        finally:
            await browser.close()
            await playwright.stop()
