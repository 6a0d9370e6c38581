"""Two small lobby indexes beside the tables: the tables each player sat at, and the join codes
of private tables. Each is one key of its own (no hash tag shared with a table), so both work
the same on Redis Cluster; neither interprets a table.

- ``player:<id>:tables`` is a superset of where the player sits: a table is added before the
  seat is taken, and the reader (services/table/listing.py ``mine``) drops those the player no
  longer sits at. So a crash between the two steps can leave an extra entry, never a missing
  one, and "my tables" reads the player's own few tables instead of scanning every live table.
- ``code:<CODE>`` names the table of a private table's join code, written once with ``NX`` so
  two tables never share a code.
"""

from __future__ import annotations

from typing import Any

from .connection import Client
from .keys import Keys

PLAYER_TABLES_TTL = 7 * 24 * 3600  # an inactive player's set goes by itself
CODE_TTL = 7 * 24 * 3600  # a join code outlives its table's usual life by far


class Seated:
    def __init__(self, redis: Client, keys: Keys):
        self.redis = redis
        self.keys = keys

    async def note(self, pid: Any, tid: str) -> None:
        key = self.keys.player_tables(pid)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(key, tid)
            pipe.expire(key, PLAYER_TABLES_TTL)
            await pipe.execute()

    async def tables(self, pid: Any) -> list[str]:
        got: Any = await self.redis.smembers(self.keys.player_tables(pid))
        return sorted(t.decode() for t in got)

    async def forget(self, pid: Any, tids: list[str]) -> None:
        if tids:
            await self.redis.srem(self.keys.player_tables(pid), *tids)

    async def claim_code(self, code: str, tid: str) -> bool:
        """Give ``code`` to table ``tid``; False when another table has it."""
        return bool(await self.redis.set(self.keys.join_code(code), tid, nx=True, ex=CODE_TTL))

    async def table_of_code(self, code: str) -> str | None:
        tid: Any = await self.redis.get(self.keys.join_code(code))
        return tid.decode() if tid is not None else None
