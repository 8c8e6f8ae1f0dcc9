"""Real browsers (Debian's Chromium through Playwright) create, join and play whole games through the UI.

The test decides what to play from the page's own session (the view the server sent),
then clicks the cards, pickers and buttons a person would. Screenshots: tests/web/browser.py, ``shot``.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from tests.server.harness import live_server
from tests.web.browser import DESKTOP, PHONE, click_through, launch, shot, tap_play
from unoengine import new_game, view_for
from unoengine.server import auth


async def session(page: Page) -> dict[str, Any] | None:
    return await page.evaluate(  # type: ignore[no-any-return]
        "() => window.unoSession ? {seat: window.unoSession.seat, v: window.unoSession.v,"
        " view: window.unoSession.view, status: window.unoSession.lobby && window.unoSession.lobby.status} : null"
    )


class Driver:
    """Plays one page through its UI; remembers which kinds of decision it made."""

    def __init__(self, page: Page, rng: random.Random, *, forget_uno: set[str] | None = None) -> None:
        self.page = page
        self.rng = rng
        self.forget_uno = forget_uno
        """Shared by the drivers of one game: play without UNO until somebody has been caught."""
        self.done: set[str] = set()

    async def step(self) -> bool:
        """Take one decision if it is this page's; True when it did."""
        state = await session(self.page)
        if not state or not state["view"]:
            return False
        view, seat = state["view"], state["seat"]
        legal = view["legal"]
        catches = [a for a in legal if a.startswith("catch")]
        if catches:
            button = self.page.locator("button.catch").first
            if await button.count():
                try:  # the page re-renders with every message; the window may also have closed meanwhile
                    await button.click(timeout=2000, force=True)
                except PlaywrightError:
                    return False
                self.done.add("catch")
                if self.forget_uno is not None:
                    self.forget_uno.add("caught")
                await self._settle(state["v"])
                return True
        if view["outcome"] is not None or view["to_act"] != seat or not legal:
            return False
        plays = [a for a in legal if a.split(" ")[0] not in ("draw", "pass", "uno") and not a.startswith("catch")]
        wilds = [a for a in plays if ":" in a]
        if wilds and "wild" not in self.done:
            choice = self.rng.choice(wilds)
        elif plays:
            choice = self.rng.choice(plays)
        else:
            choice = next(a for a in legal if not a.startswith("catch"))
        forget = self.forget_uno
        if choice.endswith(" uno") and forget is not None and "caught" not in forget:
            bare = choice[: -len(" uno")]
            if bare in legal:
                choice = bare
                self.done.add("skipped_uno")
        words = choice.split(" ")[0]
        if words in ("draw", "pass", "accept", "challenge", "keep", "reject", "uno") or words.startswith("color"):
            await self.page.locator(f'.actions button[data-action="{choice}"]').click()
            self.done.add(words)
        else:
            action = next(a for a in view["actions"] if a["action"] == choice)
            await self.page.locator(f'#hand .card[data-card="{action["card"]}"]').first.click()
            await tap_play(self.page, state["v"])
            await click_through(self.page, action)
            if ":" in choice:
                self.done.add("wild")
            self.done.add("play")
        await self._settle(state["v"])
        return True

    async def _settle(self, version: int) -> None:
        for _ in range(100):
            state = await session(self.page)
            if state and (state["v"] != version or (state["view"] and state["view"]["outcome"] is not None)):
                return
            await asyncio.sleep(0.02)


async def play_until_over(drivers: list[Driver], *, reload_after: int | None = None, limit: int = 3000) -> None:
    taken = 0
    reloaded = reload_after is None
    for _ in range(limit):
        acted = False
        for driver in drivers:
            acted = await driver.step() or acted
            if acted:
                taken += 1
        if not reloaded and taken >= (reload_after or 0):
            page = drivers[-1].page
            before = await session(page)
            await page.reload()
            await page.wait_for_function("() => window.unoSession && window.unoSession.view")
            after = await session(page)
            assert before is not None and after is not None and after["seat"] == before["seat"]
            drivers[-1].done.add("reload")
            reloaded = True
        state = await session(drivers[0].page)
        if state and state["view"] and state["view"]["outcome"] is not None:
            return
        if not acted:
            await asyncio.sleep(0.03)
    raise AssertionError("the game did not end")


async def create_in_ui(page: Page, url: str, rules: str, seats: int, bots: list[str], single: bool) -> str:
    await page.goto(url + "/")
    await page.fill("#name", "Alice")
    await page.select_option("#rules", rules)
    await page.fill("#seats", str(seats))
    await page.dispatch_event("#seats", "change")
    for seat, bot in enumerate(bots, start=1):
        await page.select_option(f'select[data-seat="{seat}"]', bot)
    if single:
        box = page.locator('input[data-opt="single_round"]')
        if not await box.is_checked():
            await box.check()
    await page.click("#create-button")
    await page.wait_for_selector("#invite")
    return str(await page.input_value("#invite"))


async def join_and_start(host: Page, guest: Page, invite: str, name: str) -> None:
    """The guest follows the invite link and joins by name; the host starts the game."""
    await guest.goto(invite)
    await guest.fill("#join-name", name)
    await guest.click("#join-button")
    await guest.wait_for_selector("text=Waiting for the host")
    await host.wait_for_selector("#start:not([disabled])")
    await host.click("#start")


