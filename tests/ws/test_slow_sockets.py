"""Sockets that never read cannot take the server's memory: what one socket may hold queued is
bounded in bytes, and a flood of ``sync`` requests is answered from one cached answer. Counted
on a server started as a real process (its resident memory, read with psutil)."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid

import httpx
import orjson
import pytest
import websockets

from tests.db.fixtures import new_database
from tests.ws.client import SeatClient, register, start_match
from tests.ws.process import ServerProcess
from tests.ws.test_sync_chat import play_some

HISTORY = 520  # versions, more than a sync may reach back (event_stream_len 500)


@pytest.fixture
async def server(tmp_path, live_redis_url, redis_mode, live_prefix):
    url, engine, cleanup = await new_database(tmp_path)
    await engine.dispose()
    env = {
        "REDIS_URL": live_redis_url,
        "MEJA_REDIS_MODE": redis_mode,
        "DATABASE_URL": url,
        "MEJA_KEY_PREFIX": live_prefix,
        "MEJA_SECRET_KEY": "slow-sockets-key-" + uuid.uuid4().hex,
        "MEJA_DATA_DIR": str(tmp_path),
        "MEJA_LOG_LEVEL": "warning",
        "MEJA_BOT_DELAY": "0",
        "MEJA_ROUND_PAUSE": "0",
        "MEJA_TURN_SECONDS": "600",
        "MEJA_RATE_PER_SECOND": "200",
        "MEJA_RATE_BURST": "200",
        "MEJA_STARTING_BALANCE": "10000000",
        "MEJA_BUY_IN_MAX_STAKES": "10000000",
        "MEJA_SEND_TIMEOUT": "2",
    }
    srv = await ServerProcess(env, tmp_path / "server.log").start()
    yield srv
    srv.stop()
    await cleanup()


async def long_table(srv) -> tuple[str, int]:
    """A Gaple chips table (one player, three bots) played until it has HISTORY versions;
    it then waits for the player's move (a 600 s clock), so its version stays put."""
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, auth = await register(http, "Long Player")
        tid = (
            await http.post(
                "/api/tables",
                headers=auth,
                json={"game": "gaple", "seats": 4, "options": {"stake": 1}},
            )
        ).json()["id"]
        me = await SeatClient(srv.ws_url, tid, token).connect()
        r = await http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={"buy_in": 1000000})
        assert r.status_code == 200, r.text
        assert (await http.post(f"/api/tables/{tid}/bots", headers=auth)).status_code == 200
        await me.play(lambda m: m["v"] >= HISTORY and me.my_turn(), timeout=120)
        await me.close()
        return tid, me.latest["v"]


async def test_sockets_that_never_read_hold_a_bounded_memory(server):
    tid, v = await long_table(server)
    sync = orjson.dumps({"type": "sync", "v": v - 499}).decode()
    reader = await SeatClient(server.ws_url, tid, None).connect()
    await reader.send(sync)
    answer = await reader.until(lambda m: m["type"] == "state" and m["events"])
    size = len(orjson.dumps(answer))
    await reader.close()
    await asyncio.sleep(0.5)
    before = server.rss_mib()

    # max_queue=1: the client library stops reading its socket once it holds a message the
    # application has not taken, as with a page or a script that never reads
    floods = [
        await websockets.connect(
            f"{server.ws_url}/ws/tables/{tid}", max_queue=1, ping_interval=None, close_timeout=1
        )
        for _ in range(8)
    ]

    async def flood(ws) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            for _ in range(300):
                await ws.send(sync)
                await asyncio.sleep(0.01)

    peak = before

    async def sample(seconds: float) -> None:
        nonlocal peak
        for _ in range(int(seconds / 0.1)):
            peak = max(peak, server.rss_mib())
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample(3600))
    await asyncio.gather(*(flood(ws) for ws in floods))
    # the server works through the syncs, then lets go of the sockets (within 8 s)
    deadline = time.monotonic() + 8
    while server.sockets() and time.monotonic() < deadline:
        await sample(0.1)
    sampler.cancel()
    grown = peak - before
    print(f"sync answer {size / 1024:.0f} KiB; RSS {before:.0f} MiB -> +{grown:.0f} MiB")
    assert grown < 40
    assert server.sockets() == 0  # too far behind, then dropped (send_timeout)
    for ws in floods:
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.close()


async def test_repeated_syncs_are_answered_from_one_cached_answer(live_server):
    srv = await live_server(seeds=lambda t, m: 33, rate_per_second=1e4)
    tid, clients, watcher = await start_match(srv, "moon", 4)
    for c in (*clients, watcher):
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    await play_some(clients, 6)
    now = (await srv.live.store.load(tid)).v
    await watcher.until(lambda m: m["type"] == "state" and m["v"] == now)
    store = srv.live.store
    answers = []
    for _ in range(3):
        trips = store.round_trips
        await watcher.send({"type": "sync", "v": 1})
        answers.append(await watcher.until(lambda m: m["type"] == "state"))
        if len(answers) > 1:
            assert store.round_trips == trips  # no stream read, no reload
    assert answers[0]["v"] == now and len(answers[0]["events"]) >= 6
    assert answers[0] == answers[1] == answers[2]
    for c in (*clients, watcher):
        await c.close()
