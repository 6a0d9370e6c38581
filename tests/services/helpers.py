"""Driving tables through the service layer (the same path the socket uses), for tests."""

from __future__ import annotations

import uuid

import httpx

from app.services.table import doc as D
from tests.ws.client import register


async def humans(srv, n: int) -> list[tuple[dict, dict]]:
    """``n`` registered players as (player, auth headers)."""
    out = []
    async with httpx.AsyncClient(base_url=srv.url) as http:
        for i in range(n):
            token, auth = await register(http, f"Player {i}")
            out.append(((await srv.live.sessions.authenticate(token)).player, auth))
    return out


async def table_with(
    srv,
    game: str,
    players: list[dict],
    *,
    bots: bool = False,
    options: dict | None = None,
    turn_seconds: int | None = None,
    buy_in: int | None = None,
    seats: int | None = None,
) -> str:
    tables = srv.live.tables
    made = await tables.create(game, seats or len(players), options or {}, turn_seconds)
    for n, p in enumerate(players):
        await tables.sit(p, made["id"], n, buy_in)
    if bots:
        await tables.add_bots(players[0], made["id"])
    return made["id"]


async def play_turn(srv, tid: str, pick=lambda legal: legal[0]) -> dict | None:
    """If a human is to act, play ``pick(legal)`` for them; the ack (None: nobody to move)."""
    snap = await srv.live.store.load(tid)
    doc = snap.doc
    if doc["status"] != "playing":
        return None
    n = doc["clock"]["seat"] if doc["clock"] else None
    seat = doc["seats"][n] if n is not None else None
    if seat is None or seat["bot"] or seat["away"] or seat["leaving"]:
        return None
    view = srv.live.views.view(snap, n)
    assert view["seat"] == D.game_seat(doc, n)
    cmd = uuid.uuid4().hex
    return await srv.live.tables.act(tid, seat["player"], cmd, snap.v, pick(view["legal"]))
