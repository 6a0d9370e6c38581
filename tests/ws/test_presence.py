"""Presence: every socket of a table is told which players hold a socket there
(``{"type": "presence", "online": [...]}``), across processes, and a player whose process
died lapses by itself (app/store/presence.py)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid

import httpx
import pytest

from tests.ws.client import SeatClient, register
from tests.ws.process import ServerProcess

KEY = "presence-" + uuid.uuid4().hex  # the process and the test's server sign alike


async def two_seated(srv) -> tuple[str, list[tuple[str, int]]]:
    """A Cross table with two players seated: (table, [(token, player id)])."""
    async with httpx.AsyncClient(base_url=srv.url) as http:
        players = []
        for name in ("Agus", "Bayu"):
            token, auth = await register(http, name)
            me = (await http.get("/api/players/me", headers=auth)).json()
            players.append((token, auth, me["id"]))
        tid = (
            await http.post(
                "/api/tables", headers=players[0][1], json={"game": "cross", "seats": 2}
            )
        ).json()["id"]
        for n, (_, auth, _) in enumerate(players):
            r = await http.post(f"/api/tables/{tid}/seats/{n}", headers=auth)
            assert r.status_code == 200, r.text
    return tid, [(token, pid) for token, _, pid in players]


def online(expected: set[int]):
    return lambda m: m["type"] == "presence" and set(m["online"]) == expected


async def test_presence_is_told_across_two_processes(live_server):
    one = await live_server()
    two = await live_server()
    tid, [(ta, a), (tb, b)] = await two_seated(one)
    agus = await SeatClient(one.ws_url, tid, ta).connect()
    await agus.until(online({a}))
    bayu = await SeatClient(two.ws_url, tid, tb).connect()
    await agus.until(online({a, b}))
    await bayu.until(online({a, b}))
    watcher = await SeatClient(two.ws_url, tid, None).connect()
    await watcher.until(online({a, b}))

    mark = len(agus.messages)
    twin = await SeatClient(two.ws_url, tid, tb).connect()  # Bayu's second tab
    await twin.until(online({a, b}))
    await twin.close()  # his first tab is still open: he stays
    with contextlib.suppress(TimeoutError):
        await agus.until(lambda m: m["type"] == "presence" and b not in m["online"], timeout=1)
    assert [m for m in agus.messages[mark:] if m["type"] == "presence"] == []

    await bayu.close()
    await agus.until(online({a}))
    await watcher.until(online({a}))
    bayu = await SeatClient(one.ws_url, tid, tb).connect()
    await agus.until(online({a, b}))
    for c in (agus, bayu, watcher):
        await c.close()


@pytest.fixture
async def process(tmp_path, live_redis_url, redis_mode, live_prefix, live_database):
    """A real server process on the test's Redis keys and database (``python -m app serve``)."""
    env = {
        "REDIS_URL": live_redis_url,
        "MEJA_REDIS_MODE": redis_mode,
        "DATABASE_URL": live_database,
        "MEJA_KEY_PREFIX": live_prefix,
        "MEJA_SECRET_KEY": KEY,
        "MEJA_DATA_DIR": str(tmp_path / uuid.uuid4().hex),
        "MEJA_LOG_LEVEL": "warning",
        "MEJA_PRESENCE_SECONDS": "2",
        "MEJA_OUTBOX_CONSUMER": "false",
    }
    (tmp_path / env["MEJA_DATA_DIR"]).mkdir()
    srv = await ServerProcess(env, tmp_path / "server.log").start()
    yield srv
    srv.stop()


async def test_a_killed_process_s_players_lapse(live_server, process):
    here = await live_server(presence_seconds=2, secret_key=KEY)
    tid, [(ta, a), (tb, b)] = await two_seated(here)
    agus = await SeatClient(here.ws_url, tid, ta).connect()
    bayu = await SeatClient(process.ws_url, tid, tb).connect()
    # heartbeats, as the browser's every 10 s: a silent socket lapses too
    beats = [asyncio.create_task(pings(c, 0.5)) for c in (agus, bayu)]
    await agus.until(online({a, b}))
    # the process refreshes Bayu's presence: never shown gone in twice the expiry's time (the
    # other process's own word of Bayu's arrival may come after the first, the same)
    mark = len(agus.messages)
    with contextlib.suppress(TimeoutError):
        await agus.until(lambda m: m["type"] == "presence" and set(m["online"]) != {a, b}, 4)
    told = [set(m["online"]) for m in agus.messages[mark:] if m["type"] == "presence"]
    assert all(seen == {a, b} for seen in told), told

    process.proc.kill()  # SIGKILL: no socket is closed, nothing is said
    await agus.until(online({a}), timeout=8)
    members = await here.live.redis.zrange(here.live.keys.presence(tid), 0, -1)
    assert [m.decode().split("/")[0] for m in members] == [str(a)]
    for beat in beats:
        beat.cancel()
    await agus.close()


async def pings(client: SeatClient, every: float) -> None:
    with contextlib.suppress(Exception):
        while True:
            await client.send({"type": "ping"})
            await asyncio.sleep(every)
