"""Lanes: a dedicated, pipelined connection per Redis node for this process's compare-and-sets.

redis-py's per-command path costs about 100 µs of CPU a call on this kind of machine: a pool
checkout under a lock and a timeout, a Task for the send's ``wait_for``, a timeout around the
read, and its pure-Python packer for the script's thirty arguments. A move makes one such call,
so it was the largest part of what Meja adds to a move over an in-memory server (bench/README
"Lanes"). A lane writes each call at once on its own connection (hiredis packs it) and one
reader task hands the replies, in order, to the calls waiting for them: about 30 µs a call,
and several moves in flight share the connection, none waiting for another's reply.

A lane carries the happy path only; its connection is made by redis-py from the client's own
settings (address, password, TLS, database, the Sentinel's current primary). Anything else
stays the client's: the caller falls back to the client's own call on a lost connection or a
cluster redirection (``FALLBACK``), which reconnects, follows the slots and retries as always.
On a cluster each node has its own lane, so a node that fails holds up only its own calls.

A hung server: a call older than ``timeout`` fails every call on the lane with redis-py's
``TimeoutError`` (the API answers 503 ``redis_unavailable``, as for any Redis timeout) and the
lane starts a fresh connection at its next call. One timer per busy lane watches that.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Callable
from typing import Any

import hiredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

# What a lane hands back to the client: its own call reconnects, follows the cluster's slots
# (and a promoted replica) and retries, exactly as before lanes.
FALLBACK = (
    RedisConnectionError,
    MovedError,
    AskError,
    TryAgainError,
    ClusterDownError,
    ReadOnlyError,
)


class Lane:
    """One node's connection, pipelined: ``call`` writes at once and waits for its reply."""

    def __init__(self, connect: Callable[[], AbstractConnection], timeout: float):
        """``connect()``: a new, unconnected redis-py connection to the node, made without a
        socket timeout (the lane watches its calls itself: see the module's docstring)."""
        self._connect = connect
        self.timeout = timeout
        self._conn: AbstractConnection | None = None
        self._ready: asyncio.Future | None = None  # the connection being opened
        self._waiting: collections.deque[tuple[asyncio.Future, float]] = collections.deque()
        self._reader: asyncio.Task | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._closing: asyncio.Future | None = None  # the last connection's disconnect

    async def call(self, *args: Any) -> Any:
        if self._conn is None:
            await self._open()
        conn = self._conn
        if conn is None or not conn.is_connected:
            raise RedisConnectionError("the lane's connection is closed")
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        # registered before the write, which happens before send_packed_command first yields
        # (no socket timeout, no health check): replies come in the order of this deque
        self._waiting.append((fut, loop.time()))
        if self._timer is None:
            self._timer = loop.call_later(self.timeout, self._watch)
        try:
            await conn.send_packed_command(hiredis.pack_command(args), check_health=False)
        except Exception as err:
            self._break(err)
            raise
        return await fut

    async def _open(self) -> None:
        """Connect, once for every call that waits for it (a failure fails them all)."""
        if self._ready is None:
            self._ready = asyncio.ensure_future(self._connect_now())
            self._ready.add_done_callback(_retrieved)
        await asyncio.shield(self._ready)

    async def _connect_now(self) -> None:
        try:
            conn = self._connect()
            await conn.connect()
            self._conn = conn
            self._reader = asyncio.get_running_loop().create_task(self._read(conn))
        finally:
            self._ready = None

    async def _read(self, conn: AbstractConnection) -> None:
        while True:
            try:
                reply: Any = await conn.read_response(disable_decoding=True)
            except ResponseError as err:  # an error reply answers its call only
                reply = err
            except Exception as err:
                if conn is self._conn:  # not a connection the lane already gave up on
                    self._break(err)
                return
            if not self._waiting:  # a reply nobody asked for: the stream is out of step
                self._break(RedisConnectionError("unexpected reply on the lane"))
                return
            fut, _ = self._waiting.popleft()
            if fut.done():  # its caller was cancelled; the reply is dropped
                continue
            if isinstance(reply, ResponseError):
                fut.set_exception(reply)
            else:
                fut.set_result(reply)

    def _watch(self) -> None:
        """Fail the lane when its oldest call has waited ``timeout``; else look again then."""
        self._timer = None
        if not self._waiting:
            return
        loop = asyncio.get_running_loop()
        age = loop.time() - self._waiting[0][1]
        if age >= self.timeout:
            self._break(RedisTimeoutError(f"no reply from Redis in {self.timeout:g} s"))
        else:
            self._timer = loop.call_later(self.timeout - age, self._watch)

    def _break(self, err: BaseException) -> None:
        """The connection is done with: every waiting call fails with ``err`` (a redis-py
        error: a lost connection falls back to the client, a timeout does not), and the next
        call opens a new connection."""
        if not isinstance(err, (RedisConnectionError, RedisTimeoutError)):
            err = RedisConnectionError(f"the lane's connection failed ({err!r})")
        conn, self._conn = self._conn, None
        waiting, self._waiting = self._waiting, collections.deque()
        for fut, _ in waiting:
            if not fut.done():
                fut.set_exception(err)
        reader, self._reader = self._reader, None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
        if conn is not None:
            self._closing = asyncio.ensure_future(conn.disconnect(nowait=True))

    async def close(self) -> None:
        self._break(RedisConnectionError("the lane was closed"))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._closing is not None:
            with contextlib.suppress(Exception):
                await self._closing


def _retrieved(task: asyncio.Future) -> None:
    """A failed connect is raised to its callers; marked retrieved for when none waits."""
    if not task.cancelled():
        task.exception()
