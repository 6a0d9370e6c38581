"""Daily missions counted by the records writer and paid once from the house (docs/players.md
"Daily missions", app/services/missions_write.py): whatever the outbox delivers again, a
mission's reward is one ledger transaction and the audit balances."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from app.db.models import LedgerTxn, MissionProgress, Wallet
from app.services import money
from app.services.missions import Missions, day_of
from app.services.missions_write import round_counts
from app.services.records import outbox_consumer
from tests.money.sim import SimTable, drain

STACK = 500


async def table_of_four(redis, sessions, prefix) -> SimTable:
    table = SimTable(redis, sessions, prefix, stake=10)
    await table.open()
    for seat in range(4):
        p = await money.register_player(sessions, f"m{seat}", grant=STACK)
        await table.sit(seat, p.id, STACK)
    return table


async def wallets(sessions, pids) -> list[int]:
    async with sessions() as s:
        rows = await s.execute(select(Wallet.player_id, Wallet.balance))
        got = dict(rows.all())
    return [got[p] for p in pids]


async def mission_txns(sessions) -> int:
    async with sessions() as s:
        stmt = select(func.count()).where(LedgerTxn.kind == "mission")
        return (await s.execute(stmt)).scalar_one()


async def test_three_gaple_rounds_pay_the_mission_once_even_when_every_entry_comes_again(
    redis, sessions, prefix
):
    table = await table_of_four(redis, sessions, prefix)
    pids = list(table.players)
    for seed in (1, 2):
        await table.play_round(seed, "normal")
    consumer = outbox_consumer(redis, sessions, prefix=prefix)
    await drain(consumer)
    today = await Missions(sessions).today(pids[0], datetime.now(UTC))
    gaple = next(m for m in today["missions"] if m["name"] == "gaple_rounds")
    assert (gaple["count"], gaple["done"], gaple["paid"]) == (2, False, False)
    assert await mission_txns(sessions) == 0
    await table.play_round(3, "normal")
    entries = [fields["e"] for _, fields in await redis.xrange(table.stream)]
    before = await wallets(sessions, pids)  # zero: everything is on the table
    await drain(consumer)
    after = await wallets(sessions, pids)
    assert [a - b for a, b in zip(after, before, strict=True)] == [100] * 4  # the reward
    assert await mission_txns(sessions) == 4
    audit = await money.audit(sessions)
    assert audit["ok"], audit
    for e in entries:  # redelivered, as after a consumer died before its ack
        await redis.xadd(table.stream, {"e": e})
    await drain(consumer)
    assert await wallets(sessions, pids) == after and await mission_txns(sessions) == 4
    async with sessions() as s:
        counts = (await s.execute(select(MissionProgress.count))).scalars().all()
    assert counts == [3] * 4  # each round counted once
    status = await Missions(sessions).today(pids[2], datetime.now(UTC))
    gaple = next(m for m in status["missions"] if m["name"] == "gaple_rounds")
    assert (gaple["count"], gaple["done"], gaple["paid"]) == (3, True, True)
    assert (await money.audit(sessions))["ok"]


@pytest.mark.parametrize("stage", ["write", "commit"])
async def test_a_consumer_killed_before_its_commit_or_its_ack_and_its_successor_pay_once(
    redis, sessions, prefix, stage
):
    """Killed mid-write, its transaction rolls back (nothing paid); killed after its commit but
    before its ack, the successor gets the same entries again and pays nothing more."""
    table = await table_of_four(redis, sessions, prefix)
    for seed in (1, 2, 3):
        await table.play_round(seed, "normal")

    class Killed(BaseException):
        pass

    def die(where, entry):
        if where == stage:
            raise Killed

    dying = outbox_consumer(redis, sessions, prefix=prefix, name="dying", fault=die)
    with contextlib.suppress(Killed):
        await dying.run_once(block_ms=1)
    assert await mission_txns(sessions) == (0 if stage == "write" else 4)
    survivor = outbox_consumer(redis, sessions, prefix=prefix, name="survivor", min_idle_ms=1)
    await drain(survivor)
    assert await mission_txns(sessions) == 4
    assert (await money.audit(sessions))["ok"]


def test_m10_a_moon_contract_counts_for_its_declarer_only_when_made():
    players = [None, 7, 8, None]
    assert round_counts("moon", players, {"bidder": 1, "made": True}) == {7: {"moon_contract": 1}}
    assert round_counts("moon", players, {"bidder": 1, "made": False}) == {}
    assert round_counts("moon", players, {"bidder": 0, "made": True}) == {}  # a bot's
    assert round_counts("cross", [3, None], {}) == {3: {"cross_round": 1}}
    assert round_counts("mexican_train", [3, 4], {}) == {}


def test_the_missions_day_turns_at_midnight_in_jakarta():
    assert day_of(datetime(2026, 12, 6, 16, 59, 59, tzinfo=UTC)).isoformat() == "2026-12-06"
    assert day_of(datetime(2026, 12, 6, 17, 0, 0, tzinfo=UTC)).isoformat() == "2026-12-07"
