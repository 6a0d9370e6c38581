"""The table service on a real Redis: round trips per move, chips rounds, leaving, rematch."""

from __future__ import annotations

import asyncio

from app.store.tables import Snapshot
from tests.services.helpers import humans, play_turn, table_with
from tests.ws.client import SeatClient


async def test_a_move_is_one_round_trip_with_a_current_cache(live_server):
    srv = await live_server(seeds=lambda t, m: 99)
    (a, _), (b, _) = await humans(srv, 2)
    tid = await table_with(srv, "gaple", [a, b])
    store = srv.live.store
    watcher = await SeatClient(srv.ws_url, tid, None).connect()  # the hub watches the table
    v = (await store.load(tid)).v
    await watcher.until(lambda m: m["type"] == "state" and m["v"] == v)
    before = store.round_trips
    assert (await play_turn(srv, tid))["type"] == "ack"  # play_turn loads once itself
    assert store.round_trips - before == 2
    await watcher.until(lambda m: m["type"] == "state" and m["v"] == v + 1)

    snap = store.cache[tid]
    seat = snap.doc["seats"][snap.doc["clock"]["seat"]]
    action = srv.live.views.view(snap, snap.doc["clock"]["seat"])["legal"][0]
    before = store.round_trips
    ack = await srv.live.tables.act(tid, seat["player"], "one-trip", snap.v, action)
    assert ack == {"type": "ack", "cmd": "one-trip", "v": snap.v + 1}
    assert store.round_trips - before == 1
    await watcher.close()


async def test_a_stale_cache_costs_two_round_trips_at_most(live_server):
    srv = await live_server(seeds=lambda t, m: 99)
    (a, _), (b, _) = await humans(srv, 2)
    tid = await table_with(srv, "gaple", [a, b])
    store, live = srv.live.store, srv.live
    old = await store.load(tid)
    await play_turn(srv, tid)
    fresh = await store.load(tid)
    store.cache[tid], store.heard[tid] = old, old.v  # as if the publication were late
    n = fresh.doc["clock"]["seat"]
    action = live.views.view(fresh, n)["legal"][0]
    before = store.round_trips
    ack = await live.tables.act(tid, fresh.doc["seats"][n]["player"], "late", fresh.v, action)
    assert ack["type"] == "ack" and store.round_trips - before == 2

    # a server-side change built on a stale snapshot loses the race and is retried once
    latest = await store.load(tid)
    stale = Snapshot(tid, old.v, old.doc)
    seen = []

    def build(snap, v_next):
        seen.append(snap.v)
        ch = live.writer.begin(snap)
        ch.events.append({"type": "noop"})
        return ch

    before = store.round_trips
    res, _ = await live.writer.change(tid, build, snap=stale)
    assert seen == [old.v, latest.v] and res.v == latest.v + 1
    assert store.round_trips - before == 2
    store.heard.pop(tid, None)


async def test_g12_chips_table_deals_rounds_while_two_hold_a_stake(live_server):
    srv = await live_server(seeds=lambda t, m: 500 + m, buy_in_min_stakes=1)  # thin stacks
    (a, _), (b, _) = await humans(srv, 2)
    tid = await table_with(srv, "gaple", [a, b], options={"stake": 10}, buy_in=40)
    store = srv.live.store
    for _ in range(2000):
        if await play_turn(srv, tid) is None:
            doc = (await store.load(tid)).doc
            if doc["status"] == "over" and doc["clock"] is None:
                break
            await asyncio.sleep(0.01)
    doc = (await store.load(tid)).doc
    stacks = [s["stack"] for s in doc["seats"]]
    assert sum(stacks) == 80 and min(stacks) < 10  # chips conserved, someone is busted
    assert doc["match_no"] >= 2
    for m in range(1, doc["match_no"] + 1):
        log = await store.action_log(tid, m)
        assert log and all(e["action"]["kind"] == "pass" for e in log if e["by"] == "forced")


async def test_leaving_mid_match_hands_the_seat_to_the_bot_then_frees_it(live_server):
    srv = await live_server(seeds=lambda t, m: 7 + m)
    (a, _), (b, _) = await humans(srv, 2)
    tid = await table_with(srv, "cross", [a, b], options={"target": 30})
    tables, store = srv.live.tables, srv.live.store
    table = await tables.leave(a, tid, 0)
    assert table["seats"][0]["leaving"] and table["status"] == "playing"
    for _ in range(3000):
        if await play_turn(srv, tid) is None:
            doc = (await store.load(tid)).doc
            if doc["status"] == "over":
                break
            await asyncio.sleep(0.005)
    doc = (await store.load(tid)).doc
    assert doc["status"] == "over" and doc["seats"][0] is None
    log = await store.action_log(tid, 1)
    assert {e["by"] for e in log if e["seat"] == 0} <= {"bot", "forced"}
    assert any(e["by"] == "bot" for e in log)

    # the rematch waits for the seat to be filled and every human's yes
    table = await tables.rematch(b, tid)
    assert table["status"] == "over" and table["seats"][1]["rematch"]
    table = await tables.add_bots(b, tid)
    assert table["status"] == "playing" and table["match_no"] == 2
