"""The lobby reads its index (app/services/table/lobby_index.py), never every table: a page loads
the documents of that page only, whatever the number of live tables, and answers exactly what
filtering and sorting every table would (public tables someone is at,
docs/design.md "The lobby")."""

from __future__ import annotations

import asyncio
import copy
import time

import pytest

from app.games import registry
from app.services.table import doc as D
from app.services.table import lobby_index
from tests.services.helpers import humans

N_TABLES = 5000
QUERIES = [
    (None, None, "all"),
    ("gaple", None, "all"),
    ("gaple", 50, "all"),
    ("gaple", 10, "open"),
    (None, 10, "all"),
    (None, None, "open"),
    ("moon", None, "open"),
    (None, None, "full"),
    ("gaple", 10, "full"),
]


def _kind(i: int) -> tuple[str, int, dict]:
    if i % 3 == 0:
        return "moon", 4, {}
    return "gaple", 2 + i % 3, {"stake": (10, 50)[i % 2]}


async def test_a_lobby_page_of_5000_tables_reads_one_page_from_the_index(live_server):
    srv = await live_server()
    tables, store, writer = srv.live.tables, srv.live.store, srv.live.writer
    made: list[dict] = []
    for start in range(0, N_TABLES, 250):
        made += await asyncio.gather(
            *(tables.create(*_kind(i), None) for i in range(start, min(start + 250, N_TABLES)))
        )
    [(me, _)] = await humans(srv, 1)
    full = {t["id"] for t in made[:60:3]}  # Moon tables: seated, then filled with bots
    for tid in full:
        await tables.sit(me, tid, 0, None)
        await tables.add_bots(me, tid)

    def seated(snap, v_next):  # someone sits at it (the lobby lists no table nobody is at)
        ch = writer.begin(snap)
        stack = 1000 if ch.doc["chips"] else None
        ch.doc["seats"][0] = D.make_seat(me["id"], me["name"], bot=False, stack=stack, sit=v_next)
        return ch

    nobody = {t["id"] for t in made[::7]} - full
    for start in range(0, N_TABLES, 250):
        await asyncio.gather(
            *(
                writer.change(t["id"], seated)
                for t in made[start : start + 250]
                if t["id"] not in full | nobody
            )
        )

    def private(snap, v_next):  # as a private table's creator will have it
        ch = writer.begin(snap)
        ch.doc["private"] = True
        return ch

    hidden = [t["id"] for t in made[1:200:10]]
    for tid in hidden:
        await writer.change(tid, private)

    started = time.perf_counter()  # what a page cost when the lobby read every table
    docs = {s.tid: s.doc for s in await store.load_many(await store.live_tables())}
    every = time.perf_counter() - started
    assert len(docs) == N_TABLES
    loaded: list[int] = []
    load_many = store.load_many

    async def counted(tids):
        loaded.append(len(tids))
        return await load_many(tids)

    store.load_many = counted
    for game, stake, seats in QUERIES:
        expected = sorted(  # newest first, then the highest id (a bucket's ZRANGE REV order)
            (
                (d["created"], tid)
                for tid, d in docs.items()
                if not d.get("private")
                and D.human_seated(d)
                and (game is None or d["game"] == game)
                and (stake is None or d["stake"] == stake)
                and (seats == "all" or (None in d["seats"]) == (seats == "open"))
            ),
            reverse=True,
        )
        for page in (1, 3):
            got = await tables.list_tables(
                game=game, stake=stake, seats=seats, page=page, per_page=20
            )
            want = [tid for _, tid in expected[(page - 1) * 20 : page * 20]]
            assert [t["id"] for t in got["items"]] == want, (game, stake, seats, page)
            assert got["total"] == len(expected)
    assert max(loaded) == 20  # the page's documents, never the 5,000
    listed = await tables.list_tables(game=None, stake=None, page=1, per_page=100)
    assert not (set(hidden) | nobody) & {t["id"] for t in listed["items"]}
    listable = [(tid, d) for tid, d in docs.items() if not d.get("private") and D.human_seated(d)]
    orders = {  # reversed: the newest (by the second) first among equals, then the highest id
        "stake_low": lambda row: (-(row[1]["stake"] or 0), row[1]["created"] // 1000, row[0]),
        "stake_high": lambda row: ((row[1]["stake"] or 0), row[1]["created"] // 1000, row[0]),
        "open_seats": lambda row: (
            row[1]["seats"].count(None),
            row[1]["created"] // 1000,
            row[0],
        ),
    }
    for sort, key in orders.items():
        want = [tid for tid, _ in sorted(listable, key=key, reverse=True)[40:60]]
        got = await tables.list_tables(game=None, stake=None, sort=sort, page=3, per_page=20)
        assert [t["id"] for t in got["items"]] == want, sort

    store.load_many = load_many
    started, reads = time.perf_counter(), 20
    for _ in range(reads):
        await tables.list_tables(game="gaple", stake=None, seats="open", page=1, per_page=20)
    page = (time.perf_counter() - started) / reads
    print(
        f"{N_TABLES} tables: a page {page * 1000:.1f} ms, reading every one {every * 1000:.0f} ms"
    )


async def test_quick_join_takes_a_listed_table_never_a_private_one(live_server):
    srv = await live_server()
    tables, writer = srv.live.tables, srv.live.writer
    (a, _), (b, _), (c, _) = await humans(srv, 3)
    secret = await tables.create("moon", 4, {}, None)
    await tables.sit(a, secret["id"], 0, None)

    def private(snap, v_next):
        ch = writer.begin(snap)
        ch.doc["private"] = True
        return ch

    await writer.change(secret["id"], private)
    joined = await tables.quick_join(b, "moon")
    assert joined["table"]["id"] != secret["id"]  # a new table of its own, with bots
    open_one = await tables.create("moon", 4, {}, None)
    await tables.sit(a, open_one["id"], 0, None)
    again = await tables.quick_join(c, "moon")
    assert again["table"]["id"] == open_one["id"] and again["seat"] == 1


def _seated_doc() -> dict:
    rs = registry.get_ruleset("gaple")
    doc = D.new_doc(rs, "t1", 4, rs.parse_options({"stake": 10}, 4), 20, 1_700_000_000_000)
    doc["seats"][0] = D.make_seat(1, "Ani", bot=False, stack=500, sit=1)
    doc["seats"][1] = D.make_seat("bot:1", "Bot 2", bot=True, stack=500, sit=2)
    return doc


def _edited(edit) -> dict:
    doc = copy.deepcopy(_seated_doc())
    edit(doc)
    return doc


EDITS = {
    "a move (the game's state only)": lambda d: d.update(state="x", clock={"at": 5}),
    "the human steps away": lambda d: d["seats"][0].update(away=True),
    "the human is leaving": lambda d: d["seats"][0].update(leaving=True),
    "a seat taken": lambda d: d["seats"].__setitem__(
        2, D.make_seat(2, "B", bot=False, stack=9, sit=3)
    ),
    "the bot's seat freed": lambda d: d["seats"].__setitem__(1, None),
    "the match starts": lambda d: d.update(status=D.TableStatus.PLAYING),
    "closed": lambda d: d.update(status=D.TableStatus.CLOSED),
    "made private": lambda d: d.update(private=True),
}


@pytest.mark.parametrize("what", EDITS)
def test_a_change_moves_the_table_in_the_facets_its_documents_list_it_in(what):
    before, after = _seated_doc(), _edited(EDITS[what])
    old, new = lobby_index.facets(before), lobby_index.facets(after)
    expected = (
        sorted(old.keys() - new.keys()),
        sorted((f, s) for f, s in new.items() if old.get(f) != s),
    )
    assert lobby_index.facet_change(before, after) == expected
    # a chips table stays listed, and joinable, while it plays
    assert (expected == ([], [])) == (
        what in ("a move (the game's state only)", "the match starts")
    )


def test_a_table_with_a_free_seat_is_in_its_stake_room_and_a_full_one_only_to_watch():
    open_doc = _seated_doc()
    listed = lobby_index.facets(open_doc)
    assert {"gaple:join", "gaple:10:join", "*:*:open:newest", "*:*:all:newest"} <= listed.keys()
    assert "*:*:full:newest" not in listed
    full = _edited(
        lambda d: d["seats"].__setitem__(
            slice(2, 4),
            [D.make_seat(f"bot:{n}", "Bot", bot=True, stack=500, sit=3) for n in (2, 3)],
        )
    )
    listed = lobby_index.facets(full)
    assert {"*:*:full:newest", "gaple:10:full:stake_low", "*:*:all:newest"} <= listed.keys()
    assert not {"gaple:join", "gaple:10:join", "*:*:open:newest"} & listed.keys()
    assert len([f for f in listed if f.endswith(":newest")]) == 8  # game, stake, seats: 2 each
