"""Reconnecting with ``sync`` / ``?v=``, the gap case, chat across instances, ping."""

from __future__ import annotations

import asyncio

import httpx

from tests.ws.client import SeatClient, register, start_match


async def play_some(clients, moves: int) -> None:
    """The clients play ``moves`` versions further (random legal moves)."""
    target = max(c.latest["v"] for c in clients) + moves
    await asyncio.gather(
        *(
            c.play(lambda m: m["v"] >= target or m["table"]["status"] != "playing", 20)
            for c in clients
        )
    )


async def test_sync_sends_exactly_the_missed_events(live_server):
    srv = await live_server(seeds=lambda t, m: 31, rate_per_second=1e4)
    tid, clients, watcher = await start_match(srv, "moon", 4)
    for c in (*clients, watcher):
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    seen = watcher.latest["v"]
    await watcher.close()
    await play_some(clients, 6)
    now = (await srv.live.store.load(tid)).v
    got = await srv.live.store.events_since(tid, seen, now)
    missed = [e for _, es in got for e in es]

    back = await SeatClient(srv.ws_url, tid, None).connect(since=seen)
    first = await back.until(lambda m: m["type"] == "state")
    assert first["v"] >= now and first["events"][: len(missed)] == missed
    await back.send({"type": "sync", "v": seen})
    again = await back.until(lambda m: m["type"] == "state")
    assert again["events"][: len(missed)] == missed and "gap" not in again
    for c in (*clients, back):
        await c.close()


async def test_a_gap_older_than_the_stream_gets_a_fresh_state(live_server):
    srv = await live_server(seeds=lambda t, m: 32, rate_per_second=1e4, event_stream_len=3)
    tid, clients, watcher = await start_match(srv, "moon", 4)
    for c in (*clients, watcher):
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    await play_some(clients, 8)
    now = (await srv.live.store.load(tid)).v
    await watcher.until(lambda m: m["type"] == "state" and m["v"] == now)
    await watcher.send({"type": "sync", "v": 1})
    msg = await watcher.until(lambda m: m["type"] == "state")
    assert msg["v"] == now and msg["gap"] is True and msg["events"] == []
    assert msg["view"]["seat"] is None
    for c in (*clients, watcher):
        await c.close()


async def test_chat_reaches_every_socket_on_every_instance(live_server):
    one = await live_server()
    two = await live_server()
    async with httpx.AsyncClient(base_url=one.url) as http:
        token, auth = await register(http, "Sari")
        tid = (
            await http.post("/api/tables", headers=auth, json={"game": "cross", "seats": 2})
        ).json()["id"]
        await http.post(f"/api/tables/{tid}/seats/1", headers=auth)
    talker = await SeatClient(one.ws_url, tid, token).connect()
    listener = await SeatClient(two.ws_url, tid, None).connect()
    for c in (talker, listener):
        await c.until(lambda m: m["type"] == "state")
    await talker.send({"type": "chat", "text": "  halo semua  "})
    for c in (talker, listener):
        chat = await c.until(lambda m: m["type"] == "chat")
        assert (chat["name"], chat["text"], chat["seat"]) == ("Sari", "halo semua", 1)
    await listener.send({"type": "chat", "text": "hi"})
    refused = await listener.until(lambda m: m["type"] == "error")
    assert refused["code"] == "not_your_turn"
    await listener.send({"type": "ping"})
    assert (await listener.until(lambda m: m["type"] in ("pong", "chat")))["type"] == "pong"
    for c in (talker, listener):
        await c.close()
