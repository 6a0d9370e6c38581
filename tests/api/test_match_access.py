"""Who may read what of a private table, on a real server: its matches are its players' and the
operators' only, match ids in URLs are random (no walking them), and no anonymous route tells
its join code."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import select

from app.db.models import Match
from tests.api.test_admin import operator, until
from tests.played import entry
from tests.stats.records import write
from tests.ws.client import SeatClient, match_over, register

OPTIONS = {"stake": 10, "field": "normal", "opener": "random", "stacks": [500, 500, 500]}


@pytest.fixture
async def srv(live_server):
    return await live_server()


async def test_a_private_tables_match_is_read_by_its_players_and_operators_only(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, mine = await register(http, "Sari")
        _, other = await register(http, "Tono")
        http.cookies.clear()  # a new account, not the last guest saved as one
        ops = await operator(srv, http)
        r = await http.post(
            "/api/tables",
            headers=mine,
            json={
                "game": "gaple",
                "seats": 2,
                "options": {"stake": 10},
                "private": True,
                "sit": {},
            },
        )
        tid = r.json()["id"]
        me = await SeatClient(srv.ws_url, tid, token).connect()
        await http.post(f"/api/tables/{tid}/bots", headers=mine)
        await me.play(match_over(1), 60)
        await me.close()

        async def listed():
            items = (await http.get("/api/players/me/matches", headers=mine)).json()["items"]
            return items and items[0]

        line = await until(listed)
        mid = line["id"]
        async with srv.live.db() as session:
            # (the table may have dealt and finished a further round since: the one listed)
            row = (await session.execute(select(Match).where(Match.public_id == mid))).scalar_one()
        assert row.private and row.table_id == tid and not mid.isdigit()

        for who in (mine, ops):
            r = await http.get(f"/api/matches/{mid}", headers=who)
            assert r.status_code == 200 and r.json()["id"] == mid, r.text
            assert (await http.get(f"/api/matches/{mid}/replay", headers=who)).status_code == 200
        http.cookies.clear()
        for who in ({}, other):
            for path in (f"/api/matches/{mid}", f"/api/matches/{row.id}"):
                r = await http.get(path, headers=who)
                assert (r.status_code, r.json().get("code")) == (404, "no_such_match"), r.text
                assert tid not in r.text
        r = await http.get(f"/api/matches/{mid}/replay", headers=other)
        assert (r.status_code, r.json()["code"]) == (404, "no_such_match")


async def test_a_public_tables_match_is_anyones_by_its_random_id_only(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, mine = await register(http, "Sari")
        me = (await http.get("/api/players/me", headers=mine)).json()["id"]
        for seed in (1, 2):
            record, _, _ = entry("gaple", [me, "bot:1", "bot:2"], OPTIONS, seed)
            await write(srv.live.db, record)
        items = (await http.get("/api/players/me/matches", headers=mine)).json()["items"]
        http.cookies.clear()
        async with srv.live.db() as session:
            rows = (await session.execute(select(Match))).scalars().all()
        assert {m["id"] for m in items} == {r.public_id for r in rows}
        for row in rows:
            assert (await http.get(f"/api/matches/{row.public_id}")).status_code == 200
            r = await http.get(f"/api/matches/{row.id}")  # the row's sequential id names nothing
            assert (r.status_code, r.json()["code"]) == (404, "no_such_match")


async def test_no_anonymous_route_tells_a_private_tables_code(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, host = await register(http, "Sari")
        _, other = await register(http, "Tono")
        r = await http.post(
            "/api/tables",
            headers=host,
            json={"game": "cross", "seats": 3, "private": True, "sit": {}},
        )
        tid, code = r.json()["id"], r.json()["code"]
        assert code and len(tid) >= 16  # 96 random bits: the address cannot be guessed
        assert (await http.get(f"/api/tables/{tid}", headers=host)).json()["code"] == code
        http.cookies.clear()
        for who in ({}, other):  # anonymous, and signed in but not seated
            table = (await http.get(f"/api/tables/{tid}", headers=who)).json()
            assert table["private"] and table["code"] is None
        assert code not in (await http.get("/api/tables")).text
        watcher = await SeatClient(srv.ws_url, tid, None).connect()
        seated = await SeatClient(srv.ws_url, tid, token).connect()
        state = await watcher.until(lambda m: m["type"] == "state")
        assert state["table"]["code"] is None and code not in str(watcher.messages)
        state = await seated.until(lambda m: m["type"] == "state")
        assert state["table"]["code"] == code
        await http.post(f"/api/tables/{tid}/bots", headers=host)  # a state pushed to both
        await asyncio.gather(*(c.until(lambda m: m["type"] == "state") for c in (watcher, seated)))
        assert code not in str(watcher.messages)
        await watcher.close()
        await seated.close()
