"""Finished matches as the history pages and ``GET /api/matches/{id}`` show them.

A match is named by its ``public_id`` (random: app/db/models.py), never by its sequential row
id. A public table's matches are anyone's to read; a private table's only its players' and the
operators'. To anyone else such a match does not exist (the same 404 as an unknown id), so
neither its table nor its players' names are told."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Bet, LewatPayment, Match, MatchSeat, Move, Player, Round
from app.db.reach import iso
from app.services.table.names import table_name

Sessions = async_sessionmaker[AsyncSession]


async def player_matches(
    db: Sessions, player_id: int, *, page: int = 1, per_page: int = 50
) -> tuple[int, list[dict]]:
    """(how many, the page of them): the player's finished matches, newest first."""
    mine = (MatchSeat.player_id == player_id, Match.finished_at.is_not(None))
    stmt = (
        select(Match, MatchSeat)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .where(*mine)
        .order_by(Match.id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page)
    )
    count = select(func.count()).select_from(MatchSeat).join(Match).where(*mine)
    async with db() as session:
        total = (await session.execute(count)).scalar_one()
        rows = (await session.execute(stmt)).all()
    return int(total), [
        {
            "id": m.public_id,
            "table": m.table_id,
            "table_name": table_name(m.table_id),
            "number": m.number,
            "game": m.game,
            "finished_at": iso(m.finished_at),
            "seat": s.seat,
            "score": s.score,
            "winner": s.winner,
        }
        for m, s in rows
    ]


async def match_seats(session: AsyncSession, match_id: int) -> list:
    """A match's seats in order, each (MatchSeat, the player's name or None for a bot)."""
    rows = await session.execute(
        select(MatchSeat, Player.name)
        .outerjoin(Player, Player.id == MatchSeat.player_id)
        .where(MatchSeat.match_id == match_id)
        .order_by(MatchSeat.seat)
    )
    return list(rows.all())


async def readable_match(session: AsyncSession, public_id: str, reader: int | None) -> Match | None:
    """The finished match ``public_id`` names, if ``reader`` (a player id, None: anonymous) may
    read it; None otherwise."""
    match = await session.scalar(select(Match).where(Match.public_id == public_id))
    if match is None or match.finished_at is None:
        return None
    if not match.private:
        return match
    if reader is None:
        return None
    seated = select(MatchSeat.id).where(
        MatchSeat.match_id == match.id, MatchSeat.player_id == reader
    )
    if await session.scalar(seated.limit(1)) is not None:
        return match
    role = await session.scalar(select(Player.role).where(Player.id == reader))
    return match if role == "admin" else None


async def match_record(db: Sessions, public_id: str, reader: int | None) -> dict | None:
    """Players, options, seed, result, rounds with their payments, and the action log; None
    when there is no such finished match for ``reader`` (``readable_match``)."""
    async with db() as session:
        match = await readable_match(session, public_id, reader)
        if match is None:
            return None
        match_id = match.id
        seats = await match_seats(session, match_id)
        rounds = (
            (
                await session.execute(
                    select(Round).where(Round.match_id == match_id).order_by(Round.number)
                )
            )
            .scalars()
            .all()
        )
        round_ids = [r.id for r in rounds]
        bets = (
            (
                await session.execute(
                    select(Bet).where(Bet.round_id.in_(round_ids)).order_by(Bet.payer_seat)
                )
            )
            .scalars()
            .all()
        )
        lewats = (
            (
                await session.execute(
                    select(LewatPayment)
                    .where(LewatPayment.round_id.in_(round_ids))
                    .order_by(LewatPayment.version)
                )
            )
            .scalars()
            .all()
        )
        moves = (
            (
                await session.execute(
                    select(Move).where(Move.match_id == match_id).order_by(Move.seq)
                )
            )
            .scalars()
            .all()
        )

    def payment(p) -> dict:
        return {
            "payer": p.payer_seat,
            "payee": p.payee_seat,
            "amount": p.amount,
            "shortfall": p.shortfall,
        }

    return {
        "id": match.public_id,
        "table": match.table_id,
        "table_name": table_name(match.table_id),
        "number": match.number,
        "game": match.game,
        "options": match.options,
        "seed": match.seed,
        "started_at": iso(match.started_at),
        "finished_at": iso(match.finished_at),
        "result": match.result,
        "players": [
            {
                "seat": s.seat,
                "player_id": s.player_id,
                "name": name,
                "bot": s.player_id is None,
                "score": s.score,
                "winner": s.winner,
            }
            for s, name in seats
        ],
        "rounds": [
            {
                "number": r.number,
                "winner": r.winner,
                "ending": r.ending,
                "multiplier": r.multiplier,
                "lewat": [
                    {**payment(p), "version": p.version} for p in lewats if p.round_id == r.id
                ],
                "bets": [
                    {
                        **payment(b),
                        "stake": b.stake,
                        "field": b.field,
                        "multiplier": b.multiplier,
                        "pips": b.pips,
                    }
                    for b in bets
                    if b.round_id == r.id
                ],
            }
            for r in rounds
        ],
        "moves": [
            {"seq": m.seq, "seat": m.seat, "v": m.version, "action": m.action} for m in moves
        ],
    }
