"""Guest players: ``POST /api/players`` signs a new guest in; ``GET /api/players/me``; the
avatars (``GET /api/players/avatars``, ``PUT /api/players/me/avatar``)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, field_validator
from pydantic_core import PydanticCustomError

from app.services import accounts, avatars
from app.services.players import NAME_LIMITS, BadName, check_name

from .bodies import JsonRoute
from .deps import Live, Player, answers
from .fields import Text
from .limits import by_address
from .session import PlayerOut, SignedIn, signed_in

router = APIRouter(
    route_class=JsonRoute,
    prefix="/api/players",
    tags=["players"],
    responses=answers(401, 403, 422, 429, 503),
)


class NewPlayer(BaseModel):
    name: Text

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        """422 naming the field, its ``type`` the reason (``name_length`` with the limits in
        its ``ctx``, ``bad_name``, ``bot_name``)."""
        try:
            return check_name(value)
        except BadName as e:
            raise PydanticCustomError(e.code, e.message, e.limits) from None


@router.post("", status_code=201, response_model=SignedIn, dependencies=[by_address("signup")])
async def register(body: NewPlayer, request: Request, response: Response, live: Live) -> SignedIn:
    """Create a guest and sign it in: the session's cookies for the browser, and the access
    token for other clients (``Authorization: Bearer``; on the socket too). Rate limited per
    client address (429 ``rate_limited``)."""
    return signed_in(response, request, *await live.accounts.guest(body.name))


class Limits(BaseModel):
    min: int
    max: int


class NameRules(BaseModel):
    """The lengths the server accepts; the page's hints and error texts show these numbers."""

    name: Limits
    username: Limits
    password: Limits


@router.get("/rules", response_model=NameRules)
async def rules() -> NameRules:
    """The limits of a display name, a username and a password: one source for the server's
    checks, its error bodies (``min``, ``max``) and the page's hints."""
    return NameRules(
        name=Limits(**NAME_LIMITS),
        username=Limits(**accounts.USERNAME_LIMITS),
        password=Limits(**accounts.PASSWORD_LIMITS),
    )


@router.get("/me", response_model=PlayerOut)
async def me(player: Player) -> PlayerOut:
    """Who is signed in: ``kind`` is ``guest`` or ``account`` (with its ``username``)."""
    return PlayerOut(**player)


class AvatarList(BaseModel):
    """The avatars a player may choose (static/img/avatars/<id>.svg), and the bots' own."""

    avatars: list[str]
    bot: str


@router.get("/avatars", response_model=AvatarList)
async def avatar_list() -> AvatarList:
    return AvatarList(avatars=list(avatars.AVATARS), bot=avatars.BOT)


class Avatar(BaseModel):
    avatar: str

    @field_validator("avatar")
    @classmethod
    def _avatar(cls, value: str) -> str:
        """422 ``unknown_avatar`` for an id not in the set (the bots' own included)."""
        try:
            return avatars.check(value)
        except avatars.UnknownAvatar as e:
            raise PydanticCustomError(e.code, str(e)) from None


@router.put("/me/avatar", response_model=PlayerOut)
async def choose_avatar(body: Avatar, player: Player, live: Live) -> PlayerOut:
    """The signed-in player's avatar from now on: on their profile and the boards at once, at
    a table from the next time they sit down (a seat keeps the one it was taken with)."""
    return PlayerOut(**await live.players.choose_avatar(player["id"], body.avatar))
