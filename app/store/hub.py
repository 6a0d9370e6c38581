"""Fan-out: one Redis pub/sub connection per process, delivering to that process's sockets.

The control channel (``Keys.control``) carries messages for every process, handed to
``on_control``: ``{"revoked": <player>, "ep": <epoch>}`` when every session of a player ended
(app/services/sessions.py), so each process closes that player's sockets at once.

A socket joins its table's channel here (the first local socket subscribes, the last one
unsubscribes). Every compare-and-set publishes ``{"t", "v", "e"}`` (the new version and its
public events); chat publishes ``{"t", "chat"}`` (and keeps the line, ``Keys.chat``);
presence publishes ``{"t", "presence"}`` when a player's sockets come or go (presence.py).
The hub records the latest version it heard for the store's cache, then hands the message to
``deliver(tid, message, sockets)``, serialised per table so sockets see versions in order. The
payloads carry no view: each socket's view is computed locally for its own seat.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import Redis

from .keys import Keys
from .tables import Snapshot, TableStore

log = logging.getLogger(__name__)
Deliver = Callable[[str, dict[str, Any], list[Any]], Awaitable[None]]


class Hub:
    def __init__(
        self,
        redis: Redis,
        keys: Keys,
        store: TableStore,
        deliver: Deliver,
        on_control: Callable[[dict[str, Any]], None] | None = None,
    ):
        self.redis, self.keys, self.store, self.deliver = redis, keys, store, deliver
        self.on_control = on_control
        self.sockets: dict[str, set[Any]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._pubsub: Any = None  # redis.asyncio PubSub, opened by start()
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.keys.control)
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._pubsub:
            await self._pubsub.aclose()

    async def join(self, tid: str, sock: Any) -> Snapshot | None:
        """Watch the table for this socket; returns its current snapshot (None: no table)."""
        if tid not in self.sockets:
            self.sockets[tid] = set()
            await self._pubsub.subscribe(self.keys.channel(tid))
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
            await self._pubsub.unsubscribe(self.keys.channel(tid))

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
            pipe.publish(self.keys.channel(tid), orjson.dumps({"t": tid, "chat": chat}))
            await pipe.execute()

    async def recent_chat(self, tid: str) -> list[dict[str, Any]]:
        """The table's kept chat lines, oldest first."""
        lines: Any = await self.redis.lrange(self.keys.chat(tid), 0, -1)
        return [orjson.loads(line) for line in lines]

    async def _run(self) -> None:
        while True:
            try:
                async for msg in self._pubsub.listen():
                    if msg["type"] != "message":
                        continue
                    if _text(msg["channel"]) == self.keys.control:
                        if self.on_control is not None:
                            self.on_control(orjson.loads(msg["data"]))
                    else:
                        self._dispatch(orjson.loads(msg["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped: redis-py resubscribes on reconnect
                log.exception("pub/sub listener failed; retrying")
                await asyncio.sleep(0.5)

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
            except Exception:
                log.exception(
                    "delivery to table %s failed", tid, extra={"table": tid, "v": message.get("v")}
                )


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
