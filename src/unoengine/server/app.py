"""The ASGI app of ``uno serve`` (Starlette): pages, the lobby's HTTP API and one WebSocket per client.

HTTP (JSON): ``POST /api/tables`` creates a table, ``POST /api/tables/{code}/join``
takes a seat, ``GET /api/tables/{code}`` describes one, ``POST /api/mine`` lists the
caller's tables from the tokens it holds, ``GET /api/tables/{code}/games/{n}/record``
gives a finished game's record and ``…/review`` its review (:mod:`unoengine.server.review`),
``GET /api/rules`` lists rule sets, options and bots, ``GET /i18n/{lang}.json`` is a language's
catalog (:mod:`unoengine.server.languages`: ``?lang=`` on the routes, the fonts),
``GET /healthz`` says whether the server and its store answer, ``GET /api/stats`` gives
the server's own figures (:mod:`unoengine.server.metrics`).
``/ws`` carries the game (docs/PROTOCOL.md). The app only adapts: every table's
commands run in that table's :class:`~unoengine.server.actor.TableActor`.
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from html import escape as html_escape
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from unoengine.bots.base import known_bots
from unoengine.core.options import option_specs
from unoengine.core.rules import RULESETS
from unoengine.i18n import DEFAULT, LANGUAGES, said
from unoengine.server import auth, languages
from unoengine.server.actor import Join, RecordOf, ServerConfig, TableActor, Tap, bot_name
from unoengine.server.metrics import Metrics
from unoengine.server.protocol import PROTOCOL, ProtocolError, parse_name, parse_settings, presets_json, spec_json
from unoengine.server.review import Reviews
from unoengine.server.sockets import NOT_A_CODE, SocketOutlet, TokenBucket, serve_socket
from unoengine.server.store import SeatRow, Store, TableRow

__all__ = ["MAX_WS_BYTES", "SocketOutlet", "TokenBucket", "UnoServer", "create_app", "serve_socket"]

STATIC = Path(__file__).parent / "static"
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    '<rect x="12" y="4" width="40" height="56" rx="6" fill="#d62828" stroke="#fff" stroke-width="3"/>'
    '<ellipse cx="32" cy="32" rx="14" ry="22" transform="rotate(30 32 32)" fill="#fff"/>'
    '<text x="32" y="41" font-family="sans-serif" font-size="26" font-weight="bold" text-anchor="middle"'
    ' fill="#d62828">U</text></svg>'
)
"""The site's icon: a red card (``/favicon.ico``, served as SVG)."""
MAX_BODY = 8192
MAX_WS_BYTES = 16384
"""The WebSocket layer closes a connection whose frame is larger (1009, message too big)."""


