"""The outbox consumer's cost: one consumer drains the rounds of N Gaple tables into Postgres.

    python bench/outbox.py [--tables 20] [--rounds 10] [--database-url URL] [--redis-url URL]

The entries are made the way a live table makes them (the money tests' ``SimTable``: buy-ins,
Lewat payments, round settlements and match records, each move's entries written atomically),
in a schema of their own that is dropped afterwards. Then one ``OutboxConsumer`` drains them
with ``run_once`` until the backlog is empty; reported: entries, entries/s (wall) and the
consumer process's CPU per entry. Nothing else runs in the process meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import uuid
from pathlib import Path

import redis.asyncio as aioredis
import uvloop
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from app.db import migrate  # noqa: E402
from app.db.session import make_engine, make_sessionmaker  # noqa: E402
from app.main import tune_gc  # noqa: E402
from app.services import money  # noqa: E402
from app.services.records import outbox_consumer  # noqa: E402
from tests.money.sim import SimTable  # noqa: E402

DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/test"


async def run(args: argparse.Namespace) -> dict:
    schema = "bench_outbox_" + uuid.uuid4().hex[:6]
    admin = make_engine(args.database_url)
    async with admin.begin() as conn:
        await conn.execute(text(f"create schema {schema}"))
    engine = make_engine(args.database_url, schema=schema)
    redis = aioredis.Redis.from_url(args.redis_url)
    prefix = f"bench-outbox:{uuid.uuid4().hex[:6]}:"
    try:
        await migrate.upgrade(engine)
        sessions = make_sessionmaker(engine)
        for t in range(args.tables):
            table = SimTable(redis, sessions, prefix, stake=10)
            await table.open()
            for seat in range(4):
                player = await money.register_player(sessions, f"p{t}.{seat}", grant=10**6)
                await table.sit(seat, player.id, 10**5)
            for r in range(args.rounds):
                await table.play_round(1000 * t + r, "bet")
        consumer = outbox_consumer(redis, sessions, prefix=prefix)
        entries = await consumer.backlog()
        tune_gc()  # the server's collector settings: the set-up's tables are not the consumer's
        cpu, wall = time.process_time(), time.perf_counter()
        while await consumer.backlog():
            await consumer.run_once(block_ms=1)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        return {
            "entries": entries,
            "entries_per_s": round(entries / wall),
            "cpu_ms_per_entry": round(1000 * cpu / entries, 2),
        }
    finally:
        keys = [k async for k in redis.scan_iter(match=f"{prefix}*", count=1000)]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
        await engine.dispose()
        async with admin.begin() as conn:
            await conn.execute(text(f"drop schema {schema} cascade"))
        await admin.dispose()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    args = p.parse_args(argv)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        r = runner.run(run(args))
    print(
        f"{r['entries']} entries: {r['entries_per_s']} entries/s, "
        f"{r['cpu_ms_per_entry']} ms of consumer CPU per entry"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
