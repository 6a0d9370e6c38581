"""Stakes a player chooses (docs/players.md "Stake rooms"): every way of sitting asks the buy-in
and remembers it, quick join sits in the stake room the wallet opens, a room the wallet does not
open says why and where more chips are (the daily bonus, chips at another table), and the open
tables' list shows seats to take first, full tables under "Tonton". Pictures at both sizes go
to tests/e2e/artifacts/."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, assert_words, shot
from .play import BUY_IN, accept_buy_in, open_vs_bots, quick_join
from .test_lobby import api, player, seated_table, switch

pytestmark = pytest.mark.e2e

SHORT = "dialog[data-testid=short-chips]"


def both_sizes(page, name: str, scroll: str | None = None) -> None:
    """Pictures at desktop and phone sizes, the words checked, nothing wider than a phone."""
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        if scroll:
            page.locator(scroll).first.scroll_into_view_if_needed()
        assert_words(page, f"{name} {label}")
        shot(page, f"{name}-{label}")
        if size is PHONE:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)


def wallet(page) -> int:
    chips = "async () => (await (await fetch('/api/players/me/chips')).json()).balance"
    return page.evaluate(chips)


def test_a_new_guest_quick_joins_the_room_its_wallet_opens_and_the_buy_in_is_remembered(
    new_page, server
):
    seated_table(server, player(server, "Juragan"), "gaple", 4, stake=50)  # a seat at stake 50
    page = new_page("Gilang")
    rooms = page.locator(".rooms[data-game=gaple]")
    rooms.wait_for(timeout=10000)
    assert rooms.locator(".room.suggested").get_attribute("data-stake") == "10"
    locked = rooms.locator(".room[data-stake='50']")
    assert "locked" in locked.get_attribute("class")
    assert locked.locator("[data-action=room]").inner_text() == "Terkunci"
    assert locked.locator("[data-action=room] svg.lock-icon").count() == 1
    assert locked.locator(".room-min").inner_text() == "Dompet min. 2.500"
    both_sizes(page, "stakes-rooms", ".rooms")

    page.click(".game-card[data-game=gaple] [data-action=quick]")
    dialog = page.locator(BUY_IN)
    dialog.wait_for()
    assert "Ruang taruhan 10" in dialog.inner_text()
    assert dialog.locator("input[name=buy_in]").input_value() == "1000"  # nothing remembered yet
    dialog.locator("input[name=buy_in]").fill("400")
    both_sizes(page, "stakes-quick-buy-in")
    tid = quick_join_confirm(page)
    table = api(server, "GET", f"/api/tables/{tid}")
    mine = next(s for s in table["seats"] if s["name"] == "Gilang")
    assert (table["stake"], mine["stack"]) == (10, 400)  # never the stake-50 table
    assert wallet(page) == 600

    page.click(".table-top button:has-text('Lobi')")
    page.click(".game-card[data-game=gaple] [data-action=bots]")
    dialog.wait_for()
    assert dialog.locator("input[name=buy_in]").input_value() == "400"  # the last choice
    dialog.locator("button:has-text('Batal')").click()
    dialog.wait_for(state="detached")
    switch(page, "en")
    assert rooms.locator("h3").inner_text() == "Gaple stake rooms"
    assert rooms.locator(".room[data-stake='10'] .room-online").inner_text().endswith("online")
    assert rooms.locator(".room[data-stake='50'] .room-min").inner_text() == "Wallet from 2,500"
    both_sizes(page, "stakes-rooms-en", ".rooms")
    assert page.errors == []


def quick_join_confirm(page) -> str:
    page.locator(BUY_IN).locator("[data-action=buy-in]").click()
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    return page.get_attribute(".table-page", "data-table")


def test_a_locked_room_points_at_the_daily_bonus_and_the_chips_at_another_table(new_page):
    page = new_page("Hendra")
    tid = open_vs_bots(page, "gaple")  # all 1,000 chips go to this table
    page.click(".table-top button:has-text('Lobi')")
    page.click(".rooms .room[data-stake='10'] [data-action=room]")
    short = page.locator(SHORT)
    short.wait_for()
    text = short.inner_text()
    assert "Ruang taruhan 10 perlu paling sedikit 100 chip di dompet; dompet Anda 0." in text
    assert "Bonus harian 1.000 chip bisa diambil sekarang." in text
    assert "null" not in text and "undefined" not in text
    assert "Gaple · taruhan 10: 1.000 chip" in short.locator(f"li[data-table='{tid}']").inner_text()
    assert page.locator(BUY_IN).count() == 0  # nothing is asked, nothing moves
    both_sizes(page, "stakes-locked")

    short.locator("[data-action=claim-bonus]").click()
    short.locator("text=Bonus harian masuk: +1.000 chip").wait_for()
    page.wait_for_function("document.querySelector('#chips').dataset.wallet === '1000'")
    short.locator(f"li[data-table='{tid}'] [data-action=back]").click()
    page.wait_for_selector(f".table-page[data-table='{tid}'] .hand-area", timeout=10000)
    assert page.locator(SHORT).count() == 0
    assert page.errors == []


def test_the_open_tables_show_seats_to_take_and_full_tables_are_under_watch(new_page, server):
    host = player(server, "Pemilik Meja")
    free = seated_table(server, host, "gaple", 4, stake=20)
    full = seated_table(server, host, "moon", 4)
    api(server, "POST", f"/api/tables/{full}/bots", host)
    page = new_page("Indah")
    page.wait_for_selector(f".tables .table-row[data-table='{free}']", timeout=10000)
    assert page.locator(".seat-tabs .tab.on").inner_text() == "Bisa duduk"
    assert page.locator(f".tables .table-row[data-table='{full}']").count() == 0
    both_sizes(page, "stakes-list-open", ".tables")

    page.click(".seat-tabs [data-seats=full]")
    row = page.locator(f".tables .table-row[data-table='{full}']")
    row.wait_for(timeout=10000)
    assert page.locator(f".tables .table-row[data-table='{free}']").count() == 0
    assert row.locator("[data-action=sit]").count() == 0
    assert row.locator("[data-action=watch]").inner_text() == "Tonton"
    both_sizes(page, "stakes-list-watch", ".tables")
    assert page.errors == []


def test_an_invite_link_to_a_gaple_table_asks_the_buy_in(new_page, server):
    host = player(server, "Tuan Rumah")
    made = api(
        server,
        "POST",
        "/api/tables",
        host,
        {"game": "gaple", "seats": 4, "options": {"stake": 10}, "private": True},
    )
    api(server, "POST", f"/api/tables/{made['id']}/seats/0", host, {"buy_in": 100})
    page = new_page("Joko", viewport=PHONE)
    page.goto(f"{server}/#/join/{made['code']}")
    accept_buy_in(page, 250)
    page.wait_for_selector(f".table-page[data-table='{made['id']}']", timeout=10000)
    seats = api(server, "GET", f"/api/tables/{made['id']}")["seats"]
    assert [(s["name"], s["stack"]) for s in seats[:2]] == [("Tuan Rumah", 100), ("Joko", 250)]
    assert page.errors == []


def test_quick_join_into_a_room_the_wallet_opens_on_a_phone(new_page, server):
    page = new_page("Kartika", viewport=PHONE)
    page.locator(".rooms .room[data-stake='10']").wait_for(timeout=10000)
    tid = quick_join(page, "gaple", stake=10, amount=150)
    page.wait_for_function("document.querySelector('#chips').dataset.wallet === '850'")
    shot(page, "stakes-room-table-phone")
    table = api(server, "GET", f"/api/tables/{tid}")
    assert table["stake"] == 10
    assert [s["stack"] for s in table["seats"] if s["name"] == "Kartika"] == [150]
    assert page.errors == []


def test_the_server_s_refusal_for_too_few_chips_points_at_the_bonus_and_the_other_table(
    new_page, server
):
    stranger = seated_table(server, player(server, "Pak Tua"), "gaple", 4, stake=10)
    page = new_page("Lukas")
    row = page.locator(f".tables .table-row[data-table='{stranger}']")
    row.locator("[data-action=sit]").click()
    page.locator(BUY_IN).wait_for()  # offers the whole wallet, 1,000
    # meanwhile another tab of the same player sits elsewhere with all of it
    request = page.context.request
    other = request.post(
        f"{server}/api/tables", data={"game": "gaple", "seats": 2, "options": {"stake": 10}}
    ).json()["id"]
    sat = request.post(f"{server}/api/tables/{other}/seats/0", data={"buy_in": 1000})
    assert sat.ok, sat.text()
    page.locator(BUY_IN).locator("[data-action=buy-in]").click()
    short = page.locator(SHORT)
    short.wait_for()
    assert short.locator(".error").inner_text() == "Chip di dompet Anda tidak cukup."
    assert "Bonus harian 1.000 chip bisa diambil sekarang." in short.inner_text()
    held = short.locator(f"li[data-table='{other}']").inner_text()
    assert "Gaple · taruhan 10: 1.000 chip" in held
    page.wait_for_function("document.querySelector('#chips').dataset.wallet === '0'")
    assert "locked" in page.get_attribute(".rooms .room[data-stake='10']", "class")
    both_sizes(page, "stakes-refused")
    seats = api(server, "GET", f"/api/tables/{stranger}")["seats"]
    assert [s["name"] for s in seats] == ["Pak Tua", None, None, None]  # nothing moved
    assert page.errors == []
