"""What friends need from Redis: who was in the lobby a moment ago, and each player's pending
table invites (app/services/friends.py). One key per player each, no hash tag shared with a
table, so every process on a single server or a Redis Cluster reads and writes the same ones.

- ``player:<id>:seen``: set by the lobby's poll, expiring after ``seen_seconds``; a player
  whose key is there is online in the lobby (at a table, presence says it: app/store/presence.py).
- ``player:<id>:invites``: a hash, invite id -> JSON ``{id, from, name, table, game, at,
  expires}``. An invite past ``expires`` is dropped when the list is read (accepted before
  that, it is refused as expired); the key expires an hour after the newest invite, so a
  player who never looks leaves nothing behind.
"""

from __future__ import annotations

import time
from typing import Any

import orjson

from .connection import Client
from .keys import Keys

MAX_INVITES = 20  # kept per player; the oldest go first
KEEP_EXPIRED = 3600  # an expired invite stays this long, to be refused as expired


class Social:
    def __init__(self, redis: Client, keys: Keys, *, seen_seconds: int, invite_seconds: int):
        self.redis, self.keys = redis, keys
        self.seen_seconds, self.invite_seconds = seen_seconds, invite_seconds

    def _seen(self, pid: int) -> str:
        return f"{self.keys.player(pid)}:seen"

    def _invites(self, pid: int) -> str:
        return f"{self.keys.player(pid)}:invites"

    async def saw(self, pid: int) -> None:
        await self.redis.set(self._seen(pid), 1, ex=self.seen_seconds)

    async def online(self, pids: list[int]) -> list[bool]:
        """Whether each player was seen in the lobby lately: one pipeline (on a cluster, one
        round trip per node)."""
        if not pids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in pids:
                pipe.exists(self._seen(pid))
            return [bool(n) for n in await pipe.execute()]

    async def invite(self, to: int, invite: dict[str, Any]) -> dict[str, Any]:
        """Keep ``invite`` (with its ``id``) for player ``to``, expiring ``invite_seconds``
        from now; returns it with ``expires`` (ms)."""
        now = _now_ms()
        invite = {**invite, "at": now, "expires": now + self.invite_seconds * 1000}
        key = self._invites(to)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, invite["id"], orjson.dumps(invite))
            pipe.expire(key, self.invite_seconds + KEEP_EXPIRED)
            await pipe.execute()
        await self._trim(key)
        return invite

    async def invites(self, pid: int) -> list[dict[str, Any]]:
        """The player's invites not yet expired, newest first (the expired ones dropped)."""
        key = self._invites(pid)
        got: Any = await self.redis.hgetall(key)
        now, live, gone = _now_ms(), [], []
        for iid, raw in got.items():
            invite = orjson.loads(raw)
            if invite["expires"] > now:
                live.append(invite)
            else:
                gone.append(iid)
        if gone:
            await self.redis.hdel(key, *gone)
        return sorted(live, key=lambda i: -i["at"])

    async def take(self, pid: int, iid: str) -> dict[str, Any] | None:
        """Remove one invite and return it as it was (expired or not); None when unknown."""
        key = self._invites(pid)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(key, iid)
            pipe.hdel(key, iid)
            raw, _ = await pipe.execute()
        return None if raw is None else orjson.loads(raw)

    async def _trim(self, key: str) -> None:
        got: Any = await self.redis.hgetall(key)
        if len(got) > MAX_INVITES:
            by_age = sorted(got.items(), key=lambda kv: orjson.loads(kv[1])["at"])
            await self.redis.hdel(key, *(k for k, _ in by_age[: len(got) - MAX_INVITES]))


def _now_ms() -> int:
    return int(time.time() * 1000)