class UnoServer:
    """The tables of one server: their actors (loaded from the store on demand) and the store."""

    def __init__(self, store: Store, config: ServerConfig | None = None, tap: Tap | None = None) -> None:
        self.store = store
        self.config = config or ServerConfig()
        self.tap = tap
        self.actors: dict[str, TableActor] = {}
        self.clock: Callable[[], float] = time.monotonic
        """The rate limits' clock (tests set their own)."""
        self._http_buckets: dict[str, TokenBucket] = {}
        self.metrics = Metrics()
        self.reviews = Reviews(self.config.review_workers, self.config.review_iterations)
        self.cluster: Any = None
        """With a shared store (PostgreSQL): this worker's :class:`~unoengine.server.fanout.Cluster`."""
        if store.shared:
            from unoengine.server.fanout import Cluster

            self.cluster = Cluster(self, store, **self.config.cluster)  # type: ignore[arg-type]

    def _new_actor(self, row: TableRow) -> TableActor:
        cluster = self.cluster
        actor = TableActor(
            row,
            self.store,
            self.config,
            self.tap,
            metrics=self.metrics,
            drives=cluster.drives if cluster is not None else None,
            publish=cluster.publish_presence if cluster is not None else None,
        )
        self.actors[row.code] = actor
        actor.start()
        return actor

    def actor(self, code: str) -> TableActor | None:
        actor = self.actors.get(code)
        if actor is not None:
            actor.last_active = time.monotonic()  # looked up: not idle
        else:
            if not auth.is_code(code):
                return None
            row = self.store.load_table(code)
            if row is None:
                return None
            actor = self._new_actor(row)
        return actor

    async def create(self, body: Any) -> dict[str, Any]:
        settings, name = parse_settings(body)
        code = auth.new_code()
        while code in self.actors or self.store.load_table(code) is not None:
            code = auth.new_code()
        await self.store.create_table(code, settings, time.time())
        row = TableRow(code, time.time(), settings)
        token = auth.new_token()
        seats = {0: SeatRow(name, auth.hash_token(token), None)}
        for seat, bot in enumerate(settings.bots):
            if bot is not None:
                seats[seat] = SeatRow(bot_name(seat), None, bot)
        for seat, seat_row in seats.items():
            await self.store.put_seat(code, seat, seat_row)
        row.seats = seats
        actor = self._new_actor(row)
        return {"code": code, "seat": 0, "token": token, "table": actor.lobby()}

    def http_allowed(self, request: Request) -> bool:
        host = request.client.host if request.client is not None else "?"
        bucket = self._http_buckets.get(host)
        if bucket is None:
            if len(self._http_buckets) > 10_000:
                self._http_buckets.clear()
            bucket = self._http_buckets[host] = TokenBucket(self.config.http_rate, self.config.http_burst, self.clock)
        return bucket.take()

    async def evict_idle(self, now: float | None = None) -> int:
        """Let the idle tables leave memory (:meth:`TableActor.is_idle`); they stay in the store. Returns how many."""
        idle = self.config.idle_seconds
        if idle <= 0:
            return 0
        moment = time.monotonic() if now is None else now
        evicted = 0
        for code, actor in list(self.actors.items()):
            if self.actors.get(code) is actor and actor.is_idle(moment, idle):
                del self.actors[code]  # first: a message arriving meanwhile loads the table afresh
                await actor.stop()
                evicted += 1
        return evicted

    async def close(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()
        self.reviews.close()
        await self.store.close()

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether the store answers, and what the health endpoint says."""
        body: dict[str, Any] = {"tables": len(self.actors)}
        try:
            ping = getattr(self.store, "ping", None)
            if ping is not None:
                ping()
            self.store.load_table("-")  # a read through the store's own path
        except Exception as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            return False, {**body, "ok": False, "error": reason}
        if self.cluster is not None:
            body.update(self.cluster.stats())
            body["listening"] = self.cluster.listener_pid is not None
        return True, {"ok": True, **body}

    def stats(self) -> dict[str, Any]:
        """``GET /api/stats``: tables, connections, and the latency histograms."""
        metrics = self.metrics
        body: dict[str, Any] = {
            "tables": len(self.actors),
            "clients": sum(len(actor.clients) for actor in self.actors.values()),
            "actions": sum(actor.stats.actions for actor in self.actors.values()),
            "step": metrics.step.to_json(),
            "commit": metrics.commit.to_json(),
            "conflicts": metrics.conflicts,
            "remote_steps": metrics.remote_steps,
            **self.reviews.stats(),
        }
        if self.cluster is not None:
            body.update(self.cluster.stats())
        return body


def _game_number(text: str) -> int | None:
    """A game's number in a path: ASCII digits, at most 9 of them (Starlette's ``int`` would read 5,000 digits)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _error(status: int, code: str, message: str, lang: str = DEFAULT) -> JSONResponse:
    return languages.error(status, code, message, lang)


async def _body(request: Request) -> Any:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise ProtocolError("too_long", said("a request body is at most {n} bytes", n=MAX_BODY))
    try:
        return json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", said("not valid JSON")) from None


async def _evict_idle_tables(server: UnoServer) -> None:
    """Check for idle tables a few times per ``ServerConfig.idle_seconds`` (at most every minute)."""
    idle = server.config.idle_seconds
    if idle <= 0:
        return
    while True:
        await asyncio.sleep(min(60.0, idle / 4))
        await server.evict_idle()


