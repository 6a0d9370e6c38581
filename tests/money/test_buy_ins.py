"""Pending buy-ins (docs/design.md "Money"): a wallet's debit for a seat ends seated or refunded,
exactly once, whatever dies when. Real Postgres (or SQLite) and a redis-server of the test's own,
whose writes are paused (``CLIENT PAUSE ... WRITE``) between the debit and the seat; the crash is
a real server process killed with SIGKILL there.
"""

from __future__ import annotations

import asyncio
import os
import signal
import uuid
from datetime import UTC, datetime, timedelta

import httpx
import orjson
import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy import select

from app.db.models import BuyIn, LedgerTxn
from app.db.session import make_sessionmaker
from app.services import money
from app.services.table import doc as D
from tests.db import fixtures
from tests.ops.test_scale_out import Server
from tests.ws.client import register

START = 1_000  # the guest grant (the default of MEJA_STARTING_BALANCE)
# These tests hold a sit between its debit and its seat by pausing Redis writes; the sit's rate
# limit check (a Redis write, before the debit) would be held instead, so it is off here.
NO_SIT_LIMITS = {"limit_sit_player": "", "limit_sit_address": ""}


@pytest.fixture
async def database(tmp_path):
    url, engine, cleanup = await fixtures.new_database(tmp_path)
    yield url, make_sessionmaker(engine)
    await cleanup()


async def wallet_of(sessions, player_id: int) -> int:
    return (await money.wallet(sessions, player_id)).balance


async def pending_rows(sessions) -> list[BuyIn]:
    return await money.pending_buy_ins(sessions, older_than=datetime.now(UTC) + timedelta(1))


async def status_of(sessions, key: str) -> str:
    async with sessions() as session:
        return (await session.execute(select(BuyIn.status).where(BuyIn.key == key))).scalar_one()


async def refunds(sessions) -> int:
    async with sessions() as session:
        rows = await session.execute(select(LedgerTxn.key).where(LedgerTxn.key.like("refund:%")))
        return len(rows.all())


async def new_table(http, headers) -> str:
    r = await http.post(
        "/api/tables", headers=headers, json={"game": "gaple", "seats": 4, "options": {"stake": 10}}
    )
    assert r.status_code == 201, r.text
    return r.json()["id"]


async def player_at_new_table(http, name: str) -> tuple[dict, dict, str]:
    """A new player (auth headers, the player) and a new Gaple table at stake 10."""
    _, auth = await register(http, name)
    me = (await http.get("/api/players/me", headers=auth)).json()
    return auth, me, await new_table(http, auth)


async def until_pending(sessions, timeout: float = 10) -> BuyIn:
    async with asyncio.timeout(timeout):
        while not (rows := await pending_rows(sessions)):
            await asyncio.sleep(0.05)
    [row] = rows
    return row


async def test_a_buy_in_left_pending_is_refunded_once_and_never_seats(
    live_server, database, spare_redis
):
    """A process died after the debit: the reconciler voids it at the table and refunds it;
    running again changes nothing."""
    url, sessions = database
    srv = await live_server(
        database_url=url,
        redis_url=spare_redis,
        buy_in_timeout_seconds=0,
        buy_in_check_seconds=3600,
        **NO_SIT_LIMITS,
    )
    async with httpx.AsyncClient(base_url=srv.url) as http:
        auth, me, tid = await player_at_new_table(http, "Sari")
    key = f"{money.buy_in_key(tid, 1, 2)}:dead"
    await money.buy_in(sessions, me["id"], tid, 1, 500, key=key)  # what the dying sit did
    assert await wallet_of(sessions, me["id"]) == START - 500

    assert await srv.live.buy_ins.run_once() == 1
    assert await wallet_of(sessions, me["id"]) == START
    assert await status_of(sessions, key) == "refunded"
    snap = await srv.live.store.load(tid)
    assert D.buy_in_outcome(snap.doc, key) == "void" and snap.doc["seats"][1] is None
    assert await srv.live.buy_ins.run_once() == 0  # exactly once
    assert await wallet_of(sessions, me["id"]) == START and await refunds(sessions) == 1
    assert (await money.audit(sessions))["ok"]


