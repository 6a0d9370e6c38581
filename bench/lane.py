"""The client's CPU per compare-and-set call: redis-py's own call against a lane.

    python bench/lane.py --redis-url redis://127.0.0.1:6393/0 [--calls 20000]

Both send the same EVALSHA (a script that only answers, with a move's thirty arguments and a
3 KB document), from this one process, with 1, 2 and 4 calls in flight; the figure is this
process's CPU time per call (``time.process_time``), so Redis's own time is not in it. Use a
Redis of your own (not 6379, which other tests share).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Awaitable, Callable

import uvloop
from redis.asyncio import Redis

from app.store.lane import Lane

SCRIPT = "return {'ok', ARGV[2]}"


async def per_call(call: Callable[[], Awaitable[object]], calls: int, in_flight: int) -> float:
    async def worker(n: int) -> None:
        for _ in range(n):
            await call()

    start = time.process_time()
    await asyncio.gather(*(worker(calls // in_flight) for _ in range(in_flight)))
    return (time.process_time() - start) / calls * 1e6


async def main(url: str, calls: int) -> None:
    client = Redis.from_url(url)
    sha = await client.script_load(SCRIPT)
    keys = [f"t:{{b01}}:x:{k}" for k in "abcdefghi"]
    args = ["x", 7, os.urandom(1500).hex(), "1", "[]", 12345, "0", 100, 3600, "", "", 0, 0, ""]
    args += [0, 0, 604800, "origin"]
    pool = client.connection_pool
    opts = {**pool.connection_kwargs, "socket_timeout": None, "socket_connect_timeout": 5}
    lane = Lane(lambda: pool.connection_class(**opts), 5.0)
    print("in flight | redis-py µs/call | lane µs/call")
    for in_flight in (1, 2, 4):
        plain = await per_call(
            lambda: client.evalsha(sha, len(keys), *keys, *args), calls, in_flight
        )
        laned = await per_call(
            lambda: lane.call("EVALSHA", sha, len(keys), *keys, *args), calls, in_flight
        )
        print(f"{in_flight:9d} | {plain:16.1f} | {laned:12.1f}")
    await lane.close()
    await client.aclose()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--redis-url", required=True)
    p.add_argument("--calls", type=int, default=20000)
    a = p.parse_args()
    uvloop.run(main(a.redis_url, a.calls))
