"""A finished match move by move, as one seat saw it: ``GET /api/matches/{id}/replay``.

The record keeps the match's options, seed and action log (``python -m app replay`` checks them);
re-running the log through the ruleset gives every state, and each step is answered as the
rules' ``view`` of the asking player's seat, so a replay shows exactly what that seat saw at the
table: its own hand, never another's, the hands only once the rules show them (O-2). A player
who did not sit in the match gets the spectator's view. Events are the rules' public events,
those every socket got live.

Decisions:
- Step 0 is the deal, with the ``match_started`` event the table sent; then one step per logged
  action, forced moves (O-4) and the bots' included, each with who acted and the table version.
- ``legal`` is empty in every step: a replay is watched, nothing can be sent from it.
- A bot's seat is named "Bot <seat + 1>", as the table names its bots.
"""

from __future__ import annotations

import asyncio
import gzip
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Move
from app.db.reach import iso
from app.games.errors import GameError
from app.games.registry import get_ruleset
from app.services.history import match_seats, readable_match
from app.services.table.errors import TableError
from app.services.table.names import table_name


def encoded(replay: dict[str, Any], compress: bool) -> bytes:
    """The answer's JSON, gzip-compressed when the client takes it: the views repeat themselves
    (a 1,100-move Mexican Train match is about 1.8 MB of JSON, 42 KB compressed)."""
    body = orjson.dumps(replay)
    return gzip.compress(body, 5) if compress else body


def no_match(match_id: str) -> TableError:
    return TableError(404, "no_such_match", f"no finished match {match_id}")


def steps(game: str, options: dict, n_seats: int, seed: int, log: list[dict], seat: int | None):
    """Every state of the match from the deal on, as ``seat``'s view with its events."""
    rs = get_ruleset(game)
    state = rs.new_state(options, n_seats, seed)

    def shown(state, acted: int | None, v: int | None, events) -> dict:
        return {
            "seat": acted,
            "v": v,
            "view": {**rs.view(state, seat), "legal": []},
            "events": list(events),
        }

    out = [shown(state, None, None, [])]
    for mv in log:
        step = rs.apply(state, mv["seat"], rs.parse_action(mv["action"]))
        state = step.state
        out.append(shown(state, mv["seat"], mv["v"], step.events))
    return out


async def match_replay(
    db: async_sessionmaker[AsyncSession], public_id: str, player_id: int | None
) -> dict[str, Any]:
    """The match's players and every step as the player's seat saw it (404 ``no_such_match``
    for a match not finished, not known or not the player's to read: history.readable_match;
    409 ``replay_failed`` when the log does not re-run)."""
    async with db() as session:
        match = await readable_match(session, public_id, player_id)
        if match is None or match.seed is None:
            raise no_match(public_id)
        match_id = match.id
        seats = await match_seats(session, match_id)
        moves = (
            (
                await session.execute(
                    select(Move).where(Move.match_id == match_id).order_by(Move.seq)
                )
            )
            .scalars()
            .all()
        )
    mine = next(
        (s.seat for s, _ in seats if player_id is not None and s.player_id == player_id), None
    )
    log = [{"seat": m.seat, "v": m.version, "action": m.action} for m in moves]
    try:  # in a thread: a long Mexican Train match is a thousand moves to re-run
        shown = await asyncio.to_thread(
            steps,
            match.game,
            match.options or {},
            match.n_seats or len(seats),
            int(match.seed),
            log,
            mine,
        )
    except (GameError, LookupError, KeyError, ValueError) as err:
        raise TableError(
            409, "replay_failed", f"match {public_id} does not re-run: {err}"
        ) from None
    shown[0]["events"] = [{"type": "match_started", "match_no": match.number}]
    return {
        "id": match.public_id,
        "table": match.table_id,
        "table_name": table_name(match.table_id),
        "number": match.number,
        "game": match.game,
        "finished_at": iso(match.finished_at),
        "seat": mine,
        "players": [
            # bots named as the table names them (app/services/table/seating.py)
            {"seat": s.seat, "name": name or f"Bot {s.seat + 1}", "bot": s.player_id is None}
            for s, name in seats
        ],
        "steps": shown,
    }
