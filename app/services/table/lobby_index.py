"""The lobby's index: which facets a table is listed under, so a lobby page reads an index and
never every table.

A facet is one question the lobby asks: ``<game>:<stake>:<seats>:<sort>``, the first two
parts either a value or ``*`` (any), ``<seats>`` being ``open`` (a seat is free), ``full`` (none
is: only to watch) or ``all``, ``<sort>`` the list's order. A table is listed under every facet
it answers (its game or any, its stake or any, open or full and all, in each of the four orders:
at most 32), and quick join has its own, ``<game>:join`` and, for a chips table, the one of its
stake room, ``<game>:<stake>:join`` (rooms.py): tables of that game with a free seat and a human
at them that a newcomer may sit at now. Each facet is a sorted set per bucket (``Keys.lobby``),
so a page of one facet is the highest-scored entries of its buckets, merged
(``TableStore.lobby_page``).

The score is the order: the creation time (newest first), or the stake or the open seats
first and then the creation time (``score``). What is listed (docs/design.md "The lobby"): a
table that is not closed, not private (``doc["private"]``: never listed, at no cost) and that
someone is really at (``doc.human_seated``: bots alone, or humans who are all away or
leaving, do not make a table worth joining; it closes by itself later, doc.py ``chores``).

The compare-and-set that changes a table moves it between facets in the same script
(``facet_change``: the facets and scores of the document before and after), so the index is
never behind.
"""

from __future__ import annotations

from typing import Any, Literal

from . import doc as D

ANY = "*"
Sort = Literal["newest", "stake_low", "stake_high", "open_seats"]
SORTS: tuple[Sort, ...] = ("newest", "stake_low", "stake_high", "open_seats")
Seats = Literal["open", "full", "all"]
SEATS: tuple[Seats, ...] = ("open", "full", "all")
# An order's first key times this, plus the creation second: exact in a double (2**53) for
# stakes up to 900,000 and creation times up to the year 2286.
FIRST = 10**10


def facet(game: str | None, stake: int | None, seats: Seats, sort: Sort = "newest") -> str:
    """The facet of a lobby query (GET /api/tables)."""
    return f"{game or ANY}:{ANY if stake is None else stake}:{seats}:{sort}"


def score(doc: Any, sort: Sort) -> int:
    """The table's place in an order, highest first; the newest first among equals."""
    created = doc["created"]
    newer = created // 1000
    stake = doc["stake"] or 0
    if sort == "stake_low":
        return -stake * FIRST + newer
    if sort == "stake_high":
        return stake * FIRST + newer
    if sort == "open_seats":
        return doc["seats"].count(None) * FIRST + newer
    return created


def join_facet(game: str, stake: int | None = None) -> str:
    """Quick join's tables of ``game``, or of its stake room ``stake``."""
    return f"{game}:join" if stake is None else f"{game}:{stake}:join"


def facets(doc: Any) -> dict[str, int]:
    """Every facet the table is listed under now, with its score there (none when it is
    closed, private or nobody is at it)."""
    if (
        doc is None
        or doc["status"] == D.TableStatus.CLOSED
        or doc.get("private")
        or not D.human_seated(doc)
    ):
        return {}
    free = None in doc["seats"]
    out = {
        facet(game, stake, seats, sort): score(doc, sort)
        for game in (doc["game"], None)
        for stake in {doc["stake"], None}
        for seats in ("open" if free else "full", "all")
        for sort in SORTS
    }
    if free and (doc["chips"] or doc["status"] == D.TableStatus.WAITING):
        out[join_facet(doc["game"])] = doc["created"]
        if doc["stake"] is not None:
            out[join_facet(doc["game"], doc["stake"])] = doc["created"]
    return out


def facet_change(before: Any, after: Any) -> tuple[list[str], list[tuple[str, int]]]:
    """(facets the table leaves, (facet, score) of those it joins or moves in):
    ``TableStore.cas``'s ``lobby``. Most moves change neither, and write no index: what the
    facets are made of is compared first, and only a change of it builds them."""
    if _listing(before) == _listing(after):
        return [], []
    old, new = facets(before), facets(after)
    return sorted(old.keys() - new.keys()), sorted(
        (f, s) for f, s in new.items() if old.get(f) != s
    )


def _listing(doc: Any) -> tuple | None:
    """Everything ``facets`` reads of a document (equal: the same facets and scores)."""
    if doc is None:
        return None
    seats = [None if s is None else (s["bot"], s["away"], s["leaving"]) for s in doc["seats"]]
    return (
        doc["status"],
        doc.get("private"),
        seats,
        doc["game"],
        doc["stake"],
        doc["chips"],
        doc["created"],
    )
