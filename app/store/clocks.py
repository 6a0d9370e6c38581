"""Turn clocks (docs/rules.md O-3): every process sweeps every bucket's sorted set of deadlines.

The compare-and-set keeps each table's next deadline in its bucket's ``clocks`` (score: ms since
the epoch; app/store/keys.py), written by the same script as the table. A sweeper reads the due
entries of every bucket (one pipeline; on a cluster one per node, in parallel) and claims each
with scripts/claim.lua, which pushes the deadline a lease into the future only if it is still
due, so one process wins each claim. The winner runs the timeout through the service's normal
path; the version check there makes the timeout apply at most once even if a lease ran out, and
the lease makes sure it is retried if the winner died.

The entry is a hint, the table's document is the truth: the claimant acts on the document's own
clock (and the idle/close chores, app/services/table/doc.py chores_at) and puts an early entry
back to it. Every ``repair_every`` seconds each sweeper also re-arms, from each live table's
own ``at``, entries that are missing or later than it (``ZADD LT``: a repair never postpones
anything).

Each Redis node's buckets are swept on their own, side by side (``node_groups``; one group on
one server): a node that is away (``REDIS_DOWN``: down, cut, failing over, or a table's change
there not replicated in time) is logged once, as one line, and only that node waits twice as
long after each failed pass, up to ``backoff_max`` seconds, while the other nodes' clocks run
on at ``interval``; its first pass that works logs the recovery. Any other failure is a bug:
logged with its traceback, and backed off the same way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from .connection import Client, node_groups
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
        self.waits: dict[str, float] = {}  # node -> its wait after failed passes
        self.retry_at: dict[str, float] = {}  # node -> when it is swept again (monotonic)
        self._claim = redis.register_script(CLAIM)

    @property
    def delay(self) -> float:
        """The longest wait of a failing node; ``interval`` while every node is well."""
        return max(self.waits.values(), default=self.interval)

    async def forever(self) -> None:
        while True:
            await self.once()
            await asyncio.sleep(self.interval)

    async def once(self) -> None:
        """One pass of every node not backing off, side by side (the lost-clock repair of
        each first, when due)."""
        now = time.monotonic()
        repair = now - self.repaired_at >= self.repair_every
        if repair:
            self.repaired_at = now
        groups = node_groups(self.redis, [self.keys.clocks(b) for b in range(BUCKETS)])
        await asyncio.gather(
            *(
                self._node_pass(node, buckets, repair)
                for node, buckets in groups.items()
                if self.retry_at.get(node, 0.0) <= now
            )
        )

    async def _node_pass(self, node: str, buckets: list[int], repair: bool) -> None:
        try:
            if repair:
                await self.rearm(buckets)
            await self.sweep(buckets)
        except REDIS_DOWN as err:
            if node not in self.waits:
                log.warning(
                    "clock sweep: Redis unavailable (%s); backing off", err, extra={"node": node}
                )
            self._back_off(node)
            return
        except Exception:
            log.exception("clock sweep failed", extra={"node": node})
            self._back_off(node)
            return
        if self.waits.pop(node, None) is not None:
            log.info("clock sweep: Redis is back", extra={"node": node})
        self.retry_at.pop(node, None)

    def _back_off(self, node: str) -> None:
        wait = self.waits[node] = min(self.waits.get(node, self.interval) * 2, self.backoff_max)
        self.retry_at[node] = time.monotonic() + wait

    async def sweep(self, buckets: Sequence[int] = range(BUCKETS)) -> int:
        """Claim and run every due deadline of these buckets (one node's, from ``once``); the
        number this process ran."""
        now = int(time.time() * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in buckets:
                pipe.zrangebyscore(self.keys.clocks(b), "-inf", now, start=0, num=self.batch)
            due = await pipe.execute()
        ran = 0
        for b, tids in zip(buckets, due):
            for raw in tids:
                tid = _s(raw)
                if await self._claim(keys=[self.keys.clocks(b)], args=[tid, now, self.lease_ms]):
                    try:
                        ran += bool(await self.run(tid, claimed=True))
                    except REDIS_DOWN:
                        raise  # this node's pass ends: it backs off
                    except Exception:
                        log.exception("timeout of table %s failed", tid, extra={"table": tid})
        return ran

    async def rearm(self, buckets: Sequence[int] = range(BUCKETS)) -> int:
        """Re-add lost clock entries of these buckets from their live tables' own deadlines;
        how many. The compare-and-set writes a table's deadline and its entry together, so
        this finds something only after a hand edit or a restore from a backup: a cheap
        safety net."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in buckets:
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
