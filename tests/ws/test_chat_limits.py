"""Chat is rate limited per player and per address across replicas (docs/api.md "Rate limits"),
on top of each socket's own token bucket: past the limit the socket answers ``rate_limited``
(with ``retry_after``) and nothing is said."""

from __future__ import annotations

import httpx

from tests.ws.client import SeatClient, register


async def seated(srv, name: str, tid: str | None = None, seat: int = 0) -> tuple[str, str]:
    """(token, table id): ``name`` sits in ``seat`` at ``tid`` (a new Cross table if None)."""
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, auth = await register(http, name)
        if tid is None:
            r = await http.post("/api/tables", headers=auth, json={"game": "cross", "seats": 2})
            tid = r.json()["id"]
        r = await http.post(f"/api/tables/{tid}/seats/{seat}", headers=auth)
        assert r.status_code == 200, r.text
    return token, tid


async def chats_heard(client: SeatClient, quiet: float = 0.5) -> list[str]:
    """The chat lines a socket gets until it has been quiet for ``quiet`` seconds."""
    lines = []
    try:
        while True:
            msg = await client.recv(quiet)
            if msg["type"] == "chat":
                lines.append(msg["text"])
    except TimeoutError:
        return lines


async def test_chat_past_the_limit_is_refused_across_sockets_and_replicas(live_server):
    one = await live_server(limit_chat_player="2/minute")
    two = await live_server(limit_chat_player="2/minute")
    token, tid = await seated(one, "Sari")
    here = await SeatClient(one.ws_url, tid, token).connect()
    there = await SeatClient(two.ws_url, tid, token).connect()  # the same player, another tab
    listener = await SeatClient(two.ws_url, tid, None).connect()
    for c in (here, there, listener):
        await c.until(lambda m: m["type"] == "state")
    await here.send({"type": "chat", "text": "satu"})
    await there.send({"type": "chat", "text": "dua"})
    heard = set()  # said through two replicas, the two lines may come in either order
    while heard != {"satu", "dua"}:
        heard.add((await listener.until(lambda m: m["type"] == "chat"))["text"])
    await here.send({"type": "chat", "text": "tiga"})
    error = await here.until(lambda m: m["type"] == "error")
    assert error["code"] == "rate_limited" and 1 <= error["retry_after"] <= 60, error
    assert await chats_heard(listener) == []  # "tiga" was never said
    for c in (here, there, listener):
        await c.close()


async def test_chat_is_limited_per_address_too(live_server):
    srv = await live_server(limit_chat_address="1/minute")
    ana, tid = await seated(srv, "Ana")
    budi, _ = await seated(srv, "Budi", tid, seat=1)
    first = await SeatClient(srv.ws_url, tid, ana).connect()
    second = await SeatClient(srv.ws_url, tid, budi).connect()
    for c in (first, second):
        await c.until(lambda m: m["type"] == "state")
    await first.send({"type": "chat", "text": "halo"})
    for c in (first, second):
        await c.until(lambda m: m["type"] == "chat")
    await second.send({"type": "chat", "text": "hai"})
    assert (await second.until(lambda m: m["type"] == "error"))["code"] == "rate_limited"
    assert await chats_heard(first) == []
    for c in (first, second):
        await c.close()


async def test_a_burst_of_chat_lines_is_refused_as_too_fast(live_server):
    """Six lines sent at once: the first three are said, the rest refused ``chat_too_fast``
    (MEJA_LIMIT_CHAT_BURST_PLAYER, 3 per 2 s) with a ``retry_after``, and never said."""
    srv = await live_server()
    token, tid = await seated(srv, "Sari")
    me = await SeatClient(srv.ws_url, tid, token).connect()
    listener = await SeatClient(srv.ws_url, tid, None).connect()
    for c in (me, listener):
        await c.until(lambda m: m["type"] == "state")
    for n in range(6):
        await me.send({"type": "chat", "text": f"baris {n}"})
    errors = [await me.until(lambda m: m["type"] == "error") for _ in range(3)]
    assert [e["code"] for e in errors] == ["chat_too_fast"] * 3, errors
    assert all(1 <= e["retry_after"] <= 2 for e in errors), errors
    assert await chats_heard(listener) == ["baris 0", "baris 1", "baris 2"]
    for c in (me, listener):
        await c.close()
