"""docs/rules.md O-3 turn clocks, swept by every instance: each timeout is applied exactly once."""

from __future__ import annotations

import asyncio
import time

import orjson

from tests.services.helpers import humans, table_with


async def events_of(srv, tid: str) -> list[dict]:
    rows = await srv.live.redis.xrange(srv.live.keys.events(tid))
    return [e for _, fields in rows for e in orjson.loads(fields[b"e"])]


async def test_o3_idle_seats_are_played_for_once_with_two_instances_sweeping(live_server):
    fast = {"sweep_interval": 0.005, "away_after_timeouts": 2, "round_pause": 60}
    one = await live_server(seeds=lambda t, m: 321, **fast)
    two = await live_server(seeds=lambda t, m: 321, **fast)
    sweeps = []  # the second instance's sweeper runs too (which one wins a claim is chance)
    sweep = two.live.sweeper.sweep
    two.live.sweeper.sweep = lambda *buckets: sweeps.append(1) or sweep(*buckets)
    (a, _), (b, _) = await humans(one, 2)
    tid = await table_with(one, "gaple", [a, b], turn_seconds=1)
    store = one.live.store
    deadline = time.monotonic() + 20
    while (await store.load(tid)).doc["status"] != "over":
        assert time.monotonic() < deadline, "the idle round never finished"
        await asyncio.sleep(0.05)
    log = await store.action_log(tid, 1)
    events = await events_of(one, tid)
    timeouts = [e for e in log if e["by"] == "timeout"]
    assert len(timeouts) == 4  # two per seat, then each is away and the bot plays at once
    assert sum(e["type"] == "timeout" for e in events) == 4
    assert sum(e["type"] == "away" for e in events) == 2
    chosen = [e["by"] for e in log if e["by"] != "forced"]
    assert chosen[:4] == ["timeout"] * 4 and set(chosen[4:]) == {"bot"}
    versions = [e["v"] for e in log if e["by"] != "forced"]
    assert len(versions) == len(set(versions)), "some version applied two moves"
    assert sweeps, "the second instance did not sweep"


async def test_o3_a_due_deadline_is_claimed_by_one_sweeper(live_server):
    idle = {"sweep_interval": 3600}
    one = await live_server(seeds=lambda t, m: 5, **idle)
    two = await live_server(seeds=lambda t, m: 5, **idle)
    (a, _), (b, _) = await humans(one, 2)
    tid = await table_with(one, "gaple", [a, b], turn_seconds=1)
    v = (await one.live.store.load(tid)).v
    await asyncio.sleep(1.1)
    ran = await asyncio.gather(
        one.live.sweeper.sweep(),
        two.live.sweeper.sweep(),
        one.live.sweeper.sweep(),
        two.live.sweeper.sweep(),
    )
    assert sum(ran) == 1
    snap = await one.live.store.load(tid)
    assert snap.v == v + 1
    assert [e["by"] for e in await one.live.store.action_log(tid, 1)][:1] == ["timeout"]
    # the new deadline is a full turn away: nothing is due now
    assert await one.live.sweeper.sweep() == 0


async def test_o3_acting_again_brings_an_away_player_back(live_server):
    one = await live_server(
        seeds=lambda t, m: 11, away_after_timeouts=1, sweep_interval=0.01, round_pause=60
    )
    (a, _), (b, _) = await humans(one, 2)
    tid = await table_with(one, "moon", [a, b], seats=4, bots=True, turn_seconds=1)
    store, tables = one.live.store, one.live.tables
    deadline = time.monotonic() + 10
    while not any(s and s["away"] for s in (await store.load(tid)).doc["seats"]):
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    doc = (await store.load(tid)).doc
    away = next(n for n, s in enumerate(doc["seats"]) if s and s["away"])
    await tables.back(tid, doc["seats"][away]["player"])
    assert not (await store.load(tid)).doc["seats"][away]["away"]
