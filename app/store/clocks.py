"""Turn clocks (docs/rules.md O-3): every process sweeps every bucket's sorted set of deadlines.

The compare-and-set keeps each table's next deadline in its bucket's ``clocks`` (score: ms since
the epoch; app/store/keys.py), written by the same script as the table. A sweeper reads the due
entries of every bucket (one pipeline; on a cluster one per node, in parallel) and claims each
with scripts/claim.lua, which pushes the deadline a lease into the future only if it is still
due, so one process wins each claim. The winner runs the timeout through the service's normal
path; the version check there makes the timeout apply at most once even if a lease ran out, and
the lease makes sure it is retried if the winner died.

The entry is a hint, the table's document is the truth: the claimant acts on the document's own
clock (and the idle/close chores, table_doc.chores_at) and puts an early entry back to it. Every
``repair_every`` seconds each sweeper also re-arms, from each live table's own ``at``, entries
that are missing or later than it (``ZADD LT``: a repair never postpones anything).

Redis away (``REDIS_DOWN``: down, cut, or a node failing over) is logged once, as one line,
and the sweeper waits twice as long after each failed pass, up to ``backoff_max`` seconds;
the first pass that works logs the recovery and goes back to ``interval``. Any other failure
is a bug: logged with its traceback, and backed off the same way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from .connection import Client
from .keys import BUCKETS, Keys, bucket_of
from .outage import REDIS_DOWN

log = logging.getLogger(__name__)
REARM_CHUNK = 100
CLAIM = (Path(__file__).parent / "scripts" / "claim.lua").read_text()


class Sweeper:
    def __init__(
        self,
        redis: Client,
        keys: Keys,
        run: Callable[..., Awaitable[bool]],
        *,
        interval: float,
        lease: float,
        batch: int = 50,
        repair_every: float = 30.0,
        backoff_max: float = 5.0,
    ):
        self.redis, self.keys, self.run = redis, keys, run
        self.interval, self.lease_ms, self.batch = interval, int(lease * 1000), batch
        self.repair_every, self.repaired_at = repair_every, 0.0
        self.backoff_max = max(backoff_max, interval)
        self.delay = interval  # the wait before the next pass: longer while passes fail
        self.outage = False  # Redis was away at the last pass (logged once)
        self._claim = redis.register_script(CLAIM)

    async def forever(self) -> None:
        while True:
            await self.once()
            await asyncio.sleep(self.delay)

    async def once(self) -> None:
        """One pass (the lost-clock repair when due, then the sweep), and the next wait."""
        try:
            if time.monotonic() - self.repaired_at >= self.repair_every:
                self.repaired_at = time.monotonic()
                await self.rearm()
            await self.sweep()
        except REDIS_DOWN as err:
            if not self.outage:
                log.warning("clock sweep: Redis unavailable (%s); backing off", err)
            self.outage = True
            self.delay = min(self.delay * 2, self.backoff_max)
            return
        except Exception:
            log.exception("clock sweep failed")
            self.delay = min(self.delay * 2, self.backoff_max)
            return
        if self.outage:
            log.info("clock sweep: Redis is back")
        self.outage, self.delay = False, self.interval

    async def sweep(self) -> int:
        """Claim and run every due deadline of every bucket; the number this process ran."""
        now = int(time.time() * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in range(BUCKETS):  # on a cluster: one pipeline per node, side by side
                pipe.zrangebyscore(self.keys.clocks(b), "-inf", now, start=0, num=self.batch)
            due = await pipe.execute()
        ran = 0
        for b, tids in enumerate(due):
            for raw in tids:
                tid = _s(raw)
                if await self._claim(keys=[self.keys.clocks(b)], args=[tid, now, self.lease_ms]):
                    try:
                        ran += bool(await self.run(tid, claimed=True))
                    except REDIS_DOWN:
                        raise  # the pass ends: forever() backs off
                    except Exception:
                        log.exception("timeout of table %s failed", tid, extra={"table": tid})
        return ran

    async def rearm(self) -> int:
        """Re-add lost clock entries from the live tables' own deadlines; how many. The
        compare-and-set writes a table's deadline and its entry together, so this finds
        something only after a hand edit or a restore from a backup: a cheap safety net."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in range(BUCKETS):
                pipe.zrange(self.keys.live(b), 0, -1)
                pipe.zrange(self.keys.clocks(b), 0, -1, withscores=True)
            replies = await pipe.execute()
        tids = [_s(t) for some in replies[0::2] for t in some]
        if not tids:
            return 0
        armed = {_s(m): score for some in replies[1::2] for m, score in some}
        ats: list = []
        for i in range(0, len(tids), REARM_CHUNK):  # in chunks: one pipeline of every live
            async with self.redis.pipeline(transaction=False) as pipe:  # table held the
                for tid in tids[i : i + REARM_CHUNK]:  # event loop for tens of ms
                    pipe.hget(self.keys.table(tid), "at")
                ats += await pipe.execute()
        lost = {
            tid: int(at)
            for tid, at in zip(tids, ats)  # a claim's lease is not lost
            if at is not None and armed.get(tid, float("inf")) > int(at) + self.lease_ms
        }
        if lost:
            async with self.redis.pipeline(transaction=False) as pipe:
                for tid, at in lost.items():
                    pipe.zadd(self.keys.clocks(bucket_of(tid)), {tid: at}, lt=True)
                await pipe.execute()
            log.warning("re-armed %d lost clock entries", len(lost))
        return len(lost)


def _s(x) -> str:
    return x.decode() if isinstance(x, bytes) else x
