"""The daily bonus in the header (docs/players.md "Free chips"): offered with its streak day,
claimed with one click, the wallet grows, and the claimed bonus stays claimed after a reload."""

from __future__ import annotations

import pytest

from .conftest import PHONE, shot

pytestmark = pytest.mark.e2e

CHIPS = "#chips .chips-long"
CLAIM = "#claim"


def test_claim_the_daily_bonus_from_the_header(new_page):
    page = new_page("Wulan")
    page.wait_for_selector(f"{CLAIM}[data-kind=daily]")
    assert page.inner_text(CHIPS) == "● Dompet 1.000"
    assert page.inner_text(CLAIM) == "Bonus harian: 1.000 chip · hari ke-1"
    shot(page, "chips-bonus-desktop")

    page.click(CLAIM)
    page.wait_for_selector(f"{CLAIM}[data-kind=done]")
    assert page.inner_text(CHIPS) == "● Dompet 2.000"
    assert page.is_disabled(CLAIM)
    assert page.inner_text(CLAIM) == "Bonus hari ke-1 sudah diambil"
    assert "Bonus harian masuk: +1.000 chip" in page.inner_text("#toasts")
    shot(page, "chips-claimed-desktop")

    page.reload()
    page.wait_for_selector(f"{CLAIM}[data-kind=done]")
    assert page.inner_text(CHIPS) == "● Dompet 2.000" and page.is_disabled(CLAIM)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    assert page.inner_text(f"{CLAIM} .chips-short") == "✓"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "chips-claimed-phone")
    assert page.errors == []


def test_the_bonus_offer_fits_a_phone_in_both_languages(new_page):
    page = new_page("Yudi", viewport=PHONE)
    page.wait_for_selector(f"{CLAIM}[data-kind=daily]")
    # a phone says what the amount is: the daily bonus (two short lines)
    assert " ".join(page.inner_text(f"{CLAIM} .chips-short").split()) == "Bonus harian +1.000"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "chips-bonus-phone")
    page.select_option("#lang", "en")
    page.set_viewport_size({"width": 1366, "height": 800})
    page.wait_for_function("document.querySelector('#claim').innerText.startsWith('Daily')")
    assert page.inner_text(CLAIM) == "Daily bonus: 1,000 chips · day 1"
    shot(page, "chips-bonus-desktop-en")
    assert page.errors == []
