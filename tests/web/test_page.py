"""The browser game as people meet it, on a desktop and on a 390×844 phone page (issue: fair, explained, phone).

Each test drives Debian's Chromium through Playwright against a live server: the pickers, the
keyboard, the log, the reconnect lock, table codes, the round summary, the final screen, Flex and
Duo on a small screen. The page decides nothing: the tests read what it shows.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from playwright.async_api import Page

from tests.server.harness import Live, Player, live_server
from tests.web.browser import (
    PAGES,
    PHONE,
    chromium,
    click_through,
    create_table,
    draft_step,
    join,
    new_page,
    open_seat,
    seated,
    shot,
    start,
    state,
    wait_for,
)
from unoengine import new_game, view_for
from unoengine.core.views import view_to_json
from unoengine.server import auth

VIEWPORTS = pytest.mark.parametrize("viewport", list(PAGES), ids=list(PAGES))
MY_TURN = "() => window.unoSession.view && window.unoSession.view.to_act === window.unoSession.seat"


def seeded(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    monkeypatch.setattr(auth, "new_seed", lambda: (seed, "00" * 16))


async def inside_viewport(page: Page, selector: str) -> bool:
    return await page.evaluate(  # type: ignore[no-any-return]
        "(sel) => { const r = document.querySelector(sel).getBoundingClientRect();"
        " return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }",
        selector,
    )


async def play_something(page: Page, *, uno: bool = True) -> bool:
    """Take this page's decision through the UI: a card if one plays, else the first button. False: not its turn."""
    s = await state(page)
    view = s["view"]
    if view is None or view["outcome"] is not None or view["to_act"] != s["seat"]:
        return False
    actions = [a for a in view["actions"] if not a["out_of_turn"] and a["type"] != "catch"]
    plays = [a for a in actions if a["type"] == "play" and a["uno"] in (uno, None, False)]
    plays = [a for a in plays if a["uno"] == uno] or plays
    try:
        if plays:
            action = plays[0]
            await page.locator(f'#hand .card[data-card="{action["card"]}"]').first.click(timeout=2000)
            if await page.evaluate(
                "(v) => window.unoSession.v === v && !!document.getElementById('play-selected')"
                " && document.getElementById('dialog').hidden",
                s["v"],
            ):
                await page.click("#play-selected", timeout=2000)
            await click_through(page, action)
        else:
            button = next(a for a in actions if a["group"] in ("decision", "choice"))
            await page.click(f'.actions button[data-action="{button["action"]}"]', timeout=2000)
    except Exception:
        return False
    for _ in range(200):
        if (await state(page))["v"] != s["v"]:
            break
        await asyncio.sleep(0.02)
    return True


def flex_wild_seed() -> int:
    """A Flex seed for five with two cards each where seat 1 (first to act) may play a Flex Wild +4 on both sides."""
    for seed in range(5000):
        view = view_to_json(view_for(new_game("flex", 5, seed=seed, options={"hand_size": 2}), 1))
        plays = [a for a in view["actions"] if a["card"] == "FW+4"]
        if {a["flex"] for a in plays} == {True, False} and len({a["target"] for a in plays}) > 2:
            return seed
    raise AssertionError("no such seed")


async def a_table_for_bob(
    live: Live, rules: str, bots: list[str | None], **settings: Any
) -> tuple[dict[str, Any], Player]:
    """A table where Bob (seat 1, the first to act) plays; Alice, the host at seat 0, deals from a plain client."""
    table = await create_table(live, rules, bots, **settings)
    bob = await join(live, table["code"], "Bob")
    alice = await Player.connect(live, table["code"], table["token"], 0)
    return {**table, "bob": bob}, alice


