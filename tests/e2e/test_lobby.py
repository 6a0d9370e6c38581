"""The lobby as a player uses it: a create form that keeps what was typed, the player's own
tables first with "Kembali ke meja", filters and sorting, private tables reached by a code or
an invite link, tables nobody is at left out, and the table's stake line on a phone. Pictures
of each at desktop and phone sizes go to tests/e2e/artifacts/."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .conftest import DESKTOP, PHONE, screenshots, shot
from .play import accept_buy_in, leave, open_vs_bots

pytestmark = pytest.mark.e2e


def frame(page) -> None:
    """The regions redraw in the next animation frame (static/js/store.js)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 30)))")


def wait_for_refresh(page) -> None:
    """Wait until the lobby asks for its table list again (every 5 s) and draws the answer."""
    with page.expect_request(lambda r: "/api/tables?" in r.url, timeout=12000) as asked:
        pass
    asked.value.response()
    frame(page)


def switch(page, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    frame(page)


def api(server: str, method: str, path: str, token: str | None = None, body=None) -> dict:
    req = urllib.request.Request(
        server + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
    )
    with urllib.request.urlopen(req) as res:
        return json.load(res)


def player(server: str, name: str) -> str:
    return api(server, "POST", "/api/players", body={"name": name})["token"]


def seated_table(server: str, token: str, game: str, seats: int, **options) -> str:
    """A table of ``game`` with this player in seat 0 (the least buy-in at chips tables)."""
    tid = api(
        server, "POST", "/api/tables", token, {"game": game, "seats": seats, "options": options}
    )["id"]
    buy_in = {"buy_in": 10 * options["stake"]} if "stake" in options else {}
    api(server, "POST", f"/api/tables/{tid}/seats/0", token, buy_in)
    return tid


def no_wider_than_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_create_form_keeps_what_the_player_typed(new_page, server):
    page = new_page("Rini", viewport=DESKTOP)
    page.click(".game-card[data-game=gaple] [data-action=create]")
    form = page.locator("form.create[data-game=gaple]")
    form.locator("select[name=seats]").select_option("3")
    form.locator("input[name=stake]").fill("75")
    form.locator("input[name=field][value=bet]").check()
    form.locator("input[name=turn_seconds]").fill("40")
    form.locator("input[name=bots]").uncheck()
    form.locator("input[name=private]").check()
    form.locator("input[name=stake]").focus()
    wait_for_refresh(page)  # the list refreshes under it
    assert page.evaluate("document.activeElement?.name") == "stake"
    switch(page, "en")  # the whole lobby is drawn again, in English
    switch(page, "id")
    form = page.locator("form.create[data-game=gaple]")
    assert form.locator("select[name=seats]").input_value() == "3"
    assert form.locator("input[name=stake]").input_value() == "75"
    assert form.locator("input[name=field][value=bet]").is_checked()
    assert form.locator("input[name=turn_seconds]").input_value() == "40"
    assert not form.locator("input[name=bots]").is_checked()
    assert form.locator("input[name=private]").is_checked()
    form.scroll_into_view_if_needed()
    shot(page, "lobby-create-private-desktop")
    page.set_viewport_size(PHONE)
    form.locator("input[name=private]").scroll_into_view_if_needed()
    shot(page, "lobby-create-private-phone")
    no_wider_than_the_phone(page)
    form.locator("button[type=submit]").click()
    accept_buy_in(page)
    page.wait_for_selector(".table-page [data-action=invite]", timeout=15000)
    table = api(server, "GET", f"/api/tables/{page.get_attribute('.table-page', 'data-table')}")
    assert (table["stake"], table["options"]["field"], table["n_seats"]) == (75, "bet", 3)
    assert (table["turn_seconds"], table["private"]) == (40, True)
    assert page.errors == []


def test_my_table_comes_first_with_back_to_the_table(new_page, server):
    page = new_page("Sinta", viewport=DESKTOP)
    tid = open_vs_bots(page, "gaple")
    page.click(".table-top button:has-text('Lobi')")
    mine = page.locator(f".mine .table-row[data-table='{tid}']")
    mine.wait_for(timeout=10000)
    assert mine.locator("[data-action=back]").inner_text() == "Kembali ke meja"
    assert page.locator(f".tables .table-row[data-table='{tid}']").count() == 0  # not twice
    shot(page, "lobby-mine-desktop")
    page.set_viewport_size(PHONE)
    mine.scroll_into_view_if_needed()
    shot(page, "lobby-mine-phone")
    no_wider_than_the_phone(page)
    mine.locator("[data-action=back]").click()
    page.wait_for_selector(f".table-page[data-table='{tid}'] .hand-area", timeout=10000)
    assert page.errors == []


def test_the_stake_line_shows_on_a_phone(new_page, server):
    page = new_page("Tari", viewport=PHONE)
    open_vs_bots(page, "gaple")
    # read in one go: the top bar is drawn again as the table changes
    page.wait_for_function(
        """() => {
            const e = document.querySelector('.table-top .table-sub');
            if (!e || !e.innerText.startsWith('Taruhan 10')) return false;
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.right <= innerWidth && e.scrollWidth <= e.clientWidth;
        }""",
        timeout=10000,
    )  # times out when the stake line is off the screen or cut short
    page.set_viewport_size(DESKTOP)
    screenshots(page, "gaple-stake-line")  # at both sizes; the hand stays on a phone's screen
    assert page.errors == []


def test_filters_and_sorting_ask_the_server_and_survive_the_refresh(new_page, server):
    host = player(server, "Tuan Meja")
    cheap = seated_table(server, host, "gaple", 2, stake=10)
    dear = seated_table(server, host, "gaple", 4, stake=50)
    moon = seated_table(server, host, "moon", 4)
    page = new_page("Umar", viewport=DESKTOP)

    def rows() -> list[str]:
        """This test's tables as listed (the server is shared with other tests)."""
        shown = page.locator(".tables .table-row")
        ids = [shown.nth(i).get_attribute("data-table") for i in range(shown.count())]
        return [tid for tid in ids if tid in (cheap, dear, moon)]

    page.wait_for_selector(f".tables .table-row[data-table='{moon}']")
    assert rows() == [moon, dear, cheap]  # newest first
    page.select_option(".tables select[name=sort]", "stake_high")
    page.wait_for_function(
        "id => document.querySelector('.tables .table-row')?.dataset.table === id", arg=dear
    )
    assert rows() == [dear, cheap, moon]
    page.fill(".tables input[name=stake]", "50")
    page.press(".tables input[name=stake]", "Enter")
    page.wait_for_function(  # other tests' stake-50 tables may be listed too
        """ids => ![...document.querySelectorAll('.tables .table-row')]
            .some(r => ids.includes(r.dataset.table))""",
        arg=[cheap, moon],
    )
    assert rows() == [dear]
    wait_for_refresh(page)
    assert page.input_value(".tables input[name=stake]") == "50"
    assert page.input_value(".tables select[name=sort]") == "stake_high"
    assert rows() == [dear]
    shot(page, "lobby-filters-desktop")
    page.set_viewport_size(PHONE)
    page.locator(".tables").scroll_into_view_if_needed()
    shot(page, "lobby-filters-phone")
    no_wider_than_the_phone(page)
    page.fill(".tables input[name=stake]", "37")  # a stake no table of these tests has
    page.press(".tables input[name=stake]", "Enter")
    page.wait_for_selector(".tables p.muted")
    assert page.inner_text(".tables p.muted") == "Tidak ada meja yang cocok dengan pilihan ini."
    assert page.errors == []


def test_a_private_table_by_its_code_or_its_link(new_page, server):
    host = player(server, "Pemilik")
    made = api(
        server,
        "POST",
        "/api/tables",
        host,
        {"game": "cross", "seats": 3, "options": {}, "private": True},
    )
    api(server, "POST", f"/api/tables/{made['id']}/seats/0", host, {})
    code = made["code"]

    friend = new_page("Kawan", viewport=DESKTOP)
    friend.wait_for_selector(".join input[name=code]")
    assert friend.locator(f".table-row[data-table='{made['id']}']").count() == 0  # never listed
    friend.fill(".join input[name=code]", "ZZZZZZ")
    friend.click(".join button[type=submit]")
    friend.wait_for_selector(".join-error:not(:empty)")
    wrong = "Tidak ada meja dengan kode itu. Periksa lagi kodenya."
    assert friend.inner_text(".join-error") == wrong
    assert friend.input_value(".join input[name=code]") == "ZZZZZZ"  # what was typed stays
    friend.fill(".join input[name=code]", "ab!")
    friend.click(".join button[type=submit]")
    friend.wait_for_function(
        "() => document.querySelector('.join-error').textContent.startsWith('Kode meja')"
    )
    friend.locator(".join").scroll_into_view_if_needed()
    shot(friend, "lobby-join-error-desktop")
    friend.fill(".join input[name=code]", code.lower())
    friend.click(".join button[type=submit]")
    friend.wait_for_selector(f".table-page[data-table='{made['id']}']", timeout=10000)
    friend.wait_for_function(
        "() => document.querySelector('.table-page [data-action=leave]')"
    )  # seated
    friend.click(".table-top button:has-text('Lobi')")
    mine = friend.locator(f".mine .table-row[data-table='{made['id']}']")
    mine.wait_for(timeout=10000)
    assert mine.locator(".pill-private").inner_text() == f"Pribadi · kode {code}"
    assert mine.locator("[data-action=invite]").inner_text() == "Salin undangan"
    shot(friend, "lobby-mine-private-desktop")
    friend.set_viewport_size(PHONE)
    shot(friend, "lobby-mine-private-phone")
    no_wider_than_the_phone(friend)

    # The invite link seats the next friend; the table shows its code to invite more.
    other = new_page("Sahabat", viewport=PHONE)
    other.goto(f"{server}/#/join/{code}")
    other.wait_for_selector(f".table-page[data-table='{made['id']}'] .hand-area", timeout=15000)
    invite = other.locator(".table-top [data-action=invite]")
    assert invite.inner_text() == f"Undang · {code}"
    shot(other, "table-private-phone")
    no_wider_than_the_phone(other)
    seats = api(server, "GET", f"/api/tables/{made['id']}")["seats"]
    assert [s["name"] for s in seats] == ["Pemilik", "Kawan", "Sahabat"]
    # a wrong link goes to the lobby and says why
    other.goto(f"{server}/#/join/QQQQQQ")
    other.wait_for_selector(".toast-error")
    assert "Tidak ada meja dengan kode itu" in other.inner_text(".toast-error")
    other.wait_for_selector(".lobby .game-card")
    assert friend.errors == [] and other.errors == []


def test_a_table_nobody_is_at_leaves_the_lobby(new_page, server):
    page = new_page("Wulan", viewport=DESKTOP)
    tid = open_vs_bots(page, "moon")
    watcher = new_page("Yudi", viewport=DESKTOP)
    watcher.click(".seat-tabs [data-seats=full]")  # a table full of bots: only to watch
    watcher.wait_for_selector(f".table-row[data-table='{tid}']", timeout=10000)
    leave(page)
    wait_for_refresh(watcher)
    watcher.wait_for_selector(f".table-row[data-table='{tid}']", state="detached", timeout=12000)
    assert page.locator(f".table-row[data-table='{tid}']").count() == 0
