"""Redis Cluster safety (docs/operations/cluster.md): the compare-and-set script touches only the
slot of the table's bucket, indexes included, so it runs on a real cluster (the ``[cluster]``
runs) and a change and its index entries are one atomic step."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from redis.crc import key_slot

from app.config import Settings
from app.store.clocks import Sweeper
from app.store.connection import open_redis
from app.store.keys import BUCKETS, Keys, bucket_of
from app.store.outage import REDIS_DOWN
from app.store.tables import SCRIPTS, NotReplicated, TableStore


@pytest.fixture
async def store(live_redis, live_prefix):
    store = TableStore(live_redis, Keys(live_prefix), stream_len=10, command_ttl=60)
    yield store
    await store.close()


def test_every_key_of_the_cas_script_is_in_the_slot_of_the_tables_bucket(store):
    keys = store.script_keys("abc123", 7, (5, "cmd-1"), ["gaple:*:open"], ["x:join"])
    keys += store.script_keys("abc123", 0, None)
    slot = key_slot(store.keys.table("abc123").encode())
    assert {key_slot(k.encode()) for k in keys} == {slot}
    assert slot == key_slot(store.keys.clocks(bucket_of("abc123")).encode())
    # the script names no key of its own: only KEYS[...] (a literal key name, or one built
    # from an argument, could be in another slot)
    script = (SCRIPTS / "cas.lua").read_text()
    assert not re.search(r"redis\.call\(\"\w+\", ['\"]", script)
    assert not re.search(r"redis\.call\(\"\w+\", ARGV", script)


def test_buckets_spread_over_the_slots_and_tables_over_the_buckets():
    assert len({key_slot(Keys("p:").clocks(b).encode()) for b in range(BUCKETS)}) == BUCKETS
    counts = [0] * BUCKETS
    for n in range(6400):
        counts[bucket_of(f"{n:010x}")] += 1
    assert min(counts) > 50 and max(counts) < 150


async def test_the_cas_script_writes_only_its_slot(store):
    res = await store.cas(
        "t9",
        0,
        {"a": 1},
        events=[],
        cmd=(5, "c"),
        deadline_ms=1000,
        log=[b"{}"],
        match_no=1,
        outbox=["{}"],
        live="+5",
        lobby=((), [("g:*:all", 5)]),
    )
    assert res.status == "ok"
    found = [k async for k in store.redis.scan_iter(match=f"{store.keys.prefix}*")]
    # hash, events, outbox, log, command, clocks, live, outboxes, lobby, the outbox's counters
    assert len(found) == 11
    assert {key_slot(k) for k in found} == {key_slot(store.keys.table("t9").encode())}


async def test_a_losing_cas_writes_no_index(store):
    keys, redis, b = store.keys, store.redis, bucket_of("t1")
    await store.cas("t1", 0, {"n": 0}, events=[], live="+1", lobby=((), [("f", 1)]))
    won = await store.cas("t1", 1, {"n": 1}, events=[], deadline_ms=50_000)
    assert won.status == "ok"
    before = store.round_trips
    lost = await store.cas("t1", 1, {"n": 2}, events=[], deadline_ms=None, lobby=(["f"], []))
    assert lost.status == "stale" and store.round_trips - before == 1
    assert await redis.zscore(keys.clocks(b), "t1") == 50_000
    assert await store.lobby_page("f", 0, 5) == (1, ["t1"])


async def test_a_winning_move_is_one_round_trip(store):
    await store.cas("t2", 0, {"n": 0}, events=[])
    before = store.round_trips
    res = await store.cas("t2", 1, {"n": 1}, events=[], deadline_ms=7, cmd=(5, "x"))
    assert res.status == "ok" and store.round_trips - before == 1


async def test_the_sweeper_re_arms_a_lost_clock_entry(store):
    keys, redis = store.keys, store.redis
    soon = int(time.time() * 1000) + 60_000
    await store.cas("t3", 0, {"n": 0}, events=[], deadline_ms=soon, live="+1")
    await store.cas("t4", 0, {"n": 0}, events=[], deadline_ms=None, live="+2")
    clocks = keys.clocks(bucket_of("t3"))
    await redis.zrem(clocks, "t3")  # lost (a restore from an old backup, a hand edit)

    async def run(tid, claimed):
        return False

    sweeper = Sweeper(redis, keys, run, interval=1, lease=5)
    assert await sweeper.rearm() == 1
    assert await redis.zscore(clocks, "t3") == soon
    assert await redis.zscore(keys.clocks(bucket_of("t4")), "t4") is None
    await redis.zadd(clocks, {"t3": soon + 3_600_000})  # a late entry is pulled back
    assert await sweeper.rearm() == 1 and await redis.zscore(clocks, "t3") == soon
    await redis.zadd(clocks, {"t3": soon + 1_000})  # a claim's lease is left alone
    assert await sweeper.rearm() == 0


async def test_waiting_for_a_replica_keeps_a_move_one_round_trip(store, redis_mode):
    """``wait_replicas``: the script and WAIT go in one pipeline. The test cluster has a replica
    per master: a change is answered once one has it. One server here has none: WAIT has
    nothing to wait for (and nothing to fail over to), so the change is acknowledged as
    written, the node is marked unreplicated and its next changes skip WAIT
    (docs/operations/cluster.md "Failover"). With more replicas asked for than attached, a change is
    not acknowledged and its resend ("dup") waits again."""
    store.wait_replicas, store.wait_ms = 1, 500
    if redis_mode == "cluster":
        await store.cas("w1", 0, {"n": 0}, events=[])
        before = store.round_trips
        res = await store.cas("w1", 1, {"n": 1}, events=[], cmd=(5, "w"))
        assert res.status == "ok" and store.round_trips - before == 1
        store.wait_replicas = 2  # each master has one
        with pytest.raises(NotReplicated):
            await store.cas("w1", 2, {"n": 2}, events=[], cmd=(5, "x"))
        with pytest.raises(NotReplicated):  # the resend: "dup", still not on two replicas
            await store.cas("w1", 2, {"n": 2}, events=[], cmd=(5, "x"))
        assert (await store.load("w1")).v == 3 and not store.unreplicated
        return
    res = await store.cas("w1", 0, {"n": 0}, events=[], cmd=(5, "w"))
    assert res.status == "ok" and store.unreplicated == {""}
    before = store.round_trips
    res = await store.cas("w1", 1, {"n": 1}, events=[], cmd=(5, "x"))
    assert res.status == "ok" and store.round_trips - before == 1


def test_a_table_s_chat_and_presence_are_in_its_slot():
    """A table's kept chat lines and presence sit in its slot, as every key of a table."""
    keys = Keys("p:")
    slot = key_slot(keys.table("abc123").encode())
    assert key_slot(keys.chat("abc123").encode()) == slot
    assert key_slot(keys.presence("abc123").encode()) == slot


async def test_a_connection_closed_in_its_handshake_is_a_lost_connection(
    live_redis_url, redis_mode
):
    """A failover re-reads the slots and disconnects a node's connections, also one that is
    still sending its handshake: that is a lost connection (``REDIS_DOWN``, retried or a 503),
    not the AttributeError redis-py raises by itself (a 500)."""
    if redis_mode != "cluster":
        pytest.skip("the cluster client's connections")
    async with open_redis(Settings(redis_mode="cluster", redis_url=live_redis_url)) as client:
        node = client.get_default_node()
        for _ in range(3):
            conn = node.connection_class(**node.connection_kwargs)
            handshake = asyncio.create_task(conn.connect())
            while conn._writer is None or not conn._parser:  # connected, not yet greeted
                await asyncio.sleep(0)
            await conn.disconnect(nowait=True)  # as the slots' refresh does
            with pytest.raises(REDIS_DOWN):
                await handshake
        assert await client.ping()  # the client itself is unharmed
