"""What testers met playing in the browser on a desktop and a phone: refusals that say why and go
away at the next step, Duo's draft discards apart from the hand, "Play and call UNO" first, hand
sizes in the 7-swap question, small card faces that fit, a summary without a stray rule, bot names
that agree with the numbered list, no direction with two seats, and what UNO's countdown means."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from tests.server.harness import live_server
from tests.web.browser import DESKTOP, PAGES, PHONE, chromium, draft_step, new_page, seated, state, wait_for
from tests.web.test_page import MY_TURN, play_something, seeded
from unoengine import Play, legal_actions, new_game, view_for

VIEWPORTS = pytest.mark.parametrize("viewport", list(PAGES), ids=list(PAGES))


def first_seed(rules: str, seats: int, options: dict[str, Any], test: Any) -> int:
    """A seed whose game has seat 0 to act first with a legal action that passes ``test``."""
    for seed in range(20_000):
        game = new_game(rules, seats, seed=seed, options=options)
        if game.to_act == 0 and any(test(str(action)) for action in legal_actions(game, 0)):
            return seed
    raise AssertionError("no such seed")


async def test_a_refused_card_says_why_and_the_banner_goes_at_the_next_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: a card that cannot be played names the engine's reason and rule, not only "cannot be
    played now"; the banner survives the refusal's own sync and is gone once the game moves on."""
    seeded(monkeypatch, 5)
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic", "heuristic"], DESKTOP)
        await page.click("#start")
        for _ in range(40):
            await wait_for(page, MY_TURN)
            view = (await state(page))["view"]
            offered = {a["card"] for a in view["actions"] if a["type"] == "play"}
            refused = [card for card in view["hand"] if card not in offered]
            if refused:
                break
            await play_something(page)
        else:
            raise AssertionError("every card was always playable")
        v = (await state(page))["v"]
        await page.locator(f'#hand .card[data-card="{refused[0]}"]').first.click()
        await wait_for(page, "() => window.unoSession.banner.includes('(rule ')")
        banner = await page.inner_text(".banner")
        assert banner.startswith(f"{refused[0]} cannot be played now: "), banner
        assert "Refused" not in banner and "seat 0" not in banner and "you's" not in banner, banner
        await page.wait_for_timeout(300)  # the refusal's sync has come: the banner stays
        assert (await state(page))["v"] == v and (await state(page))["banner"] == banner.removesuffix(" ✕")
        assert await play_something(page)
        await wait_for(page, f"() => window.unoSession.v > {v}")
        assert (await state(page))["banner"] == "", "the next step takes the refusal away"
        assert await page.locator(".banner").count() == 0
        assert page.errors == []  # type: ignore[attr-defined]


async def test_uno_is_offered_first_and_its_countdown_says_what_it_means(monkeypatch: pytest.MonkeyPatch) -> None:
    """Items 8 and 15: "Play and call UNO" is the first answer; the UNO button's countdown is explained."""
    options = {"hand_size": 2}
    seeded(monkeypatch, first_seed("classic", 2, options, lambda a: a.endswith(" uno") and not a.startswith("W")))
    async with live_server(bot_delay=0.05, react_delay=5.0) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic"], PHONE, options=options)
        await page.click("#start")
        await wait_for(page, MY_TURN)
        view = (await state(page))["view"]
        play = next(a for a in view["actions"] if a["uno"] and a["color"] is None)
        await page.locator(f'#hand .card[data-card="{play["card"]}"]').first.click()
        if await page.locator("#play-selected").count():
            await page.click("#play-selected")
        await page.wait_for_selector("#dialog .choices button")
        answers = await page.eval_on_selector_all("#dialog .choices button", "(els) => els.map((e) => e.innerText)")
        assert answers == ["Play and call UNO", "Play without calling UNO"], answers
        await page.click('#dialog button[data-key="uno"][data-value="false"]')
        await page.wait_for_selector("button.uno")
        note = await page.inner_text("#uno-note")
        assert "how long bots wait" in note, note
        assert "other players" not in note, "only bots at this table"
        await page.click("button.uno")
        await wait_for(page, "() => window.unoSession.view.unsafe === null")
        assert await page.locator("#uno-note").count() == 0


