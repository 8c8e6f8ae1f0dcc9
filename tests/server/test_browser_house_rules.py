"""House rules in the browser: the create-table form, the table's rules for everyone, generic decisions.

A desktop host picks a preset and changes an option in the form (every option with its
rule and words); a phone guest sees the table's rules on the join page, in the lobby and
in the game; both then play a whole round by the view's ``actions`` alone (no decision
or action name known to the test), through the cards, the question dialog, the buttons
and the out-of-turn window.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from tests.server.harness import live_server
from tests.server.test_browser import DESKTOP, PHONE, launch, session
from tests.web.browser import click_through, tap_play
from unoengine import legal_actions, new_game, view_for
from unoengine.server import auth


async def act_by_actions(page: Page, rng: random.Random, done: set[str]) -> bool:
    """Take one of the page's offered actions the way a person would, knowing only the view's fields."""
    state = await session(page)
    if not state or not state["view"] or state["view"]["outcome"] is not None:
        return False
    view = state["view"]
    actions: list[dict[str, Any]] = view["actions"]
    if not actions:
        return False
    # Mostly the seat's own decision; sometimes out of turn when a window is open.
    own = [a for a in actions if not a["out_of_turn"]]
    entry = rng.choice(own if own and rng.random() < 0.8 else actions)
    try:
        if entry["type"] == "play":
            plays = [a for a in actions if a["type"] == "play" and a["card"] == entry["card"]]
            if entry["out_of_turn"] and await page.locator(f'#react button[data-action="{entry["action"]}"]').count():
                await page.locator(f'#react button[data-action="{entry["action"]}"]').click(timeout=2000)
                done.add("jump-in button")
            else:
                await page.locator(f'#hand .card[data-card="{entry["card"]}"]').first.click(timeout=2000)
                await tap_play(page, state["v"])
                if len(plays) > 1:
                    await click_through(page, entry)
                    done.add("dialog")
        elif entry["seat"] is not None:
            await page.locator(f'.opponent button[data-action="{entry["action"]}"]').click(timeout=2000)
        else:
            await page.locator(f'.actions button[data-action="{entry["action"]}"]').click(timeout=2000)
    except PlaywrightError:
        return False  # the page re-rendered (the window closed, the turn moved on): look again
    done.add(entry["group"])
    for _ in range(100):
        now = await session(page)
        if now and (now["v"] != state["v"] or (now["view"] and now["view"]["outcome"] is not None)):
            break
        await asyncio.sleep(0.02)
    return True


async def get_json(page: Page, path: str) -> Any:
    """An API answer, fetched by the page (the server runs on this test's event loop)."""
    return await page.evaluate("(path) => fetch(path).then((r) => r.json())", path)


async def test_house_rules_from_the_form_are_shown_to_everyone_and_played_by_actions() -> None:
    async with live_server(bot_delay=0.02) as live:
        playwright, browser = await launch()
        try:
            host = await (await browser.new_context(viewport=DESKTOP)).new_page()
            guest = await (await browser.new_context(viewport=PHONE)).new_page()
            await host.goto(live.url + "/")
            await host.fill("#name", "Alice")
            await host.select_option("#rules", "classic")
            await host.fill("#seats", "3")
            await host.dispatch_event("#seats", "change")
            await host.select_option('select[data-seat="1"]', "")
            await host.select_option('select[data-seat="2"]', "heuristic")
            # Every option of the rule set is in the form, with its rule and its words.
            info = await get_json(host, "/api/rules")
            classic = next(r for r in info["rules"] if r["name"] == "classic")
            for spec in classic["specs"]:
                assert await host.locator(f'[data-opt="{spec["name"]}"]').count() == 1, spec["name"]
                assert (await host.inner_text(f"#help-{spec['name']}")).strip().startswith(spec["words"])
            await host.select_option("#preset", "party")
            assert "jump-in" in await host.inner_text("#preset-words")
            assert await host.is_checked("#opt-seven_zero")
            assert await host.input_value("#opt-stack_draw") == "mixed"
            await host.uncheck("#opt-draw_until_playable")
            await host.check("#opt-single_round")
            await host.click("#create-button")
            await host.wait_for_selector("#invite")
            invite = await host.input_value("#invite")
            assert "7-0: yes" in await host.inner_text("#table-rules")
            code = invite.rsplit("/", 1)[-1]
            rules = (await get_json(host, f"/api/tables/{code}"))["rules"]
            values = {o["name"]: o["value"] for o in rules["options"]}
            assert values["seven_zero"] is True and values["jump_in"] is True and values["stack_draw"] == "mixed"
            assert values["draw_until_playable"] is False
            assert rules["preset"] is None  # the party preset, changed: no preset says it exactly

            await guest.goto(invite)
            text = await guest.inner_text("#table-rules")  # before joining
            assert "Jump-in: yes" in text and "Stack draw cards: any draw card on any draw card" in text
            await guest.fill("#join-name", "Bob")
            await guest.click("#join-button")
            await guest.wait_for_selector("text=Waiting for the host")
            assert "7-0: yes" in await guest.inner_text("#table-rules")
            await host.wait_for_selector("#start:not([disabled])")
            await host.click("#start")
            for page in (host, guest):
                await page.wait_for_function("() => window.unoSession && window.unoSession.view")
                await page.wait_for_selector("#table-rules")
                await page.wait_for_selector("#whose")
            rng = random.Random(4)
            done: set[str] = set()
            for _ in range(3000):
                acted = False
                for page in (host, guest):
                    acted = await act_by_actions(page, rng, done) or acted
                state = await session(host)
                if state and state["view"] and state["view"]["outcome"] is not None:
                    break
                if not acted:
                    await asyncio.sleep(0.03)
            else:
                raise AssertionError("the round did not end")
            await host.wait_for_selector("#final")
            assert {"hand", "decision"} <= done, done
        finally:
            await browser.close()
            await playwright.stop()


async def test_a_decision_is_worded_from_the_view() -> None:
    """The page says what the view's words say: the decision's title and prompt, seats by their names."""
    async with live_server(bot_delay=0.02) as live:
        playwright, browser = await launch()
        try:
            page = await (await browser.new_context(viewport=PHONE)).new_page()
            await page.goto(live.url + "/")
            await page.select_option("#rules", "duo")
            await page.dispatch_event("#rules", "change")
            await page.select_option('select[data-seat="1"]', "heuristic")
            await page.click("#create-button")
            await page.click("#start")
            await page.wait_for_function("() => window.unoSession && window.unoSession.view")
            await page.wait_for_function(
                "() => window.unoSession.view.to_act === window.unoSession.seat"
                " || window.unoSession.view.outcome !== null"
            )
            state = await session(page)
            assert state is not None
            view = state["view"]
            if view["outcome"] is None:
                prompt = await page.inner_text("#prompt")
                if "seat " not in view["words"]["prompt"]:
                    assert prompt == view["words"]["prompt"]
                assert "Your turn" in await page.inner_text("#whose")
                for entry in view["actions"]:
                    if entry["group"] in ("decision", "choice"):
                        button = page.locator(f'.actions button[data-action="{entry["action"]}"]')
                        assert (await button.get_attribute("title")) is not None
        finally:
            await browser.close()
            await playwright.stop()


def jump_in_seed() -> tuple[int, str]:
    """A seed whose Classic game for two, with jump-in, lets seat 0 play first a card it holds twice."""
    for seed in range(100_000):
        state = new_game("classic", 2, seed=seed, options={"jump_in": True})
        if state.to_act != 0:
            continue
        hand = [str(card) for card in view_for(state, 0).hand]
        twins = {card for card in hand if hand.count(card) == 2 and not card.startswith("W")}
        playable = {str(action) for action in legal_actions(state, 0)}
        card = next((card for card in sorted(twins) if card in playable), None)
        if card is not None:
            return seed, card
    raise AssertionError("no such seed")


async def test_a_person_jumps_in_by_the_out_of_turn_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """H-3 in the browser: after playing one of two twins, the page opens its out-of-turn window; the bot
    waits (react_delay) and the person jumps in with the other by its button."""
    seed, card = jump_in_seed()
    monkeypatch.setattr(auth, "new_seed", lambda: (seed, "00" * 16))
    async with live_server(bot_delay=0.02, react_delay=30.0) as live:
        playwright, browser = await launch()
        try:
            page = await (await browser.new_context(viewport=PHONE)).new_page()
            await page.goto(live.url + "/")
            await page.select_option("#rules", "classic")
            await page.fill("#seats", "2")
            await page.dispatch_event("#seats", "change")
            await page.select_option('select[data-seat="1"]', "heuristic")
            await page.check("#opt-jump_in")
            await page.click("#create-button")
            await page.click("#start")
            await page.wait_for_function("() => window.unoSession && window.unoSession.view")
            await page.locator(f'#hand .card[data-card="{card}"]').first.click()
            await tap_play(page, (await session(page) or {})["v"])
            await page.wait_for_selector(f'#react button.jump[data-action="{card}"]')
            assert "Out of turn!" in await page.inner_text("#react")
            state = await session(page)
            assert state is not None and state["view"]["to_act"] == 1, "the window is out of turn"
            await page.click(f'#react button.jump[data-action="{card}"]')
            await page.wait_for_function("(v) => window.unoSession.v > v", arg=state["v"])
            log = await page.inner_text("#log")
            assert log.count("You played") == 1 and log.count("You jumped in with") == 1, log  # H-3 told as such
            assert await page.locator("#react").count() == 0
        finally:
            await browser.close()
            await playwright.stop()
