"""``GET /api/players/me/wallet`` and the admin audit ``GET /api/admin/audit``."""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request

from app.services import money, table_money

from .deps import Player, database

router = APIRouter(tags=["money"])


def sessions(request: Request) -> Any:
    """The process's ``async_sessionmaker`` (built in the lifespan as ``live.db``)."""
    return request.app.state.live.db


Db = Annotated[Any, Depends(sessions)]


def player_id(player: dict) -> int:
    try:
        return int(player["id"])
    except (TypeError, ValueError):
        raise HTTPException(404, "this player has no wallet") from None


@router.get("/api/players/me/wallet")
async def my_wallet(player: Player, db: Db) -> dict:
    """Balance, chips on each table (as the ledger has them) and the latest ledger lines."""
    try:
        with database():
            return (await money.wallet(db, player_id(player))).to_json()
    except money.UnknownPlayer as err:
        raise HTTPException(404, err.message) from None


@router.get("/api/admin/audit")
async def audit(request: Request, db: Db) -> dict:
    """The money invariants; needs ``Authorization: Bearer <MEJA_ADMIN_TOKEN>``. Once the
    outbox is drained, the stacks on the live tables in Redis must equal the ledger's."""
    live = request.app.state.live
    expected = getattr(live.settings, "admin_token", None)
    given = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(403, "the admin token is required (setting MEJA_ADMIN_TOKEN)")
    with database():
        report = await money.audit(db)
    report["outbox_backlog"] = backlog = await live.outbox.backlog()
    report["stacks_in_redis"] = in_redis = await table_money.stacks_in_redis(live.store)
    if backlog == 0:  # everything written: the ledger's stacks are the tables' stacks
        report["ok"] = report["ok"] and in_redis == report["stacks_in_play"]
    return report
