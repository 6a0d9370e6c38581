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

from app.services import admin_log, money
from app.services.admin_players import AdminError
from app.services.table import chips
from app.services.table import doc as D
from app.store.outbox import DeadLetters
from app.store.tables import Snapshot


async def table_state(live: Any, tid: str) -> dict[str, Any]:
    """The summary and a spectator's view: what anyone watching may see, never a hidden tile."""
    snap = await live.writer.snap(tid)
    return {"table": live.views.summary(snap), "view": live.views.view(snap, None)}


async def close_table(live: Any, admin_id: int, tid: str, reason: str) -> dict[str, Any]:
    returned: dict[str, int] = {}

    def build(snap: Snapshot, v_next: int) -> D.Change:
        ch = live.writer.begin(snap)
        D.close(ch)
        returned.clear()
        for _, seat in ch.vacated:
            if not seat["bot"] and seat.get("stack"):
                returned[str(seat["player"])] = seat["stack"]
        return ch

    res, _ = await live.writer.change(tid, build)
    assert res is not None and res.current is not None
    await admin_log.record(
        live.db, admin_id, "close_table", f"table:{tid}", reason, {"returned": returned}
    )
    return {"table": live.views.summary(res.current), "returned": returned}


def dead_letters(live: Any) -> DeadLetters:
    return DeadLetters(live.redis, live.settings.key_prefix)


async def retry_dead(live: Any, admin_id: int, entry_id: str, reason: str) -> dict[str, Any]:
    letter = await dead_letters(live).retry(entry_id)
    if letter is None:
        raise AdminError(404, "unknown_dead_letter", f"no dead letter {entry_id}")
    await admin_log.record(
        live.db,
        admin_id,
        "retry_dead_letter",
        f"outbox:{entry_id}",
        reason,
        {"stream": letter["stream"], "error": letter["error"]},
    )
    return letter


async def money_report(live: Any) -> dict[str, Any]:
    """``money.audit`` with the outbox backlog; once the outbox is drained, the stacks on the
    live tables in Redis must equal the ledger's. The Redis side reads no document and no
    stream: the buckets' backlog counters and their sums of chips at tables (a script per
    bucket), so it costs the same commands at 100,000 tables as at ten (bench/README.md)."""
    with money.reachable("the audit cannot be read"):
        report = await money.audit(live.db)
    report["outbox_backlog"] = backlog = (await live.outbox.totals())[0]
    report["stacks_in_redis"] = in_redis = await chips.stacks_in_redis(live.store)
    if backlog == 0:
        report["ok"] = report["ok"] and in_redis == report["stacks_in_play"]
    return report


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


async def metrics_summary(live: Any) -> dict[str, Any]:
    """The metrics an operator looks at first, from this process's registry (app/metrics.py):
    each sample by its labels (``""`` when it has none). Other replicas count their own."""
    await live.metrics.refresh(live)
    out: dict[str, Any] = {name: {} for name in SUMMARY}
    for family in live.metrics.registry.collect():
        for sample in family.samples:
            if sample.name in out:
                label = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
                out[sample.name][label] = out[sample.name].get(label, 0) + sample.value
    out["dead_letters"] = await live.redis.xlen(dead_letters(live).key)
    return out
