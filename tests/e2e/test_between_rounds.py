"""The table a player stays at: one page plays a round of each game against bots by clicking,
and its result is read in the pause before the next one (O-6) beside the finished board, never
over a round being played (a Gaple round's for the whole pause, and then the lobby's mission
bar has moved); a seat freed for idling says so and offers to sit again; a link to a table
that does not exist says so instead of reconnecting for ever. Screenshots of each table at
desktop and phone sizes go to tests/e2e/artifacts/."""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, PHONE, assert_words, running_server, screenshots, shot, sign_in
from .play import RESULT, accept_buy_in, act, my_turn, open_vs_bots, play_until
from .test_friends_missions import both_sizes

pytestmark = pytest.mark.e2e

COUNTDOWN = f"{RESULT} .countdown"
READY = f"{RESULT} [data-action=ready]"


def pause(page):
    return page.evaluate("window.meja.table?.pause || null")


def open_tab(page, tab: str) -> None:
    """Click a side panel tab; again if the bots' moves redrew the panel under the click."""
    for _ in range(20):
        page.click(f".tab[data-tab={tab}]")
        if page.locator(f".tab.on[data-tab={tab}]").count():
            return
    raise AssertionError(f"the {tab} tab did not open")


def fits_the_phone(page, name: str) -> None:
    """At 390x844 the result panel is on the screen with its buttons, and the picture taken."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, name)
    box = page.locator(f"{RESULT}").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    for button in page.locator(f"{RESULT} .result-foot button").all():
        b = button.bounding_box()
        assert b["y"] + b["height"] <= PHONE["height"] and b["x"] + b["width"] <= PHONE["width"]
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(200)


def the_round_is_read(page, game: str) -> None:
    """The result of the round just played: the scores, and the history telling what happened."""
    panel = page.locator(RESULT)
    assert panel.locator("[data-testid=scores] tbody tr").count() >= 2
    shot(page, f"{game}-desktop-result")
    assert page.locator(".log li").count() > 5


def nobody_moves_in_the_pause(page, game: str) -> None:
    """At a round's end: nobody may move, the panel counts down to the next deal."""
    page.wait_for_selector(COUNTDOWN, timeout=10000)
    assert pause(page) is not None
    assert re.search(r"Ronde berikutnya dalam \d+ detik", page.inner_text(COUNTDOWN))
    assert not my_turn(page)
    assert page.locator(".hand-tile.legal, .hand-bar .act").count() == 0
    shot(page, f"{game}-desktop-between-rounds")
    fits_the_phone(page, f"{game}-phone-between-rounds")


def the_finished_board_stays_beside_the_result(page, game: str) -> None:
    """In the pause the board and the hands are the round's as it ended, not the next deal's,
    with the result beside the board; closed, the finished board is seen alone on a phone."""
    ev = page.evaluate("window.meja.log.findLast(e => e.type === 'round_over')")
    assert ev and ev.get("board"), "the round's end keeps its board"
    shown = page.locator(".board svg .tile").count()
    dealt = {"mexican_train": 1, "cross": 0, "moon": 0}[game]  # a new deal's board
    assert shown > dealt, f"{game}: the board shows the new deal, not the finished round"
    # the hands as they ended (Moon's are played out), not the next round's deal
    you = page.evaluate("window.meja.view.seat")
    left = len(ev["hands"][you]) if ev.get("hands") else 0
    assert page.locator(".hand .hand-tile").count() == left
    board, panel = page.locator(".board").bounding_box(), page.locator(RESULT).bounding_box()
    assert panel["x"] >= board["x"] + board["width"] - 1, "the result stands beside the board"
    assert_words(page, f"{game} finished board")
    shot(page, f"phone-finished-{game}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, f"phone-finished-{game}-phone")
    assert page.locator(".board svg .tile").count() > dealt  # (a phone's rows show the newest)
    page.click("[data-action=close-result]")
    page.wait_for_timeout(200)
    shot(page, f"phone-finished-{game}-phone-closed")
    page.set_viewport_size(DESKTOP)


def next_round_now(page) -> None:
    """ "Next round now" deals it at once (the page is the only human) and the panel leaves the
    board; the result stays readable beside it."""
    before = page.evaluate("window.meja.table.match_no")
    page.click(READY)
    page.wait_for_function("!window.meja.table.pause", timeout=4000)  # far sooner than 15 s
    page.wait_for_selector(RESULT, state="detached", timeout=3000)
    assert page.evaluate("window.meja.table.match_no") >= before
    open_tab(page, "result")
    assert page.locator(".side-result .result-body").count() == 1
    open_tab(page, "history")


@pytest.mark.parametrize("game", ["moon", "cross", "mexican_train"])
def test_o6_a_round_against_bots_is_read_beside_its_board_then_the_next_is_played(new_page, game):
    """One page plays a round against bots by clicking (pictures a few moves in), then reads
    its result in the pause (O-6) beside the finished board. The result closed, a reload
    brings it back while the pause lasts, and "next round now" deals the next round, played
    with the board uncovered."""
    page = new_page("Rina")
    open_vs_bots(page, game)
    assert page.locator(".plate").count() == 4
    # a few moves in, take the pictures, then play the round out
    play_until(
        [page],
        lambda: (
            page.locator(".board svg .tile").count() >= 3
            or page.locator(".bid-bubble.has-bid").count() >= 1
        ),
        timeout=60,
    )
    if my_turn(page) and not page.locator(RESULT).count():
        act(page)
    screenshots(page, game)
    moves = play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=150)
    assert moves > 0
    page.wait_for_function("!!window.meja.table?.pause")
    the_round_is_read(page, game)
    nobody_moves_in_the_pause(page, game)
    the_finished_board_stays_beside_the_result(page, game)
    page.reload()  # the closed result comes back with its countdown while the pause lasts
    page.wait_for_selector(COUNTDOWN, timeout=10000)
    next_round_now(page)
    # the next round is played with the board uncovered, our turns included
    played = 0
    for _ in range(200):
        if played >= 3 or pause(page):
            break
        if my_turn(page):
            assert page.locator(RESULT).count() == 0
            assert page.locator(".hand-tile.legal, .hand-bar .act").first.is_visible()
            played += act(page)
        else:
            page.wait_for_timeout(50)
    assert played >= 1
    assert page.errors == []


