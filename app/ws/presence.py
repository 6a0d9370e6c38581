"""Telling a table's sockets which players are connected (``{"type": "presence", "online":
[player ids]}``), so every page can mark a seated player whose connection dropped.

The facts are kept in Redis by app/store/presence.py, across processes. Here: a socket's
arrival and departure (the first and last socket of a player at a table on this process), the
message sent to each local socket when the set changes, and ``forever``, the process's
heartbeat of its sockets: every quarter of ``presence_seconds`` it refreshes the players whose
sockets were heard from within ``presence_seconds`` (the browser pings every 10 s) and tells
its sockets when someone lapsed (a socket silent too long, or a process that died). The same
beat says again which tables the process watches (``TableStore.watching``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from app.services.wiring import Services

log = logging.getLogger("meja.sockets")


class PresenceKeeper:
    def __init__(self, live: Services):
        self.live = live
        self.sent: dict[str, set[int]] = {}  # table -> the set this process's sockets last got

    async def arrive(self, tid: str, conn: Any) -> None:
        """A socket opened: present it (the first of its player here) and send it the set."""
        if conn.pid is not None and not self._others(tid, conn):
            await self.live.presence.arrive(tid, conn.pid)
        online = self.sent.get(tid)
        if online is None:
            online = await self.live.presence.online(tid)
        conn.push_json(_message(online))

    async def depart(self, tid: str, conn: Any) -> None:
        """A socket closed: the player is gone from here unless another socket of theirs is."""
        if conn.pid is not None and not self._others(tid, conn):
            await self.live.presence.depart(tid, conn.pid)
        if tid not in self.live.hub.sockets:
            self.sent.pop(tid, None)

    async def changed(self, tid: str, socks: list[Any]) -> None:
        """Someone arrived or left (the table's channel said so): read and tell."""
        self.tell(tid, await self.live.presence.online(tid), socks)

    def tell(self, tid: str, online: set[int], socks: list[Any]) -> None:
        if self.sent.get(tid) == online:
            return
        self.sent[tid] = online
        data = _message(online)
        for s in socks:
            s.push_json(data)

    async def forever(self) -> None:
        every = self.live.settings.presence_seconds / 4
        while True:
            await asyncio.sleep(every)
            try:
                await self.beat()
            except Exception:  # Redis unreachable: the next beat tries again
                log.exception("presence refresh failed")

    async def beat(self) -> None:
        loop = asyncio.get_running_loop()
        horizon = loop.time() - self.live.settings.presence_seconds
        tables = {tid: list(socks) for tid, socks in self.live.hub.sockets.items()}
        present = {
            tid: {c.pid for c in socks if c.pid is not None and c.heard >= horizon}
            for tid, socks in tables.items()
        }
        for tid, online in (await self.live.presence.refresh(present)).items():
            self.tell(tid, online, tables[tid])
        await self.live.store.watching(list(tables))  # a set a failover lost, whole again

    def _others(self, tid: str, conn: Any) -> bool:
        return any(c.pid == conn.pid for c in self.live.hub.sockets.get(tid, ()) if c is not conn)


def _message(online: set[int]) -> bytes:
    return orjson.dumps({"type": "presence", "online": sorted(online)})