@VIEWPORTS
async def test_a_flex_wild_is_asked_step_by_step_in_a_dialog_that_fits(
    monkeypatch: pytest.MonkeyPatch, viewport: str
) -> None:
    """Defects 1 and 2: side, colour, target, UNO, one question at a time, always on screen; Enter never answers."""
    seeded(monkeypatch, flex_wild_seed())
    async with live_server(bot_delay=0.05, react_delay=2.0) as live, chromium() as browser:
        table, alice = await a_table_for_bob(
            live, "flex", [None, "heuristic", "heuristic", "heuristic"], options={"hand_size": 2}
        )
        page = await new_page(browser, PAGES[viewport])
        await open_seat(page, live, table["code"], 1, table["bob"]["token"])
        await alice.send({"type": "start", "token": table["token"]})
        await wait_for(page, MY_TURN)
        s = await state(page)
        view = s["view"]
        assert view["power"][1] == "green"
        power = page.locator("#me .power.green")
        assert await power.evaluate("(el) => getComputedStyle(el).backgroundColor") == "rgb(27, 127, 48)"  # defect 9
        index = view["hand"].index("FW+4")
        await page.keyboard.press(str(index + 1))
        await page.keyboard.press("Enter")
        await page.wait_for_selector("#dialog .box")
        # The keystroke that opened the question answers nothing, and no answer is focused for the player.
        assert await page.evaluate("() => document.activeElement.classList.contains('box')")
        await page.keyboard.press("Enter")
        assert await page.inner_text("#question") == "Which side of the card?"
        assert (await state(page))["v"] == s["v"]
        plays = [a for a in view["actions"] if a["card"] == "FW+4"]
        chosen = next(a for a in plays if a["flex"] and a["color"] == "r" and a["target"] == 3 and a["uno"])
        questions = []
        for _ in range(4):
            questions.append(await page.inner_text("#question"))
            assert await inside_viewport(page, "#dialog .box"), "the dialog is larger than the screen"
            assert await page.locator("#dialog button:focus").count() == 0
            buttons = await page.locator("#dialog .choices button").count()
            assert buttons <= 4, f"{buttons} answers at once"
            if len(questions) == 3 and viewport == "phone":
                await shot(page, "web-picker-phone.png")
            key = await page.locator("#dialog button[data-key]").first.get_attribute("data-key")
            value = {"side": "true", "colour": "r", "target": "3", "uno": "true"}[str(key)]
            await page.click(f'#dialog button[data-key="{key}"][data-value="{value}"]')
        assert questions == [
            "Which side of the card?",
            "Choose a colour",
            "Who must draw?",
            "Call UNO? You will have one card left.",
        ]
        await wait_for(page, f"() => window.unoSession.v > {s['v']}")
        assert await page.locator("#dialog").is_hidden()
        log = (await state(page))["log"]
        assert any(line.startswith("You played") for line in log), log
        after = (await state(page))["view"]
        assert after["hand_sizes"][1] == 1 and after["unsafe"] is None, "played with UNO called"
        assert chosen["uno"]
        assert page.errors == []  # type: ignore[attr-defined]
        await alice.close()


@VIEWPORTS
async def test_flex_cards_are_readable_and_explained(monkeypatch: pytest.MonkeyPatch, viewport: str) -> None:
    """Defect 7: the flex band never covers the number; the Wild All Draw is named; a tap shows both sides."""
    seeded(monkeypatch, 11)
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "flex", ["heuristic", "heuristic"], PAGES[viewport])
        await start(page)
        overlaps = await page.evaluate(
            "() => [...document.querySelectorAll('.card.has-flex')].filter((c) => {"
            " const f = c.querySelector('.face').getBoundingClientRect(),"
            " b = c.querySelector('.flexside').getBoundingClientRect();"
            " return f.bottom > b.top + 1 || b.height > 20; }).map((c) => c.dataset.card)"
        )
        assert overlaps == [], overlaps
        assert await page.locator(".card.has-flex").count() > 0
        faces = await page.evaluate(
            "() => { const el = document.createElement('div'); document.body.append(el);"
            " return import('/static/cards.js').then((m) => ['FWA', 'R5!'].map((c) => { const e = m.cardElement(c);"
            " el.append(e); return [e.querySelector('.face').textContent, e.innerText,"
            " e.querySelector('.flip')?.title || '']; })); }"
        )
        assert faces[0][0] == "All" and "ALL DRAW" in faces[0][1].upper()
        assert faces[1][0] == "5" and "flip" in faces[1][2]
        # A tap on a card with two sides says what each does (on a phone it only selects it).
        s = await state(page)
        card = next(c for c in s["view"]["hand"] if s["view"]["sides"][c][1])
        if viewport == "phone":
            await wait_for(page, MY_TURN)
            s = await state(page)
            card = next(c for c in s["view"]["hand"] if s["view"]["sides"][c][1])
            await page.locator(f'#hand .card[data-card="{card}"]').first.click()
            info = await page.inner_text("#card-info")
            assert s["view"]["sides"][card][0] in info and s["view"]["sides"][card][1] in info
            assert (await state(page))["v"] == s["v"], "a first tap on a phone plays nothing"
            assert await page.locator(f'#hand .card.selected[data-card="{card}"]').count() >= 1
        await shot(page, f"web-flex-{viewport}.png")


