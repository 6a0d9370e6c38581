"""Whether this process reaches its dependencies: Redis and the database, each probed within
``PROBE_SECONDS`` (``/readyz``, ``/metrics`` and the console's summary,
docs/operations/monitoring.md)."""

from __future__ import annotations

import asyncio
import contextlib

from sqlalchemy import text

from app.db.reach import Sessions
from app.metrics import Metrics
from app.store.connection import Client, answers

PROBE_SECONDS = 2.0


class Health:
    def __init__(self, redis: Client, db: Sessions, metrics: Metrics):
        self.redis, self.db, self.metrics = redis, db, metrics

    async def probe(self) -> dict[str, bool]:
        """``{"redis": …, "database": …}``, each True when it answered in time; recorded in
        ``meja_dependency_up``."""
        checks = {"redis": False, "database": False}
        with contextlib.suppress(Exception):
            checks["redis"] = await asyncio.wait_for(answers(self.redis), PROBE_SECONDS)
        with contextlib.suppress(Exception):  # the app's own pool (and schema / search_path)
            await asyncio.wait_for(self._select_one(), PROBE_SECONDS)
            checks["database"] = True
        for name, ok in checks.items():
            self.metrics.up.labels(name).set(ok)
        return checks

    async def _select_one(self) -> None:
        async with self.db() as session:
            await session.execute(text("SELECT 1"))
