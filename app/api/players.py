"""Guest players: ``POST /api/players`` gives a signed token; ``GET /api/players/me``."""

from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import BaseModel, field_validator
from pydantic_core import PydanticCustomError

from app.services.players import BadName, check_name

from .deps import Live, Player
from .limits import by_address

router = APIRouter(prefix="/api/players", tags=["players"])


class NewPlayer(BaseModel):
    name: str

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        """422 naming the field, its ``type`` the reason: ``bad_name`` or ``bot_name``."""
        try:
            return check_name(value)
        except BadName as e:
            raise PydanticCustomError(e.code, e.message) from None


class PlayerOut(BaseModel):
    id: str | int
    name: str


class Registered(BaseModel):
    token: str
    player: PlayerOut


@router.post("", status_code=201, response_model=Registered, dependencies=[by_address("signup")])
async def register(body: NewPlayer, response: Response, live: Live) -> Registered:
    """Create a guest. The token goes in ``Authorization: Bearer`` (or ``?token=`` on the
    socket); it is also set as an HttpOnly cookie for the browser. Rate limited per client
    address (429 ``rate_limited``)."""
    player, token = await live.players.register(body.name)
    response.set_cookie(
        live.settings.cookie_name, token, httponly=True, samesite="lax", max_age=365 * 24 * 3600
    )
    return Registered(token=token, player=PlayerOut(**player))


@router.get("/me", response_model=PlayerOut)
async def me(player: Player) -> PlayerOut:
    return PlayerOut(**player)