@VIEWPORTS
async def test_the_log_selection_and_what_just_happened(monkeypatch: pytest.MonkeyPatch, viewport: str) -> None:
    """Defects 3, 4, 6: the log shows its newest line and is rebuilt on reload; the selection is a card."""
    seeded(monkeypatch, 5)
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic", "heuristic"], PAGES[viewport])
        assert not await page.is_checked("#sound"), "sounds are off unless turned on"
        await start(page)
        for _ in range(6):
            await wait_for(page, MY_TURN)
            s = await state(page)
            hand = s["view"]["hand"]
            # Select the last card, then let the hand change: the same card stays selected.
            await page.keyboard.press(str(min(len(hand), 9)))
            picked = (await state(page))["selected"]
            assert picked == hand[min(len(hand), 9) - 1]
            await play_something(page)
            after = await state(page)
            if picked in after["view"]["hand"] and after["selected"] is not None:
                assert after["selected"] == picked
                selected = await page.eval_on_selector_all(
                    "#hand .card.selected", "(els) => els.map((e) => e.dataset.card)"
                )
                assert set(selected) == {picked}
        await wait_for(page, "() => window.unoSession.log.length > 8")
        at_bottom = await page.evaluate(
            "() => { const l = document.getElementById('log');"
            " return l.scrollTop + l.clientHeight >= l.scrollHeight - 2; }"
        )
        assert at_bottom, "the log shows its newest line"
        highlighted = await page.evaluate(
            "() => { const top = document.getElementById('top-card');"
            " return top.dataset.card === window.unoSession.view.top && top.classList.contains('just-played'); }"
        )
        assert highlighted, "the card just played is highlighted"
        before = (await state(page))["log"]
        assert not any("You's" in line for line in before)
        assert (await state(page))["banner"] == "", "no refusal nor server error on the way"
        await page.reload()
        await wait_for(page, f"() => window.unoSession.log.length >= {len(before)}")
        rebuilt = (await state(page))["log"]
        assert rebuilt[: len(before)] == before, "the reloaded page rebuilds the same log"


async def test_a_dropped_connection_locks_the_table_until_it_is_back() -> None:
    """Defect 5: nothing pressed while the connection is down is lost silently: the table is locked and says so."""
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic"], PHONE)
        await start(page)
        await wait_for(page, MY_TURN)
        v = (await state(page))["v"]
        await page.evaluate("() => window.unoSession.ws.close()")
        await page.wait_for_selector("#offline")
        assert "Reconnecting" in await page.inner_text("#offline")
        assert "locked" in await page.inner_text("#offline")
        await page.keyboard.press("d")  # the draw key: the page sends nothing while the table is locked
        assert (await state(page))["v"] == v
        await page.wait_for_selector("#offline", state="detached", timeout=10000)
        assert (await state(page))["v"] == v


