"""Finished matches: ``GET /api/players/me/matches``, ``GET /api/matches/{id}`` and its
``/replay`` (app/services/match_replay.py: the match step by step as the player's seat saw it).

A match's ``id`` is its random public id; a private table's matches are its players' and the
operators' only (app/services/history.py), anyone else gets 404 ``no_such_match``."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from app.services import history, match_replay

from .bodies import JsonRoute
from .deps import Live, MaybePlayer, Player, answers, database
from .fields import MatchId, Page
from .wallet import player_id

router = APIRouter(
    route_class=JsonRoute, tags=["history"], responses=answers(401, 404, 409, 422, 503)
)


class MatchLine(BaseModel):
    id: str = Field(description="the match's public id (GET /api/matches/{id})")
    table: str
    table_name: str  # readable, derived from the id (app/services/table/names.py)
    number: int = Field(description="the match's number at its table (Gaple: the round)")
    game: str
    finished_at: str | None
    seat: int
    score: int | None
    winner: bool


class MatchPage(BaseModel):
    items: list[MatchLine]
    page: int
    per_page: int
    total: int


@router.get("/api/players/me/matches", response_model=MatchPage)
async def my_matches(
    player: Player,
    live: Live,
    page: Page = 1,
    per_page: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict:
    """The player's finished matches, newest first, a page at a time as every list."""
    with database():
        total, items = await history.player_matches(
            live.db, player_id(player), page=page, per_page=per_page
        )
    return {"items": items, "page": page, "per_page": per_page, "total": total}


class MatchRecord(BaseModel):
    """A finished match as the database keeps it (``python -m app replay`` re-runs it)."""

    id: str
    table: str
    table_name: str  # readable, derived from the id (app/services/table/names.py)
    number: int
    game: str
    options: dict[str, Any] | None
    seed: str | None
    started_at: str | None
    finished_at: str | None
    result: dict[str, Any] | None
    players: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    moves: list[dict[str, Any]]


@router.get("/api/matches/{match_id}", response_model=MatchRecord)
async def match(match_id: MatchId, live: Live, reader: MaybePlayer) -> dict:
    """Players, options, result, payments and the action log of a finished match (a private
    table's: signed in as one of its players, or an operator)."""
    with database():
        record = await history.match_record(
            live.db, match_id, player_id(reader) if reader else None
        )
    if record is None:
        raise match_replay.no_match(match_id)
    return record


class ReplayStep(BaseModel):
    seat: int | None = Field(description="who acted (None: the deal)")
    v: int | None = Field(description="the table version the move made")
    view: dict[str, Any] = Field(description="the rules' view of your seat after it")
    events: list[dict[str, Any]]


class ReplaySeat(BaseModel):
    seat: int
    name: str
    bot: bool


class MatchReplay(BaseModel):
    id: str
    table: str
    table_name: str  # readable, derived from the id (app/services/table/names.py)
    number: int
    game: str
    finished_at: str | None
    seat: int | None = Field(description="your seat in the match (None: a spectator's view)")
    players: list[ReplaySeat]
    steps: list[ReplayStep]


@router.get("/api/matches/{match_id}/replay", response_model=MatchReplay)
async def replay(match_id: MatchId, player: Player, live: Live, request: Request) -> Response:
    """The finished match from the deal on, one step per move, each as your seat saw it
    (gzip-compressed for a client that takes it)."""
    with database():
        record = await match_replay.match_replay(live.db, match_id, player_id(player))
    gz = "gzip" in request.headers.get("accept-encoding", "")
    body = await asyncio.to_thread(match_replay.encoded, record, gz)
    headers = {"Vary": "Accept-Encoding", **({"Content-Encoding": "gzip"} if gz else {})}
    return Response(body, media_type="application/json", headers=headers)
