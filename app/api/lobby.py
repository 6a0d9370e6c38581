"""The lobby: list, create, look at, sit at, leave and fill tables; quick join; rematch.

Each route parses, calls one TableService function and answers; refusals are TableError
(404 unknown table or seat, 409 a seat taken or not yours, 422 bad options naming the field).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from .deps import Live, Player

router = APIRouter(prefix="/api", tags=["tables"])


class NewTable(BaseModel):
    game: str = Field(description="gaple | moon | cross | mexican_train (those available)")
    seats: int = Field(description="number of seats; the ruleset says how many it allows")
    turn_seconds: int | None = Field(None, ge=1, le=600,
                                     description="turn clock (RULES.md O-3); default 20")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="the game's table options (RULES.md)")


class SitBody(BaseModel):
    buy_in: int | None = Field(None, ge=1, description="chips tables: the stack to sit with")


class QuickJoin(BaseModel):
    game: str


@router.get("/tables")
async def list_tables(live: Live, game: str | None = None, stake: int | None = None,
                      open: bool = Query(False, description="only tables with an open seat"),
                      page: int = Query(1, ge=1), per_page: int = Query(20, ge=1, le=100)
                      ) -> dict:
    return await live.tables.list(game=game, stake=stake, open_seats=open, page=page,
                                  per_page=per_page)


@router.post("/tables", status_code=201)
async def create_table(body: NewTable, live: Live, player: Player) -> dict:
    return await live.tables.create(body.game, body.seats, body.options, body.turn_seconds)


@router.get("/tables/{tid}")
async def get_table(tid: str, live: Live) -> dict:
    return await live.tables.get(tid)


@router.post("/tables/{tid}/seats/{n}")
async def sit(tid: str, n: int, live: Live, player: Player, body: SitBody | None = None) -> dict:
    return await live.tables.sit(player, tid, n, body.buy_in if body else None)


@router.delete("/tables/{tid}/seats/{n}")
async def leave(tid: str, n: int, live: Live, player: Player) -> dict:
    return await live.tables.leave(player, tid, n)


@router.post("/tables/{tid}/bots")
async def add_bots(tid: str, live: Live, player: Player) -> dict:
    return await live.tables.add_bots(player, tid)


@router.post("/tables/{tid}/rematch")
async def rematch(tid: str, live: Live, player: Player) -> dict:
    return await live.tables.rematch(player, tid)


@router.post("/quick-join")
async def quick_join(body: QuickJoin, live: Live, player: Player) -> dict:
    return await live.tables.quick_join(player, body.game)
