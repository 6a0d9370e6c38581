"""How to play, in the game: a rules page per game in both languages (static/js/rules/), opened
from the lobby's game cards and from the table, with docs/rules.md's worked Gaple example. No
dictionary key shows, and neither language's page holds the other's words."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import DESKTOP, PHONE, shot
from .play import open_vs_bots
from .test_language import dictionaries, switch, words

pytestmark = pytest.mark.e2e

# Words only English uses, beyond the dictionaries: a page that forgot to translate shows them.
# (Single, Double and Triple are the multipliers' names in both languages.)
ENGLISH = {
    "the",
    "and",
    "player",
    "players",
    "tile",
    "tiles",
    "round",
    "turn",
    "pass",
    "pays",
    "stake",
    "wins",
    "trick",
    "train",
    "with",
    "every",
    "when",
}


def page_words(page) -> set[str]:
    return words(page.inner_text(".rules"))


def test_rules_pages_in_both_languages_from_the_lobby_and_the_table(new_page):
    page = new_page("Vina", viewport=DESKTOP)
    dicts = dictionaries(page)
    id_words = set().union(*(words(v) for v in dicts["id"].values()))
    en_words = set().union(*(words(v) for v in dicts["en"].values()))
    only_en = (en_words - id_words) | ENGLISH
    only_id = id_words - en_words - {"gaple", "moon", "domino", "cross", "lewat", "bet"}

    page.click(".game-card[data-game=gaple] [data-action=rules]")
    page.wait_for_selector(".rules[data-game=gaple]")
    text = page.inner_text(".rules")
    assert "⟦" not in text
    for seen in ("Cara main Gaple", "Kuartet", "Kuintet", "Lewat", "Bidang Bet", "1.600", "760"):
        assert seen in text, seen
    left = page_words(page) & only_en
    assert not left, f"English on the Indonesian page: {sorted(left)}"
    shot(page, "rules-gaple-desktop")
    page.set_viewport_size(PHONE)
    page.locator(".rules table").first.scroll_into_view_if_needed()
    shot(page, "rules-gaple-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)

    for game in ("moon", "cross", "mexican_train"):
        page.click(f".rules-top a[href='#/rules/{game}']")
        page.wait_for_selector(f".rules[data-game={game}]")
        assert "⟦" not in page.inner_text(".rules")
        assert not page_words(page) & only_en, game

    switch(page, "en")
    page.click(".rules-top a[href='#/rules/gaple']")
    page.wait_for_selector(".rules[data-game=gaple]")
    text = page.inner_text(".rules")
    for seen in ("How to play Gaple", "Quartet", "bet table", "1,600"):
        assert seen in text, seen
    left = page_words(page) & only_id
    assert not left, f"Indonesian on the English page: {sorted(left)}"
    shot(page, "rules-gaple-en-desktop")
    switch(page, "id")

    # From the table, and back to it.
    page.click(".rules-top [data-action=back]")
    page.wait_for_selector(".lobby .game-card")
    tid = open_vs_bots(page, "gaple")
    # The bots play meanwhile and the table's top is drawn again with each state: a click
    # whose press and release straddle a redraw is lost (for a person too, who clicks again).
    for attempt in range(3):
        page.click(".table-top [data-action=rules]")
        try:
            page.wait_for_selector(".rules[data-game=gaple]", timeout=5000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    back = page.locator(".rules-top [data-action=back]")
    assert re.sub(r"\s+", " ", back.inner_text()) == "← Kembali ke meja"
    back.click()
    page.wait_for_selector(f".table-page[data-table='{tid}'] .hand-area", timeout=10000)
    assert page.errors == []
