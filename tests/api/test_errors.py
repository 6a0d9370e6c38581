"""Bad input and outages are answered with a clear status and code, never a 500 or a
traceback: numbers beyond 64 bits, non-ASCII digits, a database that cannot be reached."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest
import websockets
from redis.asyncio import Redis

from tests.ws.client import register


def closed_port() -> int:
    """A local port where nothing listens (bound then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def outage(live_server, live_settings):
    """A server whose database is unreachable (nothing listens at its address); a player
    registered before (while it answered, on a healthy server sharing the Redis)."""
    healthy = await live_server()
    async with httpx.AsyncClient(base_url=healthy.url) as http:
        token, auth = await register(http, "Before Outage")
    srv = await live_server(
        database_url=f"postgresql+asyncpg://postgres@127.0.0.1:{closed_port()}/test"
    )
    async with httpx.AsyncClient(base_url=srv.url) as http:
        yield srv, http, token, auth


async def test_a_database_outage_is_503_database_unavailable(outage, live_redis_url, live_prefix):
    srv, http, token, auth = outage
    calls = [
        ("POST", "/api/players", {"json": {"name": "During Outage"}}),
        ("GET", "/api/players/me/wallet", {"headers": auth}),
        ("GET", "/api/players/me/chips", {"headers": auth}),
        ("POST", "/api/players/me/daily", {"headers": auth}),
        ("POST", "/api/players/me/refill", {"headers": auth}),
        ("GET", "/api/players/me/matches", {"headers": auth}),
        ("GET", "/api/matches/5", {}),
        ("GET", "/api/players/5/profile", {}),
        ("GET", "/api/leaderboards/gaple", {}),
        ("POST", "/api/quick-join", {"headers": auth, "json": {"game": "gaple"}}),
    ]
    for method, path, kw in calls:
        r = await http.request(method, path, **kw)
        assert r.status_code == 503, (path, r.status_code, r.text)
        assert r.json()["code"] == "database_unavailable", path
        assert r.json()["detail"] and r.headers["retry-after"]
    # a signed-in player whose Redis entry is gone is looked up in the database: down too
    redis = Redis.from_url(live_redis_url)
    await redis.delete(*[k async for k in redis.scan_iter(match=f"{live_prefix}player:*")])
    await redis.aclose()
    r = await http.get("/api/players/me", headers=auth)
    assert (r.status_code, r.json()["code"]) == (503, "database_unavailable")
    async with websockets.connect(
        f"{srv.ws_url}/ws/tables/any", additional_headers={"Authorization": f"Bearer {token}"}
    ) as ws:
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 1013  # try again later


async def test_numbers_beyond_64_bits_are_refused_not_500(live_server):
    srv = await live_server()
    huge = str(2**64 + 5)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Big Numbers")
        for path in (f"/api/matches/{huge}", "/api/matches/0", f"/api/matches/-{huge}"):
            r = await http.get(path)
            assert r.status_code == 404, (path, r.text)
        r = await http.get(f"/api/players/me/matches?before={huge}", headers=auth)
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "before"]
        r = await http.get(f"/api/players/me/matches?before={2**63 - 1}", headers=auth)
        assert (r.status_code, r.json()) == (200, [])
