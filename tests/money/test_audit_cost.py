"""The money audit at scale: its Redis side reads no table document and no outbox stream, so
it sends the same commands for 5 tables as for 30 (and for 100,000: bench/README.md), and it
still balances the ledger against the chips at the tables, tables written before the tables
kept their chips beside the document included."""

from __future__ import annotations

from redis.asyncio import Redis

from app.config import Settings
from app.games.gaple import RULESET as GAPLE
from app.metrics import Metrics
from app.services.admin_tables import AdminTables
from app.services.records import outbox_consumer
from app.services.table import chips
from app.services.table import doc as D
from app.services.table.views import TableViews
from app.services.table.write import TableWriter, now_ms
from app.store.keys import Keys
from app.store.outbox import DeadLetters
from app.store.tables import Snapshot, TableStore
from tests.monitor import monitored


async def _nothing(tid: str, v: int) -> None:
    return None


async def test_the_audit_sends_the_same_commands_for_5_and_30_tables_and_balances(
    spare_redis, sessions
):
    redis = Redis.from_url(spare_redis)
    settings = Settings(redis_url=spare_redis, key_prefix="a:", secret_key="test-key")
    store = TableStore(redis, Keys("a:"), stream_len=50, command_ttl=60)
    writer = TableWriter(settings, store, metrics=Metrics(), wake=_nothing, chips=True)
    consumer = outbox_consumer(redis, sessions, prefix="a:")
    admin = AdminTables(
        sessions,
        store,
        writer,
        TableViews(store),
        consumer,
        DeadLetters(redis, "a:"),
        Metrics(),
    )

    async def bot_table(n: int) -> None:
        """A Gaple table with a bot seated on a stack of 100 + n (the house funds it through
        the outbox, written by the same compare-and-set)."""
        tid = f"t{n}"
        await writer.create(tid, D.new_doc(GAPLE, tid, 4, {"stake": 10}, 20, now_ms()))

        def build(snap: Snapshot, v_next: int) -> D.Change:
            ch = writer.begin(snap)
            ch.doc["seats"][1] = D.make_seat("bot:1", "Bot", bot=True, stack=100 + n, sit=v_next)
            return ch

        await writer.change(tid, build)

    made, sent = 0, {}
    try:
        await admin.money_report()  # the scripts are loaded on first use
        for n in (5, 30):
            for t in range(made, n):
                await bot_table(t)
            made = n
            report, ran = await monitored(spare_redis, admin.money_report)
            read = [c.split(" ")[2:] for c in ran.sent + ran.scripted]
            assert not any("doc" in fields for fields in read)  # no HGET/HMGET of a document
            sent[n] = ran.names()
            assert report["outbox_backlog"] == n == await consumer.backlog()
            assert report["stacks_in_redis"] == sum(100 + t for t in range(n))
        assert sent[5] == sent[30], (len(sent[5]), len(sent[30]))

        while await consumer.run_once(block_ms=10):
            pass
        report = await admin.money_report()
        assert report["outbox_backlog"] == 0
        assert report["ok"] and report["stacks_in_redis"] == report["stacks_in_play"] > 0, report

        # A table whose hash has no ``chips`` (written before the field was): its document
        # is read, that one only.
        doc = {"seats": [None, D.make_seat(7, "P", bot=False, stack=40, sit=1)]}
        assert (await store.cas("old", 0, doc, events=[], live="+1")).status == "ok"
        counted, _ = await monitored(spare_redis, lambda: chips.stacks_in_redis(store))
        assert counted == report["stacks_in_redis"] + 40
    finally:
        await store.close()
        await redis.aclose()
