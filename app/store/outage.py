"""What counts as "Redis cannot serve right now", in one place.

Every caller that turns a Redis failure into an answer uses ``REDIS_DOWN``: the REST routes
(503 ``redis_unavailable``, app/api/deps.py), the table socket (closed with 1013 "try again
later") and the clock sweeper (one log line, then backoff). It is the server gone or cut
(``ConnectionError``, ``TimeoutError``, which include a server still loading its data and a
full connection pool) and a node that cannot take the command for now: a replica being
promoted answers ``READONLY``, a full one (``maxmemory`` with ``noeviction``) ``OOM``, and a
Cluster mid-failover or mid-resharding ``CLUSTERDOWN``, ``MASTERDOWN``, ``TRYAGAIN``, or a
``MOVED``/``ASK`` redirect the client could not follow (redis-py follows them itself and
raises only once its retries are spent). A script error or a cross-slot command is a bug,
not an outage, and stays a 500.
"""

from __future__ import annotations

from redis.exceptions import (
    AskError,
    ClusterError,
    ConnectionError,
    OutOfMemoryError,
    ReadOnlyError,
    SlotNotCoveredError,
    TimeoutError,
    TryAgainError,
)

# ClusterError covers ClusterDownError and MasterDownError; AskError covers MovedError.
REDIS_DOWN: tuple[type[Exception], ...] = (
    ConnectionError,
    TimeoutError,
    ClusterError,
    AskError,
    TryAgainError,
    ReadOnlyError,
    OutOfMemoryError,
    SlotNotCoveredError,
)
