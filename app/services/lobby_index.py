"""The lobby's index: which facets a table is listed under, so a lobby page reads an index and
never every table.

A facet is one question the lobby asks: ``<game>:<stake>:<seats>``, each part either a value or
``*`` (any), ``<seats>`` being ``open`` (a seat is free) or ``all``. A table is listed under
every facet it answers (at most eight: its game or any, its stake or any, open or all), and
quick join has its own, ``<game>:join``: tables of that game with a free seat and a human at
them that a newcomer may sit at now. Each facet is a sorted set per bucket (``Keys.lobby``)
scored by the table's creation time, so a page of one facet is the newest entries of its
buckets, merged (``TableStore.lobby_page``). A closed table is in none, and so is a private
one (``doc["private"]``): private tables are never listed, at no cost.

The compare-and-set that changes a table moves it between facets in the same script
(``facet_change``: the facets of the document before and after), so the index is never behind.
"""

from __future__ import annotations

from typing import Any

from . import table_doc as D

ANY = "*"


def facet(game: str | None, stake: int | None, open_seats: bool) -> str:
    """The facet of a lobby query (GET /api/tables)."""
    return f"{game or ANY}:{ANY if stake is None else stake}:{'open' if open_seats else 'all'}"


def join_facet(game: str) -> str:
    return f"{game}:join"


def facets(doc: Any) -> set[str]:
    """Every facet the table is listed under now (none when it is closed or private)."""
    if doc is None or doc["status"] == D.TableStatus.CLOSED or doc.get("private"):
        return set()
    free = None in doc["seats"]
    out = {
        facet(game, stake, open_seats)
        for game in (doc["game"], None)
        for stake in {doc["stake"], None}
        for open_seats in {free, False}
    }
    if free and D.human_seated(doc) and (doc["chips"] or doc["status"] == D.TableStatus.WAITING):
        out.add(join_facet(doc["game"]))
    return out


def facet_change(before: Any, after: Any) -> tuple[list[str], list[str], int]:
    """(facets the table leaves, facets it joins, its score): ``TableStore.cas``'s ``lobby``."""
    old, new = facets(before), facets(after)
    return sorted(old - new), sorted(new - old), after["created"]
