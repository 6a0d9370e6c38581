"""``GET /api/games``: the games and their options as data, so the create form needs no copy."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.services import catalog

from .bodies import JsonRoute
from .deps import Live

router = APIRouter(route_class=JsonRoute, prefix="/api", tags=["games"])


class OptionOut(BaseModel):
    key: str
    type: Literal["int", "bool", "choice"]
    default: Any
    label: str = Field(description="dictionary key of its name")
    help: str | None = Field(description="dictionary key of its explanation, if any")
    min: int | None = None
    max: int | None = None
    choices: list[Any] | None = None


class TableOptionOut(OptionOut):
    chips: bool = Field(False, description="only chips tables have it")


class SeatRange(BaseModel):
    min: int
    max: int
    default: int


class GameOut(BaseModel):
    name: str
    seats: SeatRange
    chips: bool = Field(description="played for chips: a stake, one deal per round (G-12)")
    managed: list[str] = Field(description="options the table sets each round, never the creator")
    options: list[OptionOut]


class BuyInOut(BaseModel):
    min_stakes: int
    max_stakes: int


class Games(BaseModel):
    games: list[GameOut]
    table_options: list[TableOptionOut] = Field(description="the table's own options")
    buy_in: BuyInOut = Field(description="a buy-in's bounds at a chips table, in stakes")


@router.get("/games", response_model=Games)
async def list_games(live: Live) -> dict:
    """Every game this server plays, with its seat range and options."""
    return catalog.games(live.settings)
