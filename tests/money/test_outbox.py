"""Exactly once: the outbox consumer survives being killed at the worst moments, duplicate
deliveries and a database outage, and every movement lands in the database once."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading

import orjson
import pytest
from sqlalchemy import event, func, select

from app.db.models import Bet, LedgerEntry, LedgerTxn, LewatPayment, Match, Move, Round
from app.db.session import make_engine, make_sessionmaker
from app.services import money, records_write
from app.services.records import outbox_consumer
from app.store.keys import Keys, bucket_of
from app.store.outbox import GROUP, DatabaseUnavailable
from tests.db import fixtures
from tests.money.sim import SimTable, drain, seeds_with_every_multiplier

SEEDS = seeds_with_every_multiplier()


class Killed(BaseException):
    """Stands for the process dying: nothing after it runs (no rollback handler, no ack)."""


async def counts(sessions) -> dict[str, int]:
    async with sessions() as s:
        out = {}
        for model in (LedgerTxn, LedgerEntry, LewatPayment, Bet, Round, Match, Move):
            out[model.__tablename__] = (
                await s.execute(select(func.count()).select_from(model))
            ).scalar()
        return out


async def new_table(redis, sessions, prefix, stack=5000) -> SimTable:
    table = SimTable(redis, sessions, prefix, stake=10)
    await table.open()
    for seat in range(4):
        p = await money.register_player(sessions, f"p{seat}", grant=stack)
        await table.sit(seat, p.id, stack)
    return table


async def reference_counts(redis, sessions_factory, tmp_path, prefix) -> dict[str, int]:
    """What the same play writes when nothing goes wrong (a fresh database)."""
    engine, cleanup = await fixtures.new_engine(tmp_path)
    try:
        sessions = make_sessionmaker(engine)
        table = await new_table(redis, sessions, prefix + "ref:")
        for seed in SEEDS:
            await table.play_round(seed, "bet")
        await drain(outbox_consumer(redis, sessions, prefix=prefix + "ref:"))
        return await counts(sessions)
    finally:
        await cleanup()


def killer(stage: str, at: int):
    seen = {"n": 0}

    def fault(where: str, entry: dict) -> None:
        if where == stage:
            seen["n"] += 1
            if seen["n"] == at:
                raise Killed(f"killed at {stage} of {entry['key']}")

    return fault


@pytest.mark.parametrize("stage", ["read", "write", "commit"])
async def test_consumer_killed_before_commit_or_before_ack_loses_and_doubles_nothing(
    redis, sessions, prefix, tmp_path, stage
):
    expected = await reference_counts(redis, sessions, tmp_path, prefix)
    table = await new_table(redis, sessions, prefix)
    for seed in SEEDS:
        await table.play_round(seed, "bet")
    dying = outbox_consumer(
        redis, sessions, prefix=prefix, name="dying", fault=killer(stage, 3), min_idle_ms=60_000
    )
    with pytest.raises(Killed):
        for _ in range(50):
            await dying.run_once(block_ms=1)
    pending = await redis.xpending(table.stream, GROUP)
    assert pending["pending"] >= 1 and pending["consumers"][0]["name"] in ("dying", b"dying")
    batch = pending["pending"]  # the batch it was writing: all read in one XREADGROUP
    # the survivor takes the dead consumer's entries over once they are idle long enough
    survivor = outbox_consumer(redis, sessions, prefix=prefix, name="survivor", min_idle_ms=1)
    await drain(survivor)
    assert (await redis.xpending(table.stream, GROUP))["pending"] == 0
    assert await counts(sessions) == expected
    assert survivor.duplicates == (batch if stage == "commit" else 0)  # one transaction
    assert (await money.audit(sessions))["ok"]


async def test_the_same_entry_delivered_twice_changes_nothing(redis, sessions, prefix):
    table = await new_table(redis, sessions, prefix)
    for seed in SEEDS:
        await table.play_round(seed, "normal")
    entries = [fields["e"] for _, fields in await redis.xrange(table.stream)]
    consumer = outbox_consumer(redis, sessions, prefix=prefix)
    await drain(consumer)
    once = await counts(sessions)
    audit_once = await money.audit(sessions)
    for e in entries:  # every entry again, as a redelivery would bring it
        await redis.xadd(table.stream, {"e": e})
    await drain(consumer)
    assert await counts(sessions) == once
    assert consumer.duplicates == len(entries) and consumer.applied == len(entries)
    assert await money.audit(sessions) == audit_once


async def test_database_down_while_rounds_finish_then_everything_lands_once(
    redis, sessions, prefix, tmp_path
):
    expected = await reference_counts(redis, sessions, tmp_path, prefix)
    table = await new_table(redis, sessions, prefix)
    if fixtures.ON_PG:
        down = make_engine("postgresql://postgres@127.0.0.1:1/test")
    else:
        down = make_engine(f"sqlite:///{tmp_path}")  # a directory: the file cannot be opened
    consumer = outbox_consumer(redis, make_sessionmaker(down), prefix=prefix)
    for seed in SEEDS:  # play goes on; the consumer keeps failing
        await table.play_round(seed, "bet")
        with pytest.raises(DatabaseUnavailable):
            await consumer.run_once(block_ms=1)
    n_entries = await redis.xlen(table.stream)
    assert n_entries > len(SEEDS) and await consumer.backlog() == n_entries
    assert (await counts(sessions))["lewat_payment"] == 0
    await down.dispose()
    consumer.write.sessions = sessions  # the database is back
    await drain(consumer)
    assert await counts(sessions) == expected
    assert consumer.applied == n_entries
    assert (await money.audit(sessions))["ok"]


CRASH_SCRIPT = """
import asyncio, os, sys
import redis.asyncio as aioredis
from app.db.session import make_engine, make_sessionmaker
from app.services.records import outbox_consumer
url, schema, redis_arg, prefix, when, mode = sys.argv[1:7]
def fault(stage, entry):
    if stage == when:
        os._exit(9)  # "write": inside the open transaction; "commit": before the ack
