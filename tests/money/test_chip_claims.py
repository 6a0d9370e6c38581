"""The daily bonus and the bust refill (docs/players.md "Free chips") on a real app: Postgres (or
SQLite) and Redis. The clock is the ``now`` each claim is given, so days pass without sleeping."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta

import httpx
import pytest
from sqlalchemy import select

from app.db import ledger
from app.db.models import ChipClaim, LedgerTxn
from app.services import chip_claims as C
from app.services import money
from tests.ws.client import register

# 10:00 in Jakarta (03:00 UTC) on a Tuesday
MORNING = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
DAY = timedelta(days=1)


async def guest(srv, http, name: str = "Sari") -> tuple[int, dict]:
    token, auth = await register(http, name)
    return (await srv.live.sessions.authenticate(token)).player["id"], auth


async def lose(srv, pid: int, amount: int, key: str) -> None:
    """The player's wallet pays ``amount`` to the house: chips gone as if lost at play, written
    as one balanced ledger transaction."""
    async with srv.live.db.begin() as session:
        legs = [
            ledger.Leg(ledger.wallet_account(pid), pid, -amount),
            ledger.Leg("house", None, amount),
        ]
        await ledger.post(session, key, "settlement", legs)


async def claims_of(srv, pid: int) -> list[tuple[str, date, int, int, int]]:
    async with srv.live.db() as session:
        rows = await session.execute(
            select(ChipClaim.kind, ChipClaim.day, ChipClaim.seq, ChipClaim.streak, ChipClaim.amount)
            .where(ChipClaim.player_id == pid)
            .order_by(ChipClaim.day, ChipClaim.kind, ChipClaim.seq)
        )
        return [tuple(r) for r in rows]


async def audit_ok(srv) -> dict:
    report = await money.audit(srv.live.db)
    assert report["ok"], report
    return report


async def test_the_streak_grows_day_by_day_up_to_the_cap_and_a_missed_day_resets_it(live_server):
    srv = await live_server()
    claims = srv.live.claims
    async with httpx.AsyncClient(base_url=srv.url) as http:
        pid, _ = await guest(srv, http)
    amounts = [(await claims.claim_daily(pid, MORNING + i * DAY)).amount for i in range(8)]
    assert amounts == [1000, 1250, 1500, 1750, 2000, 2250, 2500, 2500]  # capped at daily_max
    status = await claims.status(pid, MORNING + 9 * DAY)  # day 9 missed, today is day 10
    assert (status.daily.claimable, status.daily.streak, status.daily.amount) == (True, 1, 1000)
    again = await claims.claim_daily(pid, MORNING + 9 * DAY)
    assert (again.streak, again.amount) == (1, 1000)
    assert again.balance == 1000 + sum(amounts) + 1000
    streaks = [s for kind, _, _, s, _ in await claims_of(srv, pid) if kind == "daily"]
    assert streaks == [1, 2, 3, 4, 5, 6, 7, 8, 1]
    assert (await audit_ok(srv))["granted"] == again.balance


async def test_a_second_claim_the_same_day_is_refused_and_changes_nothing(live_server):
    srv = await live_server()
    claims = srv.live.claims
    async with httpx.AsyncClient(base_url=srv.url) as http:
        pid, _ = await guest(srv, http)
    first = await claims.claim_daily(pid, MORNING)
    assert (first.amount, first.balance) == (1000, 2000)
    with pytest.raises(C.AlreadyClaimed) as refused:
        await claims.claim_daily(pid, MORNING + timedelta(hours=13, minutes=59))  # 23:59 WIB
    assert refused.value.next_at == datetime(2026, 12, 1, 17, 0, tzinfo=UTC)  # 00:00 WIB
    status = await claims.status(pid, MORNING + timedelta(hours=1))
    assert status.balance == 2000
    assert (status.daily.claimable, status.daily.streak, status.daily.amount) == (False, 1, 1000)
    assert status.daily.next_at == datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    assert len(await claims_of(srv, pid)) == 1


async def test_the_jakarta_day_turns_at_17_00_utc(live_server):
    srv = await live_server()
    claims = srv.live.claims
    async with httpx.AsyncClient(base_url=srv.url) as http:
        pid, _ = await guest(srv, http)
    late = datetime(2026, 12, 1, 16, 59, 59, tzinfo=UTC)  # 23:59:59 WIB on 1 December
    first = await claims.claim_daily(pid, late)
    assert first.day == date(2026, 12, 1)
    midnight = datetime(2026, 12, 1, 17, 0, 0, tzinfo=UTC)  # 00:00:00 WIB on 2 December
    second = await claims.claim_daily(pid, midnight)  # one second later: a new day
    assert (second.day, second.streak, second.amount) == (date(2026, 12, 2), 2, 1250)
    async with srv.live.db() as session:
        keys = await session.execute(select(LedgerTxn.key).where(LedgerTxn.kind == "daily"))
        assert sorted(keys.scalars()) == [f"daily:{pid}:2026-12-01", f"daily:{pid}:2026-12-02"]


async def test_twenty_concurrent_claims_in_twenty_sessions_grant_once(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        pid, _ = await guest(srv, http)

    async def one():
        try:
            return await srv.live.claims.claim_daily(pid, MORNING)
        except C.AlreadyClaimed:
            return None

    done = await asyncio.gather(*(one() for _ in range(20)))
    assert len([d for d in done if d is not None]) == 1
    assert (await money.wallet(srv.live.db, pid)).balance == 2000
    assert await claims_of(srv, pid) == [("daily", date(2026, 12, 1), 0, 1, 1000)]
    await audit_ok(srv)


async def test_a_refill_only_when_bust_and_only_so_often_a_day(live_server):
    srv = await live_server(refills_per_day=2, refill_amount=500)
    claims = srv.live.claims
    async with httpx.AsyncClient(base_url=srv.url) as http:
        pid, _ = await guest(srv, http)
    with pytest.raises(C.NotBust, match="fewer than 10 chips"):
        await claims.claim_refill(pid, MORNING)
    for n in (1, 2):
        await lose(srv, pid, 1000 if n == 1 else 500, f"lost:{n}")
        status = await claims.status(pid, MORNING)
        assert (status.balance, status.refill.bust, status.refill.claimable) == (0, True, True)
        got = await claims.claim_refill(pid, MORNING + n * timedelta(hours=1))
        assert (got.seq, got.amount, got.balance) == (n, 500, 500)
    await lose(srv, pid, 500, "lost:3")
    with pytest.raises(C.RefillsUsedUp) as used_up:
        await claims.claim_refill(pid, MORNING + 3 * timedelta(hours=1))
    assert used_up.value.next_at == datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    status = await claims.status(pid, MORNING)
    assert (status.refill.used, status.refill.claimable, status.balance) == (2, False, 0)
    tomorrow = await claims.claim_refill(pid, MORNING + DAY)  # a new day, a new count
    assert (tomorrow.day, tomorrow.seq) == (date(2026, 12, 2), 1)
    assert [(k, d.day, s) for k, d, s, _, _ in await claims_of(srv, pid)] == [
        ("refill", 1, 1),
        ("refill", 1, 2),
        ("refill", 2, 1),
    ]
    await audit_ok(srv)


async def test_chips_on_a_table_count_as_the_live_stack_says(live_server):
    """Seated: the stack in Redis, however far the ledger lags; left with the cash-out still in
    the outbox: the ledger's stack, on its way back to the wallet."""
    srv = await live_server(outbox_consumer=False)
    claims = srv.live.claims
    async with httpx.AsyncClient(base_url=srv.url) as http:
        pid, auth = await guest(srv, http)
        made = await http.post(
            "/api/tables",
            headers=auth,
            json={"game": "gaple", "seats": 2, "options": {"stake": 10}},
        )
        tid = made.json()["id"]
        assert (
            await http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={})
        ).status_code == 200
        status = await claims.status(pid, MORNING)
        assert (status.balance, status.chips_at_tables, status.refill.bust) == (0, 1000, False)
        assert status.chips_settling == 0  # seated: nothing on its way
        with pytest.raises(C.NotBust):
            await claims.claim_refill(pid, MORNING)

        def lost_it_all(snap, v_next):  # a loss the outbox has not written to the ledger yet
            ch = srv.live.writer.begin(snap)
            ch.doc["seats"][0]["stack"] = 0
            return ch

        await srv.live.writer.change(tid, lost_it_all)
        status = await claims.status(pid, MORNING)
        assert (status.chips_at_tables, status.refill.bust) == (0, True)
        assert (await money.wallet(srv.live.db, pid)).at_tables == {tid: 1000}  # the ledger lags

        def won_it_back(snap, v_next):
            ch = srv.live.writer.begin(snap)
            ch.doc["seats"][0]["stack"] = 1000
            return ch

        await srv.live.writer.change(tid, won_it_back)
        r = await http.delete(f"/api/tables/{tid}/seats/0", headers=auth)
        assert r.status_code == 200
        status = await claims.status(pid, MORNING)  # the cash-out waits in the outbox
        assert (status.balance, status.chips_at_tables, status.refill.bust) == (0, 1000, False)
        assert status.chips_settling == 1000  # a client asks again shortly
        await srv.live.outbox.run_once(block_ms=1)
        status = await claims.status(pid, MORNING)
        assert (status.balance, status.chips_at_tables, status.refill.bust) == (1000, 0, False)
        assert status.chips_settling == 0
    await audit_ok(srv)


async def test_a_seat_left_mid_round_is_settling_until_the_bot_has_played_it_out(live_server):
    """O-3: the bot finishes the round for a player who left; the stack comes back then, so a
    client is told to ask again (chips_settling) meanwhile."""
    srv = await live_server(outbox_consumer=False, bot_delay=60)  # the round stays in play
    claims = srv.live.claims
    async with httpx.AsyncClient(base_url=srv.url) as http:
        pid, auth = await guest(srv, http)
        r = await http.post(
            "/api/tables", headers=auth, json={"game": "gaple", "seats": 2, "sit": {}}
        )
        tid = r.json()["id"]
        r = await http.post(f"/api/tables/{tid}/bots", headers=auth)
        assert r.json()["status"] == "playing"
        status = await claims.status(pid, MORNING)
        assert (status.chips_at_tables, status.chips_settling) == (1000, 0)
        r = await http.delete(f"/api/tables/{tid}/seats/0", headers=auth)
        assert r.json()["seats"][0]["leaving"] is True
        stack = r.json()["seats"][0]["stack"]
        status = await claims.status(pid, MORNING)
        assert (status.balance, status.chips_at_tables, status.chips_settling) == (0, stack, stack)
