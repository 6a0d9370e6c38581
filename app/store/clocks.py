"""Turn clocks (RULES.md O-3): every process sweeps the shared sorted set of deadlines.

The compare-and-set keeps each table's next deadline in ``clocks`` (score: ms since the epoch).
A sweeper takes the due ones and claims each with scripts/claim.lua, which pushes the deadline a
lease into the future only if it is still due, so one process wins each claim. The winner runs
the timeout through the service's normal path; the version check there makes the timeout apply
at most once even if a lease ran out, and the lease makes sure it is retried if the winner died.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from redis.asyncio import Redis

from .keys import Keys

log = logging.getLogger(__name__)
CLAIM = (Path(__file__).parent / "scripts" / "claim.lua").read_text()


class Sweeper:
    def __init__(self, redis: Redis, keys: Keys, run: Callable[..., Awaitable[bool]], *,
                 interval: float, lease: float, batch: int = 50):
        self.redis, self.keys, self.run = redis, keys, run
        self.interval, self.lease_ms, self.batch = interval, int(lease * 1000), batch
        self._claim = redis.register_script(CLAIM)

    async def forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock sweep failed")
            await asyncio.sleep(self.interval)

    async def sweep(self) -> int:
        """Claim and run every due deadline; the number this process ran."""
        now = int(time.time() * 1000)
        due = await self.redis.zrangebyscore(self.keys.clocks, "-inf", now, start=0,
                                             num=self.batch)
        ran = 0
        for raw in due:
            tid = raw.decode()
            if await self._claim(keys=[self.keys.clocks], args=[tid, now, self.lease_ms]):
                try:
                    ran += bool(await self.run(tid, claimed=True))
                except Exception:
                    log.exception("timeout of table %s failed", tid, extra={"table": tid})
        return ran
