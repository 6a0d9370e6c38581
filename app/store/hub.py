"""Fan-out: Redis pub/sub delivering each table's versions to this process's sockets.

The control channel (``Keys.control``) carries messages for every process, handed to
``on_control``: ``{"revoked": <player>, "ep": <epoch>}`` when every session of a player ended
(app/services/sessions.py), so each process closes that player's sockets at once.

A socket joins its table's channel here (the first local socket subscribes, the last one
unsubscribes). A compare-and-set publishes ``{"t", "v", "o", "e"}`` (the new version, its
writer and its public events); chat publishes ``{"t", "chat"}`` (and keeps the line,
``Keys.chat``); presence publishes ``{"t", "presence"}`` when a player's sockets come or go
(presence.py).
The writing process dispatches its change from the script's reply (``TableStore.on_written``),
so its own sockets hear it without a pub/sub hop. The change is published only when another
process watches the table: the hub keeps the table's set of watching processes (their
``origin``) as its first socket there comes and its last goes (``TableStore.watching``), and
the publication names its writer (``"o"``), whose hub skips the echo when it does get one (it
watches the table too). A write whose reply was lost (the connection cut after the script ran,
or too few replicas acknowledged it) re-reads the table for its sockets (``on_unsure``).
The hub records the latest version it heard for the store's cache, then hands the message to
``deliver(tid, message, sockets)``, serialised per table so sockets see versions in order. The
payloads carry no view: each socket's view is computed locally for its own seat.

One server: one pub/sub connection (redis-py resubscribes it after a reconnect). A Redis
Cluster: ``NodeChannels``, one connection per node. On Redis 7 a table's channel is a shard
channel (SPUBLISH / SSUBSCRIBE, ``connection.sharded_pubsub``), subscribed on the node that owns
its slot, so a version travels from the table's node to the processes watching it and to no
other node; older servers broadcast every PUBLISH over the cluster, and one connection to any
node hears them all. The control channel is always plain (broadcast). When a node's connection
fails (a failover) or the node hands a slot away (an unsolicited ``sunsubscribe``), its
channels are subscribed again wherever the cluster now has them, and each of those tables is
re-announced at its current version, so sockets catch up on what was published meanwhile (the
fan-out reads the events they missed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import RedisError

from .connection import Client, announce, sharded_pubsub
from .keys import Keys
from .outage import REDIS_DOWN
from .tables import Snapshot, TableStore

log = logging.getLogger(__name__)
Deliver = Callable[[str, dict[str, Any], list[Any]], Awaitable[None]]


class Hub:
    def __init__(
        self,
        redis: Client,
        keys: Keys,
        store: TableStore,
        deliver: Deliver,
        on_control: Callable[[dict[str, Any]], None] | None = None,
    ):
        self.redis, self.keys, self.store, self.deliver = redis, keys, store, deliver
        self.on_control = on_control
        self.sockets: dict[str, set[Any]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._channels: OneConnection | NodeChannels | None = None
        self.sharded = False
        self.origin = store.origin = secrets.token_hex(6)
        store.on_written = self._written
        store.on_unsure = self._unsure
        self._rereads: set[asyncio.Task] = set()

    async def start(self) -> None:
        self.sharded = self.store.sharded = await sharded_pubsub(self.redis)
        if isinstance(self.redis, RedisCluster):
            self._channels = NodeChannels(
                self.redis, self.keys.control, self.sharded, self._heard, self._resync
            )
        else:
            self._channels = OneConnection(self.redis, self._heard)
        await self._channels.start(self.keys.control)

    async def stop(self) -> None:
        for task in list(self._rereads):
            task.cancel()
        await asyncio.gather(*self._rereads, return_exceptions=True)
        if self._channels is not None:
            await self._channels.stop()

    async def join(self, tid: str, sock: Any) -> Snapshot | None:
        """Watch the table for this socket; returns its current snapshot (None: no table)."""
        assert self._channels is not None
        if tid not in self.sockets:
            self.sockets[tid] = set()
            await self._channels.subscribe(self.keys.channel(tid))
            await self.store.watching([tid])  # after subscribing, before the load below
        self.sockets[tid].add(sock)
        self.store.watch(tid)
        snap = await self.store.snapshot(tid, fresh=True)  # after subscribing: none is missed
        if snap is not None:
            self.store.hear(tid, snap.v)
        return snap

    async def leave(self, tid: str, sock: Any) -> None:
        socks = self.sockets.get(tid)
        if socks is None:
            return
        socks.discard(sock)
        if not socks:
            del self.sockets[tid]
            self.store.forget(tid)
            self._locks.pop(tid, None)
            assert self._channels is not None
            await self._channels.unsubscribe(self.keys.channel(tid))
            if tid not in self.sockets:  # no socket came back meanwhile
                await self.store.watching([tid], False)

    async def publish_chat(
        self, tid: str, chat: dict[str, Any], *, keep: int, keep_seconds: int
    ) -> None:
        """Say a chat line: kept among the table's last ``keep`` lines (for pages that open
        later, ``recent_chat``) and published to every process, in one transaction."""
        key = self.keys.chat(tid)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, orjson.dumps(chat))
            pipe.ltrim(key, -keep, -1)
            pipe.expire(key, keep_seconds)
            announce(pipe, self.sharded, self.keys.channel(tid), {"t": tid, "chat": chat})
            await pipe.execute()

    async def recent_chat(self, tid: str) -> list[dict[str, Any]]:
        """The table's kept chat lines, oldest first."""
        lines: Any = await self.redis.lrange(self.keys.chat(tid), 0, -1)
        return [orjson.loads(line) for line in lines]

    def _heard(self, channel: str, data: bytes) -> None:
        if channel == self.keys.control:
            if self.on_control is not None:
                self.on_control(orjson.loads(data))
        else:
            message = orjson.loads(data)
            if message.get("o") != self.origin:  # our own was dispatched from the reply
                self._dispatch(message)

    def _written(self, tid: str, v: int, events: list[dict[str, Any]]) -> None:
        """This process changed the table: what its publication says, without the hop."""
        self._dispatch({"t": tid, "v": v, "e": events})

    def _unsure(self, tid: str) -> None:
        """A change of this process's may have been written without its reply: its echo was
        skipped, so the table is read again and its current version dispatched."""
        if tid in self.sockets:
            task = asyncio.get_running_loop().create_task(self._reread(tid))
            self._rereads.add(task)
            task.add_done_callback(self._rereads.discard)

    async def _reread(self, tid: str) -> None:
        with contextlib.suppress(RedisError):  # Redis away: the sockets resync on reconnect
            await self._resync([self.keys.channel(tid)])

    async def _resync(self, channels: list[str]) -> None:
        """Channels subscribed again after a gap: announce each table's current version
        without its events, so the fan-out reads whatever the sockets missed."""
        tids = [t for t in self.sockets if self.keys.channel(t) in channels]
        await self.store.watching(tids)  # the failed node's copy may have lost them
        for tid in tids:
            snap = await self.store.snapshot(tid, fresh=True)
            if snap is not None:
                self._dispatch({"t": tid, "v": snap.v})

    def _dispatch(self, message: dict[str, Any]) -> None:
        tid = message.get("t")
        if tid not in self.sockets:
            return
        if "v" in message:
            self.store.hear(tid, message["v"])
        asyncio.get_running_loop().create_task(self._deliver(tid, message))

    async def _deliver(self, tid: str, message: dict[str, Any]) -> None:
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            socks = list(self.sockets.get(tid, ()))
            if not socks:
                return
            try:
                await self.deliver(tid, message, socks)
            except REDIS_DOWN as err:  # the table's node away: re-announced once it is back
                log.warning(
                    "delivery to table %s: Redis unavailable (%s)", tid, err, extra={"table": tid}
                )
            except Exception:
                log.exception(
                    "delivery to table %s failed", tid, extra={"table": tid, "v": message.get("v")}
                )


