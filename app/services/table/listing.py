"""Looking at tables: one table, the lobby's pages, the table a join code names and a player's
own tables.

What the lobby lists, and in which order, is lobby_index.py's index, written by the
compare-and-set: a private table is never listed (its link ``#/t/<id>`` or its join code lets
friends in); nor is a table nobody is at (a human seat neither away nor leaving; bots alone do
not count), which closes by itself through the write path once no human has held a seat for
``empty_table_seconds`` (doc.py ``chores``); "my tables" come from a small per-player set
(app/store/seated.py), never from a scan.
"""

from __future__ import annotations

from typing import Any

from app.games import registry

from . import doc as D
from . import lobby_index
from .base import TableParts
from .errors import TableError, closed
from .seating import join_code


def _page(items: list[dict], page: int, per_page: int) -> dict:
    start = (page - 1) * per_page
    return {
        "items": items[start : start + per_page],
        "page": page,
        "per_page": per_page,
        "total": len(items),
    }


class Listing(TableParts):
    """Reading tables: nothing here writes one."""

    async def get(self, tid: str, pid: Any = None) -> dict:
        """The table as the player ``pid`` (None: anonymous) sees it: a private table's join
        code only when seated there (``TableViews.summary_for``)."""
        return self.views.summary_for(await self.writer.snap(tid), pid)

    async def by_code(self, raw: str) -> dict:
        """The table a join code names: 422 ``bad_code`` (not a code), 404 ``no_such_code``,
        409 ``table_closed``."""
        code = join_code(raw)
        tid = await self.seated.table_of_code(code)
        snap = await self.store.snapshot(tid) if tid is not None else None
        if snap is None:
            raise TableError(404, "no_such_code", f"no table has the code {code}")
        if snap.doc["status"] == D.TableStatus.CLOSED:
            raise closed(snap.tid)
        return self.views.summary(snap)

    async def mine(self, player: dict) -> list[dict]:
        """The tables the player sits at (not leaving), newest first; entries of the player's
        set where they no longer sit are dropped from it."""
        tids = await self.seated.tables(player["id"])
        snaps = {s.tid: s for s in await self.store.load_many(tids)}
        mine, gone = [], []
        for tid in tids:
            snap = snaps.get(tid)
            n = D.seat_of(snap.doc, player["id"]) if snap else None
            if snap is None or n is None or D.taken_seat(snap.doc, n)["leaving"]:
                gone.append(tid)
            else:
                mine.append(self.views.summary(snap))
        await self.seated.forget(player["id"], gone)
        return sorted(mine, key=lambda t: -t["created"])

    async def list_tables(
        self,
        *,
        game: str | None,
        stake: int | None,
        seats: str = "all",
        sort: lobby_index.Sort = "newest",
        page: int,
        per_page: int,
    ) -> dict:
        """One page of the lobby from its index (lobby_index.py: what is listed,
        in which order): two round trips, the page's ids and then their documents, however many
        tables are live. ``seats``: ``open`` (a seat to take), ``full`` (only to watch) or
        ``all``; anything else is 422 ``bad_seats``."""
        if game is not None and game not in registry.available():
            raise TableError(422, "no_such_game", f"unknown game {game!r}", "query.game")
        if seats not in lobby_index.SEATS:
            raise TableError(422, "bad_seats", "seats is open, full or all", "query.seats")
        facet = lobby_index.facet(game, stake, seats, sort)
        total, tids = await self.store.lobby_page(facet, (page - 1) * per_page, per_page)
        snaps = await self.store.load_many(tids)
        return {
            "items": [self.views.summary(s) for s in snaps],
            "page": page,
            "per_page": per_page,
            "total": total,
        }

    async def all_tables(self, *, page: int, per_page: int) -> dict:
        """Every live table, newest first, private and abandoned ones too (the operators'
        console: it reads the live registry, which grows with the tables)."""
        snaps = await self.store.load_many(await self.store.live_tables())
        snaps.sort(key=lambda s: -s.doc["created"])
        return _page([self.views.summary(s) for s in snaps], page, per_page)
