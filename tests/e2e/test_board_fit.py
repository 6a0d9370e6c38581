"""Every board uses the room it has, at desktop and phone sizes: Mexican Train for 2 to 8
players (plates spread out, not one column; the own hand on screen; tiles big enough to read)
and Domino Cross late in a round. Screenshots: tests/e2e/artifacts/fit-*.png."""

from __future__ import annotations

import time

import pytest

from .conftest import DESKTOP, PHONE, assert_words, shot
from .play import act, my_turn, play_until

pytestmark = pytest.mark.e2e

# The board's tiles, plates and hand as the page lays them out.
MEASURE = """() => {
  const r = (e) => e.getBoundingClientRect();
  const board = r(document.querySelector('.board'));
  const tiles = [...document.querySelectorAll('.board svg .tile')].map(r);
  const plates = [...document.querySelectorAll('.plate')].map(r);
  const hand = document.querySelector('.hand-area');
  const box = tiles.length ? {
    x0: Math.min(...tiles.map(t => t.left)), x1: Math.max(...tiles.map(t => t.right)),
    y0: Math.min(...tiles.map(t => t.top)), y1: Math.max(...tiles.map(t => t.bottom)) } : null;
  return {
    board: {w: board.width, h: board.height},
    tile: tiles.length ? Math.max(...tiles.map(t => Math.min(t.width, t.height))) : 0,
    share: box ? (box.x1 - box.x0) * (box.y1 - box.y0) / (board.width * board.height) : 0,
    plateRows: new Set(plates.map(p => Math.round(p.top / 8))).size,
    plateCols: new Set(plates.map(p => Math.round(p.left / 8))).size,
    plates: plates.length,
    handBottom: hand ? r(hand).bottom : null,
    handTiles: [...document.querySelectorAll('.hand .hand-tile')].filter(
      t => r(t).bottom <= innerHeight + 1 && r(t).right <= innerWidth + 1).length,
    handAll: document.querySelectorAll('.hand .hand-tile').length,
  };
}"""


def open_table(page, game: str, seats: int) -> str:
    """A table of ``seats`` with bots in every other seat, created the way the lobby does."""
    table = page.evaluate(
        """async ([game, seats]) => {
            const api = (await import('/js/api.js')).api;
            const t = await api.createTable({game, seats});
            await api.sit(t.id, 0);
            await api.addBots(t.id);
            return t.id;
        }""",
        [game, seats],
    )
    page.goto(page.url.split("#")[0] + f"#/t/{table}")
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    return table


def measure(page, size) -> dict:
    """The layout at ``size``, once the page has drawn it again (after a resize settles, the
    plates and the board are redrawn: wait until two looks agree)."""
    page.set_viewport_size(size)
    before, end = None, time.monotonic() + 10
    while True:
        page.wait_for_timeout(250)
        now = page.evaluate(MEASURE)
        if now == before or time.monotonic() > end:
            return now
        before = now


@pytest.mark.parametrize("seats", [2, 4, 6, 8])
def test_mexican_train_uses_the_room_it_has_for_every_player_count(new_page, seats):
    page = new_page("Wati")
    open_table(page, "mexican_train", seats)
    play_until([page], lambda: page.locator(".board svg .tile").count() >= seats + 2, timeout=90)
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        m = measure(page, size)
        shot(page, f"fit-mexican_train-{seats}-{name}")
        assert_words(page, f"mexican train {seats} {name}")
        assert m["plates"] == seats
        if seats > 3:  # the other players' plates spread out in rows, never one column
            assert m["plateCols"] >= min(seats - 1, 3), m
        assert m["handBottom"] <= size["height"] + 1, m  # the own hand is on screen
        assert m["handTiles"] == m["handAll"], m
        # a tile is big enough to read its pips: its short side 24 px on a phone, 28 on a desktop
        assert m["tile"] >= (24 if name == "phone" else 28), m
    assert page.errors == []


