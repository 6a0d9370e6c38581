"""Daily missions (docs/players.md "Daily missions"): three small tasks a day, counted from the
rounds the records writer stores (app/services/missions_write.py), never from a client, and
each paid once from the house through the ledger when its goal is reached.

The day is the calendar day in Asia/Jakarta (WIB, UTC+7), as the daily bonus's
(app/services/chip_claims.py): a round counts for the day it finished in, WIB. Decision: the
same three missions every day, so a player learns them; what they ask is small enough for one
short session.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from app.db import reach
from app.db.models import MissionProgress

from .chip_claims import jakarta_day, next_day_starts


@dataclass(frozen=True)
class Mission:
    name: str  # the client's words: mission.<name>
    game: str
    goal: int
    reward: int  # chips from the house


MISSIONS = (
    Mission("gaple_rounds", "gaple", 3, 100),  # play 3 rounds of Gaple
    Mission("moon_contract", "moon", 1, 150),  # make a Moon contract you bid (M-10)
    Mission("cross_round", "cross", 1, 50),  # play a round of Cross
)
BY_NAME = {m.name: m for m in MISSIONS}


class Missions:
    def __init__(self, db: reach.Sessions):
        self.db = db

    async def today(self, pid: int, now: datetime) -> dict[str, Any]:
        """Today's missions with the player's progress, and when the next day begins."""
        day = jakarta_day(now)
        with reach.reachable("missions cannot be read"):
            async with self.db() as session:
                rows = await session.execute(
                    select(
                        MissionProgress.mission, MissionProgress.count, MissionProgress.txn_id
                    ).where(MissionProgress.player_id == pid, MissionProgress.day == day)
                )
                got = {mission: (count, txn) for mission, count, txn in rows}
        return {
            "day": day,
            "next_at": next_day_starts(now),
            "missions": [_status(m, got.get(m.name)) for m in MISSIONS],
        }


def _status(m: Mission, row: tuple[int, int | None] | None) -> dict[str, Any]:
    count = min(row[0], m.goal) if row is not None else 0
    return {
        "name": m.name,
        "game": m.game,
        "goal": m.goal,
        "count": count,
        "reward": m.reward,
        "done": count >= m.goal,
        "paid": row is not None and row[1] is not None,
    }


def day_of(at: datetime) -> date:
    return jakarta_day(at)
