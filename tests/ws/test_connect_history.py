"""A socket that opens (a page loaded or reloaded) is sent what a socket that stayed has shown:
the table's history, from the event stream up to its state's version, and the kept chat lines.
Never a tile its seat may not see."""

from __future__ import annotations

import httpx

from app.services.table.views import HISTORY
from tests.ws.client import (
    SeatClient,
    audit_messages,
    register,
    start_match,
    states_by_version,
)
from tests.ws.test_sync_chat import play_some

FAST = {"rate_per_second": 1e4, "round_pause": 0}


def shown(messages: list[dict]) -> list[dict]:
    """Every event a client's history got, in order (what static/js/table.js logs)."""
    return [e for m in messages if m["type"] == "state" for e in m["events"]]


async def test_a_socket_that_opens_mid_round_gets_the_history_a_staying_one_showed(live_server):
    srv = await live_server(seeds=lambda t, m: 41, **FAST)
    tid, clients, watcher = await start_match(srv, "cross", 4, {"target": 300})
    for c in (*clients, watcher):
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    await play_some(clients, 40)
    now = (await srv.live.store.load(tid)).v
    assert now > 40 and watcher.latest["table"]["status"] == "playing"
    await watcher.until(lambda m: m["type"] == "state" and m["v"] == now)
    stayed = shown(watcher.messages)
    assert len(stayed) > 40

    # a player reloads: a fresh socket for seat 0, and a spectator's
    reloaded = await SeatClient(srv.ws_url, tid, clients[0].token).connect()
    fresh = await reloaded.until(lambda m: m["type"] == "state")
    assert fresh["v"] == now and "gap" not in fresh
    assert fresh["events"] == stayed[-HISTORY:]
    other = await SeatClient(srv.ws_url, tid, None).connect()
    assert (await other.until(lambda m: m["type"] == "state"))["events"] == fresh["events"]

    # O-2: nothing of it shows another seat's tiles (nor the stock) at that version
    doc = (await srv.live.store.load(tid)).doc
    log = await srv.live.store.action_log(tid, 1)
    rs, states = states_by_version(
        doc["game"], doc["match_options"], len(doc["players"]), doc["seed"], log
    )
    await reloaded.until(lambda m: m["type"] == "presence")
    assert audit_messages(rs, states, reloaded.messages, "reloaded seat 0") == 1
    assert audit_messages(rs, states, other.messages, "reloaded spectator") == 1
    for c in (*clients, watcher, reloaded, other):
        await c.close()


async def test_the_history_is_the_last_events_when_more_happened_than_it_keeps(live_server):
    srv = await live_server(seeds=lambda t, m: 42, **FAST)
    tid, clients, watcher = await start_match(srv, "cross", 2, {"target": 500})
    for c in (*clients, watcher):
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    await play_some(clients, HISTORY + 20)
    now = (await srv.live.store.load(tid)).v
    await watcher.until(lambda m: m["type"] == "state" and m["v"] == now)
    back = await SeatClient(srv.ws_url, tid, None).connect()
    fresh = await back.until(lambda m: m["type"] == "state")
    assert fresh["v"] == now and fresh["events"] == shown(watcher.messages)[-HISTORY:]
    for c in (*clients, watcher, back):
        await c.close()


async def test_a_socket_that_opens_gets_the_kept_chat_lines(live_server):
    srv = await live_server(chat_history_lines=3, limit_chat_burst_player="")  # 5 lines at once
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, auth = await register(http, "Rina")
        tid = (
            await http.post("/api/tables", headers=auth, json={"game": "cross", "seats": 2})
        ).json()["id"]
        await http.post(f"/api/tables/{tid}/seats/0", headers=auth)
    talker = await SeatClient(srv.ws_url, tid, token).connect()
    first = await talker.until(lambda m: m["type"] == "chat_log")
    assert first["lines"] == []
    said = []
    for text in ("satu", "dua", "tiga", "empat"):
        await talker.send({"type": "chat", "text": text})
        said.append(await talker.until(lambda m: m["type"] == "chat"))
    await talker.send({"type": "quick", "id": "gg"})
    said.append(await talker.until(lambda m: m["type"] == "chat"))
    assert len({m["id"] for m in said}) == 5

    reloaded = await SeatClient(srv.ws_url, tid, token).connect()
    state = await reloaded.until(lambda m: m["type"] == "state")
    kept = await reloaded.until(lambda m: m["type"] == "chat_log")
    assert reloaded.messages.index(kept) == reloaded.messages.index(state) + 1
    assert kept["lines"] == said[-3:]  # capped: the newest three, oldest first
    assert [m.get("text") or m.get("quick") for m in kept["lines"]] == ["tiga", "empat", "gg"]
    ttl = await srv.live.redis.ttl(srv.live.keys.chat(tid))
    assert 0 < ttl <= srv.settings.chat_history_seconds
    for c in (talker, reloaded):
        await c.close()
