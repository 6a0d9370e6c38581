"""The operators' side of live tables, the outbox's dead letters and the money audit
(docs/operations/console.md).

Decision: an operator may close a table at any time, also mid-match. Closing goes through the
table's one write path with the lobby's own closing (app/services/table/doc.py ``close``):
every seat is freed, so each player's stack is cashed out to their wallet and each bot's goes
back to the house, through the outbox like any other cash-out. A round in play is abandoned:
the chips already paid in it (Lewat) stay paid, the round is not settled and no record of it is
written.
"""

from __future__ import annotations

from typing import Any

from app.db.reach import Sessions, reachable
from app.metrics import Metrics
from app.services import admin_log, money
from app.services.admin_players import AdminError
from app.services.table import chips
from app.services.table import doc as D
from app.services.table.views import TableViews
from app.services.table.write import TableWriter
from app.store.outbox import DeadLetters, OutboxConsumer
from app.store.tables import Snapshot, TableStore

SUMMARY = (
    "meja_live_tables",
    "meja_open_sockets",
    "meja_actions_total",
    "meja_action_refusals_total",
    "meja_timeouts_total",
    "meja_outbox_backlog",
    "meja_outbox_pending",
    "meja_outbox_lag_seconds",
    "meja_outbox_written_total",
    "meja_dependency_up",
)


class AdminTables:
    """What the console does with live tables, the outbox and the books."""

    def __init__(
        self,
        db: Sessions,
        store: TableStore,
        writer: TableWriter,
        views: TableViews,
        outbox: OutboxConsumer,
        dead: DeadLetters,
        metrics: Metrics,
    ):
        self.db, self.store, self.writer, self.views = db, store, writer, views
        self.outbox, self.dead, self.metrics = outbox, dead, metrics

    async def table_state(self, tid: str) -> dict[str, Any]:
        """The summary and a spectator's view: what anyone watching may see, never a hidden
        tile."""
        snap = await self.writer.snap(tid)
        return {"table": self.views.summary(snap), "view": self.views.view(snap, None)}

    async def close_table(self, admin_id: int, tid: str, reason: str) -> dict[str, Any]:
        returned: dict[str, int] = {}

        def build(snap: Snapshot, v_next: int) -> D.Change:
            ch = self.writer.begin(snap)
            D.close(ch)
            returned.clear()
            for _, seat in ch.vacated:
                if not seat["bot"] and (stack := seat.get("stack")):
                    returned[str(seat["player"])] = stack
            return ch

        res, _ = await self.writer.change(tid, build)
        assert res is not None and res.current is not None
        await admin_log.record(
            self.db, admin_id, "close_table", f"table:{tid}", reason, {"returned": returned}
        )
        return {"table": self.views.summary(res.current), "returned": returned}

    async def dead_letters(self, *, page: int, per_page: int) -> tuple[int, list[dict]]:
        return await self.dead.page(page=page, per_page=per_page)

    async def retry_dead(self, admin_id: int, entry_id: str, reason: str) -> dict[str, Any]:
        letter = await self.dead.retry(entry_id)
        if letter is None:
            raise AdminError(404, "unknown_dead_letter", f"no dead letter {entry_id}")
        await admin_log.record(
            self.db,
            admin_id,
            "retry_dead_letter",
            f"outbox:{entry_id}",
            reason,
            {"stream": letter["stream"], "error": letter["error"]},
        )
        return letter

    async def money_report(self) -> dict[str, Any]:
        """``money.audit`` with the outbox backlog; once the outbox is drained, the stacks on
        the live tables in Redis must equal the ledger's. The Redis side reads no document and
        no stream: the buckets' backlog counters and their sums of chips at tables (a script
        per bucket), so it costs the same commands at 100,000 tables as at ten
        (bench/README.md)."""
        with reachable("the audit cannot be read"):
            report = await money.audit(self.db)
        report["outbox_backlog"] = backlog = (await self.outbox.totals())[0]
        report["stacks_in_redis"] = in_redis = await chips.stacks_in_redis(self.store)
        if backlog == 0:
            report["ok"] = report["ok"] and in_redis == report["stacks_in_play"]
        return report

    async def metrics_summary(self) -> dict[str, Any]:
        """The metrics an operator looks at first, from this process's registry
        (app/metrics.py): each sample by its labels (``""`` when it has none). Other replicas
        count their own."""
        await self.metrics.refresh()
        out: dict[str, Any] = {name: {} for name in SUMMARY}
        for family in self.metrics.registry.collect():
            for sample in family.samples:
                if sample.name in out:
                    label = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
                    out[sample.name][label] = out[sample.name].get(label, 0) + sample.value
        out["dead_letters"] = await self.dead.count()
        return out
