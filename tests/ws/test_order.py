"""One socket's states come in version order, however its own sync answers and the table's
fan-out (pub/sub) cross: a sync answer is built from a snapshot and the event stream while a
move may be published; its state must not follow the newer one the fan-out queued."""

from __future__ import annotations

import asyncio

from tests.ws.client import start_match


async def test_a_sync_answer_never_follows_a_newer_state(live_server):
    srv = await live_server(seeds=lambda t, m: 35)
    tid, clients, watcher = await start_match(srv, "moon", 4)
    for c in (*clients, watcher):
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    store = srv.live.store
    v = (await store.load(tid)).v
    if watcher.latest["v"] < v:
        await watcher.until(lambda m: m["type"] == "state" and m["v"] == v)
    mover = next(c for c in clients if c.my_turn())
    read = store.events_since

    async def slow_read(*args):  # a wider window for the move to be published in
        got = await read(*args)
        await asyncio.sleep(0.3)
        return got

    store.events_since = slow_read
    await watcher.send({"type": "sync", "v": 1})
    await asyncio.sleep(0.1)  # the answer is being built at version v
    await mover.act(mover.latest["view"]["legal"][0])
    states = [await watcher.until(lambda m: m["type"] == "state") for _ in range(2)]
    store.events_since = read
    assert [m["v"] for m in states] == [v + 1, v + 1]  # the fan-out's, then the sync answer
    assert len(states[1]["events"]) > len(states[0]["events"])  # from version 1 on
    await asyncio.gather(*(c.close() for c in (*clients, watcher)))
