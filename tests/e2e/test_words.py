"""What a player reads: refusals worded from their codes and the server's limits, every hand's
count for a spectator, and no raw key or English on an Indonesian page (``assert_words``)."""

from __future__ import annotations

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


def test_a_spectator_sees_every_hands_count(new_page):
    player = new_page("Rina")
    table = open_vs_bots(player, "gaple")
    play_until([player], lambda: player.locator(".board svg .tile").count() >= 2, timeout=60)
    watcher = new_page("Tono")
    watcher.goto(watcher.url.split("#")[0] + f"#/t/{table}")
    watcher.wait_for_selector(".banner[data-status=spectating]")
    watcher.wait_for_selector(".plate")
    assert watcher.locator(".plate").count() == 4
    assert watcher.locator(".plate .plate-backs").count() == 4  # the bottom seat's too
    assert player.locator(".plate .plate-backs").count() == 3  # a player's own hand is in view
    assert_words(watcher, "spectator")
    shot(watcher, "gaple-spectator-desktop")
