"""The Riwayat page lists the player's finished matches a page at a time (game, date, result,
chips), and one opens a move-by-move replay on the table page: step forward, back, play; the
hand shown is the player's own at every step, never another seat's (O-2)."""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, PHONE, shot
from .records import store

pytestmark = pytest.mark.e2e

ME = "() => fetch('/api/players/me').then(r => r.json())"
PAGE = "p => document.querySelector('[data-pages]').innerText.startsWith(p)"
PLAYING = "[data-action=leave], .clock, .hand-tile.legal, [data-tab=chat]"
HAND = "() => [...document.querySelectorAll('.hand .hand-tile')].map(b => b.dataset.tile)"


def step(page) -> int:
    return int(page.get_attribute(".replay-step", "data-step"))


def click_step(page, key: str) -> int:
    before = step(page)
    page.click(f"[data-replay={key}]")
    page.wait_for_function(
        "s => document.querySelector('.replay-step').dataset.step !== String(s)", arg=before
    )
    return step(page)


def board_shows(page, n: int) -> None:
    """The board draws on the next animation frame after the step counter changes
    (static/js/store.js): wait for it to show ``n`` tiles (a wrong count times out)."""
    page.wait_for_function(
        "n => document.querySelectorAll('.board svg .tile').length === n", arg=n, timeout=5000
    )


def tiles(hand) -> set[str]:
    return {f"{min(t)}-{max(t)}" for t in hand} | {f"{max(t)}-{min(t)}" for t in hand}


def test_riwayat_lists_matches_and_replays_one(new_page, server_database):
    page = new_page("Wulan")
    me = page.evaluate(ME)["id"]
    log, hands = store(server_database, me, older=10)

    page.click("#who .account")
    page.click("[data-action='history.mine']")
    page.wait_for_selector(".history-table tbody tr")
    assert page.url.endswith("#/history")
    rows = page.eval_on_selector_all(
        ".history-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    assert len(rows) == 10 and page.inner_text("[data-pages]") == "Halaman 1 dari 2"
    # the newest first: the Gaple round won, +30 chips (G-10: 3 losers x stake 10 x1)
    # each game with its table's readable name (docs/players.md "Tables")
    assert re.fullmatch(r"Gaple\nMeja [A-Z][a-z]+ \d+", rows[0][0]), rows[0][0]
    assert rows[0][2] == "Menang" and rows[0][3] == "+30 chip"
    assert rows[1][0].startswith("Domino Cross\nMeja ")
    assert rows[1][2] == "Menang · skor 100" and rows[1][3] == "—"
    assert rows[2][2] == "Kalah · skor 100"
    shot(page, "history-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "history-phone")
    page.set_viewport_size(DESKTOP)
    page.click("[data-page=next]")
    page.wait_for_function(PAGE, arg="Halaman 2")
    assert page.locator(".history-table tbody tr").count() == 1
    page.click("[data-page=prev]")
    page.wait_for_function(PAGE, arg="Halaman 1")

    page.locator(".history-table tbody tr").first.locator("[data-action=replay]").click()
    page.wait_for_selector(".replay-controls .replay-step")
    page.wait_for_selector(".felt .hand-area")
    n = len(log)
    assert page.inner_text(".replay-step") == f"Langkah 0 dari {n}"
    assert page.locator(".plate").count() == 4
    assert set(page.evaluate(HAND)) <= tiles(hands[0]) and len(page.evaluate(HAND)) == 7
    # watched, not played: no leaving, no clock, no tile to play, no chat
    assert page.locator(PLAYING).count() == 0
    assert page.is_disabled("[data-replay=back]")
    hidden = tiles([t for h in hands[1:] for t in h])
    played = 0
    for k in range(1, 6):  # forward: the line grows with each tile the log played
        assert click_step(page, "forward") == k
        played += 1 if log[k - 1]["action"].get("tile") else 0
        board_shows(page, played)
        assert not hidden & set(page.evaluate(HAND))
    assert page.locator(".log li").count() >= 5  # the history names the moves
    shot(page, "replay-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bottom = page.evaluate("document.querySelector('.hand-area').getBoundingClientRect().bottom")
    assert bottom <= PHONE["height"] + 1, "the hand is below the fold"
    shot(page, "replay-phone")
    page.set_viewport_size(DESKTOP)
    assert click_step(page, "back") == 4
    played -= 1 if log[4]["action"].get("tile") else 0
    board_shows(page, played)
    assert click_step(page, "start") == 0
    board_shows(page, 0)

    for k in range(1, n - 1):  # by hand to two steps before the end, a step a click
        assert click_step(page, "forward") == k
    page.click("[data-replay=play]")  # plays on by itself to the end, then the result panel
    page.wait_for_selector("[data-testid=result]", timeout=10000)
    assert step(page) == n and page.is_disabled("[data-replay=forward]")
    assert page.inner_text(".result-winner") == "Pemenang: Anda"
    shot(page, "replay-desktop-result")
    page.click("[data-testid=result] .btn")  # close
    assert not hidden & set(page.evaluate(HAND))
    page.select_option("#lang", "en")  # the replay's own words in English too
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.inner_text(".replay-step") == f"Step {n} of {n}"
    assert page.inner_text("[data-replay=back]").endswith("Back")
    assert "⟦" not in page.inner_text("body")
    page.click(".table-top .btn")  # back to the Riwayat page
    page.wait_for_selector(".history-table")
    assert page.url.endswith("#/history")
    assert page.inner_text(".history-page h2") == "Match history"
    first = page.locator(".history-table tbody tr").first
    assert first.locator(".history-result").inner_text() == "Won"
    assert first.locator("[data-action=replay]").inner_text() == "Replay"
    assert "⟦" not in page.inner_text("body")
    assert page.errors == []


def test_a_replay_of_an_unknown_match_says_so(new_page, server):
    page = new_page("Wulan")
    page.goto(f"{server}/#/replay/987654321")
    page.wait_for_selector(".replay-page .error")
    assert page.inner_text(".replay-page .error") == "Permainan itu tidak ditemukan."
