"""Staying at the table through reloads and drops: the history and chat come back after a
reload, no input is taken while the connection is down, a move left unanswered by a drop is
applied exactly once after it, and quick chat shows over its sender's plate to everyone."""

from __future__ import annotations

import re

import pytest

from .conftest import PHONE, screenshots, shot
from .play import RESULT, my_turn, open_vs_bots, play_until, version

pytestmark = pytest.mark.e2e

SOCKET = re.compile(r"/ws/tables/")


def history(page) -> list[str]:
    return page.locator(".side .log li").all_inner_texts()


def at_my_move(page, min_v: int = 0) -> None:
    """Play (by clicking) until it is this page's turn with a tile to lay, past ``min_v``."""
    play_until(
        [page],
        lambda: (
            my_turn(page)
            and int(version(page) or 0) >= min_v
            and page.locator(".hand-tile.legal").count() > 0
        ),
        timeout=90,
    )


def lay_a_tile(page) -> str:
    """Click the first tile that may be laid (and the first place offered); its data-tile."""
    tile = page.locator(".hand-tile.legal").first.get_attribute("data-tile")
    page.click(f".hand-tile[data-tile='{tile}']")
    if page.locator(".choice-btn").count():
        page.locator(".choice-btn").first.click()
    return tile


def laid(page, tile: str) -> int:
    """History lines saying this page laid ``tile``."""
    a, b = tile.split("-")
    return sum(1 for line in history(page) if line.startswith("Anda ") and f"[{a}|{b}]" in line)


def test_a_sync_answer_crossing_the_live_state_adds_no_history(new_page):
    """A ``sync`` from an older version (the page's resync after a ``stale`` refusal, sent
    while newer states were on their way) is answered at the current version with the events
    since then (tests/ws/test_order.py): the page has them already and lists each once."""
    page = new_page("Wulan")
    open_vs_bots(page, "gaple")
    page.click("[data-tab=history]")
    page.evaluate(
        """() => { window.states = 0; window.meja.socket.ws.addEventListener("message",
        (e) => { if (JSON.parse(e.data).type === "state") window.states += 1; }); }"""
    )
    for _ in range(5):  # a turn may time out meanwhile: look again
        at_my_move(page, min_v=8)
        v, before, seen = version(page), history(page), page.evaluate("window.states")
        page.evaluate("(v) => window.meja.socket._send({ type: 'sync', v })", int(v) - 4)
        page.wait_for_function("(n) => window.states > n", arg=seen)
        if version(page) == v:
            break
    assert len(before) > 8 and history(page) == before
    screenshots(page, "gaple-history")


def test_a_reload_mid_round_keeps_the_history_and_the_chat(new_page):
    page = new_page("Lestari")
    open_vs_bots(page, "gaple")
    page.click("[data-tab=chat]")
    page.fill(".chat-form input", "halo semua")
    page.click(".chat-form button[type=submit]")
    page.click("[data-quick=thanks]")
    page.locator(".chat-log li.chat-quick").wait_for()
    page.click("[data-tab=history]")
    for _ in range(5):  # a turn may time out while the page reloads: look again
        # late in the first round, before its last tile of ours: past it, the next round is
        # dealt after the whole pause (O-6)
        at_my_move(page, min_v=20)
        v, before = version(page), history(page)
        page.reload()
        page.wait_for_selector(".felt .hand-area")
        page.wait_for_function("() => document.querySelector('.table-page')?.dataset.v")
        if version(page) == v:
            break
    assert len(before) > 20 and page.locator(RESULT).count() == 0  # mid-round
    assert history(page) == before
    page.click("[data-tab=chat]")
    page.locator(".chat-log").wait_for()
    lines = page.locator(".chat-log li").all_inner_texts()
    assert lines == ["Anda: halo semua", "Anda: Terima kasih!"]
    screenshots(page, "reload-chat")
    assert page.errors == []


