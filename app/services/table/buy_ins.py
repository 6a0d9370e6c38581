"""Pending buy-ins: every debit of a wallet for a seat ends seated or refunded, exactly once.

Sitting commits the buy-in in the database (pending), then takes the seat in Redis. A process
that dies in between, or a Redis connection lost mid-request, leaves it pending. Every app
process runs ``BuyInReconciler``: a buy-in pending longer than ``timeout`` is decided by the
table itself, through the single write path, so the decision is ordered with the sit:

- the table noted it seated (``doc.buy_in_outcome``): mark it seated in the database (the
  seat's own outbox entry does the same; whichever comes first wins, the other changes nothing);
- otherwise a compare-and-set notes it ``void`` (a sit still in flight then fails as stale and
  its retry is refused), and the buy-in is refunded under ``refund:<key>``;
- a closed table takes no seat any more: what its document noted decides, else a refund;
- a table that is gone (its keys expired long after closing): refunded once its outbox stream,
  which would hold the seat's ``buy_in_seated`` entry, is written out.

``money.settle_buy_in`` changes only a pending buy-in, so two processes reconciling at once, or
a reconciler and the request itself, resolve it once.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from app.services import money
from app.store.tables import Snapshot

from . import doc as D
from .errors import TableError
from .write import TableWriter, now_ms

log = logging.getLogger("meja.buy_ins")


class BuyInReconciler:
    def __init__(self, db: Any, writer: TableWriter, *, timeout: float, every: float):
        self.db, self.writer, self.store = db, writer, writer.store
        self.timeout, self.every = timeout, every

    async def forever(self) -> None:
        backoff = self.every
        while True:
            await asyncio.sleep(backoff)
            try:
                await self.run_once()
                backoff = self.every
            except asyncio.CancelledError:
                raise
            except Exception as err:  # noqa: BLE001 - Redis or the database away: wait it out
                log.warning("buy-ins: %s; retrying in %.0fs", err, backoff)
                backoff = min(backoff * 2, 60.0)

    async def run_once(self) -> int:
        """Decide every buy-in pending longer than the timeout; how many were resolved."""
        older = datetime.now(UTC) - timedelta(seconds=self.timeout)
        resolved = 0
        for row in await money.pending_buy_ins(self.db, older_than=older):
            outcome = await self.decide(row.table_id, row.key)
            if outcome is not None:
                resolved += await money.settle_buy_in(self.db, row.key, seated=outcome == "seated")
        return resolved

    async def decide(self, tid: str, key: str) -> str | None:
        """ "seated" or "void" as the table decides it; None: not decidable yet."""
        snap = await self.store.snapshot(tid, fresh=True)
        if snap is None:
            return None if await self.store.outbox_backlog(tid) else "void"
        if snap.doc["status"] == D.TableStatus.CLOSED:
            return D.buy_in_outcome(snap.doc, key) or "void"

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            if D.buy_in_outcome(snap.doc, key) is not None:
                return None
            ch = self.writer.begin(snap)
            D.note_buy_in(ch.doc, key, "void", now_ms())
            return ch

        try:
            await self.writer.change(tid, build, snap=snap)
        except TableError:  # closed meanwhile, or raced twice: decided on the next pass
            return None
        fresh = await self.store.snapshot(tid, fresh=True)
        return D.buy_in_outcome(fresh.doc, key) if fresh else None
