"""``GET /api/players/me/wallet`` (the money audit is app/api/admin.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from app.services import money

from .bodies import JsonRoute
from .deps import Live, Player, answers, database

router = APIRouter(route_class=JsonRoute, tags=["money"], responses=answers(401, 403, 503))


def player_id(player: dict) -> int:
    try:
        return int(player["id"])
    except (TypeError, ValueError):
        raise HTTPException(404, "this player has no wallet") from None


class Wallet(BaseModel):
    """The wallet as the player sees it."""

    balance: int
    at_tables: dict[str, int] = Field(description="chips per table, as the ledger has them")
    chips_at_tables: int
    recent: list[dict[str, Any]] = Field(description="the latest ledger lines")


@router.get("/api/players/me/wallet", response_model=Wallet)
async def my_wallet(player: Player, live: Live) -> dict:
    """Balance, chips on each table (as the ledger has them) and the latest ledger lines."""
    try:
        with database():
            return (await money.wallet(live.db, player_id(player))).to_json()
    except money.UnknownPlayer as err:
        raise HTTPException(404, err.message) from None