def test_no_input_while_the_connection_is_down(new_page):
    page = new_page("Surya")
    open_vs_bots(page, "gaple")
    at_my_move(page)
    page.context.set_offline(True)
    page.evaluate("window.meja.socket.drop()")
    page.locator(".banner[data-status=reconnecting]").wait_for(timeout=5000)
    tiles = page.locator(".hand .hand-tile")
    assert tiles.count() > 0
    assert all(tiles.nth(i).is_disabled() for i in range(tiles.count()))
    assert all(b.is_disabled() for b in page.locator(".hand-bar .act").all())
    assert page.locator(".offline-note").is_visible()
    shot(page, "offline-desktop")
    page.click("[data-tab=chat]")
    assert page.locator(".chat-form button[type=submit]").is_disabled()
    assert page.locator("[data-quick=gg]").is_disabled()
    page.set_viewport_size(PHONE)
    page.click("[data-tab=history]")
    page.wait_for_timeout(300)
    shot(page, "offline-phone")
    # the hint is not drawn over the tiles: none is lifted into the bar while offline
    over = page.evaluate(
        """() => {
          const n = document.querySelector('.offline-note')?.getBoundingClientRect();
          const r = (e) => e.getBoundingClientRect();
          const tiles = [...document.querySelectorAll('.hand-tile')].map(r);
          return n ? tiles.filter(t => t.top < n.bottom && t.bottom > n.top
            && t.left < n.right && t.right > n.left).length : -1;
        }"""
    )
    assert over == 0, f"the offline hint covers {over} tiles"
    page.context.set_offline(False)
    page.locator(".banner[data-status=back]").wait_for(timeout=15000)
    page.locator(".hand-tile.legal:not([disabled])").first.wait_for(timeout=5000)
    assert page.errors == []


class Wire:
    """Stands between the page and the server (Playwright's WebSocket routing) to lose what a
    broken connection loses: the page's moves, or the server's acks."""

    def __init__(self, page):
        self.lose_acts = self.lose_acks = False
        self.lost: list[str] = []  # what was lost, as sent
        self.sent: list[str] = []  # every act the page sent that reached the server
        self.acks: list[str] = []  # every ack the server sent that reached the page
        self.routes: list = []
        page.route_web_socket(SOCKET, self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()
        self.routes.append((ws, server))

        def up(message):
            if '"type":"act"' in message:
                if self.lose_acts:
                    self.lost.append(message)
                    return
                self.sent.append(message)
            server.send(message)

        def down(message):
            if '"type":"ack"' in message:
                if self.lose_acks:
                    self.lost.append(message)
                    return
                self.acks.append(message)
            ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    def cut(self) -> None:
        ws, server = self.routes[-1]
        server.close()
        ws.close(code=4000, reason="cut")


def wait(page, cond, timeout: float = 5) -> None:
    """Until ``cond()``; the page's waits are when Playwright runs the routing handlers."""
    for _ in range(int(timeout * 25)):
        if cond():
            return
        page.wait_for_timeout(40)
    raise AssertionError("the condition did not come true in time")


def cmd_of(message: str) -> str:
    return re.search(r'"cmd":"([^"]+)"', message).group(1)


def test_a_move_the_drop_left_unanswered_is_applied_once_after_it(new_page):
    page = new_page("Gilang")
    wire = Wire(page)
    open_vs_bots(page, "gaple")

    # the move is lost on its way: the page sends it again, with its id, once back
    at_my_move(page)  # (it may play moves of its own to get there)
    earlier = len(wire.sent)
    wire.lose_acts = True
    tile = lay_a_tile(page)
    wait(page, lambda: len(wire.lost) == 1)
    assert page.locator(f".hand [data-tile='{tile}']").count() == 1  # not played yet
    wire.lose_acts = False
    wire.cut()
    page.locator(".banner[data-status=back]").wait_for(timeout=15000)
    page.locator(f".hand [data-tile='{tile}']").wait_for(state="detached", timeout=5000)
    # sent again under its own id (once per reconnection that found it unanswered)
    assert {cmd_of(m) for m in wire.sent[earlier:]} == {cmd_of(wire.lost[0])}, wire.sent
    assert laid(page, tile) == 1

    # the move arrives but its answer is lost: sent again, answered with the first result
    at_my_move(page)
    wire.lose_acks = True
    second = lay_a_tile(page)
    page.locator(f".hand [data-tile='{second}']").wait_for(state="detached", timeout=5000)
    wait(page, lambda: len(wire.lost) == 2)
    wire.lose_acks = False
    wire.cut()
    page.locator(".banner[data-status=back]").wait_for(timeout=15000)
    cmd = cmd_of(wire.lost[1])
    wait(page, lambda: any(cmd_of(m) == cmd for m in wire.acks))
    resent = [m for m in wire.sent if cmd_of(m) == cmd]
    assert len(resent) == 2  # the first try and the one after the drop
    acked = [m for m in wire.acks if cmd_of(m) == cmd]
    assert acked == [wire.lost[1]]  # the first result again: applied once
    assert laid(page, second) == 1
    assert page.locator(".refused").count() == 0
    assert page.errors == []
