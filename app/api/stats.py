"""Profiles and leaderboards: ``GET /api/players/{id}/profile`` and
``GET /api/leaderboards/{game}``. Unknown players and games are 404 (``no_such_player``,
``no_such_game``); bad parameters are FastAPI's 422 naming the query field."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from app.services import stats

from .bodies import JsonRoute
from .deps import Live, answers, database
from .fields import Page, PlayerId, Text

router = APIRouter(
    route_class=JsonRoute, prefix="/api", tags=["stats"], responses=answers(404, 422, 503)
)


class GameCount(BaseModel):
    game: str
    played: int
    won: int


class Chips(BaseModel):
    won: int = Field(description="Gaple: Lewat payments and settlements received")
    lost: int = Field(description="Gaple: Lewat payments and settlements paid")
    net: int


class Contracts(BaseModel):
    bid: int = Field(description="Moon rounds this player declared (won the bidding)")
    made: int = Field(description="of those, the contracts their side made")


class ProfileOut(BaseModel):
    id: int
    name: str
    avatar: str  # static/img/avatars/<avatar>.svg (app/services/avatars.py)
    games: list[GameCount]
    chips: Chips
    best_multiplier: int | None = Field(description="Gaple: the largest x of a round won")
    biggest_pot: int | None = Field(description="Gaple: the most chips one round's settlement paid")
    moon_contracts: Contracts
    daily_streak: int = Field(description="consecutive days of daily chips, 0 once broken")


class BoardRow(BaseModel):
    rank: int
    player_id: int
    name: str
    avatar: str  # static/img/avatars/<avatar>.svg (app/services/avatars.py)
    played: int
    won: int
    value: float = Field(description="net chips (Gaple), matches won, or the average score")


class BoardOut(BaseModel):
    game: str
    period: stats.Period
    since: str | None = Field(description="week: Monday 00:00 Asia/Jakarta, ISO time")
    metric: str = Field(description="net_chips | wins | average_score (lowest first)")
    min_matches: int | None = Field(description="average_score: matches needed to rank")
    page: int
    per_page: int
    total: int
    items: list[BoardRow]


@router.get("/players/{player_id}/profile", response_model=ProfileOut)
async def profile(player_id: PlayerId, live: Live) -> dict:
    """A player's games, chips, best Gaple round, Moon contracts and daily streak."""
    with database():
        return await stats.profile(live.db, player_id)


@router.get("/leaderboards/{game}", response_model=BoardOut)
async def leaderboard(
    game: Annotated[Text, Path(max_length=40)],
    live: Live,
    period: Annotated[stats.Period, Query(description="week | all")] = "week",
    page: Page = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict:
    """One page of the game's board, best first, with the number of players on it."""
    with database():
        return await stats.leaderboard(
            live.db,
            game,
            period,
            page=page,
            per_page=per_page,
            min_matches=live.settings.leaderboard_min_matches,
        )
