"""Redis Cluster safety (DESIGN.md "Past one machine"): the compare-and-set script touches only
the table's own slot, and the clock entries written beside it in the pipeline are harmless
when the compare-and-set lost, and re-armed when they were lost."""

from __future__ import annotations

import re
import time

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from app.store.clocks import Sweeper
from app.store.keys import Keys
from app.store.tables import SCRIPTS, TableStore


@pytest.fixture
async def store(live_redis_url, live_prefix):
    redis = Redis.from_url(live_redis_url)
    yield TableStore(redis, Keys(live_prefix), stream_len=10, command_ttl=60)
    await redis.aclose()


def test_every_key_of_the_cas_script_is_in_the_table_slot(store):
    keys = store.script_keys("abc123", 7, (5, "cmd-1")) + store.script_keys("abc123", 0, None)
    assert {key_slot(k.encode()) for k in keys} == {key_slot(store.keys.table("abc123").encode())}
    # the script names no key of its own: only KEYS[1..n], exactly the ones given above (a
    # global key such as clocks or tables:live added again would be KEYS[n+1] or a literal)
    script = (SCRIPTS / "cas.lua").read_text()
    used = {int(n) for n in re.findall(r"KEYS\[(\d+)\]", script)}
    assert used == set(range(1, len(store.script_keys("abc123", 0, None)) + 1))
    assert not re.search(r"redis\.call\(\"\w+\", ['\"]", script)  # no literal key name


async def test_the_cas_script_runs_when_the_server_checks_slots(store):
    """A cluster node refuses a script whose keys are in several slots (CROSSSLOT); a single
    Redis does not check, so check what the script really touched: one slot."""
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
        live="5",
    )
    assert res.status == "ok"
    tagged = [k async for k in store.redis.scan_iter(match=f"{store.keys.prefix}t:{{t9}}*")]
    assert {key_slot(k) for k in tagged} == {key_slot(store.keys.table("t9").encode())}
    assert len(tagged) == 5  # hash, events, outbox, log, command
    # the global indexes were written by the same pipeline (one round trip)
    assert await store.redis.zscore(store.keys.clocks, "t9") == 1000
    assert await store.redis.zscore(store.keys.live, "t9") == 5


async def test_a_losing_cas_repairs_the_winners_clock_entry(store):
    keys, redis = store.keys, store.redis
    await store.cas("t1", 0, {"n": 0}, events=[])
    won = await store.cas("t1", 1, {"n": 1}, events=[], deadline_ms=50_000)
    assert won.status == "ok"
    before = store.round_trips
    lost = await store.cas("t1", 1, {"n": 2}, events=[], deadline_ms=None)  # would remove it
    assert lost.status == "stale" and store.round_trips - before == 2  # + the repair
    assert await redis.zscore(keys.clocks, "t1") == 50_000
    lost = await store.cas("t1", 1, {"n": 2}, events=[], deadline_ms=90_000)  # would postpone
    assert await redis.zscore(keys.clocks, "t1") == 50_000
    lost = await store.cas("t1", 1, {"n": 2}, events=[], deadline_ms=10_000)  # early: harmless
    assert await redis.zscore(keys.clocks, "t1") == 10_000
    assert int(await redis.hget(keys.table("t1"), "at")) == 50_000


async def test_a_winning_move_is_one_round_trip(store):
    await store.cas("t2", 0, {"n": 0}, events=[])
    before = store.round_trips
    res = await store.cas("t2", 1, {"n": 1}, events=[], deadline_ms=7, cmd=(5, "x"))
    assert res.status == "ok" and store.round_trips - before == 1


async def test_the_sweeper_re_arms_a_lost_clock_entry(store):
    keys, redis = store.keys, store.redis
    soon = int(time.time() * 1000) + 60_000
    await store.cas("t3", 0, {"n": 0}, events=[], deadline_ms=soon, live="1")
    await store.cas("t4", 0, {"n": 0}, events=[], deadline_ms=None, live="2")
    await redis.zrem(keys.clocks, "t3")  # the pipeline's clock update never arrived

    async def run(tid, claimed):
        return False

    sweeper = Sweeper(redis, keys, run, interval=1, lease=5)
    assert await sweeper.rearm() == 1
    assert await redis.zscore(keys.clocks, "t3") == soon
    assert await redis.zscore(keys.clocks, "t4") is None
    await redis.zadd(keys.clocks, {"t3": soon + 3_600_000})  # a late entry is pulled back
    assert await sweeper.rearm() == 1 and await redis.zscore(keys.clocks, "t3") == soon
    await redis.zadd(keys.clocks, {"t3": soon + 1_000})  # a claim's lease is left alone
    assert await sweeper.rearm() == 0


def test_a_table_s_chat_and_presence_are_in_its_slot():
    """A table's kept chat lines and presence sit in its slot, as every key of a table."""
    keys = Keys("p:")
    slot = key_slot(keys.table("abc123").encode())
    assert key_slot(keys.chat("abc123").encode()) == slot
    assert key_slot(keys.presence("abc123").encode()) == slot