async def main():
    r = (aioredis.RedisCluster.from_url(redis_arg) if mode == "cluster"
         else aioredis.Redis.from_url(redis_arg))
    engine = make_engine(url, schema=schema or None)
    c = outbox_consumer(r, make_sessionmaker(engine), prefix=prefix, name="doomed", fault=fault)
    while True:
        await c.run_once(block_ms=10)
asyncio.run(main())
"""


@pytest.mark.parametrize("when", ["write", "commit"])
async def test_a_process_killed_before_commit_or_before_ack(
    redis, engine, sessions, prefix, redis_url_or_socket, when
):
    table = await new_table(redis, sessions, prefix)
    await table.play_round(SEEDS[0], "bet")
    before = await counts(sessions)
    url = engine.url.render_as_string(hide_password=False)
    schema = ""
    if fixtures.ON_PG:
        async with engine.connect() as conn:
            schema = (await conn.exec_driver_sql("select current_schema()")).scalar()
    redis_arg, mode = redis_url_or_socket["url"], redis_url_or_socket["mode"]
    done = subprocess.run(
        [sys.executable, "-c", CRASH_SCRIPT, url, schema, redis_arg, prefix, when, mode],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    )
    assert done.returncode == 9, done.stderr
    after_crash = await counts(sessions)
    # "commit": the batch was committed and never acknowledged; "write": rolled back
    assert (after_crash["ledger_txn"] > before["ledger_txn"]) == (when == "commit")
    # the whole batch it had read stays pending to the dead consumer
    batch = await redis.xlen(table.stream)
    assert (await redis.xpending(table.stream, GROUP))["pending"] == batch
    survivor = outbox_consumer(redis, sessions, prefix=prefix, min_idle_ms=1)
    await drain(survivor)
    assert survivor.duplicates == (batch if when == "commit" else 0)
    assert (await counts(sessions))["match"] == 1
    assert (await money.audit(sessions))["ok"]


async def test_an_entry_that_can_never_be_written_goes_to_the_dead_letters(redis, sessions, prefix):
    table = await new_table(redis, sessions, prefix)
    await redis.xadd(table.stream, {"e": "{not json"})
    await redis.xadd(table.stream, {"e": '{"kind": "lewat", "key": "k1"}'})  # fields missing
    await redis.xadd(table.stream, {"e": '{"kind": "mystery", "key": "k2"}'})
    await table.play_round(SEEDS[0], "normal")
    consumer = outbox_consumer(redis, sessions, prefix=prefix)
    await drain(consumer)
    dead = await redis.xrange(f"{prefix}outbox:dead")
    assert [d[1]["e"] for d in dead] == [
        "{not json",
        '{"kind": "lewat", "key": "k1"}',
        '{"kind": "mystery", "key": "k2"}',
    ]
    assert "lacks" in dead[1][1]["error"] and "unknown outbox entry kind" in dead[2][1]["error"]
    assert (await counts(sessions))["match"] == 1  # the good entries behind them were written


async def test_a_batch_with_an_entry_written_before_and_a_malformed_one_writes_the_rest_once(
    redis, sessions, prefix, tmp_path
):
    expected = await reference_counts(redis, sessions, tmp_path, prefix)
    table = await new_table(redis, sessions, prefix)
    await table.play_round(SEEDS[0], "bet")
    bad = '{"kind": "round", "key": "round:x:1:1", "table": "x"}'  # JSON, but fields missing
    await redis.xadd(table.stream, {"e": bad})
    for seed in SEEDS[1:]:
        await table.play_round(seed, "bet")
    entries = [fields["e"] for _, fields in await redis.xrange(table.stream)]
    async with sessions.begin() as s:  # committed before, never acknowledged (a crash)
        assert await records_write.apply_entries(s, [orjson.loads(entries[1])]) == [True]
    consumer = outbox_consumer(redis, sessions, prefix=prefix, count=1000)
    batches = []
    write = consumer._write
    consumer._write = lambda es: batches.append(len(es)) or write(es)
    await consumer.run_once(block_ms=1)  # one read: the batch fails, then one by one
    assert await redis.xlen(table.stream) == 0
    assert batches == [len(entries)] + [1] * len(entries)
    assert [d[1]["e"] for d in await redis.xrange(f"{prefix}outbox:dead")] == [bad]
    assert consumer.duplicates == 1 and consumer.applied == len(entries) - 2
    assert await counts(sessions) == expected
    assert (await money.audit(sessions))["ok"]


async def test_good_entries_of_many_streams_are_written_in_one_transaction(redis, sessions, prefix):
    tables = [await new_table(redis, sessions, prefix) for _ in range(2)]
    while len({bucket_of(t.tid) for t in tables}) < 2:  # streams of two buckets at least
        tables.append(await new_table(redis, sessions, prefix))
    for table in tables:
        await table.play_round(SEEDS[0], "normal")
    n = sum([await redis.xlen(t.stream) for t in tables])
    consumer = outbox_consumer(redis, sessions, prefix=prefix)
    batches = []
    write = consumer._write
    consumer._write = lambda es: batches.append(len(es)) or write(es)
    await consumer.run_once(block_ms=1)
    # one transaction a pass: every stream's entries, on a cluster every bucket's read together
    assert batches == [n]
    assert consumer.applied == n and await consumer.backlog() == 0
    assert (await counts(sessions))["match"] == len(tables)


async def test_a_batch_costs_a_few_statements_however_many_rounds_it_holds(
    redis, sessions, engine, prefix
):
    """A batch is a statement or two per kind of row, not per entry (records_write.apply_entries):
    the match and round ids, every Lewat payment and settlement, the claims of its rounds and
    matches (a Gaple round is a match, G-12: the unwritten rows locked, then one UPDATE run for
    them all), the rows nothing refers to, the players' totals and their daily missions."""
    table = await new_table(redis, sessions, prefix)
    for seed in SEEDS:
        await table.play_round(seed, "bet")
    entries = await redis.xlen(table.stream)
    seen: list[str] = []
    event.listen(  # (SQLite's BEGIN IMMEDIATE goes through the cursor too: not a statement)
        engine.sync_engine,
        "before_cursor_execute",
        lambda *a: a[2].startswith("BEGIN") or seen.append(a[2]),
    )
    consumer = outbox_consumer(redis, sessions, prefix=prefix, count=1000)
    assert await consumer.run_once(block_ms=1) == entries and consumer.applied == entries
    unquoted = [s.lstrip().upper().replace('"', "") for s in seen]  # SQLite quotes "match"
    claims = [s for s in unquoted if s.startswith(("UPDATE ROUND", "UPDATE MATCH"))]
    assert len(claims) == 2, claims  # one for the rounds, one for the matches
    # once each: match ids, round ids, ledger transactions, the unwritten rounds and matches,
    # the two claims, then ledger entries, Lewat payments, bets, match seats and moves, the
    # players' totals and their daily missions (27 entries of 5 rounds here): 14; and, because
    # these rounds complete the four players' Gaple mission (3 rounds, missions_write.py), its
    # rewards: their transactions (one statement), the 4 wallets, the rows' marks (one). A
    # mission is paid once a day, so that part does not grow with the rounds.
    assert len(seen) <= 14 + 6, seen


