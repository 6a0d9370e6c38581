"""Daily missions counted by the records writer (app/services/records_write.py), in the
transaction that stores each round, so a round counts once: the writer claims a round record
once (``version IS NULL``) and only the entry that claims it counts it here.

``add`` sums a batch's counts per player, day and mission; ``flush`` writes them with one upsert
(``count = count + n``) that returns the rows, and pays each mission whose goal is reached and
not yet paid: a ledger transaction from the house to the wallet keyed
``mission:<player>:<day>:<mission>`` (written once, whatever retries: app/db/ledger.py), then
the row's ``txn_id``. Only players with a player id count (bots have none).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.ledger import HOUSE, Leg, wallet_account
from app.db.models import MissionProgress

from .missions import BY_NAME, day_of


def _pid(who: Any) -> int | None:
    return who if type(who) is int else None


def round_counts(game: str, players: list | None, detail: Any) -> dict[int, dict[str, int]]:
    """What one stored round adds to each human player's missions, by player id."""
    if not players:
        return {}
    if game in ("gaple", "cross"):
        mission = "gaple_rounds" if game == "gaple" else "cross_round"
        return {pid: {mission: 1} for p in players if (pid := _pid(p)) is not None}
    if game == "moon" and isinstance(detail, Mapping) and detail.get("made"):
        bidder = detail.get("bidder")  # M-10: the declarer made the contract
        if isinstance(bidder, int) and bidder < len(players):
            pid = _pid(players[bidder])
            return {pid: {"moon_contract": 1}} if pid is not None else {}
    return {}


def add(session: AsyncSession, at: datetime, counts: Mapping[int, Mapping[str, int]]) -> None:
    pending = session.info.setdefault("missions", {})
    day = day_of(at)
    for pid, line in counts.items():
        for mission, n in line.items():
            pending[(pid, day, mission)] = pending.get((pid, day, mission), 0) + n


async def flush(session: AsyncSession) -> None:
    """Write the counts ``add`` summed (one statement), then pay what they completed."""
    pending = session.info.pop("missions", None)
    if not pending:
        return
    rows = [
        {"player_id": pid, "day": day, "mission": mission, "count": n}
        for (pid, day, mission), n in pending.items()
    ]
    written = await session.execute(_upsert(session.get_bind().dialect.name), rows)
    done = [
        (pid, day, mission)
        for pid, day, mission, count, txn in written.all()
        if count >= BY_NAME[mission].goal and txn is None
    ]
    if not done:
        return
    txns = [
        ledger.Txn(f"mission:{pid}:{day.isoformat()}:{mission}", "mission", _reward(pid, mission))
        for pid, day, mission in done
    ]
    paid = await ledger.post_many(session, txns)  # one statement for the batch's rewards
    marks = [
        {"pid": pid, "d": day, "m": mission, "txn": txn}
        for (pid, day, mission), txn in zip(done, paid, strict=True)
        if txn is not None
    ]
    if marks:
        await session.execute(_mark(), marks)


def _reward(pid: int, mission: str) -> list[Leg]:
    reward = BY_NAME[mission].reward
    return [Leg(HOUSE, None, -reward), Leg(wallet_account(pid), pid, reward)]


@cache
def _mark():
    """The reward's transaction on its row, for all the batch's rewards (executemany)."""
    table = cast(Table, MissionProgress.__table__)
    return (
        update(table)
        .where(
            table.c.player_id == bindparam("pid"),
            table.c.day == bindparam("d"),
            table.c.mission == bindparam("m"),
        )
        .values(txn_id=bindparam("txn"))
    )


@cache
def _upsert(dialect: str):
    table = cast(Table, MissionProgress.__table__)
    stmt = (pg_insert if dialect == "postgresql" else sqlite_insert)(table)
    return stmt.on_conflict_do_update(
        index_elements=["player_id", "day", "mission"],
        set_={"count": table.c["count"] + stmt.excluded["count"]},
    ).returning(table.c.player_id, table.c.day, table.c.mission, table.c["count"], table.c.txn_id)
