"""A Gaple table's money and records end up in the database exactly as the game paid them."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

from sqlalchemy import func, select

from app.db.models import Bet, LedgerEntry, LedgerTxn, LewatPayment, Match, Move, Round
from app.db.session import make_sessionmaker
from app.services import money, replay
from app.services.records import outbox_consumer
from tests.db import fixtures
from tests.money.sim import SimTable, drain, seeds_with_every_multiplier

ROOT = Path(__file__).resolve().parents[2]

SEEDS = seeds_with_every_multiplier(extra=5)  # rounds ending with each multiplier of G-9
BUY_IN = 200


async def play_table(redis, sessions, prefix) -> SimTable:
    table = SimTable(redis, sessions, prefix, stake=10)
    await table.open()
    pids = [(await money.register_player(sessions, f"p{i}", grant=1000)).id for i in range(4)]
    for seat, pid in enumerate(pids):
        await table.sit(seat, pid, BUY_IN)
    for i, seed in enumerate(SEEDS):
        for seat in range(4):  # G-11: below one stake, top up before the next round
            if table.stacks[seat] < table.stake:
                await table.leave(seat)
                await table.sit(seat, pids[seat], BUY_IN)
        await table.play_round(seed, "bet" if i % 2 else "normal")
    for seat in range(4):
        await table.leave(seat)
    return table


async def test_g6_g10_g11_lewat_bets_and_ledger_match_the_game_exactly(redis, sessions, prefix):
    table = await play_table(redis, sessions, prefix)
    await drain(outbox_consumer(redis, sessions, prefix=prefix))

    lewats = [
        (v, e["payer"], e["payee"], e["amount"], e["shortfall"])
        for v, e in table.events
        if e["type"] == "lewat"
    ]
    overs = [(v, e) for v, e in table.events if e["type"] == "round_over"]
    settlements = [
        (v, p["payer"], p["payee"], p["amount"], p["shortfall"], p["pips"])
        for v, e in overs
        for p in e["payments"]
        if p["kind"] == "settlement"
    ]
    assert lewats and any(s[4] for s in settlements), "the scenario must pay Lewat and shortfalls"
    assert {e["multiplier"]["name"] for _, e in overs} == {
        "single",
        "double",
        "triple",
        "quartet",
        "quintet",
    }

    async with sessions() as s:
        rows = (await s.execute(select(LewatPayment).order_by(LewatPayment.version))).scalars()
        assert [
            (r.version, r.payer_seat, r.payee_seat, r.amount, r.shortfall) for r in rows
        ] == lewats
        bets = (
            await s.execute(
                select(Bet, Round)
                .join(Round, Bet.round_id == Round.id)
                .order_by(Round.version, Bet.payer_seat)
            )
        ).all()
        assert [
            (
                r.version,
                b.payer_seat,
                b.payee_seat,
                b.amount,
                b.shortfall,
                b.pips if b.field == "bet" else p,
            )
            for (b, r), (*_, p) in zip(bets, settlements)
        ] == settlements
        by_round = {v: e for v, e in overs}
        for b, r in bets:
            e = by_round[r.version]
            assert (b.stake, b.multiplier, r.winner) == (10, e["multiplier"]["value"], e["winner"])
            assert (b.pips is None) == (b.field == "normal")
        # every payment is one balanced ledger transaction moving exactly the amount paid
        kinds = Counter((await s.execute(select(LedgerTxn.kind))).scalars())
        assert kinds["lewat"] == len(lewats) and kinds["settlement"] == len(settlements)
        sums = (
            (await s.execute(select(func.sum(LedgerEntry.amount)).group_by(LedgerEntry.txn_id)))
            .scalars()
            .all()
        )
        assert set(sums) == {0}
        moved = (
            await s.execute(
                select(func.sum(LedgerEntry.amount))
                .join(LedgerTxn)
                .where(LedgerTxn.kind.in_(["lewat", "settlement"]), LedgerEntry.amount > 0)
            )
        ).scalar()
        assert moved == sum(x[3] for x in lewats) + sum(x[3] for x in settlements)
        assert (await s.execute(select(func.count()).select_from(Match))).scalar() == len(SEEDS)
        assert (await s.execute(select(func.count()).select_from(Move))).scalar() > 0

    # wallets + stacks are conserved, and each wallet got back exactly its final stack
    report = await money.audit(sessions)
    assert report["ok"], report
    # the grants, and each player's daily Gaple mission (3 rounds: docs/players.md)
    assert report["granted"] == 4000 + 4 * 100 and report["stacks_in_play"] == 0
    for pid in table.bought:
        w = await money.wallet(sessions, pid)
        assert w.balance == 1000 - table.bought[pid] + table.cashed[pid] + 100
        assert w.at_tables == {}


async def test_replaying_every_stored_match_reproduces_its_result(redis, sessions, prefix):
    await play_table(redis, sessions, prefix)
    await drain(outbox_consumer(redis, sessions, prefix=prefix))
    async with sessions() as s:
        ids = (await s.execute(select(Match.id))).scalars().all()
    assert len(ids) == len(SEEDS)
    for mid in ids:
        report = await replay.replay_match(sessions, mid)
        assert report.ok, report


async def test_python_m_app_replay_checks_a_stored_match(redis, prefix, tmp_path):
    url, engine, cleanup = await fixtures.new_database(tmp_path)
    try:
        sessions = make_sessionmaker(engine)
        table = SimTable(redis, sessions, prefix, stake=10)
        await table.open()
        for seat in range(4):
            await table.sit(seat, (await money.register_player(sessions, f"p{seat}")).id, 500)
        await table.play_round(SEEDS[0], "bet")
        await drain(outbox_consumer(redis, sessions, prefix=prefix))
        async with sessions() as s:
            match_id = (await s.execute(select(Match.id))).scalar_one()

        def cli(*args):
            return subprocess.run(
                [sys.executable, "-m", "app", "replay", *args, "--url", url],
                capture_output=True,
                text=True,
                timeout=60,
                cwd=ROOT,
            )

        done = cli(str(match_id))
        assert done.returncode == 0 and "result reproduced" in done.stdout, done.stderr
        async with sessions.begin() as s:  # a tampered record is caught
            match = await s.get(Match, match_id)
            match.result = {**match.result, "scores": [0, 0, 0, 0]}
        done = cli(str(match_id))
        assert done.returncode == 1 and "differs" in done.stdout
        assert cli("999999").returncode == 1
    finally:
        await cleanup()
