"""A table that shows everything at 1366x800 and on a 390x844 phone: every hand fits with the
board (a long Mexican Train hand too), the chat opens over the hand with its unread lines
counted, the header's chips are whole, Moon's bids say who bid, a spectator sees the whole
table and every hand's count. (The finished board beside the result in the pause, and Gaple's
result saying the player's own net first, are read in tests/e2e/test_between_rounds.py, in
the pause of the round played there.) Screenshots: tests/e2e/artifacts/phone-*.png."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, assert_words, shot
from .play import open_vs_bots, play_until
from .test_presence_quick_chat import cross_for_two, player_page

pytestmark = pytest.mark.e2e

# Tiles of the double-twelve set, none of them a double: added to a hand they are never legal.
EXTRA = [[a, b] for a in range(12) for b in range(a + 1, 13)]

# What must stay on the screen: the hand's tiles, the board, and no page scroll.
FITS = """() => {
  const r = (e) => e.getBoundingClientRect();
  const tiles = [...document.querySelectorAll('.hand .hand-tile')].map(r);
  const board = r(document.querySelector('.board'));
  return {
    tiles: tiles.length,
    below: tiles.filter(t => t.bottom > innerHeight + 1 || t.right > innerWidth + 1).length,
    tile: tiles.length ? Math.min(...tiles.map(t => t.width)) : 0,
    board: {top: board.top, h: board.height, w: board.width},
    felt: r(document.querySelector('.felt')).bottom - innerHeight,
    scroll: document.documentElement.scrollHeight - innerHeight,
  };
}"""


def longer_hands(page, extra: int) -> None:
    """Stand between the page and the server: every state's hand gets ``extra`` more tiles (as
    after many draws), so the layout is tried on a hand the deal alone never gives."""

    def route(ws):
        server = ws.connect_to_server()

        def to_page(message):
            msg = json.loads(message) if isinstance(message, str) else None
            view = (msg or {}).get("view")
            if msg and msg.get("type") == "state" and view and view.get("hand"):
                mine = {tuple(t) for t in view["hand"]}
                view["hand"] += [t for t in EXTRA if tuple(t) not in mine][:extra]
                message = json.dumps(msg)
            ws.send(message)

        server.on_message(to_page)
        ws.on_message(server.send)

    page.route_web_socket("**/ws/**", route)


def test_a_long_mexican_train_hand_fits_the_screen_with_the_board(new_page):
    page = new_page("Wulan")
    longer_hands(page, 9)  # 15 dealt + 9: 24 tiles
    open_vs_bots(page, "mexican_train")
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(400)
        m = page.evaluate(FITS)
        shot(page, f"phone-long-hand-{name}")
        assert m["tiles"] >= 24, m
        assert m["below"] == 0, f"{name}: tiles below the fold {m}"
        assert m["felt"] <= 1, f"{name}: the table runs below the fold {m}"
        # a phone's history and chat are below the felt (a scroll, or the chat sheet)
        assert size == PHONE or m["scroll"] <= 1, f"{name}: the page scrolls {m}"
        assert m["board"]["h"] >= 150 and m["board"]["w"] >= 300, f"{name}: no board left {m}"
        assert m["tile"] >= 30, f"{name}: tiles too small to read {m}"
        assert_words(page, f"long hand {name}")
    assert page.errors == []


@pytest.mark.parametrize("game", ["gaple", "moon", "cross"])
def test_every_dealt_hand_fits_with_the_board_at_both_sizes(new_page, game):
    page = new_page("Dewi")
    open_vs_bots(page, game)
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)
        m = page.evaluate(FITS)
        assert m["below"] == 0 and m["felt"] <= 1, f"{game} {name}: {m}"
        assert size == PHONE or m["scroll"] <= 1, f"{game} {name}: {m}"
        assert m["board"]["h"] >= 150, f"{game} {name}: {m}"


def test_a_phone_opens_the_chat_over_the_hand_and_counts_unread_lines(browser, server):
    sari = player_page(browser, server, "Sari")
    tom = player_page(browser, server, "Tomi", viewport=PHONE)
    cross_for_two(sari, server, tom, server)
    toggle = tom.locator(".table-top [data-action=chat]")
    assert toggle.is_visible(), "the chat is one tap away during play"
    assert sari.locator(".table-top [data-action=chat]").is_hidden(), "a desktop has the panel"
    for text in ("Halo Tomi", "Giliranmu!"):
        sari.click("[data-tab=chat]")
        sari.fill(".chat-form input", text)
        sari.press(".chat-form input", "Enter")
    badge = tom.locator(".table-top [data-testid=unread]")
    badge.wait_for(timeout=5000)
    tom.wait_for_function("document.querySelector('[data-testid=unread]')?.textContent === '2'")
    shot(tom, "phone-chat-unread")
    toggle.click()
    sheet = tom.locator(".side")
    expect(badge).to_have_count(0)  # drawn on the next frame
    assert sheet.is_visible()
    assert tom.locator(".chat-log li").last.inner_text() == "Sari: Giliranmu!"
    box, board = sheet.bounding_box(), tom.locator(".board").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] + 1, "the sheet is on the screen"
    assert board["y"] < box["y"] - 100, "the board stays in view above the sheet"
    assert_words(tom, "chat sheet")
    shot(tom, "phone-chat-open")
    tom.fill(".chat-form input", "Siap")
    tom.press(".chat-form input", "Enter")
    sari.locator(".chat-log li", has_text="Siap").wait_for(timeout=5000)
    tom.click("[data-action=close-chat]")
    expect(tom.locator(".table-page.chat-open")).to_have_count(0)
    sari.fill(".chat-form input", "Oke")
    sari.press(".chat-form input", "Enter")
    tom.wait_for_function("document.querySelector('[data-testid=unread]')?.textContent === '1'")
    # the desktop's history tab counts them on the chat tab
    sari.click("[data-tab=history]")
    tom.locator(".table-top [data-action=chat]").click()
    tom.fill(".chat-form input", "Satu lagi")
    tom.press(".chat-form input", "Enter")
    sari.locator("[data-tab=chat] [data-testid=unread-tab]").wait_for(timeout=5000)
    assert sari.errors == [] and tom.errors == []


def test_the_phone_header_shows_the_wallet_and_the_table_chips_whole(new_page):
    page = new_page("Bayu", viewport=PHONE)
    claim = page.locator("#claim .chips-short")
    assert "Bonus harian" in claim.inner_text(), "the bonus says what it is"
    shot(page, "phone-header-lobby")
    open_vs_bots(page, "gaple")
    chips = page.locator("#chips")
    page.wait_for_function("document.getElementById('chips').dataset.table !== ''")
    short = chips.locator(".chips-short").inner_text()
    wallet, table = chips.get_attribute("data-wallet"), chips.get_attribute("data-table")
    assert "di meja" in short, short
    assert f"+{int(table):,}".replace(",", ".") in short, (short, table)
    assert f"{int(wallet):,}".replace(",", ".") in short, (short, wallet)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#chips, #claim, #who, #mute, #lang-code')]
        .filter(e => e.offsetParent)
        .filter(e => e.scrollWidth > e.clientWidth + 1
          || e.getBoundingClientRect().right > innerWidth)
        .map(e => e.id)"""
    )
    assert not cut, f"header items cut or off the screen: {cut}"
    shot(page, "phone-header-table")
    assert_words(page, "phone header")


