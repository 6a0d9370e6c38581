"""Stake rooms (app/services/table/rooms.py, docs/players.md "Stake rooms"): Gaple's tables by
stake, each room with a minimum wallet; quick join sits in the room the wallet opens (or the one
named), with the buy-in asked; the lobby reads each room's players online."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.services.table import rooms
from tests.ws.client import SeatClient, register


@pytest.fixture
async def http(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as client:
        client.srv = srv
        yield client


async def wallet(http, auth) -> int:
    return (await http.get("/api/players/me/chips", headers=auth)).json()["balance"]


async def stranger_table(http, stake: int) -> tuple[str, dict, str]:
    """A stranger's Gaple table at ``stake`` with three seats open; (token, auth, table id)."""
    token, auth = await register(http, f"Orang {stake}")
    r = await http.post(
        "/api/tables", headers=auth, json={"game": "gaple", "seats": 4, "options": {"stake": stake}}
    )
    tid = r.json()["id"]
    sat = await http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={"buy_in": 10 * stake})
    assert sat.status_code == 200, sat.text
    return token, auth, tid


async def test_rooms_list_their_bounds_and_the_room_a_wallet_opens(http):
    _, auth = await register(http, "Baru")
    got = (await http.get("/api/rooms/gaple", headers=auth)).json()
    assert [(r["stake"], r["min_wallet"]) for r in got["rooms"]] == [
        (10, 100),
        (50, 2500),
        (200, 10000),
        (1000, 50000),
    ]
    assert got["rooms"][1]["buy_in"] == {"min": 500, "default": 5000, "max": 5000}
    assert (got["wallet"], got["suggested"]) == (1000, 10)  # a new guest: the stake-10 room
    async with httpx.AsyncClient(base_url=http.srv.url) as nobody:  # no session cookie
        anonymous = (await nobody.get("/api/rooms/gaple")).json()
    assert (anonymous["wallet"], anonymous["suggested"]) == (None, None)
    for game, code in (("moon", "no_rooms"), ("chess", "no_such_game")):
        r = await http.get(f"/api/rooms/{game}")
        assert (r.status_code, r.json()["code"]) == (404, code)


async def test_a_new_guest_quick_joins_the_room_its_wallet_opens_with_the_buy_in_it_asks(http):
    _, _, rich = await stranger_table(http, 50)
    _, _, fitting = await stranger_table(http, 10)
    _, auth = await register(http, "Tamu")
    r = await http.post("/api/quick-join", headers=auth, json={"game": "gaple", "buy_in": 300})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["id"] == fitting != rich and table["stake"] == 10
    assert table["seats"][r.json()["seat"]]["stack"] == 300
    assert await wallet(http, auth) == 700  # the rest stays in the wallet


async def test_a_room_the_wallet_does_not_open_is_refused_and_nothing_moves(http):
    _, _, rich = await stranger_table(http, 50)
    _, auth = await register(http, "Tamu")
    cases = [
        ({"stake": 50}, 409, "room_locked"),
        ({"stake": 30}, 422, "no_such_room"),
        ({"stake": 10, "buy_in": 50}, 422, "buy_in_too_low"),
        ({"stake": 10, "buy_in": 5000}, 422, "buy_in_too_high"),
        ({"stake": 0}, 422, "greater_than_equal"),
    ]
    for body, status, code in cases:
        r = await http.post("/api/quick-join", headers=auth, json={"game": "gaple", **body})
        assert (r.status_code, r.json()["code"]) == (status, code), body
    r = await http.post("/api/quick-join", headers=auth, json={"game": "moon", "stake": 10})
    assert (r.status_code, r.json()["code"]) == (422, "no_rooms")
    assert await wallet(http, auth) == 1000
    assert (await http.get("/api/players/me/tables", headers=auth)).json()["items"] == []
    stranger = (await http.get(f"/api/tables/{rich}")).json()
    assert [s["name"] for s in stranger["seats"]][1:] == [None, None, None]


async def test_quick_join_in_a_room_makes_a_table_of_its_stake_when_none_is_open(http):
    _, auth = await register(http, "Kaya")
    r = await http.post("/api/quick-join", headers=auth, json={"game": "gaple", "stake": 10})
    table = r.json()["table"]
    assert table["stake"] == 10 and table["seats"][0]["stack"] == 1000  # the default buy-in
    assert all(s["bot"] for s in table["seats"][1:])


async def test_a_room_counts_the_players_online_at_its_tables(http, monkeypatch):
    monkeypatch.setattr(rooms, "ONLINE_SECONDS", 0.0)
    token, _, tid = await stranger_table(http, 10)
    _, watcher_auth = await register(http, "Penonton")
    online = {r["stake"]: r["online"] for r in (await http.get("/api/rooms/gaple")).json()["rooms"]}
    assert online[10] == 0
    sockets = [await SeatClient(http.srv.ws_url, tid, token).connect()]
    sockets.append(
        await SeatClient(http.srv.ws_url, tid, watcher_auth["Authorization"][7:]).connect()
    )
    try:
        for _ in range(50):
            rooms_now = (await http.get("/api/rooms/gaple")).json()["rooms"]
            online = {r["stake"]: r["online"] for r in rooms_now}
            if online[10] == 2:
                break
            await asyncio.sleep(0.1)
        assert online == {10: 2, 50: 0, 200: 0, 1000: 0}
    finally:
        for s in sockets:
            await s.close()
