"""UNO Show 'Em No Mercy in the browser, on a 390×844 phone page and a desktop page (docs/RULES.md N-1..N-28).

The form offers the rule set (its words, 2–10 seats, its options and no preset); the seven new card kinds
have faces that fit every card size (drawn by the page's own cards.js); a whole round is played through
the page against bots, with hands large enough that the Mercy Rule knocks seats out: a knocked-out seat
is shown out, a pending draw stack shows its total, no Power Card badge ever shows, nothing overflows,
and the round ends with its summary; the game's review shows the knocked-out seats too.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from tests.server.harness import live_server
from tests.web.browser import PAGES, chromium, new_page, shot, state, wait_for
from tests.web.test_languages import OVERFLOWING
from tests.web.test_page import play_something

NEW_FACES = {
    "R+4": ("red", "+4", None),
    "GSE": ("green", "⊘", "skip all"),
    "BDA": ("blue", "⇊", "discard all"),
    "WR+4": ("wild", "+4", "reverse"),
    "W+6": ("wild", "+6", "wild"),
    "W+10": ("wild", "+10", "wild"),
    "WCR": ("wild", "?", "roulette"),
}
"""The seven card kinds No Mercy adds (N-1), each with its class, its symbol and the line under it."""

FACES = """async (cards) => {
  const { cardElement } = await import('/static/cards.js');
  const box = document.createElement('div');
  box.id = 'face-probe';
  const hand = document.createElement('div');
  hand.className = 'hand';
  const pile = document.createElement('div');
  pile.className = 'pile';
  const top = document.createElement('div');
  top.className = 'top';
  pile.append(top);
  const small = document.createElement('div');
  box.append(hand, pile, small);
  (document.getElementById('me') || document.getElementById('app')).append(box);
  for (const c of cards) {
    hand.append(cardElement(c, { legal: true }));
    top.append(cardElement(c));
    small.append(cardElement(c, { size: 'small' }), cardElement(c, { size: 'mini' }));
  }
  return [...box.querySelectorAll('.card')].map((e) => ({
    card: e.dataset.card,
    cls: e.className,
    face: e.querySelector('.face')?.textContent ?? null,
    sub: e.querySelector('.sub')?.textContent ?? null,
    markers: e.querySelector('.markers')?.textContent ?? null,
    fits: e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1,
  }));
}"""
"""Every new card drawn by the page's cards.js in the hand, on the pile, small and mini, inside the page's layout."""

SHOWN = """() => {
  const T = window.unoSession;
  const v = T.view;
  const out = (v.in_round || []).flatMap((inRound, seat) => (inRound ? [] : [seat]));
  const badge = (seat) => document.querySelector(
    seat === T.seat ? '#me.out .tag.out' : `.opponent.out[data-seat="${seat}"] .tag.out`);
  const stack = document.getElementById('stack-total');
  return {
    out,
    outShown: out.filter((seat) => badge(seat)).length,
    outTitled: out.every((seat) => !badge(seat) || badge(seat).title.includes('25')),
    greyed: document.querySelectorAll('.opponent.out, #me.out').length,
    power: document.querySelectorAll('.power').length,
    pending: v.pending,
    stack: v.pending === 'stack' ? v.stack : null,
    stackShown: stack ? stack.textContent : null,
    backs: document.querySelectorAll('#hand .card.back, #top-card.back').length,
    kinds: [...document.querySelectorAll('#hand .card, #top-card')].map((e) => e.dataset.card),
  };
}"""
"""What the table shows of the view at this moment (the page renders each view at once, so both agree)."""


async def fits(page: Page, moment: str) -> None:
    bad = await page.evaluate(OVERFLOWING)
    assert bad == [], f"{moment}: {bad}"


async def create_through_the_form(page: Page, url: str, viewport: str) -> None:
    """No Mercy for four (three bots), 16 cards each, through the start page's form."""
    await page.goto(url + "/")
    await page.wait_for_selector("#create-button")
    await page.select_option("#rules", "nomercy")
    words = await page.inner_text("#rules-words")
    assert "168 cards" in words and "25 cards" in words, words
    assert await page.get_attribute("#seats", "min") == "2"
    assert await page.get_attribute("#seats", "max") == "10"
    for option in ("hand_size", "uno_penalty", "single_round", "target_score", "round_action_limit"):
        assert await page.locator(f"#opt-{option}").is_visible(), option
    assert await page.locator("#opt-stack_draw").count() == 0  # stacking is the rule set's own (N-15, N-20)
    assert await page.locator("#preset-label").is_hidden()  # no preset changes anything here
    await page.fill("#seats", "10")
    await page.locator("#seats").dispatch_event("change")
    assert await page.locator("#seatlist select").count() == 9
    await fits(page, "the form for ten")
    await shot(page, f"nomercy-{viewport}-form.png", full_page=True)
    await page.fill("#seats", "4")
    await page.locator("#seats").dispatch_event("change")
    await page.fill("#opt-hand_size", "16")
    await page.click("#create-button")
    await page.wait_for_function("() => window.unoSession && window.unoSession.lobby")


