"""Six chat lines in a second: the first three are said, the rest refused, and the page says
why under the chat ("too fast", err.chat_too_fast) at desktop and phone sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, assert_words, shot
from .play import open_vs_bots

pytestmark = pytest.mark.e2e


def test_a_burst_of_chat_lines_is_refused_saying_too_fast(new_page):
    page = new_page("Dewi")
    open_vs_bots(page, "cross")
    page.click(".side [data-tab=chat]")
    chat = page.locator(".chat-form input")
    for n in range(6):
        chat.fill(f"baris {n}")
        chat.press("Enter")
    refused = page.locator(".chat .refused")
    expect(refused).to_have_text("Pesan terlalu cepat. Tunggu sebentar sebelum mengirim lagi.")
    page.wait_for_timeout(500)  # the refused lines were never said
    lines = page.locator(".chat-log li").all_inner_texts()
    assert lines == [f"Anda: baris {n}" for n in range(3)], lines
    assert_words(page, "chat too fast")
    shot(page, "chat-too-fast-desktop")
    page.set_viewport_size(PHONE)
    refused.scroll_into_view_if_needed()
    shot(page, "chat-too-fast-phone")
    assert page.errors == []
