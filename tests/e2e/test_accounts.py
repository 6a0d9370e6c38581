"""An account in the browser: register, log out, log in, play, log out, and log in from a second
browser: the same wallet and history. No request the pages make carries a token in its URL,
and no token is kept where the page's scripts could read it. Screenshots of the welcome, login
and register screens and of the header, at desktop and phone sizes."""

from __future__ import annotations

import uuid

import pytest

from .conftest import DESKTOP, PHONE, shot
from .play import RESULT, open_vs_bots, play_until

pytestmark = pytest.mark.e2e
PASSWORD = "rendang-pedas-88"


def watch_urls(page) -> list[str]:
    """Every URL the page asks for: requests and sockets."""
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def tab(page, mode: str) -> None:
    page.click(f".welcome-tabs [data-mode={mode}]")
    page.wait_for_selector(f".welcome-tabs [data-mode={mode}][aria-selected=true]")


def submit(page, username: str, password: str) -> None:
    page.fill(".welcome input[name=username]", username)
    page.fill(".welcome input[name=password]", password)
    page.click(".welcome form button[type=submit]")


def account_action(page, action: str) -> None:
    page.click(".who .account")
    page.click(f".account-menu [data-action='{action}']")


def both_sizes(page, name: str) -> None:
    shot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    shot(page, f"{name}-phone")
    wide = page.evaluate("""[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .map(e => e.tagName + '.' + (e.getAttribute('class') || ''))""")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (name, wide)
    page.set_viewport_size(DESKTOP)


def api(page, path: str):
    """A GET with the page's own cookies."""
    return page.context.request.get(page.url.split("#")[0].rstrip("/") + path)


def test_register_play_log_out_and_come_back_in_another_browser(new_page):
    username = "Sari_" + uuid.uuid4().hex[:6]
    page = new_page()
    urls = watch_urls(page)
    page.wait_for_selector(".welcome-tabs")
    both_sizes(page, "welcome-guest")
    tab(page, "login")
    both_sizes(page, "welcome-login")
    submit(page, username, PASSWORD)  # no such account yet
    page.wait_for_selector(".welcome .error:has-text('salah')")
    tab(page, "register")
    submit(page, username, "password1")
    page.wait_for_selector(".welcome .error:has-text('terlalu umum')")
    both_sizes(page, "welcome-register")
    submit(page, username, PASSWORD)
    page.wait_for_selector(".lobby .game-card")
    assert page.inner_text(".who .account-name") == username
    page.click(".who .account")
    both_sizes(page, "header-account-menu")
    page.keyboard.press("Escape")
    assert page.locator(".account-menu").is_hidden()

    open_vs_bots(page, "gaple")
    play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=90)
    for _ in range(100):  # the round reaches the database through the outbox
        history = api(page, "/api/players/me/matches").json()["items"]
        if history:
            break
        page.wait_for_timeout(100)
    assert history, "the finished round is in the player's history"
    balance = api(page, "/api/players/me/wallet").json()["balance"]
    tokens = [c["value"] for c in page.context.cookies() if c["name"].startswith("meja_")]
    assert len(tokens) == 2 and all(c["httpOnly"] for c in page.context.cookies())
    stored = page.evaluate("JSON.stringify(Object.entries(localStorage))")
    assert not any(t in stored for t in tokens)

    page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector(".lobby .game-card")
    account_action(page, "account.logout")
    page.wait_for_selector(".welcome-tabs")
    assert api(page, "/api/players/me").status == 401
    assert page.errors == []

    other = new_page()
    other_urls = watch_urls(other)
    tab(other, "login")
    submit(other, username.upper(), PASSWORD)  # usernames ignore case
    other.wait_for_selector(".lobby .game-card")
    assert api(other, "/api/players/me/wallet").json()["balance"] == balance
    again = api(other, "/api/players/me/matches").json()["items"]
    assert [m["id"] for m in again][: len(history)] == [m["id"] for m in history]
    tokens += [c["value"] for c in other.context.cookies() if c["name"].startswith("meja_")]
    seen = urls + other_urls
    assert any("/ws/tables/" in u for u in seen)
    for url in seen:
        assert "token=" not in url and "ticket=" not in url, url
        assert not any(t in url for t in tokens), url
    assert other.errors == []


def test_a_guest_saves_itself_as_an_account_and_changes_its_password(new_page):
    username = "tamu." + uuid.uuid4().hex[:6]
    page = new_page("Tamu Budi")
    assert page.inner_text(".who .account-kind") == "Tamu"
    both_sizes(page, "header-guest")
    before = api(page, "/api/players/me").json()
    account_action(page, "account.save")
    dialog = page.locator("dialog.account-dialog")
    dialog.locator("input[name=username]").fill(username)
    dialog.locator("input[name=password]").fill(PASSWORD)
    both_sizes(page, "dialog-save-account")
    dialog.locator("button[type=submit]").click()
    page.wait_for_selector(".who .account-name:has-text('Tamu Budi')")
    page.wait_for_selector("dialog.account-dialog", state="detached")
    me = api(page, "/api/players/me").json()
    assert me == {**before, "kind": "account", "username": username}
    page.wait_for_selector(".who .account-kind", state="detached")  # the guest badge goes

    account_action(page, "account.change_password")
    dialog = page.locator("dialog.account-dialog")
    dialog.locator("input[name=old]").fill("not-my-password")
    dialog.locator("input[name=new]").fill("soto-betawi-99")
    dialog.locator("button[type=submit]").click()
    page.wait_for_selector("dialog .error:has-text('salah')")
    both_sizes(page, "dialog-change-password")
    dialog.locator("input[name=old]").fill(PASSWORD)
    dialog.locator("button[type=submit]").click()
    page.wait_for_selector("dialog.account-dialog", state="detached")
    assert api(page, "/api/players/me").status == 200  # this browser keeps a new session
    assert page.errors == []
