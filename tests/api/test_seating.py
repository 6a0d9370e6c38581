"""Sitting down at a chips table over REST, on a real app (Redis and the database): the start
countdown (docs/rules.md O-5) and the buy-in chosen within the stake's bounds (docs/design.md
"Money")."""

from __future__ import annotations

import asyncio
import time

import httpx

from app.services import money
from tests.ws.client import register

GAPLE4 = {"game": "gaple", "seats": 4}


async def players(http, n: int) -> list[dict]:
    return [(await register(http, f"Teman {i}"))[1] for i in range(n)]


async def made(http, auth, **body) -> dict:
    r = await http.post("/api/tables", headers=auth, json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def sit(http, auth, tid: str, n: int, **body) -> httpx.Response:
    return await http.post(f"/api/tables/{tid}/seats/{n}", headers=auth, json=body)


async def balance(http, auth) -> int:
    return (await http.get("/api/players/me/wallet", headers=auth)).json()["balance"]


async def listed(http) -> list[dict]:
    return (await http.get("/api/tables")).json()["items"]


async def until(http, tid: str, done, timeout: float = 15) -> dict:
    end = time.monotonic() + timeout
    while not done(table := (await http.get(f"/api/tables/{tid}")).json()):
        assert time.monotonic() < end, table
        await asyncio.sleep(0.05)
    return table


async def audit_ok(srv) -> None:
    report = await money.audit(srv.live.db)
    assert report["ok"], report


# --- O-5 the start countdown -----------------------------------------------------------------
async def test_o5_two_friends_wait_for_the_countdown_and_may_fill_the_table_with_bots(
    live_server,
):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        a, b, c = await players(http, 3)
        tid = (await made(http, a, **GAPLE4, start_seconds=30))["id"]
        assert (await sit(http, a, tid, 0)).json()["clock"] is None
        before = time.time() * 1000
        second = (await sit(http, b, tid, 1)).json()
        assert second["status"] == "waiting" and second["match_no"] == 0  # not dealt to two
        assert second["clock"]["kind"] == "start" and second["start_seconds"] == 30
        assert before + 29_000 <= second["clock"]["at"] <= time.time() * 1000 + 30_000
        await asyncio.sleep(0.05)
        third = (await sit(http, c, tid, 2)).json()  # a sit starts the countdown again
        assert third["status"] == "waiting" and third["clock"]["at"] > second["clock"]["at"]
        r = await http.post(f"/api/tables/{tid}/bots", headers=a)
        table = r.json()
        assert table["status"] == "playing" and table["players"] == [0, 1, 2, 3]  # full: at once
    await audit_ok(srv)


async def test_o5_a_full_table_deals_at_once(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        a, b = await players(http, 2)
        tid = (await made(http, a, game="gaple", seats=2, start_seconds=30))["id"]
        await sit(http, a, tid, 0)
        table = (await sit(http, b, tid, 1)).json()
        assert table["status"] == "playing" and table["match_no"] == 1


async def test_o5_the_countdown_is_a_clock_another_process_fires(live_server):
    """The countdown is a deadline in Redis: the process that took the sits stops, the other
    one deals when it runs out."""
    first = await live_server()
    second = await live_server()
    async with httpx.AsyncClient(base_url=first.url) as http:
        a, b = await players(http, 2)
        tid = (await made(http, a, **GAPLE4, start_seconds=2))["id"]
        await sit(http, a, tid, 0)
        assert (await sit(http, b, tid, 1)).json()["clock"]["kind"] == "start"
    await first.stop()
    async with httpx.AsyncClient(base_url=second.url) as http:
        table = await until(http, tid, lambda t: t["status"] == "playing")
    assert table["players"] == [0, 1] and table["match_no"] == 1


async def test_o5_start_seconds_is_validated_like_the_other_options(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        (a,) = await players(http, 1)
        for body, field in (
            ({**GAPLE4, "start_seconds": 61}, ["body", "start_seconds"]),
            ({**GAPLE4, "start_seconds": -1}, ["body", "start_seconds"]),
            ({**GAPLE4, "options": {"start_seconds": 5.5}}, ["body", "options", "start_seconds"]),
            ({"game": "cross", "seats": 2, "start_seconds": 5}, ["body", "start_seconds"]),
        ):
            r = await http.post("/api/tables", headers=a, json=body)
            assert r.status_code == 422, r.text
            assert (r.json()["code"], r.json()["field"]) == ("bad_options", field)
        assert await listed(http) == []
        table = await made(http, a, **GAPLE4, options={"start_seconds": 0})
        assert table["start_seconds"] == 0 and "start_seconds" not in table["options"]
        assert (await made(http, a, **GAPLE4))["start_seconds"] == srv.settings.start_seconds


# --- the buy-in ------------------------------------------------------------------------------
async def test_a_sit_names_its_buy_in_within_the_stakes_bounds_and_the_wallet(live_server):
    srv = await live_server()  # 1,000 chips a guest; 10 to 100 stakes a buy-in
    async with httpx.AsyncClient(base_url=srv.url) as http:
        (a,) = await players(http, 1)
        tid = (await made(http, a, **GAPLE4, options={"stake": 5}))["id"]
        for amount, status, code in (
            (49, 422, "buy_in_too_low"),
            (501, 422, "buy_in_too_high"),
            (0, 422, "buy_in_too_low"),
        ):
            r = await sit(http, a, tid, 0, buy_in=amount)
            assert (r.status_code, r.json()["code"]) == (status, code), r.text
            assert r.json()["field"] == ["body", "buy_in"]
        big = (await made(http, a, **GAPLE4, options={"stake": 50}))["id"]
        r = await sit(http, a, big, 0, buy_in=1500)  # the table allows it, the wallet cannot
        assert (r.status_code, r.json()["code"]) == (409, "insufficient_chips")
        assert r.json()["detail"] == "you have 1000 chips in your wallet; the buy-in is 1500"
        assert await balance(http, a) == 1000  # nothing moved
        assert all(s["name"] is None for t in await listed(http) for s in t["seats"])
        r = await sit(http, a, tid, 0, buy_in=320)
        assert r.status_code == 200 and r.json()["seats"][0]["stack"] == 320
        assert await balance(http, a) == 680
        r = await sit(http, a, big, 0)  # no amount: the most allowed, capped by the wallet
        assert r.status_code == 200 and r.json()["seats"][0]["stack"] == 680
        assert await balance(http, a) == 0
    await audit_ok(srv)


async def test_a_high_stake_table_is_made_with_its_creator_seated_or_not_at_all(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        (poor,) = await players(http, 1)
        r = await http.post(
            "/api/tables", headers=poor, json={**GAPLE4, "options": {"stake": 20000}, "sit": {}}
        )
        assert (r.status_code, r.json()["code"]) == (409, "insufficient_chips"), r.text
        r = await http.post(
            "/api/tables",
            headers=poor,
            json={**GAPLE4, "options": {"stake": 20000}, "sit": {"buy_in": 1000}},
        )
        assert (r.status_code, r.json()["code"]) == (422, "buy_in_too_low")
        assert await listed(http) == [] and await balance(http, poor) == 1000

        rich = await live_server(starting_balance=500_000)
        async with httpx.AsyncClient(base_url=rich.url) as http2:
            (me,) = await players(http2, 1)
            table = await made(http2, me, **GAPLE4, options={"stake": 20000}, sit={})
            assert table["seats"][0]["stack"] == 500_000  # the wallet caps the default
            assert await balance(http2, me) == 0
            r = await http2.post(f"/api/tables/{table['id']}/bots", headers=me)
            played = r.json()
            assert played["status"] == "playing" and len(played["players"]) == 4
            assert [s["stack"] for s in played["seats"][1:]] == [2_000_000] * 3  # 100 stakes
    await audit_ok(srv)


async def test_a_creators_sit_refused_after_the_table_was_made_takes_it_away(live_server):
    """The wallet empties between the up-front check and the sit (another tab): the new table
    is closed at once, never left in the lobby without its creator."""
    srv = await live_server()
    tables = srv.live.tables
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, auth = await register(http, "Dua Tab")
        player = (await srv.live.sessions.authenticate(token)).player
        other = (await made(http, auth, **GAPLE4))["id"]
        sit_first = tables.sit

        async def emptied_meanwhile(who, tid, n, buy_in):
            tables.sit = sit_first
            assert (await sit(http, auth, other, 0, buy_in=1000)).status_code == 200
            return await sit_first(who, tid, n, buy_in)

        tables.sit = emptied_meanwhile
        try:
            await tables.create("gaple", 4, {}, None, creator=player)
        except Exception as e:  # noqa: BLE001 - the refusal is what is checked
            assert getattr(e, "code", None) == "insufficient_chips"
        else:
            raise AssertionError("the sit should have been refused")
        finally:
            tables.sit = sit_first
        assert [t["id"] for t in await listed(http)] == [other]
    await audit_ok(srv)
