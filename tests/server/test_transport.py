"""How ``uno serve`` speaks WebSocket: what its uvicorn settings (``worker.uvicorn_config``) give a client."""

from __future__ import annotations

import websockets

from tests.server.test_restart import serve_fresh


async def test_messages_are_not_compressed_even_when_the_client_offers_it() -> None:
    """Compression is not negotiated (its CPU is a tenth of the server's under load; see uvicorn_config)."""
    _db, port, _url, _live, server = await serve_fresh()
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", compression="deflate") as ws:
            assert ws.protocol.extensions == []
            assert "Sec-WebSocket-Extensions" not in ws.response.headers
    finally:
        server.kill()
        server.wait()
