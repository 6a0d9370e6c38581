"""The connection drops mid-round: the page says so, reconnects and resyncs by itself, keeps
its seat, and the game goes on to the end of the round."""

from __future__ import annotations

import pytest

from .conftest import screenshots, shot
from .play import RESULT, act, leave, my_turn, open_vs_bots, play_until

pytestmark = pytest.mark.e2e


def test_socket_cut_mid_round_reconnects_and_the_game_continues(new_page):
    page = new_page("Joko")
    table = open_vs_bots(page, "gaple")
    play_until([page], lambda: page.locator(".board svg .tile").count() >= 4, timeout=60)
    screenshots(page, "gaple")
    tiles_before = page.locator(".hand .hand-tile").count()

    page.context.set_offline(True)
    page.evaluate("window.meja.socket.drop()")
    banner = page.locator(".banner[data-status=reconnecting]")
    banner.wait_for(timeout=5000)
    assert banner.inner_text().strip()
    shot(page, "reconnect-banner")
    page.wait_for_timeout(500)  # bots keep playing on the server meanwhile (0.05 s a move)
    page.context.set_offline(False)

    page.locator(".banner[data-status=back]").wait_for(timeout=15000)
    assert page.get_attribute(".table-page", "data-table") == table
    assert page.evaluate("window.meja.table.you") == 0  # the seat is kept
    if not page.locator(RESULT).count():
        assert 0 < page.locator(".hand .hand-tile").count() <= tiles_before
    play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=90)
    if my_turn(page):
        act(page)
    assert page.locator("[data-testid=multiplier]").get_attribute("data-value") in "12345"
    leave(page)  # leaving returns to the lobby
    assert page.errors == []
