"""Sitting down at a chips table in the browser: friends share a table while its start
countdown runs (docs/rules.md O-5), the player chooses the chips to bring within the stake's
bounds, and the header shows the wallet and the stack at the table, live."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, shot
from .play import BUY_IN, RESULT, accept_buy_in, leave, open_vs_bots, play_until

pytestmark = pytest.mark.e2e

CHIPS = "#chips .chips-long"


def create_gaple(page, *, seats: int = 4, stake: int = 10, start: int | None = None, bots=False):
    """The lobby's create form for a Gaple table; the sit dialog is left open."""
    page.click(".game-card[data-game=gaple] [data-action=create]")
    form = page.locator("form.create[data-game=gaple]")
    form.locator("select[name=seats]").select_option(str(seats))
    form.locator("input[name=stake]").fill(str(stake))
    if start is not None:
        form.locator("input[name=start_seconds]").fill(str(start))
    if not bots:
        form.locator("input[name=bots]").uncheck()
    form.locator("button[type=submit]").click()


def both_sizes(page, name: str) -> None:
    shot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(250)
    shot(page, f"{name}-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(150)


def test_o5_two_friends_share_a_table_and_fill_it_with_bots(new_page):
    host = new_page("Rudi")
    create_gaple(host, start=30)
    accept_buy_in(host)
    host.wait_for_selector(".waiting-box")
    table = host.get_attribute(".table-page", "data-table")
    friend = new_page("Tono")
    friend.locator(f".table-row[data-table='{table}'] [data-action=sit]").click()
    accept_buy_in(friend)
    friend.wait_for_selector(f".table-page[data-table='{table}'] .waiting-box")

    # Two players are ready: no round for two yet; the countdown runs, the bots may be asked for.
    for page in (host, friend):
        page.wait_for_selector("[data-testid=countdown]")
        assert "Ronde dimulai dalam" in page.inner_text("[data-testid=countdown]")
        assert page.locator(".felt .hand-area").count() == 0
    assert host.locator(".waiting-box [data-action=bots]").is_visible()
    both_sizes(host, "seating-countdown")

    host.click(".waiting-box [data-action=bots]")
    for page in (host, friend):  # a full table deals at once, to all four
        page.wait_for_selector(".felt .hand-area", timeout=15000)
        page.wait_for_function("document.querySelectorAll('.plate').length === 4")
        assert page.locator(".hand .hand-tile").count() == 7
    assert host.errors == [] and friend.errors == []


def test_the_buy_in_is_chosen_within_the_stake_and_a_table_nobody_can_sit_at_is_not_made(
    new_page, server
):
    page = new_page("Lestari")
    create_gaple(page, stake=50, bots=True)
    dialog = page.locator(BUY_IN)
    dialog.wait_for()
    amount = dialog.locator("input[name=buy_in]")
    assert (amount.get_attribute("min"), amount.get_attribute("max")) == ("500", "1000")
    assert amount.input_value() == "1000"  # the most the table allows, capped by the wallet
    assert "Paling sedikit 500, paling banyak 5.000 (dompet Anda: 1.000)" in dialog.inner_text()
    amount.fill("400")
    dialog.locator("[data-action=buy-in]").click()
    assert dialog.locator(".error").inner_text() == "Jumlah itu di luar batas meja ini."
    amount.fill("700")
    both_sizes(page, "seating-buy-in")
    accept_buy_in(page)
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    assert page.evaluate("window.meja.table.seats[window.meja.table.you].stack") == 700
    page.wait_for_function(
        "document.querySelector('#chips').dataset.wallet === '300'", timeout=10000
    )

    # A stake the wallet cannot cover: the dialog says so, and no table is made.
    leave(page)
    create_gaple(page, stake=20000)
    short = page.locator("dialog[data-testid=short-chips]")
    short.wait_for()
    assert "perlu paling sedikit 200.000 chip" in short.locator(".error").inner_text()
    assert page.locator(BUY_IN).count() == 0 and short.locator("input").count() == 0
    both_sizes(page, "seating-buy-in-short")
    short.locator("[data-action=close]").click()
    short.wait_for(state="detached")
    tables = page.context.request.get(f"{server}/api/tables?per_page=100").json()["items"]
    assert not [t for t in tables if t["stake"] == 20000]
    assert page.errors == []


def test_the_header_shows_the_wallet_and_the_stack_at_the_table_live(new_page, server):
    page = new_page("Bagus")
    open_vs_bots(page, "gaple")
    page.wait_for_function(  # the stack from the socket, the wallet read again after the sit
        "document.querySelector('#chips').dataset.table === '1000'"
        " && document.querySelector('#chips').dataset.wallet === '0'",
        timeout=10000,
    )
    assert page.inner_text(CHIPS) == "● Dompet 0 · Di meja ini 1.000"
    both_sizes(page, "seating-header-table")
    play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=90)
    stack = page.evaluate("window.meja.table.seats[window.meja.table.you].stack")
    assert stack != 1000  # a Gaple round always moves chips (G-10)
    page.wait_for_function(
        "n => document.querySelector('#chips').dataset.table === String(n)", arg=stack
    )

    leave(page)
    page.wait_for_function(  # the cash-out reaches the wallet through the outbox; no reload
        "document.querySelector('#chips').dataset.table === ''", timeout=60000
    )
    wallet = page.context.request.get(f"{server}/api/players/me/chips").json()["balance"]
    assert wallet > 0 and page.get_attribute("#chips", "data-wallet") == str(wallet)
    assert page.inner_text(CHIPS) == f"● Dompet {wallet:,}".replace(",", ".")
    both_sizes(page, "seating-header-lobby")
    assert page.errors == []


def test_the_sit_dialog_speaks_english_too(new_page, server):
    page = new_page("Ayu", lang="en")
    create_gaple(page)
    dialog = page.locator(BUY_IN)
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "How many chips do you bring?"
    assert "At least 100, at most 1,000 (your wallet: 1,000)." in dialog.inner_text()
    assert "⟦" not in dialog.inner_text()
    both_sizes(page, "seating-buy-in-en")
    dialog.locator("button:has-text('Cancel')").click()
    dialog.wait_for(state="detached")
    me = page.context.request.get(f"{server}/api/players/me").json()["id"]
    tables = page.context.request.get(f"{server}/api/tables?per_page=100").json()["items"]
    # cancelled: no table seats her (another test's Ayu may be seated on this shared server)
    assert not [t for t in tables if any(s["player_id"] == me for s in t["seats"])]
    assert page.errors == []
