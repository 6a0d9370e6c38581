"""Finished matches as the outbox carries them (app/store/outbox.py), written through the
records writer (app/services/records.py), so the totals come from the real write path."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

from app.db.models import Player
from app.services.records import RecordWriter

_tables = itertools.count(1)


async def players(sessions, *names: str, kind: str = "guest") -> list[int]:
    async with sessions.begin() as s:
        rows = [Player(name=n, kind=kind) for n in names]
        s.add_all(rows)
        await s.flush()
        return [p.id for p in rows]


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def match(game: str, seats: list, winners: list[int], scores: list[int], at: datetime, **detail):
    """The ``match`` entry of a finished match at a table of its own."""
    table = f"S{next(_tables)}"
    return {
        "kind": "match",
        "key": f"match:{table}:1",
        "table": table,
        "match": 1,
        "game": game,
        "version": 9,
        "at": at.isoformat(),
        "options": {},
        "seed": "1",
        "players": seats,
        "result": {"winners": winners, "scores": scores, "detail": detail},
        "moves": [],
        "started_at": at.isoformat(),
        "finished_at": at.isoformat(),
    }


def gaple(seats: list, winner: int, multiplier: int, lewat: list, at: datetime, stake=100):
    """One Gaple round (a match, G-12): ``lewat`` (payer, payee, amount) during the round, then
    every other seat pays the winner stake x multiplier (G-10)."""
    payments = [
        {"kind": "lewat", "payer": a, "payee": b, "amount": n, "shortfall": 0} for a, b, n in lewat
    ]
    payments += [
        {
            "kind": "settlement",
            "payer": s,
            "payee": winner,
            "amount": stake * multiplier,
            "shortfall": 0,
            "pips": 0,
        }
        for s in range(len(seats))
        if s != winner
    ]
    net = [
        sum(p["amount"] for p in payments if p["payee"] == s)
        - sum(p["amount"] for p in payments if p["payer"] == s)
        for s in range(len(seats))
    ]
    return match(
        "gaple",
        seats,
        [winner],
        net,
        at,
        winner=winner,
        ending="domino",
        multiplier={"name": f"x{multiplier}", "value": multiplier},
        payments=payments,
    )


def moon_round(entry: dict, number: int, bidder: int, made: bool, at: datetime) -> dict:
    """A Moon round record of ``entry``'s match (M-10: the declarer's contract)."""
    return {
        "kind": "round",
        "key": f"round:{entry['table']}:1:{number}",
        "table": entry["table"],
        "match": 1,
        "game": "moon",
        "version": number,
        "at": at.isoformat(),
        "round": number,
        "players": entry["players"],
        "winner": None,
        "ending": None,
        "multiplier": None,
        "stake": None,
        "field": "normal",
        "settlements": [],
        "detail": {"round": number, "bidder": bidder, "made": made, "contract": 30},
    }


async def write(sessions, *entries: dict) -> list[bool]:
    return await RecordWriter(sessions)(list(entries))
