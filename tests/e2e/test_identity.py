"""Who is who: a player picks an avatar on their profile and it shows on their seat plate, the
bots have theirs, and a table is named readably (Melati 12) in its header and the lobby; a
visitor without a session lands on a page that says what Meja is and plays as a guest in one
tap. Screenshots at both sizes in tests/e2e/artifacts/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, assert_words, screenshots, shot
from .play import open_vs_bots

pytestmark = pytest.mark.e2e

WIDE = """[...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
    .map(e => e.tagName + '.' + (e.getAttribute('class') || ''))"""
NAME = re.compile(r"[A-Z][a-z]+ \d{1,2}")


def test_a_chosen_avatar_shows_on_the_profile_and_the_plate_and_tables_have_names(new_page):
    page = new_page("Sari")
    page.click("#who .account")
    page.click("[data-action='profile.mine']")
    page.wait_for_selector(".avatar-choice")
    assert page.locator(".avatar-choice").count() == 12
    page.click("[data-choose=owl]")
    expect(page.locator(".avatar-choice.on")).to_have_attribute("data-choose", "owl")
    expect(page.locator(".profile-head .avatar")).to_have_attribute("data-avatar", "owl")
    assert_words(page, "profile with avatars")
    shot(page, "avatar-profile-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    shot(page, "avatar-profile-phone")
    wide = page.evaluate(WIDE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    page.set_viewport_size(DESKTOP)
    page.reload()  # kept by the server
    expect(page.locator(".avatar-choice.on")).to_have_attribute("data-choose", "owl")

    page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector(".lobby .game-card")
    open_vs_bots(page, "cross")
    mine = page.locator(".plate", has=page.locator(".plate-name", has_text="Anda"))
    expect(mine.locator(".avatar")).to_have_attribute("data-avatar", "owl")
    bots = page.locator(".plate .avatar[data-avatar=bot]")
    expect(bots).to_have_count(3)
    name = page.get_attribute(".table-top h2", "data-table-name")
    assert NAME.fullmatch(name or ""), name
    expect(page.locator(".table-top h2 .chips-long")).to_have_text(f"Domino Cross · Meja {name}")
    expect(page.locator(".table-top h2 .chips-short")).to_be_hidden()
    screenshots(page, "identity-plates")
    page.set_viewport_size(PHONE)  # the phone's header shows the name whole
    expect(page.locator(".table-top h2 .chips-short")).to_have_text(f"Meja {name}")
    title = page.locator(".table-top h2")
    assert title.evaluate("e => e.scrollWidth <= e.clientWidth"), "the name is cut off"
    page.set_viewport_size(DESKTOP)
    page.click(".table-top .btn-ghost >> nth=0")  # back to the lobby, the seat kept
    row = page.locator(".table-row", has=page.locator("[data-action=back]"))
    expect(row.locator(".table-name")).to_have_text(name)
    expect(row.locator(".seat-chip .avatar[data-avatar=owl]")).to_have_count(1)
    row.scroll_into_view_if_needed()
    shot(page, "identity-lobby-desktop")
    page.set_viewport_size(PHONE)
    row.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "identity-lobby-phone")
    assert page.errors == []


def test_a_visitor_lands_on_what_meja_is_and_plays_as_a_guest_in_one_tap(new_page):
    for viewport, lang, play, guest in (
        (DESKTOP, "id", "Main sekarang sebagai tamu", r"Tamu \d{4}"),
        (PHONE, "en", "Play now as a guest", r"Guest \d{4}"),
    ):
        size = "desktop" if viewport is DESKTOP else "phone"
        page = new_page(viewport=viewport, lang=lang)
        button = page.locator(".landing-hero [data-action=guest]")
        expect(button).to_have_text(play)
        cards = page.locator(".landing-games .game-card")
        expect(cards).to_have_count(4)
        assert cards.locator("h3").all_inner_texts() == (
            ["Gaple", "Moon", "Domino Cross", "Kereta Meksiko"]
            if lang == "id"
            else ["Gaple", "Moon", "Domino Cross", "Mexican Train"]
        )
        assert page.locator(".welcome input[name=name]").count() == 1  # a name of one's own
        assert_words(page, f"landing {size}")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, f"landing-{size}")
        button.click()  # one tap: a guest, in the lobby
        page.wait_for_selector(".lobby .game-card")
        expect(page.locator("#who .account")).to_contain_text(re.compile(guest))
        assert page.errors == []