Heard = Callable[[str, bytes], None]


class OneConnection:
    """One server: one pub/sub connection for every channel."""

    def __init__(self, redis: Redis, heard: Heard):
        self.redis, self.heard = redis, heard
        self._pubsub: Any = None
        self._task: asyncio.Task | None = None

    async def start(self, control: str) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(control)
        self._task = asyncio.create_task(self._run())

    async def subscribe(self, channel: str) -> None:
        await self._pubsub.subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        await self._pubsub.unsubscribe(channel)

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._pubsub:
            await self._pubsub.aclose()

    async def _run(self) -> None:
        while True:
            try:
                async for msg in self._pubsub.listen():
                    if msg["type"] == "message":
                        self.heard(_text(msg["channel"]), msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped: redis-py resubscribes on reconnect
                log.exception("pub/sub listener failed; retrying")
                await asyncio.sleep(0.5)


class NodeChannels:
    """A Redis Cluster: one pub/sub connection per node that holds some of our channels."""

    RETRY = 0.5  # seconds between two attempts to subscribe a failed node's channels again

    def __init__(
        self,
        cluster: RedisCluster,
        control: str,
        sharded: bool,
        heard: Heard,
        resync: Callable[[list[str]], Awaitable[None]],
    ):
        self.cluster, self.control, self.sharded = cluster, control, sharded
        self.heard, self.resync = heard, resync
        self.where: dict[str, str] = {}  # channel -> the node (name) it is subscribed on
        self.conns: dict[str, PubSub] = {}  # node name -> its pub/sub connection
        self.ready: dict[str, asyncio.Future] = {}  # node name -> that connection's opening
        self.tasks: set[asyncio.Task] = set()
        self.plain: ClusterNode | None = None  # where plain channels go (any node hears them)

    async def start(self, control: str) -> None:
        await self.subscribe(control)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for ps in self.conns.values():
            await ps.aclose()

    def _shard(self, channel: str) -> bool:
        return self.sharded and channel != self.control

    def _node_for(self, channel: str) -> ClusterNode:
        if self._shard(channel):
            node = self.cluster.get_node_from_key(channel)
            assert node is not None  # every slot is covered, or the cluster refused (a retry)
            return node
        if self.plain is None or self.cluster.get_node(node_name=self.plain.name) is None:
            self.plain = random.choice(self.cluster.get_primaries())
        return self.plain

    async def subscribe(self, channel: str) -> None:
        node = self._node_for(channel)
        ps = self.conns.get(node.name)
        new = ps is None
        if ps is None:
            pool = ConnectionPool(connection_class=node.connection_class, **node.connection_kwargs)
            ps = self.conns[node.name] = Redis(connection_pool=pool).pubsub()
            self.ready[node.name] = asyncio.ensure_future(ps.connect())
            self.ready[node.name].add_done_callback(_retrieved)
        self.where[channel] = node.name
        try:
            # One connection for everyone: redis-py's PubSub opens one per caller that finds it
            # unconnected and keeps only the last, so joins arriving together (a fresh process,
            # a failover) would subscribe on connections nobody reads.
            await asyncio.shield(self.ready[node.name])
        except Exception:
            if self.conns.get(node.name) is ps:
                del self.conns[node.name]
            raise
        if self._shard(channel):
            await ps.ssubscribe(channel)
        else:
            await ps.subscribe(channel)
        if new:  # listened to once it is connected
            self._spawn(self._listen(node.name, ps))

    async def unsubscribe(self, channel: str) -> None:
        name = self.where.pop(channel, None)
        ps = self.conns.get(name) if name else None
        if ps is None:
            return
        with contextlib.suppress(RedisError):  # a failed node's subscriptions are gone anyway
            if self._shard(channel):
                await ps.sunsubscribe(channel)
            else:
                await ps.unsubscribe(channel)

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _listen(self, name: str, ps: PubSub) -> None:
        try:
            while self.conns.get(name) is ps:
                msg = await ps.get_message(timeout=1.0)
                if msg is None:
                    continue
                kind, channel = _text(msg["type"]), _text(msg["channel"] or "")
                if kind in ("message", "smessage"):
                    self.heard(channel, msg["data"])
                elif kind == "sunsubscribe" and self.where.get(channel) == name:
                    # the node gave the slot away (resharding, or it is a replica now)
                    self._spawn(self._again([channel]))
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the node failed: its channels go where the cluster says
            log.warning("pub/sub connection to %s lost (%r); subscribing again", name, err)
            if self.conns.get(name) is ps:
                del self.conns[name]
            with contextlib.suppress(Exception):
                await ps.aclose()
            if self.plain is not None and self.plain.name == name:
                self.plain = None
            await self._again([c for c, n in self.where.items() if n == name])

    async def _again(self, channels: list[str]) -> None:
        """Subscribe the channels again wherever the cluster has them now (after a failover,
        once a replica is promoted), then have their tables re-announced."""
        while True:
            try:
                await self.cluster.nodes_manager.initialize()
                for channel in channels:
                    if channel in self.where:
                        await self.subscribe(channel)
                break
            except asyncio.CancelledError:
                raise
            except Exception as err:  # noqa: BLE001 - until the cluster has a primary again
                log.info("pub/sub: subscribing again failed (%r); retrying", err)
                await asyncio.sleep(self.RETRY)
        await self.resync(channels)


def _retrieved(fut: asyncio.Future) -> None:
    """A failed opening is raised to its waiters; marked retrieved for when none waits."""
    if not fut.cancelled():
        fut.exception()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