async def test_table_codes_that_lead_nowhere_say_so() -> None:
    """Defect 12: an unknown code, a short code, a full game in progress."""
    async with live_server() as live, chromium() as browser:
        page = await new_page(browser, PHONE)
        await page.goto(live.url + "/t/ZZZZZ9")
        await page.wait_for_selector("#no-table")
        assert "no table with the code ZZZZZ9" in await page.inner_text("#no-table")
        assert await page.locator("#join-name").count() == 0
        await page.goto(live.url + "/t/AB")
        await page.wait_for_selector("#no-table")
        assert "6 letters and digits" in await page.inner_text("#no-table")
        await page.goto(live.url + "/")
        await page.fill("#code", "ab1")
        await page.press("#code", "Enter")
        assert "6 letters and digits" in await page.inner_text("#code-error")
        table = await create_table(live, "classic", ["heuristic"])
        host = await Player.connect(live, table["code"], table["token"], 0)
        await host.send({"type": "start", "token": table["token"]})
        await host.expect("sync", "step", "steps")
        await page.goto(f"{live.url}/t/{table['code']}")
        await page.wait_for_selector("#watch")
        assert await page.locator("#join-button").count() == 0
        assert "watch" in (await page.inner_text("#full")).lower()
        await page.click("#watch")
        await wait_for(page, "() => window.unoSession && window.unoSession.view")
        assert "watching" in await page.inner_text("#conn")
        await host.close()


async def test_ten_seats_on_a_phone_keep_the_hand_on_screen() -> None:
    """At 10 seats the opponents collapse into a strip; a dimmed card keeps its text readable (WCAG AA)."""
    async with live_server(bot_delay=0.3) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic"] * 9, PHONE)
        await start(page)
        await page.wait_for_selector("#hand .card")
        assert await inside_viewport(page, "#hand"), "the hand is on screen without scrolling"
        assert (await state(page))["banner"] == ""
        assert await page.evaluate("() => scrollY") == 0
        await shot(page, "web-phone-ten-seats.png")
        ratios = await page.evaluate(
            """() => {
              const lum = (rgb) => { const [r, g, b] = rgb.match(/\\d+/g).slice(0, 3).map((x) => { x /= 255;
                return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
              return [...document.querySelectorAll('#hand .card:not(.legal):not(.wild)')].map((c) => {
                const s = getComputedStyle(c), a = lum(s.color), b = lum(s.backgroundColor);
                return { card: c.dataset.card, opacity: s.opacity, filter: s.filter,
                         ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) }; });
            }"""
        )
        assert ratios, "some card of the hand is dimmed"
        for item in ratios:
            assert item["opacity"] == "1" and item["filter"] == "none", item
            assert item["ratio"] >= 4.5, item


@VIEWPORTS
async def test_the_round_summary_waits_for_next_round(monkeypatch: pytest.MonkeyPatch, viewport: str) -> None:
    """Fair to people: UNO's countdown, no default answer, the summary until "Next round", its countdown."""
    seeded(monkeypatch, 2)
    async with live_server(bot_delay=0.05, react_delay=2.0, round_wait=10.0) as live, chromium() as browser:
        _, page = await seated(
            live, browser, "classic", ["heuristic"], PAGES[viewport], options={"hand_size": 2}, turn_seconds=60
        )
        await start(page)
        for _ in range(400):
            if await page.locator("#summary").count():
                break
            await page.wait_for_timeout(30)
            await play_something(page)
        else:
            raise AssertionError("no round ended")
        s = await state(page)
        assert s["lobby"]["waiting"] == [0]
        await page.wait_for_timeout(1500)
        assert await page.locator("#summary").count() == 1, "the summary stays until Next round"
        assert await inside_viewport(page, "#summary")
        assert re.search(r"\d+ s", await page.inner_text("#next-round")), "the wait counts down"
        assert (await state(page))["view"]["round"] == s["view"]["round"], "the next round waits"
        await shot(page, f"web-summary-{viewport}.png")
        await page.click("#next-round")
        await page.wait_for_selector("#summary", state="detached")
        await wait_for(
            page, f"() => window.unoSession.view.round > {s['summary']['round']} || window.unoSession.v > {s['v']}"
        )