async def test_a_table_that_closed_before_its_entries_were_read_is_still_written(
    redis, sessions, prefix
):
    listed = await new_table(redis, sessions, prefix)  # its bucket's set names its stream
    unlisted = await new_table(redis, sessions, prefix)  # a stream nothing names
    await redis.srem(Keys(prefix).outboxes(bucket_of(unlisted.tid)), unlisted.tid)
    for table in (listed, unlisted):
        await table.play_round(SEEDS[0], "normal")
    consumer = outbox_consumer(redis, sessions, prefix=prefix, scan_every=3600)
    consumer.last_scan = float("inf")  # no SCAN: only the buckets' sets find `listed`
    await consumer.run_once(block_ms=1)
    assert await redis.xlen(listed.stream) == 0 and await redis.xlen(unlisted.stream) > 0
    await drain(outbox_consumer(redis, sessions, prefix=prefix))  # the start-up SCAN finds it
    assert (await counts(sessions))["match"] == 2


async def test_a_scan_drops_the_drained_streams_of_closed_or_gone_tables_only(
    redis, sessions, prefix, monkeypatch
):
    """The minute's scan deletes and unlists a drained stream whose table is closed or whose
    keys expired, and keeps one still holding entries or whose table plays on: one script a
    stream, all in one pipeline, so the event loop never waits on a thread (redis-py's cluster
    client runs the commands of a WATCH in threads of their own, each joined on the loop)."""
    keys = Keys(prefix)
    docs = {"closed": "closed", "open": "playing", "gone": None, "unread": "closed"}
    for tid, status in docs.items():
        stream = keys.outbox(tid)
        entry = await redis.xadd(stream, {"e": "{}"})
        if tid != "unread":
            await redis.xdel(stream, entry)  # drained: the stream is there, empty
        if status is not None:
            await redis.hset(keys.table(tid), "doc", orjson.dumps({"status": status}))
        await redis.sadd(keys.outboxes(bucket_of(tid)), tid)
    started = []
    monkeypatch.setattr(threading.Thread, "start", lambda thread: started.append(thread))
    consumer = outbox_consumer(redis, sessions, prefix=prefix)
    assert sorted(await consumer.discover()) == sorted(keys.outbox(t) for t in ("open", "unread"))
    for tid in docs:
        kept = tid in ("open", "unread")
        assert await redis.exists(keys.outbox(tid)) == kept, tid
        assert await redis.sismember(keys.outboxes(bucket_of(tid)), tid) == kept, tid
    assert started == []