async def play_the_round(page: Page, viewport: str) -> dict[str, Any]:
    """Play through the page until the round's summary shows, checking the table at every decision."""
    seen: dict[str, Any] = {"pending": set(), "out": set(), "kinds": set(), "stacks": 0}
    await page.evaluate("() => window.scrollTo(0, 0)")
    pictured: set[str] = set()
    for _ in range(3000):
        if await page.locator("#summary").count():
            return seen
        shown = await page.evaluate(SHOWN)
        assert shown["power"] == 0, "no Power Card badge in No Mercy"
        assert shown["backs"] == 0, shown["kinds"]
        assert shown["outShown"] == len(shown["out"]) == shown["greyed"], shown
        assert shown["outTitled"], shown
        if shown["stack"] is not None:
            assert shown["stackShown"] == f"+{shown['stack']} to draw", shown
            seen["stacks"] += 1
        seen["pending"].add(shown["pending"])
        seen["out"].update(shown["out"])
        seen["kinds"].update(shown["kinds"])
        s = await state(page)
        view = s["view"]
        mine = view and view["outcome"] is None and view["to_act"] == s["seat"] and view["actions"]
        moment = "out" if shown["out"] else view["pending"] if mine else None
        if moment and moment not in pictured:
            pictured.add(moment)
            await fits(page, f"the table ({moment})")
            await shot(page, f"nomercy-{viewport}-{moment}.png")
        await page.wait_for_timeout(15)
        await play_something(page)
    raise AssertionError("no round ended")


@pytest.mark.parametrize("viewport", list(PAGES), ids=list(PAGES))
async def test_a_no_mercy_round(viewport: str) -> None:
    async with live_server(bot_delay=0.0, round_wait=60.0) as live, chromium() as browser:
        page = await new_page(browser, PAGES[viewport])
        await create_through_the_form(page, live.url, viewport)
        await fits(page, "the lobby")
        await page.click("#start")
        await wait_for(page, "() => window.unoSession.view")
        first = (await state(page))["view"]
        assert len(first["in_round"]) == 4 and first["power"] == []  # No Mercy's seats: in the round, no Power Card

        # The seven new kinds, drawn by the page's cards.js inside the table's layout.
        faces = await page.evaluate(FACES, list(NEW_FACES))
        assert len(faces) == 4 * len(NEW_FACES)
        for face in faces:
            cls, symbol, sub = NEW_FACES[face["card"]]
            assert cls in face["cls"].split(), face
            assert "back" not in face["cls"].split(), face
            assert face["face"] == symbol, face
            assert face["sub"] == sub, face
            assert (face["markers"] is None) == (cls == "wild"), face  # colour-blind markers (F-5) on coloured cards
            assert face["fits"], face
        await fits(page, "the new faces")
        await shot(page, f"nomercy-{viewport}-faces.png", full_page=True)
        await page.evaluate("() => document.getElementById('face-probe').remove()")

        # A round, until one of them knocks a seat out (with 16 cards each, nearly always the first).
        for game in range(1, 4):
            await play_the_round(page, viewport)
            await fits(page, "the round's summary")
            view = (await state(page))["view"]
            assert view["outcome"] is not None  # one round is the game (N-26)
            out = [seat for seat, inside in enumerate(view["in_round"]) if not inside]
            shown = await page.evaluate(SHOWN)  # the table under the summary shows the last view
            assert shown["outShown"] == len(out) == shown["greyed"], shown
            assert await page.locator("#summary tr.out .tag.out").count() == len(out)
            if out:
                await shot(page, f"nomercy-{viewport}-summary.png")
                break
            await page.click("#next-round")
            await page.click("#again")
            await wait_for(page, f"() => window.unoSession.game > {game} && window.unoSession.view.outcome === null")
        else:
            raise AssertionError("no seat was knocked out in three rounds of 16 cards each")

        # The review shows the game's last step with the knocked-out seats out.
        code = (await state(page))["lobby"]["code"]
        await page.goto(f"{live.url}/t/{code}/games/{game}/review")
        await page.wait_for_selector("#review-stage")
        await page.keyboard.press("End")
        await wait_for(page, "() => document.querySelectorAll('.review-hand.out .tag.out').length > 0")
        assert await page.locator(".review-hand.out").count() == len(out)
        await fits(page, "the review")
        await shot(page, f"nomercy-{viewport}-review.png", full_page=True)
        assert page.errors == []  # type: ignore[attr-defined]