def test_moon_bids_on_a_phone_say_who_bid(new_page):
    page = new_page("Sinta", viewport=PHONE)
    open_vs_bots(page, "moon")
    page.wait_for_selector(".bid-bubble")
    play_until([page], lambda: page.evaluate("window.meja.view.bids.length") >= 1, timeout=20)
    words = page.locator(".bid-bubble text").all_text_contents()
    names = page.locator(".plate-name").all_inner_texts()
    assert all(":" in w for w in words), words
    assert all(any(w.startswith(f"{n}:") for n in names) for w in words), (words, names)
    assert_words(page, "moon bids")
    shot(page, "phone-moon-bids")
    assert page.errors == []


def test_a_spectator_sees_the_whole_table_under_the_banner_and_every_hands_count(new_page):
    host = new_page("Hana")
    table = open_vs_bots(host, "gaple")
    play_until([host], lambda: host.locator(".board svg .tile").count() >= 2, timeout=60)
    watcher = new_page("Rudi")
    watcher.goto(watcher.url.split("#")[0] + f"#/t/{table}")
    watcher.wait_for_selector(".banner[data-status=spectating]")
    watcher.wait_for_selector(".felt .board")
    watcher.wait_for_selector(".plate")
    assert watcher.locator(".plate").count() == 4
    assert watcher.locator(".plate .plate-backs").count() == 4  # the bottom seat's too
    assert host.locator(".plate .plate-backs").count() == 3  # a player's own hand is in view
    assert_words(watcher, "spectator")
    shot(watcher, "gaple-spectator-desktop")
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        watcher.set_viewport_size(size)
        watcher.wait_for_timeout(300)
        m = watcher.evaluate(FITS)
        assert m["felt"] <= 1, f"{name}: {m}"
        assert size == PHONE or m["scroll"] <= 1, f"{name}: {m}"
        assert_words(watcher, f"spectator {name}")
        shot(watcher, f"phone-spectator-{name}")
    assert watcher.errors == []
