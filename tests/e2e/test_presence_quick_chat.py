"""What players see of each other at a table: "terputus" on the plate of a player whose
connection dropped (also when the two are served by two server processes), and quick chat
phrases and emotes over the sender's plate, each reader in their own language."""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, drop_keys, fresh_database, running_server, shot, sign_in

pytestmark = pytest.mark.e2e

FLAG = ".plate [data-flag=disconnected]"


def player_page(browser, base: str, name: str, lang: str | None = None, viewport=DESKTOP):
    ctx = browser.new_context(viewport=viewport)
    if lang:
        ctx.add_init_script(f"localStorage.setItem('meja.lang', '{lang}')")
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(base + "/")
    sign_in(page, name)
    return page


def cross_for_two(a, a_base: str, b, b_base: str) -> str:
    """A two-seat Domino Cross table with page a in seat 0 and page b in seat 1, both open."""
    r = a.context.request.post(f"{a_base}/api/tables", data={"game": "cross", "seats": 2})
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    for n, (page, base) in enumerate(((a, a_base), (b, b_base))):
        r = page.context.request.post(f"{base}/api/tables/{tid}/seats/{n}", data={})
        assert r.status == 200, r.text()
    for page, base in ((a, a_base), (b, b_base)):
        page.goto(f"{base}/#/t/{tid}")
        page.wait_for_selector(".felt .hand-area", timeout=15000)
    return tid


def seat_plate(page, name: str):
    return page.locator(".plate", has=page.locator(".plate-name", has_text=name))


def test_a_dropped_player_is_flagged_on_pages_served_by_another_process(browser, tmp_path, request):
    prefix = f"e2e:{uuid.uuid4().hex[:8]}:"
    database, drop_db = fresh_database(tmp_path)
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    # one Redis for both: the suite's, else a server of the test's own (each process's
    # embedded Redis would be a table store of its own)
    redis = os.environ.get("REDIS_URL") or request.getfixturevalue("spare_redis")
    same = {"MEJA_KEY_PREFIX": prefix, "MEJA_LIMIT_SIGNUP_ADDRESS": "", "REDIS_URL": redis}
    try:
        with contextlib.ExitStack() as stack:
            servers = [running_server(tmp_path / n, database, **same) for n in ("one", "two")]
            with concurrent.futures.ThreadPoolExecutor(2) as pool:  # both start at once
                one, two = pool.map(stack.enter_context, servers)
            ani = player_page(browser, one, "Ani")
            bima = player_page(browser, two, "Bima")
            tid = cross_for_two(ani, one, bima, two)
            plate = seat_plate(ani, "Bima")
            plate.wait_for()
            # Bima's arrival reaches process one over the table's channel a moment after
            # both pages show the table; until then his plate may say "Terputus".
            expect(ani.locator(FLAG)).to_have_count(0, timeout=5000)

            bima.close()  # his only socket, on the other process, closes
            plate.locator("[data-flag=disconnected]").wait_for(timeout=10000)
            assert plate.locator("[data-flag=disconnected]").inner_text() == "Terputus"
            assert ani.locator(FLAG).count() == 1  # Ani's own plate is not flagged
            shot(ani, "presence-desktop")
            ani.set_viewport_size(PHONE)
            ani.wait_for_timeout(300)
            shot(ani, "presence-phone")
            ani.set_viewport_size(DESKTOP)

            back = bima.context.new_page()
            back.goto(f"{two}/#/t/{tid}")
            back.wait_for_selector(".felt .hand-area")
            plate.locator("[data-flag=disconnected]").wait_for(state="detached", timeout=10000)
            assert back.locator(FLAG).count() == 0
            assert ani.errors == []
            for page in (ani, back):
                page.context.close()
    finally:
        drop_keys(prefix)
        drop_db()


def test_quick_chat_shows_over_the_sender_s_plate_in_each_reader_s_language(browser, server):
    sari = player_page(browser, server, "Sari")
    tom = player_page(browser, server, "Tom", lang="en", viewport=PHONE)
    cross_for_two(sari, server, tom, server)
    sari.click("[data-tab=chat]")
    sari.click("[data-quick=gg]")
    own = seat_plate(sari, "Anda").locator(".bubble")
    own.wait_for(timeout=5000)
    theirs = seat_plate(tom, "Sari").locator(".bubble")
    theirs.wait_for(timeout=5000)
    assert (own.inner_text(), theirs.inner_text()) == ("Main bagus!", "Good game!")
    shot(sari, "quick-chat-desktop")
    shot(tom, "quick-chat-phone")
    tom.click("[data-tab=chat]")
    assert tom.locator(".chat-log li").last.inner_text() == "Sari: Good game!"
    own.wait_for(state="detached", timeout=8000)  # shown briefly
    assert theirs.count() == 0

    tom.click("[data-quick=cool]")
    emote = seat_plate(sari, "Tom").locator(".bubble.bubble-emote")
    emote.wait_for(timeout=5000)
    assert emote.inner_text() == "😎"
    shot(tom, "quick-chat-emote-phone")
    assert sari.errors == [] and tom.errors == []
    for page in (sari, tom):
        page.context.close()