async def test_uno_counts_down_and_the_turn_timer_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person who forgot UNO sees the button's countdown before a bot may catch them; the turn timer counts too."""
    seeded(monkeypatch, 2)
    async with live_server(bot_delay=0.05, react_delay=3.0) as live, chromium() as browser:
        _, page = await seated(
            live, browser, "classic", ["heuristic"], PHONE, options={"hand_size": 2}, turn_seconds=60
        )
        await start(page)
        for _ in range(100):
            await wait_for(page, MY_TURN)
            view = (await state(page))["view"]
            if any(a["uno"] for a in view["actions"]):
                break
            assert re.search(r"\d+ s", await page.inner_text("#whose")), "the turn timer counts down"
            await play_something(page)
        else:
            raise AssertionError("no UNO offered")
        assert await play_something(page, uno=False)
        button = page.locator("button.uno")
        await button.wait_for()
        assert re.search(r"\d s", await button.inner_text()), await button.inner_text()
        await button.click()
        await wait_for(page, "() => window.unoSession.view.unsafe === null")


async def test_the_final_screen_people_and_the_host() -> None:
    """Final scores ranked, "waiting for the host" for the others, who is watching, leave, the host's controls."""
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        table = await create_table(live, "classic", [None, "heuristic"], options={"hand_size": 2, "single_round": True})
        bob = await join(live, table["code"], "Bob")
        host = await new_page(browser, PAGES["desktop"])
        guest = await new_page(browser, PHONE)
        watcher = await new_page(browser, PHONE)
        await open_seat(host, live, table["code"], 0, table["token"])
        await open_seat(guest, live, table["code"], 1, bob["token"])
        await watcher.goto(f"{live.url}/t/{table['code']}?watch=1")
        await wait_for(host, "() => window.unoSession.lobby.spectators === 1")
        assert "1 spectator watching" in await host.inner_text("#watching")
        assert await host.locator('#people [data-host="handover"]').count() == 1
        assert await guest.locator("#people [data-host]").count() == 0
        await start(host)
        for _ in range(400):
            acted = await play_something(host) or await play_something(guest)
            if (await state(host))["view"]["outcome"] is not None:
                break
            if not acted:
                await asyncio.sleep(0.03)
        for page in (host, guest):
            await page.wait_for_selector("#final")
            if await page.locator("#next-round").count():
                await page.click("#next-round")
        scores = [int(x) for x in re.findall(r"(-?\d+) pts", await guest.inner_text("#ranking"))]
        assert scores == sorted(scores, reverse=True)
        assert "Waiting for the host" in await guest.inner_text("#final")
        assert await host.locator("#again").count() == 1
        await shot(guest, "web-final-phone.png")
        await guest.click("#leave")
        await guest.click("#leave-confirm")
        await wait_for(
            host, "() => window.unoSession.lobby.seats[1].bot !== null || window.unoSession.lobby.seats[1].open"
        )


@VIEWPORTS
async def test_duo_shows_its_draft_and_what_is_known_of_the_draw_pile(viewport: str) -> None:
    """Defect 10: the draft card's label fits its card; the draft's discards and the draw pile's known bottom show."""
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "duo", ["heuristic"], PAGES[viewport])
        await start(page)
        seen_discards = False
        for _ in range(60):
            await wait_for(page, f"{MY_TURN} || window.unoSession.view.top !== null")
            s = await state(page)
            view = s["view"]
            if view["top"] is not None:
                break
            caption = await page.evaluate(
                "() => { const f = document.querySelector('#shown-cards figure.shown'); if (!f) return null;"
                " const c = f.querySelector('figcaption').getBoundingClientRect(), r = f.getBoundingClientRect();"
                " return {text: f.innerText,"
                " inside: c.left >= r.left - 1 && c.right <= r.right + 1 && c.top >= r.top - 1}; }"
            )
            if view["draft_card"]:
                assert caption is not None and caption["inside"], caption
                assert "draft card" in caption["text"]
            if view["discard_pile"]:
                assert await page.locator("#discards .card").count() == len(view["discard_pile"])
                seen_discards = True
            await draft_step(page, view, s["v"])
        else:
            raise AssertionError("the draft did not end")
        assert seen_discards
        known = (await state(page))["view"]["draw_pile_known"]
        assert known, "D-4 puts the draft discards under the draw pile, in a known order"
        assert await page.locator("#draw-known .card").count() == len(known)
        await shot(page, f"web-duo-{viewport}.png")


