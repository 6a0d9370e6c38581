"""The players' running totals (table ``player_stat``), kept by the records writer.

Each finished match is added, in the transaction that stores it (app/services/records_write.py), to
two rows per human seat: the player's all-time row for the game and the row of the week the
match finished in. Bots have no player id and get no rows. What a match adds:

- ``played`` 1, ``won`` 1 when the seat is among the winners, ``score_sum`` its match score
  (Mexican Train's average comes from it);
- Gaple (a round is a match, G-12), from the round's payments: ``chips_won`` what was paid to
  the seat (Lewat, G-6, and settlement, G-10/G-11), ``chips_lost`` what it paid; for the winner,
  the round's multiplier (``best_multiplier``, the largest) and its pot (``biggest_pot``).
  Decision: a round's *pot* is what its winner collected in the settlement, every loser's
  stake times the multiplier (times their pips on a bet table), as paid (capped by their
  stacks, G-11); the Lewat payments made during the round are not part of it.
- Moon, from each round record (M-10, M-11): the declarer's ``contracts_bid`` and, when the
  contract was made, ``contracts_made``. A round entry names the round's players for this.

A week starts on Monday 00:00 Asia/Jakarta; a row's ``period`` is that Monday's ISO date,
or ``all``. The writer runs exactly once per record (the match is claimed by
``finished_at IS NULL``, a round by ``version IS NULL``), so the totals count each record
once.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any, cast
from zoneinfo import ZoneInfo

from sqlalchemy import Table, func
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import PlayerStat

JAKARTA = ZoneInfo("Asia/Jakarta")
ALL_TIME = "all"
SUMS = ("played", "won", "score_sum", "chips_won", "chips_lost", "contracts_bid", "contracts_made")
MAXES = ("best_multiplier", "biggest_pot")


def week_start(at: datetime) -> date:
    """The Monday (Asia/Jakarta) of the week ``at`` falls in."""
    day = at.astimezone(JAKARTA).date()
    return day - timedelta(days=day.weekday())


def week_begins_at(day: date) -> datetime:
    """Monday 00:00 Asia/Jakarta of the week that starts on ``day``."""
    return datetime(day.year, day.month, day.day, tzinfo=JAKARTA)


def _pid(who: Any) -> int | None:
    return who if type(who) is int else None


def match_lines(game: str, players: list, result: Mapping[str, Any]) -> dict[int, dict]:
    """What one finished match adds to each human player's totals, by player id."""
    winners = set(result.get("winners", ()))
    scores = result.get("scores", ())
    lines: dict[int, dict] = {}
    for seat, who in enumerate(players):
        pid = _pid(who)
        if pid is None:
            continue
        line = lines.setdefault(pid, {})
        line["played"] = line.get("played", 0) + 1
        line["won"] = line.get("won", 0) + (seat in winners)
        line["score_sum"] = line.get("score_sum", 0) + (scores[seat] if seat < len(scores) else 0)
        if game == "gaple":
            _gaple(line, seat, seat in winners, result.get("detail") or {})
    return lines


def _gaple(line: dict, seat: int, won: bool, detail: Mapping[str, Any]) -> None:
    payments = detail.get("payments", ())
    line["chips_won"] = line.get("chips_won", 0) + sum(
        p["amount"] for p in payments if p["payee"] == seat
    )
    line["chips_lost"] = line.get("chips_lost", 0) + sum(
        p["amount"] for p in payments if p["payer"] == seat
    )
    if won:
        line["best_multiplier"] = detail.get("multiplier", {}).get("value", 0)
        line["biggest_pot"] = sum(
            p["amount"] for p in payments if p["payee"] == seat and p.get("kind") == "settlement"
        )


def round_lines(game: str, players: list | None, detail: Any) -> dict[int, dict]:
    """M-10: the declarer's contract in one Moon round, made or not. Other games' rounds add
    nothing (their matches do), nor round entries written before they named the players."""
    if game != "moon" or players is None or not isinstance(detail, Mapping):
        return {}
    bidder = detail.get("bidder")
    pid = _pid(players[bidder]) if isinstance(bidder, int) and bidder < len(players) else None
    if pid is None:
        return {}
    return {pid: {"contracts_bid": 1, "contracts_made": int(bool(detail.get("made")))}}


def add(
    session: AsyncSession, game: str, at: datetime, lines: Mapping[int, Mapping[str, int]]
) -> None:
    """Add ``lines`` to the all-time rows and the rows of ``at``'s week, at ``flush``: a
    batch's lines are summed per row first (the maxima kept), so its records cost one
    statement, not one each; the totals come out the same."""
    pending = session.info.setdefault("stats", {})
    periods = (ALL_TIME, week_start(at).isoformat())
    for pid, line in lines.items():
        for period in periods:
            row = pending.setdefault((pid, game, period), dict.fromkeys((*SUMS, *MAXES), 0))
            for name in SUMS:
                row[name] += int(line.get(name, 0))
            for name in MAXES:
                row[name] = max(row[name], int(line.get(name, 0)))


async def flush(session: AsyncSession) -> None:
    """Write the lines ``add`` summed: one upsert for all the rows they touch."""
    pending = session.info.pop("stats", None)
    if pending:
        rows = [
            {"player_id": pid, "game": game, "period": period, **totals}
            for (pid, game, period), totals in pending.items()
        ]
        await session.execute(_upsert(session.get_bind().dialect.name), rows)


@cache
def _upsert(dialect: str):
    """The statement, built once per dialect: building its ``excluded`` columns was a twentieth
    of the outbox consumer's CPU when it was made for every record (bench/README.md)."""
    table = cast(Table, PlayerStat.__table__)
    stmt = (pg_insert if dialect == "postgresql" else sqlite_insert)(table)
    largest = func.greatest if dialect == "postgresql" else func.max  # SQLite: scalar max()
    new = stmt.excluded
    return stmt.on_conflict_do_update(
        index_elements=["player_id", "game", "period"],
        set_={
            **{name: table.c[name] + new[name] for name in SUMS},
            **{name: largest(table.c[name], new[name]) for name in MAXES},
        },
    )