async def test_the_seven_swap_names_each_seat_with_its_hand_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 9: "Swap hands with whom?" shows every seat's name with its card count (the dialog hides the table)."""
    options = {"seven_zero": True}
    seeded(monkeypatch, first_seed("classic", 3, options, lambda a: ">" in a))
    async with live_server(bot_delay=0.05, react_delay=5.0) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic", "heuristic"], PHONE, options=options)
        await page.click("#start")
        await wait_for(page, MY_TURN)
        view = (await state(page))["view"]
        play = next(a for a in view["actions"] if a["target"] is not None)
        await page.locator(f'#hand .card[data-card="{play["card"]}"]').first.click()
        if await page.locator("#play-selected").count():
            await page.click("#play-selected")
        await page.wait_for_selector('#dialog button[data-key="target"]')
        answers = await page.eval_on_selector_all(
            '#dialog button[data-key="target"]', "(els) => els.map((e) => [e.dataset.value, e.innerText])"
        )
        lobby = (await state(page))["lobby"]
        expected = [
            [str(seat), f"{lobby['seats'][seat]['name']} ({view['hand_sizes'][seat]} cards)"]
            for seat in sorted({a["target"] for a in view["actions"] if a["target"] is not None})
        ]
        assert sorted(answers) == expected, answers


async def small_faces(page: Page) -> list[Any]:
    """Every card face in each size the page draws, checked: the rank clear of the markers, the flip
    symbol and the flex band; every word inside the card (nothing cut at its edge)."""
    return await page.evaluate(  # type: ignore[no-any-return]
        """() => import('/static/cards.js').then((m) => {
          const cards = ['R0', 'Y8', 'G5', 'B9', 'RS', 'YR', 'G+2', 'R5!', 'B7!', 'G2|Y', 'RS|B', 'RR|B', 'R+2|B',
                         'Y9|R', 'W', 'W+4', 'WAF', 'FW+2', 'FWA', 'FW+4'];
          const hand = Object.assign(document.createElement('div'), { className: 'hand' });
          const small = document.createElement('div');
          const pile = Object.assign(document.createElement('div'), { className: 'pile' });
          const top = Object.assign(document.createElement('div'), { className: 'top' });
          pile.append(top);
          document.body.append(hand, small, pile);
          const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
            && b.top < a.bottom - 0.5;
          const bad = [];
          for (const [where, host, size] of [['hand', hand, ''], ['small', small, 'small'], ['pile', top, '']]) {
            for (const c of cards) {
              const e = m.cardElement(c, { size });
              host.append(e);
              const r = e.getBoundingClientRect();
              const L = r.left + e.clientLeft, T = r.top + e.clientTop;
              const R = L + e.clientWidth, B = T + e.clientHeight;
              const face = e.querySelector('.face').getBoundingClientRect();
              for (const sel of ['.markers', '.flip', '.flexside']) {
                const x = e.querySelector(sel);
                if (x && meets(face, x.getBoundingClientRect())) bad.push([where, c, `rank overlaps ${sel}`]);
              }
              for (const sel of ['.face', '.sub', '.markers', '.flip']) {
                const x = e.querySelector(sel);
                if (!x) continue;
                const b = x.getBoundingClientRect();
                if (b.left < L - 0.5 || b.right > R + 0.5 || b.top < T - 0.5 || b.bottom > B + 0.5)
                  bad.push([where, c, `${sel} cut at the card's edge`]);
                if (x.scrollWidth > x.clientWidth) bad.push([where, c, `${sel} wider than its box`]);
              }
            }
          }
          return bad;
        })"""
    )


@VIEWPORTS
async def test_card_faces_fit_and_the_summary_has_no_stray_rule(viewport: str) -> None:
    """Item 10: on a 390×844 phone (and a desktop) no rank overlaps the colour-blind markers, "ALL DRAW"
    fits its card; the winner's empty "Cards left" cell is an ordinary table cell (no rule of its own)."""
    async with live_server() as live, chromium() as browser:
        page = await new_page(browser, PAGES[viewport])
        await page.goto(live.url + "/")
        await page.wait_for_selector("#rules")
        assert await small_faces(page) == []
        fwa = await page.evaluate(
            "() => { const s = [...document.querySelectorAll('.card[data-card=\"FWA\"] .sub')];"
            " return s.map((x) => x.innerText.replace(/\\s+/g, ' ')); }"
        )
        assert fwa and all(text == "ALL DRAW" for text in fwa), fwa
        cells = await page.evaluate(
            """() => import('/static/game.js').then((g) => {
              const seat = (s) => ['Alice', 'Bot 2', 'Bot 3'][s];
              const ui = { T: { seat: 0, readySent: false }, names: { Seat: seat, seat } };
              const ev = { round: 1, winner: 0, hands: [[], ['R5', 'FWA', 'G2|Y'], ['W+4']],
                           points: [[], [5, 50, 2], [50]], deltas: [107, 0, 0] };
              const panel = g.summaryPanel(ev, { waiting: [] }, { outcome: null, scores: [107, 0, 0] }, ui);
              document.body.append(panel);
              return [...panel.querySelectorAll('tr')].slice(1).map((tr) => {
                const row = tr.getBoundingClientRect();
                const cell = tr.querySelector('td.cards');
                const c = cell.getBoundingClientRect();
                const inRow = Math.abs(c.bottom - row.bottom) < 1 && Math.abs(c.top - row.top) < 1;
                return { display: getComputedStyle(cell).display, cards: cell.querySelectorAll('.card').length,
                         text: cell.innerText, inRow, width: c.width };
              });
            })"""
        )
        winner, *others = cells
        assert winner["display"] == "table-cell" and winner["cards"] == 0 and winner["inRow"], winner
        assert winner["text"] == "—", winner
        for cell in others:
            assert cell["display"] == "table-cell" and cell["cards"] > 0 and cell["inRow"], cell
        assert len({round(cell["width"]) for cell in cells}) == 1, "one column: every cell as wide as the others"


