"""Idle seats and closing: an idle player's seat is freed and a table nobody sits at closes; the
chips go back (stack -> wallet, bots' stakes -> house) exactly once, however many instances
sweep."""

from __future__ import annotations

import asyncio
import time

import httpx
import orjson

from app.games.registry import get_ruleset
from app.services.table import doc as D
from app.store.keys import bucket_of
from tests.ws.client import SeatClient, register, sit_at_new_chips_table

ADMIN = "admin-secret"
AUTH = {"Authorization": f"Bearer {ADMIN}"}


async def events_of(srv, tid: str) -> list[dict]:
    rows = await srv.live.redis.xrange(srv.live.keys.events(tid))
    return [e for _, fields in rows for e in orjson.loads(fields[b"e"])]


async def until(pred, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not await pred():
            await asyncio.sleep(0.02)


async def drained(*servers) -> None:
    async def empty():
        return not any([await s.live.outbox.backlog() for s in servers])

    await until(empty)


async def test_an_idle_player_is_removed_once_and_gets_the_stack_back(live_server):
    fast = {
        "idle_seat_seconds": 2.5,  # room for a loaded machine before the first sweep
        "sweep_interval": 3600,
        "admin_token": ADMIN,
        "starting_balance": 2000,
    }  # the test sweeps by hand, both instances at once
    one = await live_server(**fast)
    two = await live_server(**fast)
    async with httpx.AsyncClient(base_url=one.url) as http:
        _, me = await register(http, "Idle Iwan")
        table = (
            await http.post(
                "/api/tables",
                headers=me,
                json={"game": "gaple", "seats": 2, "options": {"stake": 10}},
            )
        ).json()
        tid = table["id"]
        t0 = time.monotonic()
        r = await http.post(f"/api/tables/{tid}/seats/0", headers=me, json={"buy_in": 300})
        assert r.status_code == 200 and r.json()["status"] == "waiting"
        wallet = (await http.get("/api/players/me/wallet", headers=me)).json()
        assert wallet["balance"] == 1700
        await asyncio.sleep(0.2)
        assert sum(await _sweep_both(one, two)) == 0  # not before the limit
        assert not await _seat_free(one, tid, 0)
        freed = 0
        async with asyncio.timeout(10):  # due 2.5 s after the seat's own `seen` (a loaded
            while not await _seat_free(one, tid, 0):  # machine answers the sit late)
                await asyncio.sleep(0.05)
                freed += sum(await _sweep_both(one, two))
        assert time.monotonic() - t0 >= 2.5
        assert freed == 1  # claims and version checks: once
        assert sum(await _sweep_both(one, two)) == 0
        await drained(one, two)
        wallet = (await http.get("/api/players/me/wallet", headers=me)).json()
        assert wallet["balance"] == 2000 and wallet["at_tables"] == {}
        assert _kinds(wallet).count("cash_out") == 1
        events = await events_of(one, tid)
        assert [e["type"] for e in events].count("removed") == 1
        assert [e for e in events if e["type"] == "left"] == [{"type": "left", "table_seat": 0}]
        audit = (await http.get("/api/admin/audit", headers=AUTH)).json()
        assert audit["ok"] and audit["granted"] == 2000 + audit["stacks_in_play"], audit


async def _sweep_both(one, two) -> list:
    """Both instances' sweepers, plus both running the table's clock without a claim (so
    only the compare-and-set's version check stands between them)."""
    runs = [s.live.sweeper.sweep() for s in (one, two, one, two)]
    tids = await one.live.store.live_tables()
    runs += [s.live.tables.run_clock(t, claimed=True) for t in tids for s in (one, two)]
    return [int(r) for r in await asyncio.gather(*runs)]


def _kinds(wallet: dict) -> list[str]:
    return [r["kind"] for r in wallet["recent"] if r["account"] == "wallet"]


async def _seat_free(srv, tid: str, n: int) -> bool:
    return (await srv.live.store.load(tid)).doc["seats"][n] is None


async def test_a_table_left_by_its_last_human_closes_and_returns_the_bots_stakes(live_server):
    srv = await live_server(
        empty_table_seconds=0.3,
        admin_token=ADMIN,
        starting_balance=2000,
        sweep_interval=0.01,
        seeds=lambda t, m: 77,
    )
    async with httpx.AsyncClient(base_url=srv.url) as http:
        token, me = await register(http, "Last Lina")
        tid = await sit_at_new_chips_table(http, me, seats=3)
        r = await http.post(f"/api/tables/{tid}/bots", headers=me)
        assert r.json()["status"] == "playing"
        sock = await SeatClient(srv.ws_url, tid, token).connect()
        assert (await http.delete(f"/api/tables/{tid}/seats/0", headers=me)).status_code == 200
        # the bot plays the round out, the seat is freed, then nobody is there: it closes
        await until(lambda: _status(srv, tid, "closed"))
        listed = (await http.get("/api/tables")).json()
        assert tid not in [t["id"] for t in listed["items"]]
        final = await http.get(f"/api/tables/{tid}")  # its final state stays readable
        assert final.status_code == 200 and final.json()["status"] == "closed", final.text
        assert await srv.live.redis.zscore(srv.live.keys.live(bucket_of(tid)), tid) is None
        events = [e["type"] for e in await events_of(srv, tid)]
        assert events.count("table_closed") == 1 and events.count("left") == 3
        # a closed table refuses everything with a clear code
        r = await http.post(f"/api/tables/{tid}/seats/1", headers=me, json={"buy_in": 300})
        assert r.status_code == 409 and r.json()["code"] == "table_closed", r.text
        await sock.send({"type": "act", "cmd": "late", "v": 1, "action": {"type": "pass"}})
        err = await sock.until(lambda m: m["type"] == "error")
        assert err["code"] == "table_closed"
        await sock.close()
        # every chip went back: the player's stack to the wallet, the bots' to the house
        await drained(srv)
        wallet = (await http.get("/api/players/me/wallet", headers=me)).json()
        assert wallet["at_tables"] == {} and _kinds(wallet).count("cash_out") == 1
        audit = (await http.get("/api/admin/audit", headers=AUTH)).json()
        assert audit["ok"] and audit["stacks_in_play"] == 0, audit
        assert audit["granted"] == audit["wallets"], audit  # the house's net: grant +/- bots
    keys = srv.live.keys
    assert 0 < await srv.live.redis.ttl(keys.table(tid)) <= srv.settings.closed_table_ttl
    assert await srv.live.redis.zscore(keys.clocks(bucket_of(tid)), tid) is None
    srv.live.outbox.last_scan = 0  # the next discovery pass drops the drained, closed stream
    await srv.live.outbox.discover()
    assert not await srv.live.redis.exists(keys.outbox(tid))


async def _status(srv, tid: str, status: str) -> bool:
    return (await srv.live.store.load(tid)).doc["status"] == status


# --- the pure transitions ----------------------------------------------------------------------
def _doc(**seats) -> dict:
    doc = D.new_doc(get_ruleset("gaple"), "t", 3, {"stake": 10, "stacks": []}, 20, created_ms=0)
    for n, seat in seats.items():
        doc["seats"][int(n[1:])] = seat
    D.note_empty(doc, 0)
    return doc


def test_idle_deadline_counts_only_seats_not_in_the_match():
    human = D.make_seat(1, "A", bot=False, stack=100, sit=1, seen=1_000)
    bot = D.make_seat("bot:1", "B", bot=True, stack=100, sit=1)
    doc = _doc(s0=human, s1=bot)
    assert D.chores_at(doc, idle_ms=500, empty_ms=9_000) == 1_500
    doc.update(status="playing", players=[0, 1])
    assert D.chores_at(doc, idle_ms=500, empty_ms=9_000) is None  # O-3 governs players
    ch = D.begin(dict(doc, status="over"))
    assert D.chores(ch, 1_499, idle_ms=500, empty_ms=9_000) is False
    assert D.chores(ch, 1_500, idle_ms=500, empty_ms=9_000) is True
    assert ch.doc["seats"] == [None, None, None]  # the last human out takes the bots along
    assert [n for n, _ in ch.vacated] == [0, 1] and ch.doc["empty_since"] == 1_500
    assert D.chores_at(ch.doc, idle_ms=500, empty_ms=9_000) == 10_500


def test_an_empty_table_closes_after_the_limit_but_never_mid_match():
    bot = D.make_seat("bot:0", "B", bot=True, stack=100, sit=1)
    doc = _doc(s0=bot)
    doc["empty_since"] = 2_000
    assert D.chores_at(doc, idle_ms=1, empty_ms=1_000) == 3_000
    ch = D.begin(doc)
    assert D.chores(ch, 3_000, idle_ms=1, empty_ms=1_000)
    assert ch.doc["status"] == "closed" and ch.vacated[0][1]["stack"] == 100
    assert D.chores_at(ch.doc, idle_ms=1, empty_ms=1_000) is None
    assert D.chores_at(dict(doc, status="playing"), idle_ms=1, empty_ms=1_000) is None


def test_o3_an_away_player_is_freed_when_the_round_ends():
    away = dict(D.make_seat(1, "A", bot=False, stack=100, sit=1), away=True)
    doc = _doc(s0=away, s1=D.make_seat(2, "B", bot=False, stack=100, sit=1))
    from app.games.gaple import RULESET

    doc["players"], doc["status"] = [0, 1], "playing"
    ch = D.begin(doc)
    ch.state = RULESET.new_state({"stake": 10, "stacks": [100, 100]}, 2, 5)
    D.forced(ch, RULESET, 2)
    while ch.doc["status"] == "playing":
        gseat = RULESET.to_act(ch.state)
        raw = D.bot_action("gaple", RULESET.view(ch.state, gseat), 5, len(ch.log))
        D.play(ch, RULESET, gseat, RULESET.parse_action(raw), "bot", 2)
    assert ch.doc["seats"][0] is None and ch.doc["seats"][1] is not None
    assert [n for n, _ in ch.vacated] == [0]


async def test_a_table_nobody_ever_sat_at_closes(live_server):
    srv = await live_server(empty_table_seconds=0.2, sweep_interval=0.01)
    made = await srv.live.tables.create("moon", 4, {}, None)
    assert (
        await srv.live.redis.zscore(srv.live.keys.clocks(bucket_of(made["id"])), made["id"])
        is not None
    )
    await until(lambda: _status(srv, made["id"], "closed"))
    assert (await srv.live.tables.list_tables(game=None, stake=None, page=1, per_page=20))[
        "total"
    ] == 0
