"""The chips routes over real HTTP (docs/players.md "Free chips"): the status, the claims, their
refusals, and twenty claims at once through two replicas on one Postgres and one Redis."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx

from app.services import chip_claims as C
from app.services import money
from tests.ws.client import register


async def test_a_new_guest_gets_the_small_grant_and_sees_the_daily_bonus_open(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Nia")
        r = await http.get("/api/players/me/chips", headers=auth)
        assert r.status_code == 200
        chips = r.json()
        assert (chips["balance"], chips["chips_at_tables"]) == (1000, 0)
        assert chips["day"] == C.jakarta_day(datetime.now(UTC)).isoformat()
        assert chips["daily"] == {"claimable": True, "streak": 1, "amount": 1000, "next_at": None}
        assert chips["refill"] == {
            "claimable": False,
            "bust": False,
            "amount": 1000,
            "used": 0,
            "per_day": 3,
            "below": 10,
            "next_at": None,
        }


async def test_claiming_the_daily_bonus_and_the_409_of_a_second_claim(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Oka")
        r = await http.post("/api/players/me/daily", headers=auth)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["claim"]["kind"] == "daily" and body["claim"]["amount"] == 1000
        assert body["claim"]["balance"] == body["chips"]["balance"] == 2000
        assert body["chips"]["daily"]["claimable"] is False
        next_at = C.next_day_starts(datetime.now(UTC))
        assert datetime.fromisoformat(body["chips"]["daily"]["next_at"]) == next_at

        again = await http.post("/api/players/me/daily", headers=auth)
        assert again.status_code == 409
        assert again.json()["code"] == "already_claimed"
        assert datetime.fromisoformat(again.json()["next_at"]) == next_at
        wait = int(again.headers["retry-after"])
        assert 0 < wait <= 24 * 3600
        wallet = (await http.get("/api/players/me/wallet", headers=auth)).json()
        assert wallet["balance"] == 2000


async def test_a_refill_is_refused_with_not_bust_and_a_stranger_with_401(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Putu")
        r = await http.post("/api/players/me/refill", headers=auth)
        assert r.status_code == 409
        assert r.json()["code"] == "not_bust" and "retry-after" not in r.headers
        assert (await http.get("/api/players/me/wallet", headers=auth)).json()["balance"] == 1000
    async with httpx.AsyncClient(base_url=srv.url) as stranger:  # no token, no cookie
        assert (await stranger.post("/api/players/me/daily")).status_code == 401
        assert (await stranger.get("/api/players/me/chips")).status_code == 401


async def test_a_bust_guest_claims_a_refill_over_http(live_server):
    srv = await live_server(starting_balance=0, refills_per_day=1)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Rani")
        assert (await http.get("/api/players/me/chips", headers=auth)).json()["refill"]["bust"]
        r = await http.post("/api/players/me/refill", headers=auth)
        assert r.status_code == 200, r.text
        assert (r.json()["claim"]["seq"], r.json()["chips"]["balance"]) == (1, 1000)
        assert r.json()["chips"]["refill"]["bust"] is False
        refused = await http.post("/api/players/me/refill", headers=auth)
        assert refused.status_code == 409 and refused.json()["code"] == "not_bust"


async def test_twenty_concurrent_requests_through_two_replicas_grant_once(live_server):
    one = await live_server()
    two = await live_server()
    async with (
        httpx.AsyncClient(base_url=one.url) as a,
        httpx.AsyncClient(base_url=two.url) as b,
    ):
        token, auth = await register(a, "Sinta")
        pid = (await one.live.sessions.authenticate(token)).player["id"]
        answers = await asyncio.gather(
            *((a if i % 2 else b).post("/api/players/me/daily", headers=auth) for i in range(20))
        )
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * 19, [r.text for r in answers if r.status_code not in (200, 409)]
    assert {r.json()["code"] for r in answers if r.status_code == 409} == {"already_claimed"}
    assert (await money.wallet(one.live.db, pid)).balance == 2000
    report = await money.audit(one.live.db)
    assert report["ok"] and report["granted"] == 2000