@VIEWPORTS
async def test_duo_draft_discards_are_apart_from_the_hand_and_two_seats_show_no_direction(viewport: str) -> None:
    """Items 7, 12, 13: the face-up draft discards have their own titled box outside the hand's; with two
    seats no direction is shown; the numbered player list and the bots' names count alike."""
    async with live_server(bot_delay=0.05, react_delay=5.0) as live, chromium() as browser:
        _, page = await seated(live, browser, "duo", ["heuristic"], PAGES[viewport])
        await page.click("#start")
        await wait_for(page, "() => window.unoSession.view")
        people = await page.eval_on_selector_all(
            "#people ol.seats > li", "(els) => els.map((e) => [e.dataset.seat, e.innerText])"
        )
        assert people[1][1].startswith("Bot 2"), people
        for index, (seat, _text) in enumerate(people):
            assert int(seat) == index, "the list numbers seats from 1, as the names do"
        seen = False
        for _ in range(40):
            await wait_for(page, f"{MY_TURN} || window.unoSession.view.top !== null")
            s = await state(page)
            view = s["view"]
            facts = await page.inner_text("#pile .table-facts")
            assert "clockwise" not in facts, facts
            if view["top"] is not None:
                break
            if view["discard_pile"]:
                seen = True
                assert await page.locator("#me #discards, #hand #discards").count() == 0
                title = await page.inner_text("#discards h3")
                assert title.startswith("Draft discards (face up)"), title
                assert await page.locator("#discards .card").count() == len(view["discard_pile"])
                apart = await page.evaluate(
                    "() => { const a = document.getElementById('discards').getBoundingClientRect(),"
                    " b = document.getElementById('me').getBoundingClientRect();"
                    " return a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5; }"
                )
                assert apart, "the discards' box lies outside the hand's box"
            await draft_step(page, view, s["v"])
        else:
            raise AssertionError("the draft did not end")
        assert seen
        assert "clockwise" not in await page.inner_text("#pile .table-facts")


async def test_three_seats_still_show_the_direction() -> None:
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic", "heuristic"], PHONE)
        await page.click("#start")
        await page.wait_for_selector("#pile .table-facts")
        assert "clockwise" in await page.inner_text("#pile .table-facts")


def multi_seed() -> int:
    """A seed whose heads-up H-10 game has seat 0 first, with a playable number card of which it holds two."""
    for seed in range(20_000):
        game = new_game("classic", 2, seed=seed, options={"multi_play": True})
        if game.to_act != 0:
            continue
        numbers = [card.number for card in view_for(game, 0).hand if card.number is not None]
        played = [action.card.number for action in legal_actions(game, 0) if isinstance(action, Play)]
        if any(number is not None and numbers.count(number) >= 2 for number in played):
            return seed
    raise AssertionError("no such seed")


async def test_h10_the_page_offers_more_of_the_same_number_and_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """H-10 in the browser: after a number card the page asks "More …s" with the same-number cards and a pass
    button, from the view's actions alone (the page knows no house rule)."""
    seeded(monkeypatch, multi_seed())
    async with live_server(bot_delay=0.05) as live, chromium() as browser:
        _, page = await seated(live, browser, "classic", ["heuristic"], PHONE, options={"multi_play": True})
        await page.click("#start")
        await wait_for(page, MY_TURN)
        view = (await state(page))["view"]
        numbers = [card for card in view["hand"] if card[1:].isdigit()]
        play = next(
            a
            for a in view["actions"]
            if a["type"] == "play" and a["card"] in numbers and sum(c[1:] == a["card"][1:] for c in numbers) >= 2
        )
        await page.locator(f'#hand .card[data-card="{play["card"]}"]').first.click()
        if await page.locator("#play-selected").count():
            await page.click("#play-selected")
        await wait_for(page, "() => window.unoSession.view && window.unoSession.view.pending === 'more'")
        assert f"More {play['card'][1:]}s" in await page.inner_text("body")
        passing = page.locator('.actions button[data-action="pass"]')
        assert await passing.count() == 1
        v = (await state(page))["v"]
        await passing.click()
        await wait_for(page, f"() => window.unoSession.v > {v}")
        assert (await state(page))["view"]["pending"] != "more"
        assert page.errors == []  # type: ignore[attr-defined]
