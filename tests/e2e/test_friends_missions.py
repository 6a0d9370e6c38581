"""Friends and daily missions in the browser (docs/players.md "Friends", "Daily missions"): two
players befriend each other from a seat plate and a profile, one invites the other, who sees it
in the lobby and joins through the buy-in dialog; a Cross round against bots completes its
mission and the lobby says the reward was paid (a Gaple round moving the mission bar is in
tests/e2e/test_between_rounds.py, after the round played there). Screenshots at both sizes."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, assert_words, shot
from .play import RESULT, accept_buy_in, open_vs_bots, play_until

pytestmark = pytest.mark.e2e


def both_sizes(page, name: str, show: str | None = None) -> None:
    """Desktop and phone pictures (``show``: scrolled into view first), checked for words."""
    assert_words(page, name)
    if show:
        page.locator(show).scroll_into_view_if_needed()
    shot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(250)
    if show:
        page.locator(show).scroll_into_view_if_needed()
    assert_words(page, name)
    shot(page, f"{name}-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(150)


def my_id(page) -> int:
    return page.evaluate("fetch('/api/players/me').then(r => r.json()).then(me => me.id)")


def two_seat_table(page) -> str:
    """A Gaple table for two made from the lobby's form, its creator seated (the buy-in asked)."""
    page.click(".game-card[data-game=gaple] [data-action=create]")
    form = page.locator("form.create[data-game=gaple]")
    form.locator("select[name=seats]").select_option("2")
    form.locator("input[name=bots]").uncheck()
    form.locator("button[type=submit]").click()
    accept_buy_in(page)
    page.wait_for_selector(".table-page .waiting-box")
    return page.get_attribute(".table-page", "data-table")


def test_two_players_befriend_invite_and_join_through_the_buy_in(new_page, server):
    ayu, budi = new_page("Ayu"), new_page("Budi")
    table = two_seat_table(ayu)

    # Budi watches Ayu's table and adds her from her seat (a plate once dealt)
    budi.goto(f"{server}/#/t/{table}")
    budi.locator(".waiting-box [data-action=player]:has-text('Ayu')").click()
    card = budi.locator("dialog[data-testid=player-card]")
    assert "Ayu" in card.inner_text()
    shot(budi, "friends-plate-card-desktop")
    card.locator("[data-action=add-friend]").click()
    budi.wait_for_selector(".toast:has-text('Ayu sekarang teman Anda.')")
    budi.locator(".waiting-box [data-action=player]:has-text('Ayu')").click()  # twice: said why
    budi.locator("dialog[data-testid=player-card] [data-action=add-friend]").click()
    budi.wait_for_selector(".toast:has-text('Pemain ini sudah menjadi teman Anda.')")
    budi.locator("dialog[data-testid=player-card] [data-action=close]").click()

    # Ayu adds Budi from his profile, where the button then offers to remove him
    ayu.goto(f"{server}/#/p/{my_id(budi)}")
    ayu.click(".profile-head [data-action=add-friend]")
    ayu.wait_for_selector(".toast:has-text('Budi sekarang teman Anda.')")
    ayu.locator(".profile-head [data-action=remove-friend]:has-text('Hapus teman')").wait_for()
    both_sizes(ayu, "friends-profile")

    # back at her table, she invites him
    ayu.goto(f"{server}/#/t/{table}")
    ayu.click(".table-top [data-action=invite-friends]")
    dialog = ayu.locator("dialog[data-testid=invite-friends]")
    dialog.locator(".friend:has-text('Budi') [data-action=invite]").click()
    dialog.locator("[data-action=invite]:has-text('Diundang')").wait_for()
    both_sizes(ayu, "friends-invite-dialog")
    dialog.locator("[data-action=close]").click()

    # Budi's lobby shows the invite, and Ayu online at her table
    budi.goto(f"{server}/#/")
    invite = budi.locator(".invite:has-text('Ayu mengajak Anda main Gaple')")
    invite.wait_for(timeout=10000)
    friend = budi.locator(".friend:has-text('Ayu')")
    assert "Di meja Gaple" in friend.inner_text()
    assert friend.locator(".dot-on").count() == 1
    both_sizes(budi, "friends-lobby-invite")
    both_sizes(budi, "friends-lobby-list", "[data-testid=friends]")
    invite.locator("[data-action=accept]").click()
    accept_buy_in(budi)  # the normal sitting path: the buy-in asked
    budi.wait_for_selector(f".table-page[data-table='{table}'] .felt .hand-area", timeout=15000)
    ayu.wait_for_selector(".felt .hand-area", timeout=15000)  # two of two: dealt at once
    assert budi.locator(".invite").count() == 0
    # in play, another player's plate name opens the same card
    ayu.locator(".plate [data-action=player]:has-text('Budi')").wait_for()
    both_sizes(ayu, "friends-table-plates")
    assert not ayu.errors and not budi.errors


def test_a_friend_is_removed_from_the_profile(new_page, server):
    ayu, budi = new_page("Ayu"), new_page("Budi")
    ayu.goto(f"{server}/#/p/{my_id(budi)}")
    ayu.click(".profile-head [data-action=add-friend]")
    ayu.click(".profile-head [data-action=remove-friend]")
    ayu.wait_for_selector(".toast:has-text('Budi dihapus dari daftar teman Anda.')")
    ayu.locator(".profile-head [data-action=add-friend]").wait_for()
    ayu.goto(f"{server}/#/")
    ayu.wait_for_selector("[data-testid=friends]:has-text('Belum ada teman.')")
    assert not ayu.errors


def test_a_cross_round_completes_its_mission_and_the_lobby_says_the_reward_was_paid(
    new_page, server
):
    page = new_page("Wati")
    page.locator("[data-mission=cross_round] .mission-count[data-count='0']").wait_for()
    open_vs_bots(page, "cross")
    play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=35)
    page.goto(f"{server}/#/")
    page.wait_for_selector(".toast:has-text('Misi selesai! +50 chip masuk ke dompet Anda.')")
    done = page.locator("[data-mission=cross_round]")
    assert "done" in (done.get_attribute("class") or "")
    assert "Selesai · +50 chip" in done.inner_text()
    # paid from the house into the wallet (a Cross table plays for no chips: 1,000 before)
    page.wait_for_function("document.querySelector('#chips').dataset.wallet === '1050'")
    both_sizes(page, "missions-done", "[data-testid=missions]")
    page.reload()  # told once: not again
    page.locator("[data-mission=cross_round].done").wait_for()
    page.wait_for_timeout(500)
    assert page.locator(".toast:has-text('Misi selesai')").count() == 0
    assert not page.errors