async def test_a_sit_in_flight_while_reconciled_is_seated_or_refunded_never_both(
    live_server, database, spare_redis
):
    """The reconciler runs while the sit's compare-and-set waits on paused Redis writes: the
    table orders the two, so the buy-in is either the seat's stack or back in the wallet."""
    url, sessions = database
    srv = await live_server(
        database_url=url,
        redis_url=spare_redis,
        buy_in_timeout_seconds=0,
        buy_in_check_seconds=3600,
        **NO_SIT_LIMITS,
    )
    admin = Redis.from_url(spare_redis)
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        auth, me, tid = await player_at_new_table(http, "Budi")
        await admin.execute_command("CLIENT", "PAUSE", 1500, "WRITE")
        sit = asyncio.create_task(
            http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={"buy_in": 500})
        )
        row = await until_pending(sessions)
        reconcile = asyncio.create_task(srv.live.buy_ins.run_once())
        reply = await sit
        await reconcile
    await admin.aclose()
    doc = (await srv.live.store.load(tid)).doc
    if reply.status_code == 200:
        assert doc["seats"][0]["stack"] == 500 and doc["seats"][0]["buy_in"] == row.key
        assert await status_of(sessions, row.key) == "seated"
        assert await wallet_of(sessions, me["id"]) == START - 500 and not await refunds(sessions)
    else:
        assert reply.json()["code"] == "buy_in_expired", reply.text
        assert doc["seats"][0] is None and await status_of(sessions, row.key) == "refunded"
        assert await wallet_of(sessions, me["id"]) == START and await refunds(sessions) == 1
    assert (await money.audit(sessions))["ok"]


async def reconciled(srv) -> int:
    """One reconciler pass, as its loop runs them: a pooled connection the cut left stale fails
    once and the pass is tried again."""
    for _ in range(5):
        try:
            return await srv.live.buy_ins.run_once()
        except RedisConnectionError:
            await asyncio.sleep(0.1)
    raise AssertionError("the reconciler never reached Redis again")


async def test_redis_cut_mid_sit_answers_503_and_the_buy_in_comes_back(
    live_server, database, spare_redis
):
    url, sessions = database
    srv = await live_server(
        database_url=url,
        redis_url=spare_redis,
        buy_in_timeout_seconds=0,
        buy_in_check_seconds=3600,
        **NO_SIT_LIMITS,
    )
    admin = Redis.from_url(spare_redis)
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        auth, me, tid = await player_at_new_table(http, "Wati")
        await admin.execute_command("CLIENT", "PAUSE", 3000, "WRITE")
        sit = asyncio.create_task(
            http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={"buy_in": 500})
        )
        row = await until_pending(sessions)
        await admin.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
        await admin.execute_command("CLIENT", "UNPAUSE")
        reply = await sit
    assert reply.status_code == 503 and reply.json()["code"] == "redis_unavailable", reply.text
    assert await reconciled(srv) == 1
    doc = orjson.loads(await admin.hget(srv.live.keys.table(tid), "doc"))
    assert doc["seats"][0] is None  # the cut write never ran
    assert await status_of(sessions, row.key) == "refunded"
    assert await wallet_of(sessions, me["id"]) == START
    assert (await money.audit(sessions))["ok"]
    await admin.aclose()


async def test_sigkill_between_the_debit_and_the_seat_loses_no_chips(
    tmp_path, database, spare_redis
):
    """A real server process is killed (SIGKILL) while its sit waits on paused Redis writes,
    after the wallet was debited; another process gives the buy-in back (or finds it seated)."""
    url, sessions = database
    env = {
        **os.environ,
        "REDIS_URL": spare_redis,
        "DATABASE_URL": url,
        "MEJA_KEY_PREFIX": f"kill:{uuid.uuid4().hex[:6]}:",
        "MEJA_DATA_DIR": str(tmp_path),
        "MEJA_SECRET_KEY": "buy-in-kill-" + uuid.uuid4().hex,
        "MEJA_ALLOWED_ORIGINS": "[]",
        "MEJA_BUY_IN_TIMEOUT_SECONDS": "1",
        "MEJA_BUY_IN_CHECK_SECONDS": "0.5",
        **{f"MEJA_{name.upper()}": value for name, value in NO_SIT_LIMITS.items()},
    }
    first = Server("first", env, tmp_path).start()
    second = None
    admin = Redis.from_url(spare_redis)
    try:
        await first.ready()
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            auth, me, tid = await player_at_new_table(http, "Joko")
            await admin.execute_command("CLIENT", "PAUSE", 20_000, "WRITE")
            sit = asyncio.create_task(
                http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={"buy_in": 700})
            )
            row = await until_pending(sessions)
            first.proc.send_signal(signal.SIGKILL)
            first.proc.wait(10)
            with pytest.raises(httpx.HTTPError):
                await sit
        await admin.execute_command("CLIENT", "UNPAUSE")
        assert await wallet_of(sessions, me["id"]) == START - 700  # debited, then the crash

        second = Server("second", env, tmp_path).start()
        await second.ready()
        async with asyncio.timeout(30):
            while await status_of(sessions, row.key) == "pending":
                await asyncio.sleep(0.2)
        # the killed client's paused command is never run, so no seat: the chips come back
        assert await status_of(sessions, row.key) == "refunded"
        assert await wallet_of(sessions, me["id"]) == START and await refunds(sessions) == 1
        assert (await money.audit(sessions))["ok"]
    finally:
        await admin.aclose()
        first.stop()
        if second is not None:
            second.stop()
