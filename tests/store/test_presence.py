"""Presence across processes (app/store/presence.py): each process refreshes its own members of
a table's set and reads everyone's, with one script call per bucket (scripts/presence.lua), on a
single Redis and on the cluster; the same beat says which tables it watches, a call per bucket
too (scripts/watchers.lua)."""

from __future__ import annotations

import asyncio

import pytest

from app.store.keys import BUCKETS, Keys, by_bucket
from app.store.presence import Presence
from app.store.tables import TableStore


@pytest.fixture
async def stores(live_redis, live_prefix):
    """Two processes' stores on one Redis (or cluster)."""
    made = [TableStore(live_redis, Keys(live_prefix), stream_len=10, command_ttl=60) for _ in "ab"]
    yield made
    for store in made:
        await store.close()


async def test_a_refresh_reads_every_process_s_players_and_drops_the_lapsed(stores, live_redis):
    a, b = (Presence(store, ttl=0.5) for store in stores)
    tables = ["pres01", "pres02", "pres03"]
    assert await a.refresh({tables[0]: {1, 2}, tables[1]: {5}}) == {
        tables[0]: {1, 2},
        tables[1]: {5},
    }
    # b holds player 3 at the first table, and at the third only a spectator (no player)
    seen = await b.refresh({tables[0]: {3}, tables[2]: set()})
    assert seen == {tables[0]: {1, 2, 3}, tables[2]: set()}
    assert 0 < await live_redis.pttl(a.keys.presence(tables[0])) <= 1000  # 2 x ttl
    await asyncio.sleep(0.6)  # a stops refreshing (its process died): its players lapse
    assert await b.refresh({tables[0]: {3}}) == {tables[0]: {3}}
    assert await live_redis.zcard(a.keys.presence(tables[0])) == 1  # dropped, not only hidden


async def test_a_refresh_loads_its_script_where_the_server_lost_it(stores, live_redis):
    """A failover's promoted replica, or a SCRIPT FLUSH, has no script: it is loaded again."""
    presence = Presence(stores[0], ttl=5)
    assert await presence.refresh({"pres04": {7}}) == {"pres04": {7}}
    await live_redis.script_flush()
    assert await presence.refresh({"pres04": {7}, "pres05": {8}}) == {
        "pres04": {7},
        "pres05": {8},
    }


def count_scripts(store: TableStore) -> list[int]:
    """Spy on the store's script calls (the real ones still run): how many were made."""
    calls, run = [0], store.run_script

    async def counted(*args):
        calls[0] += 1
        return await run(*args)

    store.run_script = counted  # type: ignore[method-assign]
    return calls


async def test_a_busy_process_s_beat_is_a_call_per_bucket_not_per_table(stores, live_redis):
    """A beat over 300 tables is one presence script and one watchers script per bucket
    (where a call per table made each beat a burst that held up the moves around it), and
    every table still gets its own players and its watcher."""
    store = stores[0]
    presence, calls = Presence(store, ttl=5), count_scripts(store)
    tables = {f"busy{n:03d}": {n, 1000 + n} for n in range(300)}
    buckets = len(by_bucket(tables))
    assert buckets <= BUCKETS < len(tables)
    assert await presence.refresh(tables) == tables
    assert calls[0] == buckets
    await store.watching(list(tables))
    assert calls[0] == 2 * buckets
    for tid in tables:
        assert await live_redis.sismember(store.keys.watchers(tid), store.origin)
    await store.watching(list(tables)[:10], False)
    assert not await live_redis.sismember(store.keys.watchers("busy000"), store.origin)
    assert await live_redis.sismember(store.keys.watchers("busy010"), store.origin)


async def test_the_players_present_at_many_tables_are_read_in_one_pipeline_each_once(stores):
    """A stake room's players online (app/services/table/rooms.py): the tables lie in many
    buckets (cluster slots); a player at two of them, or on two processes, counts once, and a
    lapsed member not at all."""
    a, b = (Presence(store, ttl=0.5) for store in stores)
    tables = [f"room{i:02d}" for i in range(12)]
    await a.refresh({tables[0]: {1, 2}, tables[5]: {2, 3}})
    await b.refresh({tables[9]: {3}, tables[11]: {4}})
    assert await a.online_at(tables[:10]) == {1, 2, 3}
    assert await a.online_at([]) == set()
    await asyncio.sleep(0.6)  # nobody refreshes: everyone lapses
    assert await a.online_at(tables) == set()
