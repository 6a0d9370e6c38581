"""The compare-and-set script on a real Redis: all or nothing, versions, command ids."""

from __future__ import annotations

import asyncio

import orjson
import pytest

from app.store.keys import Keys, bucket_of
from app.store.tables import TableStore


@pytest.fixture
async def store(live_redis, live_prefix):
    store = TableStore(live_redis, Keys(live_prefix), stream_len=3, command_ttl=60)
    yield store
    await store.close()


async def test_cas_writes_everything_at_once_and_counts_one_round_trip(store):
    keys, redis = store.keys, store.redis
    pubsub = redis.pubsub()
    await pubsub.subscribe(keys.channel("t1"))
    await pubsub.get_message(timeout=1)  # the subscribe confirmation
    before = store.round_trips
    store.origin = "p1"
    await redis.sadd(keys.watchers("t1"), "p2")  # another process watches: it is published
    res = await store.cas(
        "t1",
        0,
        {"a": 1},
        events=[{"type": "created"}],
        cmd=(7, "c1"),
        deadline_ms=12345,
        log=[b'{"seat":0}'],
        match_no=1,
        outbox=['{"kind":"x"}'],
        live="+99",
        lobby=((), [("gaple:*:all", 99), ("*:*:all", 99)]),
    )
    assert (res.status, res.v) == ("ok", 1) and store.round_trips - before == 1
    assert (await store.load("t1")).doc == {"a": 1}
    assert await store.command_result("t1", 7, "c1") == 1
    assert await store.events_since("t1", 0, 1) == [(1, [{"type": "created"}])]
    assert await store.action_log("t1", 1) == [{"seat": 0}]
    assert 0 < await redis.ttl(keys.log("t1", 1)) <= 7 * 24 * 3600
    b = bucket_of("t1")
    assert await redis.zscore(keys.clocks(b), "t1") == 12345
    assert await redis.zscore(keys.live(b), "t1") == 99
    assert await redis.smembers(keys.outboxes(b)) == {b"t1"}
    assert await store.lobby_page("gaple:*:all", 0, 10) == (1, ["t1"])
    assert [f[b"e"] for _, f in await redis.xrange(keys.outbox("t1"))] == [b'{"kind":"x"}']
    msg = await pubsub.get_message(timeout=1, ignore_subscribe_messages=True)
    # "o": the writing process, whose hub skips this echo (it dispatched the reply)
    assert orjson.loads(msg["data"]) == {"t": "t1", "v": 1, "o": "p1", "e": [{"type": "created"}]}
    await pubsub.aclose()


async def test_cas_refuses_a_stale_version_and_returns_the_table(store):
    await store.cas("t2", 0, {"n": 1}, events=[])
    res = await store.cas("t2", 0, {"n": 2}, events=[{"type": "lost"}], deadline_ms=5)
    assert res.status == "stale" and res.v == 1 and res.current.doc == {"n": 1}
    assert await store.events_since("t2", 0, 1) == [(1, [])]
    # the loser wrote nothing at all: neither the table's deadline nor its clock entry
    assert await store.redis.hget(store.keys.table("t2"), "at") is None
    assert await store.redis.zscore(store.keys.clocks(bucket_of("t2")), "t2") is None


async def test_a_command_id_is_applied_once_and_answers_its_first_version(store):
    await store.cas("t3", 0, {"n": 0}, events=[])
    results = await asyncio.gather(
        *(store.cas("t3", 1, {"n": i}, events=[], cmd=(1, "same")) for i in range(5))
    )
    assert sorted(r.status for r in results) == ["dup"] * 4 + ["ok"]
    assert {r.v for r in results} == {2}
    again = await store.cas("t3", 2, {"n": 9}, events=[], cmd=(1, "same"))
    assert (again.status, again.v) == ("dup", 2)
    assert (await store.load("t3")).v == 2
    # the same id from another player is that player's own command
    other = await store.cas("t3", 2, {"n": 9}, events=[], cmd=("g2", "same"))
    assert (other.status, other.v) == ("ok", 3)
    assert await store.command_result("t3", 1, "same") == 2
    assert await store.command_result("t3", "g2", "same") == 3


async def test_the_event_stream_is_capped_and_a_gap_is_reported(store):
    for v in range(6):
        await store.cas("t4", v, {"v": v + 1}, events=[{"type": "e", "n": v + 1}])
    assert [v for v, _ in await store.events_since("t4", 3, 6)] == [4, 5, 6]
    assert await store.events_since("t4", 1, 6) is None  # versions 2-3 were trimmed
    assert await store.events_since("t4", 6, 6) == []


async def test_a_change_moves_the_table_between_lobby_facets_in_the_same_script(store):
    await store.cas("t5", 0, {"n": 0}, events=[], live="+5", lobby=((), [("a", 5), ("b", 5)]))
    await store.cas("t6", 0, {"n": 0}, events=[], live="+6", lobby=((), [("a", 6)]))
    assert await store.lobby_page("a", 0, 10) == (2, ["t6", "t5"])  # newest first
    assert await store.lobby_page("a", 1, 10) == (2, ["t5"])
    await store.cas("t5", 1, {"n": 1}, events=[], lobby=(["a"], [("c", 5)]))
    assert await store.lobby_page("a", 0, 10) == (1, ["t6"])
    assert await store.lobby_page("c", 0, 10) == (1, ["t5"])
    lost = await store.cas("t5", 1, {"n": 2}, events=[], lobby=(["b", "c"], []))
    assert lost.status == "stale" and await store.lobby_page("b", 0, 10) == (1, ["t5"])
    assert await store.live_tables() == ["t6", "t5"]
    await store.cas("t5", 2, {"n": 2}, events=[], live="-", lobby=(["b", "c"], []))
    assert await store.live_tables() == ["t6"]
    assert await store.lobby_page("b", 0, 10) == (0, [])
