"""What a player reads: refusals worded from their codes and the server's limits, and no raw key
or English on an Indonesian page (``assert_words``). (Every hand's count for a spectator is in
tests/e2e/test_phone_table.py, with the rest of what a spectator sees.)"""

from __future__ import annotations

import re

import pytest

from .conftest import PHONE, assert_words, shot
from .play import open_vs_bots, play_until

pytestmark = pytest.mark.e2e


def test_a_refused_name_says_the_servers_rule_in_indonesian(new_page):
    page = new_page()
    hint = page.locator("[data-hint=name]")
    hint.wait_for()
    page.wait_for_function("document.querySelector('[data-hint=name]').textContent !== ''")
    assert "2–24 karakter" in hint.inner_text()  # GET /api/players/rules
    error = page.locator(".welcome .error")
    for name, words in (
        ("x", "Nama terdiri dari 2–24 karakter."),
        ("!!", "Nama hanya boleh berisi huruf, angka, spasi, atau _ - . '"),
    ):
        page.fill("input[name=name]", name)
        page.click(".welcome form button[type=submit]")
        page.wait_for_function(
            "t => document.querySelector('.welcome .error').textContent === t", arg=words
        )
        assert_words(page, f"welcome, refused {name!r}")
    page.set_viewport_size(PHONE)
    shot(page, "welcome-refused-phone")
    assert error.is_visible()
    assert page.errors == []


def test_sentences_about_you_agree_in_english_and_moon_passes_read_pas(new_page):
    """Moon in English: the viewer's team is "Your team", never "Team You & ..."; no sentence
    says "You wins" or "1 tiles". In Indonesian a bidding pass is "pas", as its button."""
    page = new_page("Rina", lang="en")
    open_vs_bots(page, "moon")
    sides = page.locator(".moon-sides")
    sides.wait_for()
    assert "Your team, with Bot 3" in sides.inner_text()
    play_until([page], lambda: page.locator(".log li").count() >= 12, timeout=90)
    text = page.locator("body").inner_text()
    assert "Team You" not in text
    assert not re.search(r"\bYou (pays|wins|is|wants)\b", text), text
    assert not re.search(r"\b1 (tiles|points|pips|rounds|chips)\b", text), text
    page.select_option("#lang", "id")
    page.wait_for_function("document.documentElement.lang === 'id'")
    page.click(".tab[data-tab=history]")
    log = page.locator(".log").inner_text()
    passes = page.evaluate("window.meja.view.bids.filter(b => b.value === null).length")
    assert " lewat" not in log, log  # Moon has no Lewat: its pass is "Pas"
    assert passes == 0 or " pas" in log, log
    assert_words(page, "moon history")


def test_the_phone_language_menu_names_every_language_in_full(new_page):
    """On a phone the header shows the chosen language's code; the menu it opens names each
    language in full, and lies on the screen over that code."""
    page = new_page("Rina", viewport=PHONE)
    code = page.locator("#lang-code")
    assert code.inner_text().startswith("ID")
    options = page.evaluate("[...document.querySelectorAll('#lang option')].map(o => o.text)")
    assert options == ["Bahasa Indonesia", "English"]
    box = page.locator("#lang").bounding_box()
    shown = code.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert abs(box["x"] - shown["x"]) < 2 and abs(box["width"] - shown["width"]) < 2, (box, shown)
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert code.inner_text().startswith("EN")
    shot(page, "lobby-phone-language")
