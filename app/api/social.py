"""Friends, table invites and daily missions (docs/players.md "Friends", "Daily missions"):

- ``GET /api/friends``, ``POST /api/friends`` ``{"player_id"}``, ``DELETE /api/friends/{id}``;
- ``POST /api/friends/{id}/invite`` ``{"table"}``: invite a friend to the table you sit at;
- ``GET /api/invites``, ``POST /api/invites/{id}/accept`` (the table, to sit at through the
  normal sitting path), ``DELETE /api/invites/{id}``;
- ``GET /api/missions``: today's missions (Asia/Jakarta day) and the player's progress.

Refusals carry a code (app/services/friends.py): ``friend_self``, ``no_such_player``,
``already_friends``, ``not_friends``, ``too_many_friends``, ``invite_not_seated``,
``friend_seated``, ``no_such_invite``, ``invite_expired`` (410), ``table_gone``. Adding or
removing a friend and sending an invite are rate limited per player and address (``friend``,
``invite``).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, Field

from .bodies import JsonRoute
from .deps import Live, Player, answers
from .fields import PUBLIC_ID, PlayerId
from .limits import by_player
from .lobby import TableOut
from .wallet import player_id

router = APIRouter(
    route_class=JsonRoute,
    prefix="/api",
    tags=["friends"],
    responses=answers(401, 403, 404, 409, 410, 422, 429, 503),
)
InviteId = Annotated[str, Path(pattern=PUBLIC_ID)]


class NewFriend(BaseModel):
    player_id: int = Field(ge=1, le=2**63 - 1)


class FriendOut(BaseModel):
    id: int
    name: str
    online: bool = False
    table: dict[str, Any] | None = Field(
        None,
        description="where the friend sits: the table's summary, only `private: true` for a "
        "private table, null when nowhere",
    )


class Friends(BaseModel):
    friends: list[FriendOut]


class InviteBody(BaseModel):
    table: str = Field(pattern=PUBLIC_ID)


class InviteOut(BaseModel):
    id: str
    from_: int = Field(alias="from", serialization_alias="from")
    name: str = Field(description="who invites you")
    table: str
    game: str
    at: int = Field(description="sent at, ms since the epoch")
    expires: int = Field(description="expires at, ms since the epoch")


class Invites(BaseModel):
    invites: list[InviteOut]


class Accepted(BaseModel):
    table: TableOut


class MissionOut(BaseModel):
    name: str
    game: str
    goal: int
    count: int
    reward: int
    done: bool
    paid: bool


class MissionsOut(BaseModel):
    day: date = Field(description="today in Asia/Jakarta (WIB)")
    next_at: datetime = Field(description="when the next day's missions begin")
    missions: list[MissionOut]


@router.get("/friends", response_model=Friends)
async def friends(player: Player, live: Live) -> dict:
    """Your friends, online ones first, with the table each sits at."""
    return {"friends": await live.friends.listing(player_id(player))}


@router.post(
    "/friends", status_code=201, response_model=FriendOut, dependencies=[by_player("friend")]
)
async def add_friend(body: NewFriend, player: Player, live: Live) -> dict:
    return await live.friends.add(player_id(player), body.player_id)


@router.delete("/friends/{pid}", status_code=204, dependencies=[by_player("friend")])
async def remove_friend(pid: PlayerId, player: Player, live: Live) -> Response:
    await live.friends.remove(player_id(player), pid)
    return Response(status_code=204)


@router.post(
    "/friends/{pid}/invite",
    status_code=201,
    response_model=InviteOut,
    response_model_by_alias=True,
    dependencies=[by_player("invite")],
)
async def invite(pid: PlayerId, body: InviteBody, player: Player, live: Live) -> dict:
    """Invite a friend to the table you sit at: it shows in their lobby until it expires."""
    return await live.friends.invite(player_id(player), player["name"], pid, body.table)


@router.get("/invites", response_model=Invites, response_model_by_alias=True)
async def invites(player: Player, live: Live) -> dict:
    """Your table invites not yet expired, newest first (the lobby asks every few seconds)."""
    return {"invites": await live.friends.invites(player_id(player))}


@router.post("/invites/{iid}/accept", response_model=Accepted)
async def accept(iid: InviteId, player: Player, live: Live) -> dict:
    """The invite's table, to sit at (the buy-in is asked as for any seat); used up."""
    return {"table": await live.friends.accept(player_id(player), iid)}


@router.delete("/invites/{iid}", status_code=204)
async def decline(iid: InviteId, player: Player, live: Live) -> Response:
    await live.friends.decline(player_id(player), iid)
    return Response(status_code=204)


@router.get("/missions", response_model=MissionsOut)
async def missions(player: Player, live: Live) -> dict:
    """Today's three missions and your progress; each pays its reward once, when done."""
    return await live.missions.today(player_id(player), datetime.now(UTC))
