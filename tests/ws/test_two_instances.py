"""Several app instances on one Redis: they share nothing else, and a restart loses nothing."""

from __future__ import annotations

import asyncio

import orjson

from app.services.table.views import HISTORY
from tests.ws.client import SeatClient, check_replay, finish, match_over, start_match

FAST = {"rate_per_second": 1e4, "round_pause": 60, "event_stream_len": 100_000}
CROSS = {"target": 50}  # a whole match of Domino Cross, a shorter one


async def test_clients_on_two_instances_play_one_match(live_server):
    one = await live_server(seeds=lambda t, m: 77, **FAST)
    two = await live_server(seeds=lambda t, m: 77, **FAST)
    tid, clients, watcher = await start_match(one, "cross", 4, CROSS, spread=[one, two])
    other_watcher = await SeatClient(two.ws_url, tid, None).connect()
    await finish(clients, watcher, match_over(1))
    await other_watcher.until(match_over(1))
    await check_replay(one, tid, clients, watcher)
    assert {c.ws_url for c in clients} == {one.ws_url, two.ws_url}
    assert other_watcher.latest["v"] == watcher.latest["v"]
    for c in (*clients, watcher, other_watcher):
        await c.close()


async def test_the_same_command_raced_through_two_instances_applies_once(live_server):
    one = await live_server(seeds=lambda t, m: 78, **FAST)
    two = await live_server(seeds=lambda t, m: 78, **FAST)
    tid, clients, _ = await start_match(one, "gaple", 2, spectator=False)
    for c in clients:
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    mover = next(c for c in clients if c.my_turn())
    twin = await SeatClient(two.ws_url, tid, mover.token).connect()
    v = mover.latest["v"]
    await twin.until(lambda m: m["type"] == "state" and m["v"] == v)
    msg = orjson.dumps(
        {"type": "act", "cmd": "raced", "v": v, "action": mover.latest["view"]["legal"][0]}
    ).decode()
    await asyncio.gather(mover.ws.send(msg), twin.ws.send(msg))
    answers = await asyncio.gather(
        mover.until(lambda m: m["type"] in ("ack", "error")),
        twin.until(lambda m: m["type"] in ("ack", "error")),
    )
    assert answers[0] == answers[1] == {"type": "ack", "cmd": "raced", "v": v + 1}
    log = await one.live.store.action_log(tid, 1)
    assert [e for e in log if e["by"] == "player"] == [
        {
            "v": v + 1,
            "match_no": 1,
            "seat": log[0]["seat"],
            "by": "player",
            "action": mover.latest["view"]["legal"][0],
        }
    ]
    assert (await one.live.store.load(tid)).v == v + 1
    for c in (*clients, twin):
        await c.close()


async def test_restart_mid_match_loses_and_repeats_nothing(live_server):
    first = await live_server(seeds=lambda t, m: 79, **FAST)
    tid, clients, watcher = await start_match(first, "cross", 4, CROSS)
    await finish(clients, watcher, lambda m: m["v"] >= 15)
    seen = watcher.latest["v"]
    assert watcher.latest["table"]["status"] == "playing"
    await first.stop()

    second = await live_server(seeds=lambda t, m: 79, **FAST)
    old_messages = watcher.messages
    watcher = await SeatClient(second.ws_url, tid, None).connect(since=seen)
    watcher.messages = old_messages
    reconnected = []
    for c in clients:
        last = c.latest["v"]
        c.ws_url = second.ws_url
        await c.connect()
        await c.send({"type": "sync", "v": last})
        reconnected.append(c)
    await finish(reconnected, watcher, match_over(1))
    doc = await check_replay(second, tid, clients, watcher)
    assert doc["status"] == "over"

    # the spectator's events, across both connections, are the table's events exactly once
    states = [m for m in watcher.messages if m["type"] == "state"]
    # a fresh connect without ?v= shows the events of the last versions up to its state's
    recent = await second.live.redis.xrevrange(
        second.live.keys.events(tid), f"{states[0]['v']}-0", "-", count=HISTORY
    )
    kept = [e for _, f in reversed(recent) for e in orjson.loads(f[b"e"])]
    assert states[0]["events"] == kept[-HISTORY:]
    assert states[0]["events"]
    got = [e for m in states[1:] for e in m["events"]]
    rows = await second.live.redis.xrange(
        second.live.keys.events(tid), f"{states[0]['v'] + 1}-0", "+"
    )
    stream = [e for _, fields in rows for e in orjson.loads(fields[b"e"])]
    assert got == stream
    assert not any(m.get("gap") for m in states)
    log = await second.live.store.action_log(tid, 1)
    versions = [e["v"] for e in log]
    assert versions == sorted(versions)
    for c in (*clients, watcher):
        await c.close()
