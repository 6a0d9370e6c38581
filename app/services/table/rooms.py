"""Stake rooms (docs/players.md "Stake rooms"): a chips game's tables grouped by stake, each room
with the least a wallet must hold to quick-join it (``MEJA_STAKE_ROOMS``), and how many players
are online in each.

Decision: quick join with no room named picks the highest room the wallet opens, so a new
guest's 1,000 chips land at a stake-10 table, never at a stake-50 one. A room's minimum is at
least its smallest buy-in (app/config.py checks it), so whoever may enter a room can sit there.

"Online" in a room: the players with an open socket (app/store/presence.py) at a public table of
its stake, each counted once per room, spectators too. It is read from the newest
``ROOM_TABLES`` tables of each room and kept ``ONLINE_SECONDS`` in the process, so a lobby
polling every few seconds costs Redis a few reads per process, however many players there are.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from app.config import Settings
from app.db import reach
from app.games import registry
from app.services import money
from app.store.presence import Presence
from app.store.tables import TableStore

from . import lobby_index
from .errors import TableError
from .stakes import buy_in_limits

ROOM_TABLES = 200  # the tables of a room whose sockets are counted
ONLINE_SECONDS = 5.0  # how long one process keeps a count


@dataclass(frozen=True)
class Room:
    stake: int
    min_wallet: int


def rooms(settings: Settings) -> list[Room]:
    """The rooms, lowest stake first."""
    return [Room(s, m) for s, m in sorted(settings.stake_rooms.items())]


def room_of(settings: Settings, stake: int) -> Room:
    """The room of ``stake``, or 422 ``no_such_room``."""
    least = settings.stake_rooms.get(stake)
    if least is None:
        stakes = ", ".join(str(r.stake) for r in rooms(settings))
        raise TableError(422, "no_such_room", f"the rooms' stakes are {stakes}", "stake")
    return Room(stake, least)


def pick_room(settings: Settings, stake: int | None, wallet: int | None) -> Room:
    """The room a quick join sits in: ``stake``'s, else the highest the wallet opens (the lowest
    when the wallet is not known); 409 ``room_locked`` when the wallet holds less than the
    room's minimum."""
    if stake is not None:
        room = room_of(settings, stake)
    else:
        all_rooms = rooms(settings)
        opened = [r for r in all_rooms if wallet is None or r.min_wallet <= wallet]
        room = opened[-1] if opened else all_rooms[0]
    if wallet is not None and wallet < room.min_wallet:
        raise TableError(
            409,
            "room_locked",
            f"the stake-{room.stake} room needs {room.min_wallet} chips in your wallet;"
            f" you have {wallet}",
        )
    return room


def chips_game(game: str) -> bool:
    """Whether ``game`` is played for chips (it has rooms), or 404 ``no_such_game``."""
    if game not in registry.available():
        raise TableError(404, "no_such_game", f"unknown game {game!r}")
    return registry.get_ruleset(game).descriptor.chips


async def balance(db: Any, pid: Any) -> int:
    """The player's wallet; 503 when the database cannot be reached."""
    try:
        return await money.balance(db, pid)
    except reach.Unavailable as e:
        raise TableError(503, e.code, e.message) from e
    except money.MoneyError as e:
        raise TableError(409, e.code, e.message) from e


class Rooms:
    """The rooms of a chips game as the lobby shows them: their bounds, who is online, and the
    one a player's wallet would quick-join."""

    def __init__(self, settings: Settings, store: TableStore, presence: Presence, db: Any):
        self.settings, self.store, self.presence, self.db = settings, store, presence, db
        self._online: dict[str, tuple[float, dict[int, int]]] = {}

    async def list(self, game: str, player: dict | None) -> dict:
        """Every room of ``game`` (404 ``no_rooms`` for a game not played for chips) with its
        buy-in bounds and players online; ``suggested``: the stake of the room a quick join
        would pick for the signed-in player (null: none opens, or not signed in)."""
        if not chips_game(game) or not self.settings.stake_rooms:
            raise TableError(404, "no_rooms", f"{game} is not played for chips")
        online = await self.online(game)
        wallet = None
        if player is not None and self.db is not None:
            wallet = await balance(self.db, player["id"])
        suggested = None
        if wallet is not None:
            opened = [r for r in rooms(self.settings) if r.min_wallet <= wallet]
            suggested = opened[-1].stake if opened else None
        return {
            "game": game,
            "wallet": wallet,
            "suggested": suggested,
            "rooms": [
                {
                    "stake": r.stake,
                    "min_wallet": r.min_wallet,
                    "buy_in": buy_in_limits(r.stake, self.settings).to_json(),
                    "online": online.get(r.stake, 0),
                }
                for r in rooms(self.settings)
            ],
        }

    async def online(self, game: str) -> dict[int, int]:
        """Players online per room's stake, at most ``ONLINE_SECONDS`` old."""
        kept = self._online.get(game)
        if kept is not None and time.monotonic() - kept[0] < ONLINE_SECONDS:
            return kept[1]
        counts = {}
        for r in rooms(self.settings):
            facet = lobby_index.facet(game, r.stake, "all")
            _, tids = await self.store.lobby_page(facet, 0, ROOM_TABLES)
            counts[r.stake] = len(await self.presence.online_at(tids))
        self._online[game] = (time.monotonic(), counts)
        return counts
