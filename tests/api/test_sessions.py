"""Sessions against a real app (real Redis and database): access tokens that expire, are
revoked, forged or signed by an older key; refresh sessions; socket tickets; and the sockets
those sessions open."""

from __future__ import annotations

import asyncio
import time

import httpx
import jwt
import orjson
import pytest
import websockets
from redis.asyncio import Redis

from app.services.sessions import Keyring
from tests.ws.client import SeatClient, register

FAST = {"password_time_cost": 1, "password_memory_kib": 8192}


@pytest.fixture
async def srv(live_server):
    return await live_server(**FAST)


@pytest.fixture
async def http(srv):
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield client


async def table_for(http, auth) -> str:
    r = await http.post("/api/tables", headers=auth, json={"game": "gaple", "seats": 2})
    return r.json()["id"]


async def chat_answer(ws) -> str:
    """Say hello on a fresh socket; the type of the answer (``chat``, or ``error`` for a
    spectator)."""
    await ws.send(orjson.dumps({"type": "chat", "text": "halo"}).decode())
    async with asyncio.timeout(5):
        while True:
            msg = orjson.loads(await ws.recv())
            if msg["type"] in ("chat", "error"):
                return msg["type"]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def claims_of(token: str) -> dict:
    return jwt.decode(token, options={"verify_signature": False})


def resign(srv, token: str, **changes) -> str:
    """The token's claims with ``changes``, signed by the server's current key."""
    return srv.live.sessions.keyring.sign({**claims_of(token), **changes})