async def test_the_outbox_worker_process_writes_everything_then_stops_on_sigterm(
    redis, engine, sessions, prefix, redis_url_or_socket, tmp_path
):
    """``python -m app outbox``: the consumer as its own process."""
    expected = await reference_counts(redis, sessions, tmp_path, prefix)
    table = await new_table(redis, sessions, prefix)
    for seed in SEEDS:
        await table.play_round(seed, "bet")
    url = engine.url.render_as_string(hide_password=False)
    if fixtures.ON_PG:
        async with engine.connect() as conn:
            schema = (await conn.exec_driver_sql("select current_schema()")).scalar()
        url += ("&" if "?" in url else "?") + f"search_path={schema}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": redis_url_or_socket["url"],
        "MEJA_REDIS_MODE": redis_url_or_socket["mode"],
        "MEJA_KEY_PREFIX": prefix,
        "MEJA_DATA_DIR": str(tmp_path / "var"),
        # it serves probes and metrics (docs/operations/deploy.md "A busy deployment")
        "MEJA_SECRET_KEY": secrets.token_hex(32),
    }
    with socket.socket() as sock:  # their port
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    worker = subprocess.Popen(
        [sys.executable, "-m", "app", "outbox", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        text=True,
        stderr=subprocess.PIPE,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    )
    try:
        watcher = outbox_consumer(redis, sessions, prefix=prefix)
        for _ in range(300):
            assert worker.poll() is None, worker.communicate()[1]
            if await watcher.backlog() == 0:
                break
            await asyncio.sleep(0.1)
        assert await watcher.backlog() == 0, "the worker did not write the outbox"
    finally:
        worker.send_signal(signal.SIGTERM)
        _, log = worker.communicate(timeout=30)
    # uvicorn re-raises the SIGTERM once it has drained, as serve does (143 in a container)
    assert worker.returncode in (0, -signal.SIGTERM), log
    assert "outbox drained" in log
    assert await counts(sessions) == expected
    assert (await money.audit(sessions))["ok"]