def seed_with_a_wild(seats: int, people: int) -> int:
    """A Classic seed whose deal gives one of the first ``people`` seats a plain Wild (always playable, C-15)."""
    return next(
        seed
        for seed in range(10_000)
        if any(
            str(card) == "W"
            for seat in range(people)
            for card in view_for(new_game("classic", seats, seed=seed), seat).hand
        )
    )


async def test_two_browsers_create_join_and_play_a_classic_round_with_a_catch_and_a_reload(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed = seed_with_a_wild(3, 2)  # a person holds a Wild: the colour picker is certain to be used
    monkeypatch.setattr(auth, "new_seed", lambda: (seed, "00" * 16))
    async with live_server(bot_delay=0.25) as live:  # the bot waits: a person can catch before it acts
        playwright, browser = await launch()
        try:
            alice = await (await browser.new_context(viewport=DESKTOP)).new_page()
            bob = await (await browser.new_context(viewport=DESKTOP)).new_page()
            invite = await create_in_ui(alice, live.url, "classic", 3, ["", "random"], single=True)
            await shot(alice, "web-lobby.png")
            await join_and_start(alice, bob, invite, "Bob <script>alert(1)</script>")
            await alice.wait_for_selector("#hand .card")
            await bob.wait_for_selector("#hand .card")
            await bob.fill("#chat-input", "<img src=x onerror=alert(1)>hi")
            await bob.press("#chat-input", "Enter")
            await alice.wait_for_selector("#chat li")
            assert await alice.locator("#chat img").count() == 0
            rng = random.Random(5)
            forgetting: set[str] = set()
            drivers = [Driver(alice, rng, forget_uno=forgetting), Driver(bob, rng, forget_uno=forgetting)]
            await play_until_over_some(drivers)
            await shot(alice, "web-game.png")
            await play_until_over(drivers, reload_after=6)
            await alice.wait_for_selector("#final")
            await alice.click("#next-round")  # the round summary stays until it is dismissed
            await alice.click("#verify summary")  # the fairness check is folded behind its link
            await alice.wait_for_selector("#check:has-text('matches')")
            await shot(alice, "web-final.png", full_page=True)
            done = drivers[0].done | drivers[1].done
            print("decisions:", sorted(done))
            assert {"play", "reload"} <= done, done
            assert "wild" in done, done
            assert "catch" in done, done  # C-18: a person caught the other, who had played without UNO
            final = await alice.inner_text("#final")
            assert "Seed" in final and "matches the commitment" in final
        finally:
            await browser.close()
            await playwright.stop()


async def play_until_over_some(drivers: list[Driver], steps: int = 4) -> None:
    for _ in range(steps * 10):
        for driver in drivers:
            if await driver.step():
                steps -= 1
        if steps <= 0:
            return
        await asyncio.sleep(0.03)


@pytest.mark.parametrize(
    ("rules", "seats", "viewport", "name"), [("duo", 2, PHONE, "phone-duo"), ("flex", 3, DESKTOP, "flex")]
)
async def test_one_browser_plays_a_whole_round_against_bots(
    rules: str, seats: int, viewport: dict[str, int], name: str
) -> None:
    async with live_server(bot_delay=0.02) as live:
        playwright, browser = await launch()
        try:
            page = await (await browser.new_context(viewport=viewport)).new_page()
            await create_in_ui(page, live.url, rules, seats, ["heuristic"] * (seats - 1), single=True)
            await page.click("#start")
            await page.wait_for_function("() => window.unoSession && window.unoSession.view")
            driver = Driver(page, random.Random(3))
            await play_until_over_some([driver], 3)
            await play_until_over([driver])
            await page.wait_for_selector("#final")
            assert "play" in driver.done
        finally:
            await browser.close()
            await playwright.stop()


@pytest.mark.parametrize(("rules", "seats", "bots"), [("duo", 2, [""]), ("flex", 3, ["", "heuristic"])])
async def test_two_browsers_play_a_whole_round_of_duo_and_flex(rules: str, seats: int, bots: list[str]) -> None:
    """Every rule set with two people: Duo's draft, volley and dump, Flex's sides and Power Cards, by the UI."""
    async with live_server(bot_delay=0.02) as live:
        playwright, browser = await launch()
        try:
            alice = await (await browser.new_context(viewport=DESKTOP)).new_page()
            bob = await (await browser.new_context(viewport=PHONE)).new_page()
            invite = await create_in_ui(alice, live.url, rules, seats, bots, single=True)
            await join_and_start(alice, bob, invite, "Bob")
            for page in (alice, bob):
                await page.wait_for_function("() => window.unoSession && window.unoSession.view")
            rng = random.Random(11)
            drivers = [Driver(alice, rng), Driver(bob, rng)]
            await play_until_over(drivers)
            for page in (alice, bob):
                await page.wait_for_selector("#final")
            done = drivers[0].done | drivers[1].done
            assert "play" in done, done
            if rules == "duo":
                assert {"keep"} <= done or {"reject"} <= done, done  # D-3: the draft, by both people
        finally:
            await browser.close()
            await playwright.stop()
