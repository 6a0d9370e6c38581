"""Free chips: ``GET /api/players/me/chips`` (the wallet, the daily bonus, the refill) and the
two claims, ``POST /api/players/me/daily`` and ``POST /api/players/me/refill`` (docs/players.md
"Free chips"). A refused claim is 409 ``already_claimed``, ``not_bust`` or ``refills_used_up``
(app/api/deps.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from app.services import money

from .bodies import JsonRoute
from .deps import Live, Player, answers
from .wallet import player_id

router = APIRouter(
    route_class=JsonRoute,
    prefix="/api/players/me",
    tags=["money"],
    responses=answers(401, 403, 409, 503),
)


class DailyOut(BaseModel):
    claimable: bool
    streak: int  # the day of the streak today's bonus is, claimed or not
    amount: int
    next_at: datetime | None  # when the next bonus opens; null while today's is open


class RefillOut(BaseModel):
    claimable: bool
    bust: bool
    amount: int
    used: int
    per_day: int
    below: int
    next_at: datetime | None


class ChipsOut(BaseModel):
    day: date  # today in Asia/Jakarta
    balance: int
    chips_at_tables: int = Field(description="on tables: the live stacks where you sit")
    chips_settling: int = Field(
        description="of those, chips of seats left, on their way to the wallet: ask again soon"
    )
    daily: DailyOut
    refill: RefillOut


class ClaimOut(BaseModel):
    kind: str
    day: date
    seq: int
    streak: int
    amount: int
    balance: int


class ClaimedOut(BaseModel):
    claim: ClaimOut
    chips: ChipsOut


@router.get("/chips", response_model=ChipsOut)
async def my_chips(player: Player, live: Live) -> dict:
    """The wallet, chips on tables, and whether the daily bonus and a refill are open."""
    try:
        return (await live.claims.status(player_id(player), datetime.now(UTC))).to_json()
    except money.UnknownPlayer as err:
        raise HTTPException(404, err.message) from None


@router.post("/daily", response_model=ClaimedOut)
async def claim_daily(player: Player, live: Live) -> dict:
    """Today's bonus (Asia/Jakarta day), once; 409 ``already_claimed`` with ``next_at``."""
    return await _claim(live, player, "daily")


@router.post("/refill", response_model=ClaimedOut)
async def claim_refill(player: Player, live: Live) -> dict:
    """A refill while bust; 409 ``not_bust`` or ``refills_used_up`` (with ``next_at``)."""
    return await _claim(live, player, "refill")


async def _claim(live, player: dict, kind: str) -> dict:
    pid, now = player_id(player), datetime.now(UTC)
    claim = live.claims.claim_daily if kind == "daily" else live.claims.claim_refill
    try:
        done = await claim(pid, now)
        status = await live.claims.status(pid, now)
    except money.UnknownPlayer as err:
        raise HTTPException(404, err.message) from None
    return {"claim": done.to_json(), "chips": status.to_json()}
