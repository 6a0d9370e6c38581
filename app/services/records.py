"""The outbox's database side: a batch of entries written in one transaction.

The consumer (app/store/outbox.py) knows only Redis; it is given ``RecordWriter`` as its
``write``, which applies the entries with ``records_write.apply_entries`` and maps an unreachable
database to ``DatabaseUnavailable`` (the entries stay pending and are retried).
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import ledger
from app.store.connection import Client
from app.store.outbox import DatabaseUnavailable, Fault, OutboxConsumer

from . import records_write

TRANSIENT = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.TimeoutError,
    OSError,
    ConnectionError,
    asyncio.TimeoutError,
)
KNOWN_IDS = 100_000  # committed match / round ids kept; only the rounds being played matter


class RecordWriter:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], fault: Fault | None = None):
        """``fault(stage, entry)``: a test hook called at "write" (each entry written, its
        transaction not yet committed)."""
        self.sessions = sessions
        self.fault = fault
        self.ids: dict[tuple, int] = {}  # committed match / round ids (records_write._known)

    async def __call__(self, entries: list[dict[str, Any]]) -> list[bool]:
        """Apply the entries in one transaction; per entry, False when it was written before."""
        try:
            async with self.sessions.begin() as session:
                session.info["ids"] = self.ids
                ledger.defer_inserts(session)  # the batch's rows go in one statement per table
                fault = self.fault
                after = (lambda entry: fault("write", entry)) if fault else None
                written = await records_write.apply_entries(session, entries, after)
                await ledger.flush_inserts(session)
        except TRANSIENT as err:
            raise DatabaseUnavailable(f"database unavailable: {err}") from err
        if len(self.ids) > KNOWN_IDS:
            self.ids.clear()
        self.ids.update(session.info.get("new_ids", {}))  # committed: safe to reuse
        return written


def outbox_consumer(
    redis: Client,
    sessions: async_sessionmaker[AsyncSession],
    *,
    fault: Fault | None = None,
    **options: Any,
) -> OutboxConsumer:
    """An outbox consumer that writes to this database (``options``: OutboxConsumer's)."""
    return OutboxConsumer(redis, RecordWriter(sessions, fault), fault=fault, **options)
