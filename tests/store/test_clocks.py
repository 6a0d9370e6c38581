"""The sharded turn clocks: every process sweeps every bucket, and each due deadline runs once."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from app.store.clocks import Sweeper
from app.store.keys import BUCKETS, Keys, bucket_of
from app.store.tables import TableStore


async def test_two_sweepers_run_each_due_deadline_of_every_bucket_exactly_once(
    live_redis, live_prefix
):
    keys = Keys(live_prefix)
    store = TableStore(live_redis, keys, stream_len=10, command_ttl=60)
    due = int(time.time() * 1000) - 1
    tids = [f"c{n:04d}" for n in range(300)]
    assert len({bucket_of(t) for t in tids}) == BUCKETS  # every bucket has some
    for tid in tids:
        await store.cas(tid, 0, {"n": 0}, events=[], deadline_ms=due, live="+1")
    runs: Counter[str] = Counter()

    async def run(tid, claimed):
        runs[tid] += 1
        await asyncio.sleep(0)  # the other sweeper's claims interleave with this one's
        await store.set_deadline(tid, None)  # what a run that applied its timeout leaves
        return True

    sweepers = [Sweeper(live_redis, keys, run, interval=0.01, lease=30, batch=10) for _ in "ab"]
    for _ in range(100):
        ran = await asyncio.gather(*(s.sweep() for s in sweepers))
        if not any(ran) and len(runs) == len(tids):
            break
    assert runs == Counter({tid: 1 for tid in tids})
    await store.close()