# The drop targets' labels against their places, in page pixels.
LABELS = """() => [...document.querySelectorAll('.board .drop')].map(g => {
  const r = g.querySelector('rect').getBoundingClientRect();
  const t = g.querySelector('text').getBoundingClientRect();
  return {label: g.textContent, inside: t.left >= r.left - 1 && t.right <= r.right + 1
    && t.top >= r.top - 1 && t.bottom <= r.bottom + 1};
})"""
# Whether each legal play of the selected tile leads to a board of its own (C-4, C-9: the
# open ends count, never which arm), from the view the page holds.
ALIKE = """() => {
  const v = window.meja.view, arms = v.cross.arms;
  const plays = v.legal.filter(a => a.arm);
  const ends = plays.map(a => ['n', 'e', 's', 'w'].map(x => x === a.arm
    ? (a.tile[0] === arms[x].end ? a.tile[1] : a.tile[0]) + '+'
    : arms[x].end + (arms[x].tiles.length ? '+' : '')).sort().join());
  return {tiles: plays.map(a => a.tile.join()), ends};
}"""


def cross_move(page, seen: dict) -> None:
    """One move at Cross as a person makes it, looking at the question when the page asks."""
    tiles = page.locator(".hand-tile.legal")
    if not tiles.count():
        act(page)
        return
    tile = tiles.first.get_attribute("data-tile").replace("-", ",")
    alike = page.evaluate(ALIKE)
    boards = {e for t, e in zip(alike["tiles"], alike["ends"], strict=True) if t == tile}
    before = page.get_attribute(".table-page", "data-v")
    tiles.first.click()
    asked = page.locator(".choice")
    page.wait_for_function(
        "v => !!document.querySelector('.choice')"
        " || document.querySelector('.table-page').dataset.v !== v",
        arg=before,
    )
    if asked.count():
        seen["asked"] += 1
        assert len(boards) > 1, f"asked which arm for {tile}, every arm the same board"
        labels = page.evaluate(LABELS)
        assert labels and all(x["inside"] for x in labels), labels
        if not seen.get("shot"):
            seen["shot"] = True
            shot(page, "cross-choice-desktop")
        page.locator(".choice-btn").first.click()
    elif len(boards) == 1 and page.locator(".hand-tile").count():
        seen["alike"] += 1  # played at once: every arm led to the same board


def test_cross_late_in_a_round_fills_its_board(new_page):
    """Late in a round the cross is drawn big at both sizes; on the way, the page asks which
    arm only when the arms lead to different boards, and its targets' labels fit them."""
    page = new_page("Sari")
    open_table(page, "cross", 2)
    seen = {"asked": 0, "alike": 0}
    late = "document.querySelectorAll('.board svg .tile').length >= 10"
    end = time.monotonic() + 240
    measured: dict[str, dict] = {}
    while len(measured) < 2:  # a round may end early: the next one is dealt at once
        assert time.monotonic() < end, "no round got late in time"
        if page.locator("[data-testid=result] .result-foot .btn").count():
            page.locator("[data-testid=result] .result-foot .btn").last.click()  # close
        if not my_turn(page):
            page.wait_for_timeout(40)
        elif not page.evaluate(late):
            cross_move(page, seen)
        else:  # measured on the player's turn: the bot waits meanwhile
            for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
                measured[name] = measure(page, size)
                shot(page, f"fit-cross-late-{name}")
                assert_words(page, f"cross late {name}")
            if not all(m["tile"] for m in measured.values()):  # the turn clock ran out on a
                measured = {}  # slow machine and the round ended: find a late one again
                page.set_viewport_size(DESKTOP)
    for name in ("desktop", "phone"):
        m = measured[name]
        assert m["share"] >= 0.3, m  # the pieces' box covers a good part of the board
        assert m["tile"] >= (24 if name == "phone" else 34), m
    assert seen["alike"] + seen["asked"] > 0, seen
    assert page.errors == []
