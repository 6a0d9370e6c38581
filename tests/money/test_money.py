"""Wallets, buy-ins and cash-outs against the real database (docs/design.md "Money")."""

from __future__ import annotations

import asyncio

import pytest

from app.db import reach
from app.services import money


async def test_new_guest_gets_the_starting_grant_from_the_house(sessions):
    p = await money.register_player(sessions, "Ayu", grant=5000)
    w = await money.wallet(sessions, p.id)
    assert w.balance == 5000
    assert [(r["kind"], r["amount"]) for r in w.recent] == [("grant", 5000)]
    report = await money.audit(sessions)
    assert report["ok"] and report["granted"] == 5000 and report["wallets"] == 5000


async def test_buy_in_moves_chips_to_the_stack_and_cash_out_returns_them(sessions):
    p = await money.register_player(sessions, "Budi", grant=1000)
    key = money.buy_in_key("T1", 2, 7)
    assert await money.buy_in(sessions, p.id, "T1", 2, 400, key=key) == 600
    assert await money.buy_in(sessions, p.id, "T1", 2, 400, key=key) == 600  # retried: no-op
    w = await money.wallet(sessions, p.id)
    assert (w.balance, w.at_tables) == (600, {"T1": 400})
    assert (await money.audit(sessions))["stacks_in_play"] == 400
    ck = money.cash_out_key("T1", 2, 7)
    assert await money.cash_out(sessions, p.id, "T1", 2, 430, key=ck) is True
    assert await money.cash_out(sessions, p.id, "T1", 2, 430, key=ck) is False
    w = await money.wallet(sessions, p.id)
    assert (w.balance, w.at_tables) == (1030, {"T1": -30})  # won 30 from nobody: audit says so
    report = await money.audit(sessions)
    assert not report["ok"] and report["negative_stacks"] == [f"stack:T1:{p.id}"]


async def test_buy_in_refuses_an_overdraft_with_a_clear_error(sessions):
    p = await money.register_player(sessions, "Citra", grant=300)
    with pytest.raises(money.InsufficientChips, match="you have 300 chips.*buy-in is 500"):
        await money.buy_in(sessions, p.id, "T", 0, 500, key="k1")
    with pytest.raises(money.BadBuyIn, match="between 100 and 200"):
        await money.buy_in(sessions, p.id, "T", 0, 250, key="k2", minimum=100, maximum=200)
    assert (await money.wallet(sessions, p.id)).balance == 300


async def test_twenty_concurrent_buy_ins_never_overdraw_a_wallet(sessions):
    p = await money.register_player(sessions, "Dewi", grant=1000)

    async def one(i):
        try:
            return await money.buy_in(sessions, p.id, f"T{i}", 0, 150, key=f"b{i}")
        except money.InsufficientChips:
            return None

    results = await asyncio.gather(*(one(i) for i in range(20)))
    ok = [r for r in results if r is not None]
    assert len(ok) == 6  # 6 x 150 = 900 <= 1000 < 7 x 150
    w = await money.wallet(sessions, p.id)
    assert w.balance == 100 and sum(w.at_tables.values()) == 900
    assert sorted(ok) == [100, 250, 400, 550, 700, 850]
    assert (await money.audit(sessions))["ok"]


async def test_buy_in_with_the_database_down_is_refused_clearly(tmp_path):
    from app.db.session import make_engine, make_sessionmaker
    from tests.db import fixtures

    url = (
        "postgresql://postgres@127.0.0.1:1/test" if fixtures.ON_PG else f"sqlite:///{tmp_path}"
    )  # a directory: cannot be opened
    engine = make_engine(url)
    with pytest.raises(reach.Unavailable, match="database unreachable"):
        await money.buy_in(make_sessionmaker(engine), 1, "T", 0, 100, key="k")
    await engine.dispose()


async def test_a_rounds_settlements_go_in_one_statement_and_once(sessions):
    """G-10: the payers' settlements of a round are one INSERT; written again, nothing moves."""
    from sqlalchemy import event, func, select

    from app.db import ledger
    from app.db.models import LedgerEntry

    def pay(payer: int, amount: int) -> ledger.Txn:
        legs = [
            ledger.Leg(ledger.stack_account("T9", f"bot:{payer}"), None, -amount),
            ledger.Leg(ledger.stack_account("T9", "bot:1"), None, amount),
        ]
        return ledger.Txn(f"settle:T9:1:1:{payer}", "settlement", legs, "T9")

    txns = [pay(2, 30), pay(3, 50), pay(2, 30)]  # the last repeats the first one's key
    inserts: list[str] = []

    def record(conn, cursor, statement, *rest) -> None:
        if statement.startswith("INSERT INTO ledger_txn"):
            inserts.append(statement)

    async with sessions.begin() as session:
        conn = (await session.connection()).sync_connection
        event.listen(conn, "before_cursor_execute", record)
        first = await ledger.post_many(session, txns)
        event.remove(conn, "before_cursor_execute", record)
    assert first[0] is not None and first[1] is not None and first[2] is None
    assert len(inserts) == 1
    async with sessions.begin() as session:
        assert await ledger.post_many(session, txns) == [None, None, None]
    async with sessions() as session:
        legs = await session.scalar(select(func.count()).select_from(LedgerEntry))
        moved = await session.scalar(
            select(func.sum(LedgerEntry.amount)).where(LedgerEntry.account == "stack:T9:bot:1")
        )
    assert (legs, moved) == (4, 80)