def the_own_net_comes_first(page) -> None:
    """Gaple's result says the player's own net first, after the title; on a phone an
    opponent's Lewat flashes below the plate, never over the title or the lobby button."""
    net = page.locator(f"{RESULT} .result-body > *").nth(1)  # after the title
    assert net.get_attribute("data-testid") == "net", page.inner_html(RESULT)[:400]
    you = page.evaluate("window.meja.table.players.indexOf(window.meja.table.you)")
    payments = page.evaluate("window.meja.view.result.payments")
    expected = sum(p["amount"] for p in payments if p["payee"] == you) - sum(
        p["amount"] for p in payments if p["payer"] == you
    )
    assert int(net.get_attribute("data-net")) == expected
    text = net.inner_text()
    word = "dapat" if expected > 0 else "bayar" if expected < 0 else "impas"
    assert word in text, text
    assert_words(page, "gaple net")
    shot(page, "phone-gaple-net-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "phone-gaple-net-phone")
    top = page.evaluate(
        """() => {
          const plate = document.querySelector('.plate:not(.pos-bottom)');
          const f = document.createElement('div');
          f.className = 'flash flash-lose'; f.textContent = 'Lewat −20'; plate.append(f);
          const y = f.getBoundingClientRect().top; f.remove();
          return [y, document.querySelector('.table-top').getBoundingClientRect().bottom];
        }"""
    )
    assert top[0] >= top[1], top
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(200)


def the_round_s_end_is_logged_once(page) -> None:
    """A chips table ends its "match" with every round (G-12): the history says "Ronde
    selesai", not also "Permainan selesai"."""
    page.wait_for_function("document.querySelectorAll('.log li.ev-round_over').length > 0")
    log = page.locator(".log").inner_text()
    assert "Ronde selesai" in log
    assert "Permainan selesai" not in log, log
    assert_words(page, "gaple after a round")


def test_o6_a_gaple_result_stays_for_the_whole_pause_then_the_next_round_is_dealt(new_page, server):
    """The pause is long enough to read the whole result: the player's own net first, and
    the history with the round's end. Back in the lobby, the round moved the daily mission
    bar of Gaple rounds."""
    page = new_page("Wulan")
    bar = page.locator("[data-mission=gaple_rounds] .mission-count")
    bar.wait_for()
    assert bar.get_attribute("data-count") == "0"
    open_vs_bots(page, "gaple")
    play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=120)
    page.wait_for_selector(COUNTDOWN, timeout=5000)
    assert page.locator(f"{RESULT} tr.pay").count() >= 3  # every loser's settlement, at least
    assert page.locator(READY).is_visible()
    shot(page, "gaple-desktop-between-rounds")
    fits_the_phone(page, "gaple-phone-between-rounds")
    # the server's pause (15 s, the default) is on the page as a countdown, and the result
    # stays to its end: it used to go with the next deal, 4 s after the round
    until = pause(page)["until"]
    left = (until - page.evaluate("Date.now()")) / 1000
    assert 8 < left <= 15.5, left
    the_own_net_comes_first(page)
    the_round_s_end_is_logged_once(page)
    left = (until - page.evaluate("Date.now()")) / 1000
    page.wait_for_timeout(int((left - 1.0) * 1000))
    assert page.locator(RESULT).count() == 1
    assert re.search(r"dalam [0-2] detik", page.inner_text(COUNTDOWN))
    # nobody asked for it: the next round is dealt when the pause ends, and the panel goes
    page.wait_for_function("!window.meja.table.pause && !window.meja.view.over", timeout=5000)
    page.wait_for_selector(RESULT, state="detached", timeout=3000)
    page.wait_for_selector(".hand .hand-tile", timeout=5000)
    open_tab(page, "result")
    assert page.locator(".side-result [data-testid=payments] tr.pay").count() >= 3
    page.goto(f"{server}/#/")
    page.wait_for_selector(
        "[data-mission=gaple_rounds] .mission-count[data-count='1']", timeout=10000
    )
    assert "1/3" in bar.inner_text()
    assert "Main 3 ronde Gaple" in page.inner_text("[data-testid=missions]")
    both_sizes(page, "missions-lobby", "[data-testid=missions]")
    assert page.errors == []


