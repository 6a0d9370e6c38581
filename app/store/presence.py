"""Presence: which players hold an open socket at a table, across every process.

One sorted set per table (``Keys.presence``) of ``<player>/<process>`` members, each scored by
when it expires (ms). A process adds its member when a player's first local socket at the table
opens, removes it when the last one closes, and refreshes all of its members every little while
(``refresh``), so a player with sockets on two processes stays present while either is open,
and the members of a process that died (SIGKILL, a lost host) lapse on their own. Arrivals and
departures are published on the table's channel (``{"t", "presence"}``) so every process tells
its sockets at once; a lapse is noticed by the next ``refresh`` of any process with sockets
there. The key itself expires too, so a table nobody watches leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from .connection import announce
from .keys import by_bucket
from .tables import TableStore


class Presence:
    def __init__(self, store: TableStore, ttl: float):
        """``store``: its Redis, keys and whether the tables' channels are shard channels."""
        self.store, self.redis, self.keys = store, store.redis, store.keys
        self.ttl_ms = int(ttl * 1000)
        self.process = uuid.uuid4().hex[:12]  # this process's part of every member it writes
        self._refresh = store.script("presence.lua")

    def _member(self, pid: Any) -> str:
        return f"{pid}/{self.process}"

    async def arrive(self, tid: str, pid: Any) -> None:
        """A player's first socket at the table on this process opened."""
        await self._change(tid, lambda pipe, key: pipe.zadd(key, {self._member(pid): self._exp()}))

    async def depart(self, tid: str, pid: Any) -> None:
        """A player's last socket at the table on this process closed."""
        await self._change(tid, lambda pipe, key: pipe.zrem(key, self._member(pid)))

    async def online(self, tid: str) -> set[int]:
        """The players present at the table now."""
        rows: Any = await self.redis.zrangebyscore(self.keys.presence(tid), _now(), "+inf")
        return _players(rows)

    async def online_at(self, tids: list[str]) -> set[int]:
        """The players present at any of the tables, each once: one pipeline of reads."""
        if not tids:
            return set()
        now = _now()
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in tids:
                pipe.zrangebyscore(self.keys.presence(tid), now, "+inf")
            replies = await pipe.execute()
        return {p for rows in replies for p in _players(rows)}

    async def refresh(self, present: dict[str, set[Any]]) -> dict[str, set[int]]:
        """Extend this process's members (``present``: table -> players it holds a live
        socket for), drop the lapsed ones, and read who is present at each of those tables:
        one script per bucket (scripts/presence.lua), all in flight at once on the lanes."""
        exp, now, ttl = self._exp(), _now(), 2 * self.ttl_ms
        groups = list(by_bucket(present).values())
        replies = await asyncio.gather(
            *(self._bucket(tids, present, now, exp, ttl) for tids in groups)
        )
        return {
            tid: _players(rows)
            for tids, reply in zip(groups, replies)
            for tid, rows in zip(tids, reply)
        }

    async def _bucket(
        self, tids: list[str], present: dict[str, set[Any]], now: int, exp: int, ttl: int
    ) -> list[list[bytes]]:
        args: list[Any] = [now, exp, ttl]
        for tid in tids:
            args += [len(present[tid]), *(self._member(p) for p in present[tid])]
        keys = [self.keys.presence(tid) for tid in tids]
        return await self.store.run_script(self._refresh, keys, args)

    async def _change(self, tid: str, op) -> None:
        key = self.keys.presence(tid)
        async with self.redis.pipeline(transaction=True) as pipe:
            op(pipe, key)
            pipe.pexpire(key, 2 * self.ttl_ms)
            announce(pipe, self.store.sharded, self.keys.channel(tid), {"t": tid, "presence": True})
            await pipe.execute()

    def _exp(self) -> int:
        return _now() + self.ttl_ms


def _now() -> int:
    return int(time.time() * 1000)


def _players(rows: list[bytes]) -> set[int]:
    return {int(m.decode().split("/", 1)[0]) for m in rows}