async def closed_with(client: SeatClient, timeout: float = 5) -> int | None:
    """Read until the server closes the socket; its close code."""
    with pytest.raises(websockets.ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                await client.recv(timeout)
    return client.ws.close_code


async def test_an_expired_token_is_refused_and_the_refresh_cookie_mints_a_new_one(srv, http):
    token, _ = await register(http, "Lama Sekali")
    expired = resign(srv, token, iat=int(time.time()) - 7200, exp=int(time.time()) - 1)
    r = await http.get("/api/players/me", headers=bearer(expired))
    assert (r.status_code, r.json()["code"]) == (401, "token_expired")
    http.cookies.set(srv.settings.cookie_name, expired, domain="127.0.0.1")
    r = await http.get("/api/players/me")
    assert (r.status_code, r.json()["code"]) == (401, "token_expired")
    r = await http.post("/api/session/refresh")
    assert r.status_code == 200, r.text
    fresh = r.json()["token"]
    assert claims_of(fresh)["sid"] == claims_of(token)["sid"]
    assert (await http.get("/api/players/me")).json()["name"] == "Lama Sekali"
    http.cookies.clear()
    r = await http.get("/api/players/me")
    assert (r.status_code, r.json()["code"]) == (401, "not_signed_in")
    r = await http.post("/api/session/refresh")
    assert (r.status_code, r.json()["code"]) == (401, "session_ended")


async def test_an_expired_token_closes_the_socket_with_4419(srv, http):
    token, auth = await register(http, "Soket Lama")
    tid = await table_for(http, auth)
    expired = resign(srv, token, exp=int(time.time()) - 1)
    client = await SeatClient(srv.ws_url, tid, expired).connect()
    assert await closed_with(client) == 4419


async def test_an_open_socket_is_closed_with_4419_when_its_token_expires(live_server):
    srv = await live_server(ping_timeout=0.6, **FAST)  # the watchdog ticks every 0.3 s
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, auth = await register(http, "Hampir Habis")
        tid = await table_for(http, auth)
    soon = resign(srv, token, exp=int(time.time()) + 2)
    client = await SeatClient(srv.ws_url, tid, soon).connect()
    await client.until(lambda m: m["type"] == "state")  # (presence may come first)
    started = time.monotonic()
    assert await closed_with(client, timeout=6) == 4419
    assert time.monotonic() - started < 4


async def test_logout_refuses_every_token_and_closes_the_sockets_at_once(srv, http):
    assert (
        await http.post("/api/accounts", json={"username": "keluar", "password": "mie-ayam-77"})
    ).status_code == 201
    token = http.cookies.get(srv.settings.cookie_name)
    async with httpx.AsyncClient(base_url=srv.url) as phone:
        login = {"username": "Keluar", "password": "mie-ayam-77"}
        assert (await phone.post("/api/session", json=login)).status_code == 200
        tid = await table_for(http, bearer(token))
        sockets = [await SeatClient(srv.ws_url, tid, token).connect() for _ in range(2)]
        for s in sockets:  # the first state (another socket's presence may come first)
            await s.until(lambda m: m["type"] == "state")
        r = await http.delete("/api/session")
        assert r.status_code == 204
        forgotten = r.headers.get_list("set-cookie")
        assert len(forgotten) == 2 and all("Max-Age=0" in c for c in forgotten)
        codes = await asyncio.gather(*(closed_with(s, timeout=3) for s in sockets))
        assert codes == [4401, 4401]
        r = await http.get("/api/players/me", headers=bearer(token))
        assert (r.status_code, r.json()["code"]) == (401, "bad_token")
        r = await phone.post("/api/session/refresh")  # the other device's session ended too
        assert (r.status_code, r.json()["code"]) == (401, "session_ended")
        again = await SeatClient(srv.ws_url, tid, token).connect()
        assert await closed_with(again) == 4401


async def test_the_database_decides_when_redis_lost_the_players_cache(
    srv, http, live_redis_url, live_prefix
):
    token, auth = await register(http, "Lupa Cache")
    redis = Redis.from_url(live_redis_url)
    key = f"{live_prefix}player:{claims_of(token)['sub']}"
    await redis.delete(key)
    assert (await http.get("/api/players/me", headers=auth)).status_code == 200
    assert (await http.delete("/api/session", headers=auth)).status_code == 204
    await redis.delete(key)
    r = await http.get("/api/players/me", headers=auth)
    assert (r.status_code, r.json()["code"]) == (401, "bad_token")
    await redis.aclose()


async def test_key_rotation_accepts_the_older_key_and_signs_with_the_newest(live_server):
    old = await live_server(secret_key="the-old-key", **FAST)
    both = await live_server(secret_keys=["the-new-key", "the-old-key"], **FAST)
    async with httpx.AsyncClient(base_url=old.url) as a, httpx.AsyncClient(base_url=both.url) as b:
        old_token, _ = await register(a, "Kunci Lama")
        new_token, _ = await register(b, "Kunci Baru")
        assert (await b.get("/api/players/me", headers=bearer(old_token))).status_code == 200
        kid = jwt.get_unverified_header(new_token)["kid"]
        assert kid == Keyring([b"the-new-key"]).kids[0] != Keyring([b"the-old-key"]).kids[0]
        r = await a.get("/api/players/me", headers=bearer(new_token))
        assert (r.status_code, r.json()["code"]) == (401, "bad_token")


async def test_forged_tokens_are_refused(srv, http):
    token, _ = await register(http, "Asli")
    claims = claims_of(token)
    kid = jwt.get_unverified_header(token)["kid"]
    forged = [
        jwt.encode(claims, "a-guessed-key-" * 3, algorithm="HS256", headers={"kid": kid}),
        jwt.encode(claims, None, algorithm="none", headers={"kid": kid}),
        Keyring([b"another-server"]).sign(claims),
        token.rsplit(".", 1)[0] + "." + jwt.encode({"sub": "2"}, "k" * 32).rsplit(".", 1)[1],
        resign(srv, token, sub="999999"),  # our key, a player that does not exist
        resign(srv, token, ep=claims["ep"] + 1),  # an epoch the player never had
    ]
    for bad in forged:
        r = await http.get("/api/players/me", headers=bearer(bad))
        assert (r.status_code, r.json()["code"]) == (401, "bad_token"), bad


async def test_claims_of_a_shape_never_signed_are_refused_even_with_our_key(srv, http):
    """A signature says who made a token, not that its claims fit: a player id beyond 64 bits
    (or not a decimal id at all), an epoch or session id of another type are ``bad_token``,
    never a database error."""
    token, _ = await register(http, "Asli")
    odd = [
        {"sub": str(2**64 + 1)},
        {"sub": str(2**63)},
        {"sub": "9" * 400},
        {"sub": "0"},
        {"sub": "-5"},
        {"sub": " 1"},
        {"sub": "1_000"},
        {"sub": "１"},  # a full-width digit: int() would read it
        {"ep": "0"},
        {"ep": 2**40},
        {"ep": True},
        {"sid": 2**64},
        {"sid": "1"},
    ]
    for changes in odd:
        bad = resign(srv, token, **changes)
        r = await http.get("/api/players/me", headers=bearer(bad))
        assert (r.status_code, r.json()["code"]) == (401, "bad_token"), changes
    client = await SeatClient(srv.ws_url, "any", resign(srv, token, sub=str(2**64))).connect()
    assert await closed_with(client) == 4401


async def test_a_socket_ticket_is_single_use(srv, http):
    token, auth = await register(http, "Tiket Sekali")
    tid = await table_for(http, auth)
    assert (await http.post(f"/api/tables/{tid}/seats/0", headers=auth)).status_code == 200
    http.cookies.clear()
    r = await http.post("/api/ws-ticket")
    assert (r.status_code, r.json()["code"]) == (401, "not_signed_in")
    r = await http.post("/api/ws-ticket", headers=auth)
    assert r.status_code == 200 and r.json()["expires_in"] == srv.settings.ticket_seconds
    ticket = r.json()["ticket"]
    assert token not in ticket
    url = f"{srv.ws_url}/ws/tables/{tid}?ticket={ticket}"
    async with websockets.connect(url) as ws:
        assert await chat_answer(ws) == "chat"  # a spectator may not chat: it is the player
    async with websockets.connect(url) as ws:
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 4401


async def test_a_socket_ticket_expires(live_server):
    srv = await live_server(ticket_seconds=1, **FAST)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Tiket Basi")
        tid = await table_for(http, auth)
        ticket = (await http.post("/api/ws-ticket", headers=auth)).json()["ticket"]
    await asyncio.sleep(1.5)
    async with websockets.connect(f"{srv.ws_url}/ws/tables/{tid}?ticket={ticket}") as ws:
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 4401


async def test_a_token_in_the_socket_url_is_not_read(srv, http):
    token, auth = await register(http, "Di Url")
    tid = await table_for(http, auth)
    assert (await http.post(f"/api/tables/{tid}/seats/0", headers=auth)).status_code == 200
    async with websockets.connect(f"{srv.ws_url}/ws/tables/{tid}?token={token}") as ws:
        assert await chat_answer(ws) == "error"  # not_your_turn: a spectator


async def test_logout_from_another_site_is_refused(srv, http):
    await register(http, "Situs Lain")
    r = await http.delete("/api/session", headers={"Origin": "https://evil.example"})
    assert (r.status_code, r.json()["code"]) == (403, "bad_origin")
    assert (await http.get("/api/players/me")).status_code == 200
