"""The profile page and the lobby's leaderboards show the numbers of the records. The records
are written into the server's database through the records writer (app/services/records.py),
the path the outbox takes, so every number on screen is known in advance."""

from __future__ import annotations

import asyncio
import concurrent.futures
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from app.db.session import make_engine, make_sessionmaker
from tests.stats.records import gaple, match, moon_round, players, write

from .conftest import DESKTOP, PHONE, fresh_database, running_server, shot, sign_in

pytestmark = pytest.mark.e2e

ME = "() => fetch('/api/players/me').then(r => r.json())"  # the page's own cookies


def seed(url: str, me: int) -> list[int]:
    """Rina's history and a Cross board of twelve players; run in a thread of its own
    (Playwright's sync API owns this thread's event loop)."""

    async def run() -> list[int]:
        engine = make_engine(url)
        db = make_sessionmaker(engine)
        now = datetime.now(UTC)
        joko, lina = await players(db, "Joko", "Lina")
        crowd = await players(db, *(f"Pemain {i:02}" for i in range(12)))
        moon = match("moon", [me, "bot:1", joko, "bot:3"], [0, 2], [21, 7, 21, 7], now)
        await write(
            db,
            gaple([me, joko, lina], 0, 5, [(1, 0, 250)], now, stake=100),  # Rina wins x5
            gaple([me, joko], 1, 2, [], now, stake=100),  # Joko wins x2
            moon_round(moon, 1, 0, True, now),
            moon_round(moon, 2, 0, False, now),
            moon_round(moon, 3, 0, True, now),
            moon,
            *(
                match("cross", [pid, "bot:1"], [0], [100, 0], now)
                for i, pid in enumerate(crowd)
                for _ in range(i + 2)  # more than the other tests' players win
            ),
        )
        await engine.dispose()
        return [joko, lina, *crowd]

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def fact(page, name: str) -> str:
    return page.inner_text(f".fact[data-stat={name}] .fact-value")


def board_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        ".board-card tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )


@pytest.fixture
def rina(browser, tmp_path):
    """(Rina's page, the database) on a server of this test's own: the boards hold only the
    players it writes, not those of the other browser tests."""
    database, drop = fresh_database(tmp_path)
    with running_server(tmp_path, database, MEJA_LIMIT_SIGNUP_ADDRESS="") as base:
        ctx = browser.new_context(viewport=DESKTOP)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(base + "/")
        sign_in(page, "Rina")
        yield page, database
        ctx.close()
    drop()


def test_profile_and_leaderboards_show_the_records(rina):
    page, database = rina
    empty = page.locator(".board-card .muted", has_text="Belum ada yang masuk papan ini")
    empty.wait_for()  # nobody has won yet: the board says so, it ranks no one
    me = page.evaluate(ME)["id"]
    joko, *_ = seed(database, me)

    page.click("#who .account")  # the own profile, from the account menu
    page.click("[data-action='profile.mine']")
    page.wait_for_selector(".profile-page")
    assert page.url.endswith(f"#/p/{me}")
    assert page.inner_text(".profile-head h2") == "Rina"
    # won: settlements 2 x 500 + Lewat 250; paid: 200 to Joko (bahasa: 1.250, the client's fmt)
    assert (fact(page, "chips_won"), fact(page, "chips_lost")) == ("1.250", "200")
    assert (fact(page, "best_multiplier"), fact(page, "biggest_pot")) == ("×5", "1.000")
    assert fact(page, "contracts") == "2 dari 3"
    assert fact(page, "streak") == "0 hari"
    games = page.eval_on_selector_all(
        ".profile-page tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    assert games[:2] == [["Gaple", "2", "1", "50%"], ["Moon", "1", "1", "100%"]]
    shot(page, "profile-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "profile-phone")
    page.set_viewport_size(DESKTOP)

    page.click(".profile-head a")  # back to the lobby: Gaple, this week
    page.wait_for_selector(".board-card tbody tr")
    # Lina (-500) and Joko (-550: -250 Lewat - 500, then +200) lost chips: not ranked
    assert board_rows(page) == [["1", "Rina", "1.050 chip", "2"]]
    rina_avatar = page.evaluate(ME)["avatar"]
    expect(page.locator(".board-card tbody .board-name .avatar")).to_have_attribute(
        "data-avatar", rina_avatar
    )
    page.click("[data-board-game=cross]")
    page.wait_for_selector(".board-card[data-board=cross] tbody tr")
    rows = board_rows(page)
    assert [r[1] for r in rows] == [f"Pemain {i:02}" for i in range(11, 1, -1)]
    assert [r[0] for r in rows] == [str(n) for n in range(1, 11)]
    assert rows[0][2:] == ["13", "13"] and page.inner_text("[data-pages]") == "Halaman 1 dari 2"
    page.locator(".board-card").scroll_into_view_if_needed()
    shot(page, "leaderboard-desktop")
    page.click("[data-page=next]")
    page.wait_for_function(
        "() => document.querySelector('[data-pages]')?.innerText.includes('2 dari')"
    )
    assert [r[:3] for r in board_rows(page)][:2] == [
        ["11", "Pemain 01", "3"],
        ["12", "Pemain 00", "2"],
    ]
    page.click("[data-period=all]")
    page.wait_for_function(  # back to page 1 (the old page's rows stay until the answer)
        "() => document.querySelector('[data-pages]')?.innerText === 'Halaman 1 dari 2'"
    )
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator(".board-card").scroll_into_view_if_needed()
    shot(page, "leaderboard-phone")

    page.click("[data-board-game=moon]")  # Joko won the Moon match with Rina
    page.click(f".board-card tr[data-player='{joko}'] a")  # another player's profile
    page.wait_for_selector(".profile-page")
    assert page.inner_text(".profile-head h2") == "Joko"
    assert (fact(page, "best_multiplier"), fact(page, "contracts")) == ("×2", "0 dari 0")
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert fact(page, "contracts") == "0 of 0" and "Games" in page.inner_text(".profile-page")
    assert not page.errors