def test_o3_a_seat_freed_for_idling_says_so_and_offers_to_sit_again(new_page, server):
    page = new_page("Wati")
    tid = page.evaluate("""async () => {
        const post = (url, body) => fetch(url, { method: "POST", credentials: "same-origin",
            headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) })
            .then(r => r.json());
        const table = await post("/api/tables", { game: "gaple", seats: 4, turn_seconds: 1,
            options: { stake: 10 } });
        await post(`/api/tables/${table.id}/seats/0`);
        await post(`/api/tables/${table.id}/bots`);
        return table.id;
    }""")
    page.goto(f"{server}/#/t/{tid}")
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    # never move: three turns time out, the bot plays the seat, the round's end frees it (O-3)
    page.wait_for_selector(".banner[data-status=removed]", timeout=90000)
    banner = page.locator(".banner[data-status=removed]")
    assert "Kursi Anda dilepas karena Anda tidak bermain" in banner.inner_text()
    assert page.locator(".banner[data-status=spectating]").count() == 0
    # no "next round" promise for a table that will not deal; our own moves are still ours
    assert page.locator(".countdown").count() == 0
    lines = page.locator(".log li").all_inner_texts()
    assert [x for x in lines if x.startswith("Kursi 1") and x != "Kursi 1 kosong"] == []
    assert any(x.startswith("Anda memasang") for x in lines), lines
    shot(page, "gaple-desktop-removed")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "gaple-phone-removed")
    b = page.locator("[data-action=sit-again]").bounding_box()
    assert b and b["y"] + b["height"] <= PHONE["height"]
    page.set_viewport_size(DESKTOP)
    page.evaluate("window.meja.setLang('en')")
    page.wait_for_selector(".banner[data-status=removed]:has-text('Your seat was freed')")
    assert page.inner_text("[data-action=sit-again]") == "Sit again"
    page.evaluate("window.meja.setLang('id')")
    # the freed seat's chips are back in the wallet (the outbox), less what the round cost
    page.wait_for_function(
        "async () => (await (await fetch('/api/players/me/chips')).json()).balance > 0",
        timeout=10000,
        polling=200,
    )
    page.click("[data-action=sit-again]")
    accept_buy_in(page)  # sitting again asks the buy-in, as every sit does
    page.wait_for_function("window.meja.table?.you === 0", timeout=5000)
    page.wait_for_selector(".banner[data-status=removed]", state="detached")
    page.wait_for_selector(".hand .hand-tile", timeout=10000)
    assert page.errors == []


def test_a_link_to_a_missing_table_says_so_and_offers_the_lobby(new_page, server):
    page = new_page("Sari")
    page.goto(f"{server}/#/t/nosuchtable")
    gone = page.locator(".waiting-box.gone")
    gone.wait_for(timeout=5000)
    assert "Meja ini tidak ada atau sudah ditutup." in gone.inner_text()
    page.wait_for_timeout(1000)  # its retries (300 ms, then 700 ms: socket.js) would show by now
    assert page.locator(".banner[data-status=reconnecting]").count() == 0
    shot(page, "table-gone-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    shot(page, "table-gone-phone")
    page.click("[data-action=lobby]")
    page.wait_for_selector(".lobby .game-card")
    assert page.errors == []


def test_a_link_to_a_closed_table_says_so(browser, tmp_path):
    """A table nobody sat at for a while closes (its final state stays readable): the link
    says the same as for a table that never was."""
    with running_server(tmp_path, MEJA_EMPTY_TABLE_SECONDS="1", MEJA_SWEEP_INTERVAL="0.2") as url:
        ctx = browser.new_context(viewport=DESKTOP)
        page = ctx.new_page()
        page.goto(url + "/")
        sign_in(page, "Tono")
        tid = page.evaluate("""async () => {
            const r = await fetch("/api/tables", { method: "POST", credentials: "same-origin",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ game: "cross", seats: 2 }) });
            return (await r.json()).id;
        }""")
        page.wait_for_function(
            """async (tid) => (await (await fetch(`/api/tables/${tid}`)).json()).status
                === "closed" """,
            arg=tid,
            timeout=15000,
            polling=300,
        )
        page.goto(f"{url}/#/t/{tid}")
        page.wait_for_selector(".waiting-box.gone", timeout=5000)
        page.wait_for_timeout(1000)  # as for a missing table: no retries
        assert page.locator(".banner[data-status=reconnecting]").count() == 0
        ctx.close()
