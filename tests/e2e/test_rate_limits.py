"""A rate limit in the browser: the refused sign-up and the refused chat line say how long to
wait, in the page's language, at desktop and phone sizes (screenshots in tests/e2e/artifacts/).
A server of this module's own, with a sign-up and a chat line per minute."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, running_server, shot
from .play import open_vs_bots

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory.mktemp("e2e-limits"),
        MEJA_LIMIT_SIGNUP_ADDRESS="1/minute",
        MEJA_LIMIT_CHAT_PLAYER="1/minute",
    ) as url:
        yield url


def test_a_refused_sign_up_and_chat_line_say_how_long_to_wait(new_page):
    player = new_page("Ayu")  # the one sign-up this address has this minute
    for viewport, lang, words in (
        (DESKTOP, "id", r"Terlalu sering\. Coba lagi dalam \d+ detik\."),
        (PHONE, "en", r"Slow down: try again in \d+ s\."),
    ):
        page = new_page(viewport=viewport, lang=lang)
        page.fill("input[name=name]", "Bayu")
        page.click(".welcome form button[type=submit]")
        expect(page.locator(".welcome form .error")).to_have_text(re.compile(f"^{words}$"))
        assert page.locator(".lobby").count() == 0  # still at the welcome form
        shot(page, f"rate-limited-signup-{'desktop' if viewport is DESKTOP else 'phone'}")

    open_vs_bots(player, "cross")
    player.click(".side [data-tab=chat]")
    chat = player.locator(".chat-form input")
    chat.fill("halo semua")
    chat.press("Enter")
    expect(player.locator(".chat-log li")).to_have_text(re.compile("halo semua"))
    chat.fill("halo lagi")
    chat.press("Enter")
    refused = player.locator(".chat .refused")
    expect(refused).to_have_text(re.compile(r"^Terlalu sering\. Coba lagi dalam \d+ detik\.$"))
    assert player.locator(".chat-log li").count() == 1  # the second line was never said
    shot(player, "rate-limited-chat-desktop")
    player.set_viewport_size(PHONE)
    refused.scroll_into_view_if_needed()
    shot(player, "rate-limited-chat-phone")
    assert player.errors == []
