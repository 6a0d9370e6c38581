"""Chips through the whole server: guests get wallets, sitting takes a buy-in, real WebSocket
players and bots play Gaple rounds, and the database ends up with exactly the game's payments
(re-derived from the stored action logs), conserved chips, and replayable history."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import func, select

from app.db.models import Bet, LedgerEntry, LedgerTxn, LewatPayment, Match, Move, Round
from app.db.session import make_sessionmaker
from app.games.gaple import RULESET as GAPLE
from app.services import replay
from app.services.records import outbox_consumer
from tests.db import fixtures
from tests.ws.client import SeatClient, register, sit_at_new_chips_table

ADMIN = "admin-secret"


@pytest.fixture
async def database(tmp_path):
    url, engine, cleanup = await fixtures.new_database(tmp_path)
    yield url, make_sessionmaker(engine)
    await cleanup()


async def drained(srv, timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while await srv.live.outbox.backlog():
            await asyncio.sleep(0.05)


def derived_payments(match: Match, moves: list[Move]):
    """Lewat and settlement payments obtained by re-running the stored log."""
    state = GAPLE.new_state(match.options, match.n_seats, int(match.seed))
    lewat, bets = [], []
    for mv in moves:
        step = GAPLE.apply(state, mv.seat, GAPLE.parse_action(mv.action))
        for e in step.events:
            if e["type"] == "lewat":
                lewat.append((mv.version, e["payer"], e["payee"], e["amount"], e["shortfall"]))
            if e["type"] == "round_over":
                bets = [
                    (
                        p["payer"],
                        p["payee"],
                        p["amount"],
                        p["shortfall"],
                        p["pips"],
                        e["multiplier"]["value"],
                    )
                    for p in e["payments"]
                    if p["kind"] == "settlement"
                ]
        state = step.state
    return sorted(lewat), bets


async def test_g6_g10_g11_money_through_the_server(live_server, database):
    url, sessions = database
    srv = await live_server(
        database_url=url,
        starting_balance=2000,
        admin_token=ADMIN,
        round_pause=0,
        rate_per_second=1e4,
        seeds=lambda tid, m: 500 + m,
    )
    async with httpx.AsyncClient(base_url=srv.url) as http:
        creds = [await register(http, f"Pemain {i}") for i in range(2)]
        for _, h in creds:
            w = (await http.get("/api/players/me/wallet", headers=h)).json()
            assert w["balance"] == 2000 and w["recent"][0]["kind"] == "grant"
        r = await http.post(
            "/api/tables",
            headers=creds[0][1],
            json={"game": "gaple", "seats": 4, "options": {"stake": 10, "field": "bet"}},
        )
        tid = r.json()["id"]
        r = await http.post(
            f"/api/tables/{tid}/seats/0", headers=creds[0][1], json={"buy_in": 5000}
        )
        assert r.status_code == 422 and r.json()["code"] == "buy_in_too_high"  # 100 stakes
        clients = [
            await SeatClient(srv.ws_url, tid, tok, seed=i).connect(close_timeout=0.2)
            for i, (tok, _) in enumerate(creds)
        ]
        for i, (_, h) in enumerate(creds):
            r = await http.post(f"/api/tables/{tid}/seats/{i}", headers=h, json={"buy_in": 300})
            assert r.status_code == 200, r.text
            w = (await http.get("/api/players/me/wallet", headers=h)).json()
            assert (w["balance"], w["at_tables"]) == (1700, {tid: 300})
        await http.post(f"/api/tables/{tid}/bots", headers=creds[0][1])

        def third_round(m):
            return m["table"]["match_no"] >= 3

        await asyncio.gather(*(c.play(third_round, 90) for c in clients))
        for c in clients:
            await c.close()
        for i, (_, h) in enumerate(creds):  # leave: the bot finishes the round, then cash-out
            assert (await http.delete(f"/api/tables/{tid}/seats/{i}", headers=h)).status_code == 200
        async with asyncio.timeout(60):
            while any(
                s["player_id"] in (1, 2) or (s["name"] or "").startswith("Pemain")
                for s in (await http.get(f"/api/tables/{tid}")).json()["seats"]
            ):
                await asyncio.sleep(0.05)
        await drained(srv)

        for _, h in creds:
            w = (await http.get("/api/players/me/wallet", headers=h)).json()
            assert w["at_tables"] == {} and w["balance"] >= 0
        audit = await http.get("/api/admin/audit", headers={"Authorization": f"Bearer {ADMIN}"})
        assert audit.status_code == 200 and audit.json()["ok"], audit.json()
        assert audit.json()["outbox_backlog"] == 0
        assert audit.json()["stacks_in_redis"] == audit.json()["stacks_in_play"] > 0  # bots'
        # the house granted two guests, funded two bots and paid the daily missions the
        # guests completed (3 Gaple rounds, docs/players.md "Daily missions"); nothing else
        rewards = await mission_rewards(srv)
        assert rewards in (0, 100, 200)
        granted = 2 * 2000 + 2 * 10 * srv.settings.buy_in_max_stakes + rewards
        assert audit.json()["granted"] == granted
        assert (await http.get("/api/admin/audit")).status_code == 403

        mine = (await http.get("/api/players/me/matches", headers=creds[0][1])).json()["items"]
        assert mine and all(m["game"] == "gaple" for m in mine)  # a busted seat sits out
        record = (await http.get(f"/api/matches/{mine[0]['id']}")).json()
        assert record["moves"] and record["rounds"][0]["bets"]
        assert {p["seat"] for p in record["players"]} == {0, 1, 2, 3}

    async with sessions() as s:
        matches = (await s.execute(select(Match).order_by(Match.number))).scalars().all()
        assert [m.number for m in matches] == list(range(1, len(matches) + 1))
        assert len(matches) >= 3
        for m in matches:
            moves = (
                (await s.execute(select(Move).where(Move.match_id == m.id).order_by(Move.seq)))
                .scalars()
                .all()
            )
            lewat, bets = derived_payments(m, moves)
            rows = (
                (await s.execute(select(LewatPayment).join(Round).where(Round.match_id == m.id)))
                .scalars()
                .all()
            )
            assert (
                sorted((r.version, r.payer_seat, r.payee_seat, r.amount, r.shortfall) for r in rows)
                == lewat
            )
            brows = (
                (
                    await s.execute(
                        select(Bet)
                        .join(Round)
                        .where(Round.match_id == m.id)
                        .order_by(Bet.payer_seat)
                    )
                )
                .scalars()
                .all()
            )
            assert [
                (b.payer_seat, b.payee_seat, b.amount, b.shortfall, b.pips, b.multiplier)
                for b in brows
            ] == bets
    for m in matches:
        assert (await replay.replay_match(sessions, m.id)).ok


async def test_concurrent_sits_by_one_player_take_one_buy_in(live_server, database):
    url, _ = database
    srv = await live_server(database_url=url, starting_balance=2000, admin_token=ADMIN)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, h = await register(http, "Cepat")
        tid = (
            await http.post(
                "/api/tables",
                headers=h,
                json={"game": "gaple", "seats": 4, "options": {"stake": 10}},
            )
        ).json()["id"]
        answers = await asyncio.gather(
            *(
                http.post(f"/api/tables/{tid}/seats/{n}", headers=h, json={"buy_in": 300})
                for n in (0, 0, 1, 2, 3, 1)
            )
        )
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409, 409, 409]
        w = (await http.get("/api/players/me/wallet", headers=h)).json()
        assert (w["balance"], w["at_tables"]) == (1700, {tid: 300})
        await drained(srv)
        audit = (
            await http.get("/api/admin/audit", headers={"Authorization": f"Bearer {ADMIN}"})
        ).json()
        assert audit["ok"] and audit["stacks_in_redis"] == audit["stacks_in_play"] == 300, audit


async def test_a_replica_without_the_consumer_leaves_the_records_to_the_outbox_worker(
    live_server, database
):
    """MEJA_OUTBOX_CONSUMER=false (a web replica beside ``python -m app outbox``):
    its moves still queue their entries, it writes none of them, and a consumer elsewhere
    writes them once."""
    url, sessions = database
    srv = await live_server(database_url=url, starting_balance=2000, outbox_consumer=False)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, h = await register(http, "Pergi")
        tid = await sit_at_new_chips_table(http, h)
        assert (await http.delete(f"/api/tables/{tid}/seats/0", headers=h)).status_code == 200
        await asyncio.sleep(4.0)  # a consuming replica has written it by now (2 s idle polls)
        assert await srv.live.outbox.backlog() == 2  # the seat's buy-in and its cash-out
        wallet = (await http.get("/api/players/me/wallet", headers=h)).json()
        assert wallet["balance"] == 1700
        worker = outbox_consumer(srv.live.redis, sessions, prefix=srv.settings.key_prefix)
        assert await worker.run_once(block_ms=1) == 2
        assert await srv.live.outbox.backlog() == 0
        wallet = (await http.get("/api/players/me/wallet", headers=h)).json()
        assert (wallet["balance"], wallet["at_tables"]) == (2000, {})


async def mission_rewards(srv) -> int:
    async with srv.live.db() as s:
        paid = await s.execute(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0))
            .join(LedgerTxn)
            .where(LedgerTxn.kind == "mission", LedgerEntry.amount > 0)
        )
        return int(paid.scalar_one())
