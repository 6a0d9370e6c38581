"""Finished matches: ``GET /api/players/me/matches`` and ``GET /api/matches/{id}``."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Query

from app.services import history

from .deps import ID_MAX, Player, answers, database
from .wallet import Db, player_id

router = APIRouter(tags=["history"], responses=answers(401, 404, 422, 503))


@router.get("/api/players/me/matches")
async def my_matches(
    player: Player,
    db: Db,
    limit: int = Query(50, ge=1, le=200),
    before: int | None = Query(None, ge=1, le=ID_MAX),
) -> list[dict]:
    with database():
        return await history.player_matches(db, player_id(player), limit=limit, before=before)


@router.get("/api/matches/{match_id}")
async def match(match_id: int, db: Db) -> dict:
    """Players, options, result, payments and the action log of a finished match."""
    record = None
    if 0 < match_id <= ID_MAX:
        with database():
            record = await history.match_record(db, match_id)
    if record is None:
        raise HTTPException(404, f"no finished match {match_id}")
    return record
