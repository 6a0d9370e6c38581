"""Leaving a Gaple table mid-round: the page asks first and says what happens (a bot plays the
round out, its chips stay the player's, the stack then goes back to the wallet), "stay" keeps
the seat, and after leaving the lobby shows the chips coming back and how many came
(docs/rules.md O-3). Screenshots at both sizes in tests/e2e/artifacts/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, assert_words, shot
from .play import open_vs_bots

pytestmark = pytest.mark.e2e

DIALOG = "dialog[data-testid=leave]"


def wallet(page) -> int:
    return int(page.get_attribute("#chips", "data-wallet") or 0)


def test_leaving_mid_round_asks_then_shows_the_chips_coming_back(new_page):
    page = new_page("Rudi")
    granted = wallet(page)
    open_vs_bots(page, "gaple")
    # the header reads the wallet again after the sit: the buy-in taken, then counted from
    expect(page.locator("#chips")).not_to_have_attribute("data-wallet", str(granted))
    before = wallet(page)
    page.click("[data-action=leave]")
    dialog = page.locator(DIALOG)
    expect(dialog).to_contain_text("bot memainkan kartu Anda sampai ronde selesai")
    expect(dialog.locator(".leave-stack")).to_have_text(re.compile(r"\(sekarang [\d.]+\)"))
    assert_words(page, "leave dialog")
    shot(page, "leave-confirm-desktop")
    dialog.locator("[data-action=stay]").click()
    expect(dialog).to_have_count(0)
    assert page.locator(".felt .hand-area").count() == 1  # still seated

    page.set_viewport_size(PHONE)
    page.click("[data-action=leave]")
    expect(dialog).to_be_visible()
    shot(page, "leave-confirm-phone")
    dialog.locator("[data-action=confirm-leave]").click()
    page.wait_for_selector(".lobby .game-card")
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    assert_words(page, "settling")
    shot(page, "leave-settling-phone")
    expect(notice).to_have_attribute("data-state", "settled", timeout=25000)
    back = wallet(page) - before
    text = notice.inner_text()
    if back > 0:
        amount = f"{back:,}".replace(",", ".")  # as the page writes it in Bahasa Indonesia
        assert re.match(rf"{amount} chip dari meja [A-Z][a-z]+ \d+ sudah kembali", text), text
    else:
        assert text.startswith("Tidak ada chip yang kembali"), text
    assert page.locator(".table-row [data-action=back]").count() == 0  # the seat is gone
    page.set_viewport_size(DESKTOP)
    shot(page, "leave-settled-desktop")
    assert page.errors == []


def test_leaving_a_match_without_chips_asks_and_says_the_bot_plays_it_out(new_page):
    page = new_page("Sinta", viewport=PHONE)
    open_vs_bots(page, "cross")
    page.click("[data-action=leave]")
    dialog = page.locator(DIALOG)
    expect(dialog).to_contain_text("bot memainkan kursi Anda sampai permainan selesai")
    assert dialog.locator(".leave-stack").count() == 0  # no chips at stake
    assert "null" not in dialog.inner_text()
    assert_words(page, "leave a match")
    shot(page, "leave-confirm-cross-phone")
    dialog.locator("[data-action=confirm-leave]").click()
    page.wait_for_selector(".lobby .game-card")
    assert page.locator("#notice").is_hidden()  # nothing to settle
    assert page.errors == []
