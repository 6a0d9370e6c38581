"""Finished matches stored in the e2e server's database through the records writer, as the
outbox stores them: a real Gaple round the bots play out through the rules (tests/played.py),
so its replay has a known course."""

from __future__ import annotations

import asyncio
import concurrent.futures
from datetime import UTC, datetime, timedelta

from app.db.session import make_engine, make_sessionmaker
from tests.played import entry
from tests.stats.records import match, write

# Seed 16 at four seats: the bots' round has a Lewat (G-6) and seat 0 wins it, 24 moves.
GAPLE = {"stake": 10, "field": "normal", "opener": "random", "stacks": [500] * 4}
SEED = 16


def store(url: str, me: int, older: int = 0) -> tuple[list[dict], list]:
    """The Gaple round with ``me`` in seat 0 (the newest match), after ``older`` one-move Cross
    matches; returns its action log and dealt hands. Runs in a thread of its own: Playwright's
    sync API owns this thread's event loop."""

    async def run():
        engine = make_engine(url)
        now = datetime.now(UTC)
        record, log, hands = entry("gaple", [me, "bot:1", "bot:2", "bot:3"], GAPLE, SEED, now)
        crosses = [  # lost and won in turn, a day apart, the last won
            match("cross", [me, "bot:1"], [(i + 1) % 2], [100, 40], now - timedelta(days=older - i))
            for i in range(older)
        ]
        await write(make_sessionmaker(engine), *crosses, record)
        await engine.dispose()
        return log, hands

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()
