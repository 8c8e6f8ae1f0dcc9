"""Each connection in its own language: ``hello``'s ``lang``, ``?lang=`` on the HTTP routes, the catalogs and fonts.

The real catalogs may still be empty: a fake one (every message id marked «…») shows which words are translated.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
from typing import Any
from urllib.request import Request, urlopen

import pytest
import websockets

from tests.server.harness import Live, Player, create, finish_game, join, live_server, my_turn
from unoengine import i18n

PLURALS = {"{who} drew {n}"}


class _Marks(dict[str, str]):
    """A fake catalog: any message id is "translated" to itself marked « »."""

    def get(self, key: str, default: Any = None) -> Any:
        return (f"«{key}»",) if key in PLURALS else f"«{key}»"


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_catalog", lambda lang: {} if lang == "en" else _Marks())


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """A GET with its status, headers and body (errors included)."""
    try:
        with urlopen(Request(url, headers=headers or {}), timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except Exception as error:
        return getattr(error, "code", 0), dict(getattr(error, "headers", {}) or {}), error.read()  # type: ignore[attr-defined]


async def get(live: Live, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(fetch, live.url + path, headers)


def words_of(message: dict[str, Any]) -> list[str]:
    """A game message's words: its lines (and its steps' lines and words), the view's title and prompt."""
    out = list(message.get("lines", []))
    for step in message.get("steps", [message] if message.get("type") == "step" else []):
        out += [*step["lines"], step["words"]]
    view = message.get("view")
    if view is not None:
        out += [view["words"]["title"], view["words"]["prompt"]]
        out += [action["words"] for action in view["actions"]]
    return [text for text in out if text]


async def test_a_connection_in_khmer_reads_khmer_while_its_table_reads_english(marked: None) -> None:
    async with live_server() as live:
        code, token0 = await create(live, rules="classic", seats=2, options={"single_round": True})
        _seat, token1 = await join(live, code, "Bob")
        english = await Player.connect(live, code, token0, seat=0)
        khmer = await Player.connect(live, code, token1, seat=1, lang="km")
        watcher = await Player.connect(live, code, lang="km")
        await english.send({"type": "start", "token": token0})
        for player in (english, khmer, watcher):
            await player.expect("sync")
        mover = english if my_turn(english) else khmer
        await mover.act("draw")
        steps = [await player.expect("step") for player in (english, khmer, watcher)]
        assert all(not text.startswith("«") for text in words_of(steps[0])), words_of(steps[0])
        for message in steps[1:]:
            said = words_of(message)
            assert said and all(text.startswith("«") for text in said), said
            assert message["action"] == steps[0]["action"] == "draw"  # notation never changes
            assert message["events"][0]["type"] == steps[0]["events"][0]["type"]
        # a refusal is said in the connection's language; its code is not
        await khmer.act("draw", v=0)
        error = await khmer.expect("error")
        assert error["code"] == "stale" and error["message"].startswith("«"), error
        await english.act("draw", v=0)
        error = await english.expect("error")
        assert error["code"] == "stale" and not error["message"].startswith("«"), error
        # a catch-up (steps since 0) carries the opening lines and the steps in the language
        await khmer.send({"type": "sync", "since": 0, "game": khmer.game})
        caught = await khmer.expect("steps")
        assert all(text.startswith("«") for text in words_of(caught)), words_of(caught)
        for player in (english, khmer, watcher):
            await player.close()


async def test_a_hello_in_an_unknown_language_is_refused_and_nothing_changes() -> None:
    async with live_server() as live:
        code, token = await create(live, rules="classic", seats=2, options={"single_round": True})
        ws = await websockets.connect(live.ws_url)
        await ws.send(json.dumps({"type": "hello", "table": code, "token": token, "lang": "xx"}))
        error = json.loads(await ws.recv())
        assert error["type"] == "error" and error["code"] == "bad_lang" and "en, km, si, lo" in error["message"]
        await ws.send(json.dumps({"type": "hello", "table": code, "token": token, "lang": 3}))
        assert json.loads(await ws.recv())["code"] == "bad_field"
        await ws.send(json.dumps({"type": "hello", "table": code, "token": token}))  # not yet said hello: it may
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        await ws.close()


