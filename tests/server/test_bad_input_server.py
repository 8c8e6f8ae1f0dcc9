"""Bad input at the server: absurd game numbers, a signal always stops it, the rate limit, unknown fields.

- ``GET /api/tables/CODE/games/N/record`` with N of 5,000 digits answers 404, as for any game that does not exist;
- SIGTERM stops a real ``uno serve`` process within a few seconds, even with a request that never finishes;
  ``--bot-delay nan`` is refused before anything starts;
- a message refused by the rate limit is followed by a ``sync`` (docs/PROTOCOL.md);
- an unknown field of a message is repeated in short and escaped.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import time
from typing import Any
from urllib.parse import quote

import pytest

from tests.server.harness import Live, Player, create, free_port, live_server, start_two_humans
from tests.server.test_restart import ROOT, wait_up
from unoengine.cli import serve as serve_module

# -- the record route --------------------------------------------------------------------------


@pytest.mark.parametrize("number", ["9" * 5000, "1" * 4301, "99", "0", "-1", "1.0", "٣", "１", "+1", "0x1"])
async def test_a_record_of_a_game_that_does_not_exist_is_404(number: str) -> None:
    async with live_server() as live:
        code, *_ = await start_two_humans(live)
        status, body = await live.get(f"/api/tables/{code}/games/{quote(number)}/record")
        assert status == 404, body
        assert body["error"] == "no_game"
        status, body = await live.get(f"/api/tables/{code}/games/1/record")
        assert status == 409, body  # game 1 exists and is not over


# -- SIGTERM stops the server within a few seconds ---------------------------------------------


def _serve(port: int, *args: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "unoengine.cli", "serve", "--port", str(port), "--memory", *args]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _half_sent_request(port: int) -> socket.socket:
    """A client that sends a request's head and a few bytes of its body, then nothing."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 5000\r\n\r\n{"rules"'
    )
    return sock


async def test_sigterm_stops_the_server_within_a_few_seconds_whatever_its_clients_do() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = _serve(port, "--bot-delay", "0.05")
    try:
        await wait_up(url)
        live = Live(url, None)  # type: ignore[arg-type]
        code, token = await create(live, rules="classic", seats=4, bots=["heuristic"] * 3)
        host = await Player.connect(live, code, token, seat=0)
        await host.send({"type": "start", "token": token})
        await host.expect("sync")
        stuck = _half_sent_request(port)
        await asyncio.sleep(0.3)
        began = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            await asyncio.to_thread(server.wait, serve_module.FORCE_SECONDS + 5)
        except subprocess.TimeoutExpired:
            raise AssertionError("SIGTERM did not stop the server") from None
        took = time.monotonic() - began
        assert took < serve_module.FORCE_SECONDS + 1, took
        stuck.close()
        _, err = server.communicate()
        assert b"Traceback" not in err, err.decode(errors="replace")
    finally:
        server.kill()
        server.wait()


def test_serve_refuses_a_bot_delay_of_nan_before_it_starts() -> None:
    port = free_port()
    server = _serve(port, "--bot-delay", "nan")
    try:
        _, err = server.communicate(timeout=60)
    finally:
        server.kill()
        server.wait()
    assert server.returncode == 2
    assert err.decode().splitlines()[-1].startswith("Error: Invalid value for '--bot-delay': 'nan'")


def test_a_server_whose_shutdown_hangs_is_stopped_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last resort: FORCE_SECONDS after the signal, the process exits whatever it is doing."""
    import uvicorn

    forced: list[float] = []
    monkeypatch.setattr(serve_module, "FORCE_SECONDS", 0.05)
    monkeypatch.setattr(serve_module, "_force_exit", lambda: forced.append(time.monotonic()))
    server = serve_module._stopping_server(uvicorn.Config(lambda *args: None))
    server.handle_exit(signal.SIGTERM, None)
    assert server.should_exit
    server.handle_exit(signal.SIGTERM, None)  # a second signal starts no second timer
    time.sleep(0.3)
    assert len(forced) == 1


# -- the rate limit's refusal is followed by a sync; unknown fields ----------------------------


async def test_a_message_refused_by_the_rate_limit_is_followed_by_a_sync() -> None:
    async with live_server(message_rate=1, message_burst=3) as live:
        _, _, _, p0, p1 = await start_two_humans(live)
        mover = p0 if p0.view is not None and p0.view["to_act"] == 0 else p1
        await mover.drain(1.2)  # the bucket fills up again
        await mover.send({"type": "ping"})
        await mover.send({"type": "ping"})
        await mover.send({"type": "ping"})
        await mover.act("draw")  # over the rate: dropped unread
        received: list[dict[str, Any]] = []
        while not any(m.get("type") == "sync" for m in received):
            received.append(await mover.recv(3))
        kinds = [m.get("code") or m["type"] for m in received]
        assert kinds.index("rate_limited") < kinds.index("sync"), kinds
        assert "step" not in kinds, kinds  # the act was not applied
        assert received[-1]["v"] == 0


@pytest.mark.parametrize("name", ["x" * 4000, "\x1b]2;PWNED\x07"])
async def test_an_unknown_field_of_a_message_is_repeated_in_short(name: str) -> None:
    async with live_server() as live:
        code, token = await create(live, rules="classic", seats=2, bots=["heuristic"])
        host = await Player.connect(live, code, token, seat=0)
        await host.send({"type": "ping", name: 1})
        message = await host.expect("error")
        assert message["code"] == "bad_field"
        assert len(message["message"]) <= 100, message
        assert "\x1b" not in message["message"]
