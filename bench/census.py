"""What a ``/metrics`` scrape and the money audit cost in Redis with N live tables.

    python bench/census.py --tables 5000
    python bench/census.py --tables 100000 --docs 0

Writes N tables straight into a private ``redis-server`` (a free port; ``--redis-url`` for
another): each table's hash (``v``, a 2.3 KB document with four seats, ``chips``), its entry in
its bucket's live registry and set of outbox streams, and an outbox stream with the consumer
group on it (a drained stream, as a table has once the consumer passed), one in ten still
holding an entry, counted in the buckets' counters as scripts/cas.lua counts it. ``--docs 0``
writes a short document instead (the 100,000-table run: the audit does not read documents).
Then times ``Metrics.refresh`` (a scrape's Redis side) and the audit's Redis side
(``chips.stacks_in_redis`` and the outbox backlog, ``OutboxConsumer.totals``), the median
of ``--runs``, and counts their commands with ``INFO commandstats`` (a script's inner calls
included). The database's side of the audit (SQL sums over the ledger) does not depend on the
number of live tables and is left out.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import tempfile
import time

import orjson
from redis.asyncio import Redis

from app.metrics import Metrics
from app.services.wiring import shared_numbers
from app.store.keys import BUCKETS, Keys, bucket_of
from app.store.outbox import GROUP, OutboxConsumer
from app.store.tables import TableStore
from bench.services import _free_port

PREFIX = "census:"


def doc(tid: str, big: bool) -> bytes:
    seat = {"player": 1, "name": "P", "bot": False, "away": False, "stack": 250, "sit": 1}
    body: dict = {"id": tid, "game": "gaple", "seats": [seat] * 4}
    if big:
        body["state"] = "x" * 2000  # the dumped game state's size, more or less
    return orjson.dumps(body)


async def fill(redis: Redis, keys: Keys, n: int, big: bool) -> None:
    for start in range(0, n, 1000):
        async with redis.pipeline(transaction=False) as pipe:
            for i in range(start, min(n, start + 1000)):
                tid, b = f"c{i:07d}", bucket_of(f"c{i:07d}")
                pipe.hset(keys.table(tid), mapping={"v": 1, "doc": doc(tid, big), "chips": 1000})
                pipe.zadd(keys.live(b), {tid: i})
                pipe.sadd(keys.outboxes(b), tid)
                stream = keys.outbox(tid)
                pipe.xadd(stream, {"e": "{}"})
                pipe.xgroup_create(stream, GROUP, id="0")
                if i % 10:
                    pipe.xtrim(stream, maxlen=0)
                else:
                    pipe.incrby(keys.outbox_backlog(b), 1)
                    pipe.zadd(keys.outbox_oldest(b), {tid: int(time.time() * 1000)}, nx=True)
            await pipe.execute()


async def timed(redis: Redis, runs: int, call) -> tuple[float, int]:
    """(median seconds, commands per call by commandstats)."""
    await call()  # scripts loaded, connections made
    before = await _calls(redis)
    seconds = []
    for _ in range(runs):
        t = time.perf_counter()
        await call()
        seconds.append(time.perf_counter() - t)
    commands = (await _calls(redis) - before - 1) // runs  # less the INFO itself
    return statistics.median(seconds), commands


async def _calls(redis: Redis) -> int:
    stats = await redis.info("commandstats")
    return sum(v["calls"] for v in stats.values())


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=5000)
    ap.add_argument("--docs", type=int, default=1, help="1: 2.3 KB documents, 0: short ones")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--redis-url")
    args = ap.parse_args()
    proc = None
    url = args.redis_url
    if url is None:
        port = _free_port()
        proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                tempfile.mkdtemp(),
            ],
            stdout=subprocess.DEVNULL,
        )
        url = f"redis://127.0.0.1:{port}/0"
        await asyncio.sleep(0.3)
    redis = Redis.from_url(url)
    keys = Keys(PREFIX)
    try:
        t = time.perf_counter()
        await fill(redis, keys, args.tables, bool(args.docs))
        print(f"{args.tables} tables written in {time.perf_counter() - t:.1f} s")
        store = TableStore(redis, keys, stream_len=500, command_ttl=600)
        consumer = OutboxConsumer(redis, lambda entries: asyncio.sleep(0), prefix=PREFIX)
        metrics = Metrics()
        metrics.on_scrape(shared_numbers(metrics, store, consumer))
        scrape = await timed(redis, args.runs, metrics.refresh)
        chips = await timed(redis, args.runs, lambda: chips.stacks_in_redis(store))
        backlog = await timed(redis, args.runs, consumer.totals)
        info = await redis.info("memory")
        print(f"buckets {BUCKETS}, Redis memory {info['used_memory'] / 2**20:.0f} MB")
        for name, (s, n) in (
            ("scrape", scrape),
            ("audit: chips", chips),
            ("audit: backlog", backlog),
        ):
            print(f"{name:16} {s * 1000:8.1f} ms  {n:7d} commands")
        print("checks:", await chips.stacks_in_redis(store), await consumer.totals())
        await store.close()
    finally:
        await redis.aclose()
        if proc is not None:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    asyncio.run(main())
