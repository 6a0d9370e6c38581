"""The lobby: list, create, look at, sit at, leave and fill tables; quick join; rematch; a
private table by its join code; the player's own tables.

Each route parses, calls one ``Tables`` function and answers; refusals are TableError
(404 unknown table or seat, 409 a seat taken or not yours, 422 bad options naming the field).
Creating a table, sitting and quick join are rate limited per player and address (429).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from app.services.table.doc import TableStatus
from app.services.table.lobby_index import Sort

from .bodies import JsonRoute
from .deps import Live, MaybePlayer, Player, answers
from .fields import ID_MAX, Page, Seat, TableId, Text
from .limits import by_player

router = APIRouter(
    route_class=JsonRoute,
    prefix="/api",
    tags=["tables"],
    responses=answers(401, 403, 404, 409, 422, 429, 503),
)


class SeatOut(BaseModel):
    seat: int
    name: str | None = Field(description="null: the seat is empty")
    avatar: str | None = Field(
        default=None, description="the player's when they sat (bots: bot); null: empty"
    )
    player_id: int | str | None
    bot: bool
    away: bool = Field(description="O-3: played by the bot until the player sends anything")
    stack: int | None = Field(description="chips on this seat (chips games)")
    leaving: bool = Field(description="left during the match; the bot plays it to the end")
    rematch: bool = False


class ClockOut(BaseModel):
    kind: Literal["turn", "bot", "next", "start"] = Field(
        description="next: the pause between rounds (G-12); start: the start countdown (O-5)"
    )
    at: int = Field(description="epoch milliseconds")
    seat: int | None


class TableOut(BaseModel):
    """A table as the lobby and every socket ``state`` message show it."""

    model_config = ConfigDict(extra="allow")
    id: str
    name: str = Field(description="readable, derived from the id (Melati 12); not unique")
    game: str
    v: int = Field(description="the table version; every change increments it")
    n_seats: int
    options: dict[str, Any] = Field(description="the game's options, validated by its rules")
    stake: int | None = Field(description="chips games only")
    turn_seconds: int
    start_seconds: int | None = Field(description="chips tables: the start countdown (O-5)")
    status: TableStatus = Field(description="closed: the final state stays readable")
    match_no: int = Field(description="matches dealt so far (Gaple: rounds)")
    players: list[int] = Field(description="the table seat of each game seat in play")
    seats: list[SeatOut]
    open_seats: int
    deadline: int | None = Field(description="end of a human's turn clock, epoch ms")
    clock: ClockOut | None
    result: dict[str, Any] | None = Field(description="outcome of the match that just ended")
    created: int = Field(description="epoch ms")
    private: bool = Field(description="never listed; friends come in by its link or code")
    code: str | None = Field(description="a private table's join code")


class TableList(BaseModel):
    items: list[TableOut]
    page: int
    per_page: int
    total: int


class MyTables(BaseModel):
    items: list[TableOut]


class Joined(BaseModel):
    table: TableOut
    seat: int


class SitBody(BaseModel):
    buy_in: int | None = Field(
        None,
        description="chips tables: the stack to sit with, between stake × MEJA_BUY_IN_MIN_STAKES"
        " and stake × MEJA_BUY_IN_MAX_STAKES; default the most, capped by the wallet",
    )


class NewTable(BaseModel):
    game: Text = Field(
        max_length=40, description="gaple | moon | cross | mexican_train (those available)"
    )
    seats: int = Field(description="number of seats; the ruleset says how many it allows")
    turn_seconds: int | None = Field(
        None, ge=1, le=600, description="turn clock (docs/rules.md O-3); default 20"
    )
    start_seconds: int | None = Field(
        None, description="chips tables: the start countdown, 0 … 60 (docs/rules.md O-5)"
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's table options (docs/rules.md)"
    )
    private: bool = Field(False, description="not listed; it gets a join code")
    sit: SitBody | None = Field(
        None,
        description="seat the creator in seat 0 with this buy-in; a sit that would be refused"
        " refuses the table, so none is left without its creator",
    )


class QuickJoin(BaseModel):
    game: Text = Field(max_length=40)
    stake: int | None = Field(
        None,
        ge=1,
        le=ID_MAX,
        description="chips games: the stake room (GET /api/rooms/{game}); default the highest"
        " room the wallet opens",
    )
    buy_in: int | None = Field(None, description="chips games: the stack to sit with (as SitBody)")


class RoomOut(BaseModel):
    stake: int
    min_wallet: int = Field(description="the least a wallet holds to quick-join this room")
    buy_in: dict[str, int] = Field(description="min, default and max buy-in at this stake")
    online: int = Field(description="players with a table of this stake open, a few seconds old")


class RoomsOut(BaseModel):
    game: str
    wallet: int | None = Field(description="the signed-in player's wallet")
    suggested: int | None = Field(
        description="the stake of the room quick join would pick (null: none opens)"
    )
    rooms: list[RoomOut]


@router.get("/tables", response_model=TableList)
async def list_tables(
    live: Live,
    game: Annotated[Text | None, Query(max_length=40)] = None,
    stake: Annotated[int | None, Query(ge=1, le=ID_MAX)] = None,
    seats: Annotated[
        Text,
        Query(max_length=10, description="open: a seat to take | full: only to watch | all"),
    ] = "all",
    sort: Annotated[Sort, Query(description="newest | stake_low | stake_high | open_seats")] = (
        "newest"
    ),
    page: Page = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict:
    """Public tables someone is at; filter by game, stake and seats (open, full or all; 422
    ``bad_seats``), sorted (newest, stake low or high, most open seats; the newest first among
    equals)."""
    return await live.tables.list_tables(
        game=game, stake=stake, seats=seats, sort=sort, page=page, per_page=per_page
    )


@router.get("/players/me/tables", response_model=MyTables)
async def my_tables(live: Live, player: Player) -> dict:
    """The tables the player sits at, private ones too, newest first."""
    return {"items": await live.tables.mine(player)}


@router.get("/codes/{code}", response_model=TableOut, dependencies=[by_player("join_code")])
async def table_of_code(code: Annotated[Text, Path(max_length=40)], live: Live) -> dict:
    """The private table a join code names (any case; spaces and dashes are ignored); signed
    in and rate limited, so codes cannot be guessed one after another."""
    return await live.tables.by_code(code)


@router.post(
    "/tables", status_code=201, response_model=TableOut, dependencies=[by_player("create_table")]
)
async def create_table(body: NewTable, live: Live, player: Player) -> dict:
    """A new table; its game's rules validate the options (422 names the field)."""
    return await live.tables.create(
        body.game,
        body.seats,
        body.options,
        body.turn_seconds,
        start_seconds=body.start_seconds,
        creator=player if body.sit is not None else None,
        buy_in=body.sit.buy_in if body.sit is not None else None,
        private=body.private,
    )