async def test_the_catalogs_are_served_as_json_and_kept_a_day() -> None:
    async with live_server() as live:
        status, headers, body = await get(live, "/i18n/km.json")
        assert status == 200 and "max-age=86400" in headers["cache-control"]
        catalog = json.loads(body)
        assert catalog == json.loads(json.dumps(i18n.catalog_json("km")))  # (a plural's forms: a list)
        assert set(catalog) == {"lang", "plurals", "one", "messages"} and catalog["plurals"] == 1
        assert json.loads((await get(live, "/i18n/si.json"))[2])["one"] == [0, 1]
        status, _, body = await get(live, "/i18n/xx.json")
        assert status == 404 and json.loads(body)["error"] == "no_lang"


async def test_the_rules_and_the_errors_of_http_routes_follow_lang(marked: None) -> None:
    async with live_server() as live:
        _, _, body = await get(live, "/api/rules")
        english = json.loads(body)
        _, _, body = await get(live, "/api/rules?lang=km")
        khmer = json.loads(body)
        for given, said in zip(english["rules"], khmer["rules"], strict=True):
            assert given["name"] == said["name"] and given["options"] == said["options"]  # values never change
            for item, translated in zip(given["specs"], said["specs"], strict=True):
                assert translated["name"] == item["name"]
                assert not item["words"].startswith("«") and translated["words"] == f"«{item['words']}»"
            assert all(preset["words"].startswith("«") for preset in said["presets"])
        status, _, body = await get(live, "/api/tables/ABCDEFGH/games/1/record?lang=km")
        assert status == 404 and json.loads(body)["message"].startswith("«")
        status, _, body = await get(live, "/api/tables/ABCDEFGH/games/1/record", {"Accept-Language": "si-LK, en;q=0.5"})
        assert status == 404 and json.loads(body)["message"].startswith("«")
        status, _, body = await get(live, "/api/tables/ABCDEFGH/games/1/record")
        assert status == 404 and not json.loads(body)["message"].startswith("«")


async def test_a_review_is_said_in_its_lang(marked: None) -> None:
    async with live_server(review_workers=0) as live:
        code, token = await create(
            live, rules="duo", seats=2, bots=["random"], options={"single_round": True}, name="Alice"
        )
        host = await Player.connect(live, code, token, seat=0)
        await finish_game(host, token, random.Random(7))
        _, _, body = await get(live, f"/api/tables/{code}/games/1/review")
        english = json.loads(body)
        _, _, body = await get(live, f"/api/tables/{code}/games/1/review?lang=lo")
        lao = json.loads(body)
        assert len(english["steps"]) == len(lao["steps"])
        for given, said in zip(english["steps"], lao["steps"], strict=True):
            assert given["action"] == said["action"] and given["hands"] == said["hands"]
            assert all(not line.startswith("«") for line in given["lines"])
            assert all(line.startswith("«") for line in said["lines"])
            assert said["view"]["words"]["title"].startswith("«") or not said["view"]["words"]["title"]
        assert any("Alice" in line for step in lao["steps"] for line in step["lines"])  # names are never translated
        await host.close()


async def test_the_fonts_are_served_as_woff2_and_kept() -> None:
    async with live_server() as live:
        status, headers, body = await get(live, "/static/fonts/noto-sans-khmer-khmer-400-normal.woff2")
        assert status == 200 and headers["content-type"] == "font/woff2" and body[:4] == b"wOF2"
        assert "max-age=86400" in headers["cache-control"]
        status, _, _ = await get(live, "/static/fonts/missing.woff2")
        assert status == 404


async def test_the_page_lists_the_languages_the_server_speaks() -> None:
    """The picker's list is the page's ``data-languages``, written from ``unoengine.i18n.LANGUAGES``:
    a new language is one catalog and one line there."""
    async with live_server() as live:
        status, _, body = await get(live, "/")
        match = re.search(r'<html lang="en" data-languages="([^"]*)">', body.decode())
        assert status == 200 and match is not None
        assert json.loads(html.unescape(match.group(1))) == i18n.LANGUAGES
