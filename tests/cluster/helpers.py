"""Two workers on one database, in the test's event loop: two servers, each with its own store and listener."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

from tests.postgres import Cluster
from tests.server.harness import Live, live_server
from unoengine.server.postgres import PostgresStore

QUICK = {"poll_seconds": 0.5, "lease_seconds": 2.0}
"""Short leases and a frequent read, so that takeovers happen within a test's patience."""


@contextlib.asynccontextmanager
async def workers(cluster: Cluster, count: int = 2, **config: Any) -> AsyncIterator[list[Live]]:
    """``count`` servers on one database and one notification channel (as if on several hosts)."""
    channel = f"test_{secrets.token_hex(4)}"
    async with contextlib.AsyncExitStack() as stack:
        lives = []
        for _ in range(count):
            store = PostgresStore(cluster.url, channel=channel)
            live = await stack.enter_async_context(live_server(store, cluster=QUICK, **config))
            await live.server.cluster.listening()
            lives.append(live)
        yield lives