async def test_the_host_hands_over_and_replaces_an_absent_person() -> None:
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        table = await create_table(live, "classic", [None, None])
        bob = await join(live, table["code"], "Bob")
        await join(live, table["code"], "Carol")  # takes seat 3 and never comes: an absent person
        host = await new_page(browser, PAGES["desktop"])
        guest = await new_page(browser, PHONE)
        await open_seat(host, live, table["code"], 0, table["token"])
        await open_seat(guest, live, table["code"], 1, bob["token"])
        await wait_for(host, "() => window.unoSession.lobby.seats[1].connected === true")
        assert await host.locator('#people li[data-seat="1"] [data-host="kick"]').count() == 0, "Bob is here"
        await host.click('#people li[data-seat="2"] [data-host="kick"]')
        await wait_for(host, "() => window.unoSession.lobby.seats[2].open")
        assert "host" in await host.inner_text('#people li[data-seat="0"]')
        await host.click('#people li[data-seat="1"] [data-host="handover"]')
        await guest.wait_for_selector("#start")
        assert await host.locator("#start").count() == 0
        await guest.click("#start-bots")
        await wait_for(host, "() => window.unoSession.view !== null")
        await host.close()  # the host (now a player) leaves the page: an absent person
        await wait_for(guest, "() => window.unoSession.lobby.seats[0].connected === false")
        await guest.click('#people li[data-seat="0"] [data-host="replace"]')
        await wait_for(guest, "() => window.unoSession.lobby.seats[0].bot !== null")


async def test_the_lobby_explains_the_rule_sets_and_options() -> None:
    async with live_server() as live, chromium() as browser:
        page = await new_page(browser, PHONE)
        await page.goto(live.url + "/")
        for rules in ("classic", "duo", "flex"):
            await page.select_option("#rules", rules)
            words = await page.inner_text("#rules-words")
            assert len(words) > 40, words
            labels = await page.eval_on_selector_all("#options label", "(els) => els.map((e) => e.innerText)")
            assert labels and not any("_" in label for label in labels), labels
            helps = await page.eval_on_selector_all("#options .option-help", "(els) => els.map((e) => e.innerText)")
            assert all(helps), helps
        assert await page.inner_text("#seatlist div:first-child") == "Seat 1: you"


async def test_a_timed_out_turn_is_logged_as_such() -> None:
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic"], PHONE, turn_seconds=2)
        await start(page)
        await wait_for(page, MY_TURN)
        assert re.search(r"\d s", await page.inner_text("#whose"))
        await page.wait_for_selector("#log li.timeout", timeout=10000)
        assert "time ran out" in (await page.inner_text("#log li.timeout")).lower()


@pytest.mark.parametrize("rules", ["classic", "flex"])
async def test_the_log_starts_with_the_first_card_and_keeps_it_after_a_reload(rules: str) -> None:
    """The log's first line is the deal's first card, as in the terminal game; a reload rebuilds it first too."""
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, rules, ["heuristic"], PAGES["desktop"])
        await start(page)
        await wait_for(page, "() => window.unoSession.log.length >= 1")
        first = (await state(page))["log"][0]
        assert first.startswith("Round 1: the first card is "), first
        await wait_for(page, MY_TURN)
        await play_something(page)
        await page.reload()
        await wait_for(page, "() => window.unoSession.log.length >= 2")
        assert (await state(page))["log"][0] == first