@router.get("/tables/{tid}", response_model=TableOut)
async def get_table(tid: TableId, live: Live, player: MaybePlayer) -> dict:
    """The table; a private table's ``code`` only for a player seated there."""
    return await live.tables.get(tid, player["id"] if player else None)


@router.post("/tables/{tid}/seats/{n}", response_model=TableOut, dependencies=[by_player("sit")])
async def sit(
    tid: TableId, n: Seat, live: Live, player: Player, body: SitBody | None = None
) -> dict:
    """Take seat ``n``; the match (round) starts by itself once the table is ready."""
    return await live.tables.sit(player, tid, n, body.buy_in if body else None)


@router.delete("/tables/{tid}/seats/{n}", response_model=TableOut)
async def leave(tid: TableId, n: Seat, live: Live, player: Player) -> dict:
    """Leave seat ``n``; during a match the bot plays it to the end, then it is freed."""
    return await live.tables.leave(player, tid, n)


@router.post("/tables/{tid}/bots", response_model=TableOut)
async def add_bots(tid: TableId, live: Live, player: Player) -> dict:
    """Give every empty seat a bot: a player seated at the table, or an operator (403
    ``not_at_table``)."""
    return await live.tables.add_bots(player, tid)


@router.post("/tables/{tid}/rematch", response_model=TableOut)
async def rematch(tid: TableId, live: Live, player: Player) -> dict:
    """Say yes to another match once this one is over (all seated humans must)."""
    return await live.tables.rematch(player, tid)


@router.post("/quick-join", response_model=Joined, dependencies=[by_player("quick_join")])
async def quick_join(body: QuickJoin, live: Live, player: Player) -> dict:
    """An open seat at a table with people, else a new table filled with bots. A chips game
    sits in a stake room: 422 ``no_such_room``, 409 ``room_locked`` (the wallet is below the
    room's minimum), and the buy-in's own refusals."""
    return await live.tables.quick_join(player, body.game, body.stake, body.buy_in)


@router.get("/rooms/{game}", response_model=RoomsOut)
async def stake_rooms(
    game: Annotated[Text, Path(max_length=40)], live: Live, player: MaybePlayer
) -> dict:
    """A chips game's stake rooms (404 ``no_rooms`` for another game, ``no_such_game``):
    each room's minimum wallet, buy-in bounds and players online."""
    return await live.rooms.list(game, player)
