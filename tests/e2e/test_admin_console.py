"""The operators' console in Chromium: an account made an operator by ``python -m app admin
grant`` logs in and goes through every screen (summary, players, a player's chips and ban,
a live table closed, dead letters, the log), in Bahasa Indonesia and in English. Screenshots at
desktop and phone sizes."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import uuid

import pytest

from .conftest import ROOT
from .test_accounts import both_sizes, submit, tab

pytestmark = pytest.mark.e2e
PASSWORD = "sambal-matah-42"


def post(page, path: str, body: dict) -> dict:
    """A POST from the page itself (its cookies and its Origin)."""
    return page.evaluate(
        """([path, body]) => fetch(path, {method: "POST", headers: {"Content-Type":
        "application/json"}, body: JSON.stringify(body)}).then(r => r.json())""",
        [path, body],
    )


def grant(database: str, username: str) -> None:
    env = {**os.environ, "DATABASE_URL": database, "MEJA_SECRET_KEY": secrets.token_hex(32)}
    done = subprocess.run(
        [sys.executable, "-m", "app", "admin", "grant", username],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_an_operator_goes_through_the_console(new_page, server, server_database):
    username = "ops_" + uuid.uuid4().hex[:6]
    guest = new_page("Tamu Nakal")
    pid = guest.evaluate("fetch('/api/players/me').then(r => r.json())")["id"]
    tid = post(guest, "/api/tables", {"game": "gaple", "seats": 2, "options": {"stake": 10}})["id"]
    assert post(guest, f"/api/tables/{tid}/seats/0", {"buy_in": 100})["id"] == tid

    page = new_page()
    page.wait_for_selector(".welcome-tabs")
    tab(page, "register")
    submit(page, username, PASSWORD)
    page.wait_for_selector(".lobby .game-card")
    page.goto(server + "/admin")  # not yet an operator
    page.wait_for_selector(".admin [data-error=not_admin]")
    grant(server_database, username)
    page.click(".who .account")
    page.click(".account-menu [data-action='account.logout']")
    tab(page, "login")
    submit(page, username, PASSWORD)
    page.wait_for_selector(".admin [data-audit=ok]")  # still at #/admin: now it answers
    page.goto(server + "/#/")
    page.wait_for_selector(".lobby .game-card")
    page.click(".who .account")
    page.click(".account-menu [data-action='admin.menu']")

    page.wait_for_selector(".admin [data-audit=ok]")
    assert page.url.endswith("#/admin")
    both_sizes(page, "admin-summary")

    page.click(".admin-nav [data-section=players]")
    page.fill(".admin-search input[name=q]", "tamu nak")
    page.click(".admin-search button")
    page.click(f".admin [data-player='{pid}'] a")
    page.wait_for_selector(".admin-player [data-name]:has-text('Tamu Nakal')")
    assert page.inner_text("[data-stat=balance] .fact-value") == "900"
    chips = page.locator(".admin-action[data-action=chips]")
    chips.locator("input[name=amount]").fill("250")
    chips.locator("input[name=reason]").fill("ganti rugi gangguan")
    chips.locator("button").click()
    page.wait_for_selector("[data-stat=balance] .fact-value:has-text('1.150')")
    page.wait_for_selector(".admin tr[data-kind=adjust]")
    ban = page.locator(".admin-action[data-action=ban]")
    ban.locator("input[name=reason]").fill("kata-kata kasar")
    ban.locator("button").click()
    page.wait_for_selector(".admin-player [data-status]:has-text('diblokir')")
    both_sizes(page, "admin-player")
    guest.reload()
    guest.wait_for_selector(".welcome-tabs")  # the banned guest is signed out

    page.click(".admin-nav [data-section=tables]")
    page.wait_for_selector(".admin .admin-nav")
    page.goto(f"{server}/#/admin/tables/{tid}")
    page.wait_for_selector(".admin [data-view]")
    both_sizes(page, "admin-table")
    close = page.locator(".admin-action[data-action=close]")
    close.locator("input[name=reason]").fill("meja macet")
    close.locator("button").click()
    page.wait_for_selector(".admin [data-status=closed]")

    page.click(".admin-nav [data-section=outbox]")
    page.wait_for_selector(".admin [data-empty]")
    page.click(".admin-nav [data-section=log]")
    page.wait_for_selector(".admin tr[data-action=close_table]")
    actions = page.eval_on_selector_all(
        ".admin tr[data-action]", "rs => rs.map(r => r.dataset.action)"
    )
    assert actions[:3] == ["close_table", "ban", "adjust_chips"] and actions[-1] == "role_admin"
    both_sizes(page, "admin-log")
    page.select_option("#lang", "en")
    page.wait_for_selector(".admin-nav [data-section=log]:has-text('Log')")
    text = page.inner_text("body")
    assert "⟦" not in text and "table closed" in text
    both_sizes(page, "admin-log-en")
    assert not page.errors and not guest.errors