async def _keep_collector_short(every: float) -> None:
    """Collect the young generations, then freeze the survivors, every ``every`` seconds (``ServerConfig``)."""
    if every <= 0:
        return
    while True:
        await asyncio.sleep(every)
        gc.collect(1)
        gc.freeze()


def index_page() -> str:
    """The page, with the languages the server speaks on its ``<html>`` (``data-languages``: the picker's
    list, so that a new language is one catalog and one line of ``unoengine.i18n.LANGUAGES``)."""
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    languages = html_escape(json.dumps(LANGUAGES, ensure_ascii=False), quote=True)
    return text.replace('<html lang="en">', f'<html lang="en" data-languages="{languages}">', 1)


def create_app(server: UnoServer) -> Starlette:
    """The Starlette app serving ``server``'s tables."""

    html = index_page()

    async def page(request: Request) -> Response:
        return HTMLResponse(html, headers={"Cache-Control": "no-cache"})

    async def table_page(request: Request) -> Response:
        # The same page; 404 when no table has the code (the page asks GET /api/tables/{code} why).
        found = server.actor(request.path_params["code"].upper()) is not None
        return HTMLResponse(html, status_code=200 if found else 404, headers={"Cache-Control": "no-cache"})

    async def favicon(request: Request) -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    def no_table(code: str, lang: str) -> JSONResponse:
        if not auth.is_code(code):
            return _error(404, *NOT_A_CODE, lang)
        return _error(404, "no_table", said("there is no table with that code"), lang)

    def too_many(lang: str) -> JSONResponse:
        return _error(429, "rate_limited", said("too many requests: wait a moment"), lang)

    async def rules_info(request: Request) -> Response:
        rule_sets = []
        for rules in RULESETS.values():
            defaults = rules.default_options.to_dict()
            rule_sets.append(
                {
                    "name": rules.name,
                    "title": rules.title,
                    "seats": [rules.seats.start, rules.seats.stop - 1],
                    "options": {key: defaults[key] for key in sorted(rules.option_names)},
                    "choices": {key: list(values) for key, values in rules.option_choices.items()},
                    "specs": [spec_json(spec) for spec in option_specs(rules)],
                    "presets": presets_json(rules),
                }
            )
            summary = languages.summary_of(rules.name)
            if summary is not None:
                rule_sets[-1]["summary"] = summary
        body = {"protocol": PROTOCOL, "rules": rule_sets, "bots": known_bots()}
        return JSONResponse(languages.rules_in(body, languages.query_lang(request)))

    async def health(request: Request) -> Response:
        ok, body = server.health()
        return JSONResponse(body, status_code=200 if ok else 503, headers={"Cache-Control": "no-store"})

    async def stats(request: Request) -> Response:
        return JSONResponse(server.stats(), headers={"Cache-Control": "no-store"})

    async def create(request: Request) -> Response:
        lang = languages.reader_lang(request)
        if not server.http_allowed(request):
            return too_many(lang)
        try:
            return JSONResponse(await server.create(await _body(request)))
        except ProtocolError as error:
            return _error(400, error.code, error.message, lang)

    async def join(request: Request) -> Response:
        lang = languages.reader_lang(request)
        if not server.http_allowed(request):
            return too_many(lang)
        actor = server.actor(request.path_params["code"].upper())
        if actor is None:
            return no_table(request.path_params["code"].upper(), lang)
        try:
            body = await _body(request)
            if not isinstance(body, dict) or set(body) - {"name"}:
                raise ProtocolError("bad_field", 'the body is {"name": "..."}')
            name = parse_name(body.get("name"))
            seat, token = await actor.call(Join(name))
        except ProtocolError as error:
            return _error(409 if error.code in ("full", "started") else 400, error.code, error.message, lang)
        return JSONResponse({"code": actor.code, "seat": seat, "token": token, "table": actor.lobby()})

    async def describe(request: Request) -> Response:
        actor = server.actor(request.path_params["code"].upper())
        if actor is None:
            return no_table(request.path_params["code"].upper(), languages.reader_lang(request))
        return JSONResponse(actor.lobby())

    async def mine(request: Request) -> Response:
        lang = languages.reader_lang(request)
        if not server.http_allowed(request):
            return too_many(lang)
        try:
            body = await _body(request)
        except ProtocolError as error:
            return _error(400, error.code, error.message, lang)
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if not isinstance(tokens, list) or len(tokens) > 100 or not all(isinstance(t, str) for t in tokens):
            return _error(400, "bad_field", 'the body is {"tokens": ["...", ...]} (at most 100)', lang)
        hashes = {auth.hash_token(token): token for token in tokens if len(token) <= 64}
        found = []
        for code, seat in server.store.tables_of(hashes):
            actor = server.actor(code)
            if actor is None:
                continue
            lobby = actor.lobby()
            found.append(
                {"code": code, "seat": seat, "status": lobby["status"], "title": lobby["title"], "game": lobby["game"]}
            )
        return JSONResponse({"tables": found})

    async def finished_game(request: Request, lang: str, not_over: str) -> tuple[TableActor, int, str] | Response:
        """The record and review routes' checks: the table, the number of one of its games, that game over;
        then the table, the number and the game's record (else the JSON error, ``not_over``'s words for 409)."""
        actor = server.actor(request.path_params["code"].upper())
        if actor is None:
            return no_table(request.path_params["code"].upper(), lang)
        number = _game_number(request.path_params["game"])
        if number is None or not 1 <= number <= len(actor.lobby()["games"]):
            return _error(404, "no_game", said("there is no game with that number"), lang)
        text = await actor.call(RecordOf(number))
        if text is None:
            return _error(409, "not_over", not_over, lang)
        return actor, number, text

    async def record(request: Request) -> Response:
        found = await finished_game(
            request,
            languages.reader_lang(request),
            said("a game's record is published when the game is over"),
        )
        if isinstance(found, Response):
            return found
        actor, number, text = found
        return PlainTextResponse(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="uno-{actor.code}-{number}.json"'},
        )

    async def review(request: Request) -> Response:
        # The record route's checks and record (``RecordOf``), then the review of that record.
        found = await finished_game(request, languages.reader_lang(request), said("a game is reviewed when it is over"))
        if isinstance(found, Response):
            return found
        actor, number, text = found
        names = [seat.get("name") or f"Seat {index + 1}" for index, seat in enumerate(actor.lobby()["seats"])]
        review_of = await server.reviews.review(actor.code, number, text, names)
        head = {"names": review_of.names, "analysis": server.reviews.analysis(review_of)}
        body = json.dumps(head, separators=(",", ":"))
        if request.query_params.get("steps") != "0":  # a poll for the analysis's progress leaves the steps out
            steps = await server.reviews.steps_in(review_of, languages.query_lang(request))
            body = f'{{"steps":{steps},{body[1:]}'
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        await serve_socket(server, websocket)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        keepers = [
            asyncio.create_task(_keep_collector_short(server.config.gc_freeze_seconds)),
            asyncio.create_task(_evict_idle_tables(server)),
        ]
        if server.cluster is not None:
            keepers.append(asyncio.create_task(server.cluster.run()))
        try:
            yield
        finally:
            for keeper in keepers:
                keeper.cancel()
            await server.close()

    routes = [
        Route("/", page),
        Route("/t/{code:str}", table_page),
        Route("/t/{code:str}/games/{game:str}/review", table_page),
        Route("/favicon.ico", favicon),
        Route("/api/rules", rules_info),
        Route("/i18n/{lang:str}.json", languages.catalog),
        Route("/healthz", health),
        Route("/api/stats", stats),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/mine", mine, methods=["POST"]),
        Route("/api/tables/{code:str}", describe),
        Route("/api/tables/{code:str}/join", join, methods=["POST"]),
        Route("/api/tables/{code:str}/games/{game:str}/record", record),
        Route("/api/tables/{code:str}/games/{game:str}/review", review),
        WebSocketRoute("/ws", socket),
        Route("/static/fonts/{name:str}", languages.font),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
