"""Profiles and leaderboards from an exact history written through the records writer."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import event

from app.db.models import ChipClaim, LedgerTxn
from app.services import stats
from app.services.table.errors import TableError
from tests.stats.records import gaple, match, moon_round, players, utc, write

# Wednesday 2 December 2026, 12:00 in Jakarta; the week began Monday 30 November 00:00 WIB
NOW = utc("2026-12-02 05:00")
THIS_WEEK = utc("2026-12-01 03:00")
LAST_WEEK = utc("2026-11-25 03:00")


async def test_each_stat_of_the_profile_comes_from_the_records(sessions):
    ana, budi = await players(sessions, "Ana", "Budi")
    r1 = gaple([ana, budi, "bot:2"], 0, 3, [(1, 0, 100), (0, 2, 100)], THIS_WEEK)  # ana x3
    r2 = gaple([ana, budi], 1, 1, [], LAST_WEEK)  # budi x1
    r3 = gaple([budi, ana], 1, 2, [(0, 1, 100)], LAST_WEEK, stake=50)  # ana x2, pot 100
    moon = match("moon", [ana, "bot:1", budi, "bot:3"], [0, 2], [21, 9, 21, 9], THIS_WEEK)
    rounds = [
        moon_round(moon, 1, 0, True, THIS_WEEK),  # ana declares and makes it
        moon_round(moon, 2, 0, False, THIS_WEEK),  # ana declares and fails
        moon_round(moon, 3, 2, True, THIS_WEEK),  # budi
        moon_round(moon, 4, 1, True, THIS_WEEK),  # a bot: nobody's contract
    ]
    cross = match("cross", [budi, ana], [0], [100, 35], THIS_WEEK)
    train = match("mexican_train", [ana, budi, "bot:2"], [1], [80, 20, 50], THIS_WEEK)
    assert await write(sessions, r1, r2, r3, *rounds, moon, cross, train) == [True] * 10

    got = await stats.profile(sessions, ana, now=NOW)
    assert got["name"] == "Ana"
    assert {g["game"]: (g["played"], g["won"]) for g in got["games"]} == {
        "gaple": (3, 2),
        "moon": (1, 1),
        "cross": (1, 0),
        "mexican_train": (1, 0),
    }
    # won: Lewat 100 + settlements 2 x 300 (r1), Lewat 100 + settlement 100 (r3);
    # lost: Lewat 100 (r1), settlement 100 (r2)
    assert got["chips"] == {"won": 900, "lost": 200, "net": 700}
    assert (got["best_multiplier"], got["biggest_pot"]) == (3, 600)
    assert got["moon_contracts"] == {"bid": 2, "made": 1}
    assert got["daily_streak"] == 0

    other = await stats.profile(sessions, budi, now=NOW)
    assert other["chips"] == {"won": 100, "lost": 600, "net": -500}
    assert (other["best_multiplier"], other["biggest_pot"]) == (1, 100)
    assert other["moon_contracts"] == {"bid": 1, "made": 1}


async def test_a_record_written_twice_counts_once(sessions):
    (ana,) = await players(sessions, "Ana")
    entry = match("cross", [ana, "bot:1"], [0], [100, 3], THIS_WEEK)
    assert await write(sessions, entry) == [True]
    assert await write(sessions, entry) == [False]
    got = await stats.profile(sessions, ana, now=NOW)
    assert got["games"][2] == {"game": "cross", "played": 1, "won": 1}


async def test_a_player_without_records_has_an_empty_profile(sessions):
    (ana,) = await players(sessions, "Ana")
    got = await stats.profile(sessions, ana, now=NOW)
    assert [g["played"] for g in got["games"]] == [0, 0, 0, 0]
    assert got["chips"] == {"won": 0, "lost": 0, "net": 0}
    assert (got["best_multiplier"], got["biggest_pot"]) == (None, None)
    with pytest.raises(TableError) as err:
        await stats.profile(sessions, ana + 99, now=NOW)
    assert (err.value.status, err.value.code) == (404, "no_such_player")


async def _daily(sessions, pid: int, day: date, streak: int) -> None:
    async with sessions.begin() as s:
        txn = LedgerTxn(key=f"daily:{pid}:{day}", kind="daily")
        s.add(txn)
        await s.flush()
        s.add(
            ChipClaim(
                player_id=pid, kind="daily", day=day, seq=0, streak=streak, amount=1, txn_id=txn.id
            )
        )


async def test_the_daily_streak_holds_until_a_jakarta_day_is_missed(sessions):
    (ana,) = await players(sessions, "Ana")
    await _daily(sessions, ana, date(2026, 11, 30), 4)
    await _daily(sessions, ana, date(2026, 12, 1), 5)
    # 2 December 00:30 in Jakarta is still 1 December in UTC: the claim of 1 December is
    # yesterday's, so the streak holds; a day later it is broken
    assert (await stats.profile(sessions, ana, now=utc("2026-12-01 17:30")))["daily_streak"] == 5
    assert (await stats.profile(sessions, ana, now=utc("2026-12-02 16:59")))["daily_streak"] == 5
    assert (await stats.profile(sessions, ana, now=utc("2026-12-02 17:00")))["daily_streak"] == 0


async def test_the_week_starts_on_monday_0000_in_jakarta(sessions):
    ana, budi = await players(sessions, "Ana", "Budi")
    sunday_night = utc("2026-11-29 16:59:59")  # Sunday 23:59:59 WIB: last week
    monday = utc("2026-11-29 17:00:00")  # Monday 00:00 WIB: this week
    await write(
        sessions,
        match("moon", [ana, "bot:1", "bot:2", "bot:3"], [0, 2], [21, 0, 21, 0], sunday_night),
        match("moon", [budi, "bot:1", "bot:2", "bot:3"], [0, 2], [21, 0, 21, 0], monday),
    )
    week = await stats.leaderboard(sessions, "moon", "week", now=NOW)
    assert week["since"] == "2026-11-30T00:00:00+07:00"
    assert [(r["name"], r["value"]) for r in week["items"]] == [("Budi", 1)]
    last = await stats.leaderboard(sessions, "moon", "week", now=utc("2026-11-29 16:00"))
    assert [r["name"] for r in last["items"]] == ["Ana"]
    alltime = await stats.leaderboard(sessions, "moon", "all", now=NOW)
    assert [r["name"] for r in alltime["items"]] == ["Ana", "Budi"]  # a tie: the earlier id
    assert alltime["since"] is None and alltime["total"] == 2


async def test_boards_are_paginated_with_a_total(sessions):
    ids = await players(sessions, *(f"P{i:02}" for i in range(25)))
    entries = [
        match("cross", [pid, "bot:1"], [0], [100, 0], THIS_WEEK)
        for i, pid in enumerate(ids)
        for _ in range(i % 5)  # P04, P09, ... won 4 matches; P00, P05, ... none
    ]
    entries += [match("cross", [pid, "bot:1"], [1], [0, 100], THIS_WEEK) for pid in ids]
    await write(sessions, *entries)
    pages = [
        await stats.leaderboard(sessions, "cross", "all", page=p, per_page=10, now=NOW)
        for p in (1, 2, 3, 4)
    ]
    assert [p["total"] for p in pages] == [20] * 4  # the five without a win are not ranked
    assert [len(p["items"]) for p in pages] == [10, 10, 0, 0]
    rows = [r for p in pages for r in p["items"]]
    assert [r["rank"] for r in rows] == list(range(1, 21))
    assert len({r["player_id"] for r in rows}) == 20
    assert [r["name"] for r in rows[:5]] == ["P04", "P09", "P14", "P19", "P24"]
    assert [r["value"] for r in rows] == sorted((r["value"] for r in rows), reverse=True)
    assert rows[0]["played"] == 5 and rows[-1]["played"] == 2


async def test_gaple_ranks_by_net_chips_and_mexican_train_by_lowest_average(sessions):
    ana, budi, cici = await players(sessions, "Ana", "Budi", "Cici")
    await write(
        sessions,
        gaple([ana, budi], 0, 1, [], THIS_WEEK),  # ana +100
        gaple([budi, cici], 0, 5, [], THIS_WEEK),  # budi +500
        gaple([budi, cici], 1, 4, [], THIS_WEEK),  # budi -400: net 0, though 500 won
        *(match("mexican_train", [ana, budi], [1], [60, 30], THIS_WEEK) for _ in range(3)),
        match("mexican_train", [cici, ana], [0], [10, 90], THIS_WEEK),  # cici: one match only
        match("mexican_train", [budi, cici], [0], [40, 50], THIS_WEEK),
    )
    board = await stats.leaderboard(sessions, "gaple", "week", now=NOW)
    assert board["metric"] == "net_chips"
    # budi (net 0) and cici (-100) are not ranked: only a positive net is
    assert [(r["name"], r["value"]) for r in board["items"]] == [("Ana", 100)]
    train = await stats.leaderboard(sessions, "mexican_train", "all", min_matches=3, now=NOW)
    assert (train["metric"], train["min_matches"], train["total"]) == ("average_score", 3, 2)
    # budi (30 x3 + 40) / 4 = 32.5; ana (60 x3 + 90) / 4 = 67.5; cici has 2 matches
    assert [(r["name"], r["value"]) for r in train["items"]] == [("Budi", 32.5), ("Ana", 67.5)]
    train = await stats.leaderboard(sessions, "mexican_train", "all", min_matches=2, now=NOW)
    assert [(r["name"], r["value"]) for r in train["items"]] == [
        ("Cici", 30.0),  # (10 + 50) / 2
        ("Budi", 32.5),
        ("Ana", 67.5),
    ]


async def test_bots_are_never_on_a_board(sessions):
    (ana,) = await players(sessions, "Ana")
    (robot,) = await players(sessions, "Robot", kind="bot")  # a bot that has a player row
    await write(
        sessions,
        match("moon", [ana, "bot:1", robot, "bot:3"], [0, 2], [21, 5, 21, 5], THIS_WEEK),
        match("moon", [robot, "bot:1", "bot:2", ana], [0, 2], [21, 5, 21, 5], THIS_WEEK),
    )
    for period in ("week", "all"):
        board = await stats.leaderboard(sessions, "moon", period, now=NOW)
        assert [(r["name"], r["won"], r["played"]) for r in board["items"]] == [("Ana", 1, 2)]
        assert board["total"] == 1


async def test_a_loser_is_never_ranked_first_and_a_board_of_losers_is_empty(sessions):
    """Only a positive net (Gaple) or a won match (Moon, Cross) ranks: a guest down 60 chips
    is on no board, and a board nobody qualifies for is empty (the page says "no one yet")."""
    ana, budi = await players(sessions, "Ana", "Budi")
    await write(
        sessions,
        gaple([ana, "bot:1"], 1, 1, [], THIS_WEEK),  # ana -100
        match("cross", [budi, "bot:1"], [1], [0, 100], THIS_WEEK),  # budi lost
    )
    for game in ("gaple", "cross"):
        board = await stats.leaderboard(sessions, game, "week", now=NOW)
        assert (board["items"], board["total"]) == ([], 0), game
    await write(sessions, gaple([budi, ana], 0, 1, [], THIS_WEEK))  # budi +100, ana -200
    board = await stats.leaderboard(sessions, "gaple", "week", now=NOW)
    assert [(r["rank"], r["name"], r["value"]) for r in board["items"]] == [(1, "Budi", 100)]


async def test_an_unknown_game_has_no_board(sessions):
    with pytest.raises(TableError) as err:
        await stats.leaderboard(sessions, "poker", "week", now=NOW)
    assert (err.value.status, err.value.code) == (404, "no_such_game")


def _count_statements(engine) -> list[str]:
    """The queries sent from now on (SQLite's BEGIN IMMEDIATE is no query)."""
    seen: list[str] = []

    def note(conn, cursor, statement, *rest) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", note)
    return seen


async def test_a_profile_is_three_statements_and_a_board_page_two(engine, sessions):
    ids = await players(sessions, "Ana", "Budi")
    await write(
        sessions,
        *(gaple([ids[i % 2], ids[1 - i % 2]], 0, 1 + i % 5, [], THIS_WEEK) for i in range(30)),
        *(match("cross", [ids[i % 2], "bot:1"], [0], [100, 0], LAST_WEEK) for i in range(30)),
    )
    seen = _count_statements(engine)
    await stats.profile(sessions, ids[0], now=NOW)
    assert len(seen) == 3, seen
    seen.clear()
    await stats.leaderboard(sessions, "gaple", "all", now=NOW)
    assert len(seen) == 2, seen
