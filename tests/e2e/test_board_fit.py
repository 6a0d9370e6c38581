"""Every board uses the room it has, at desktop and phone sizes: Mexican Train for 2 to 8
players (plates spread out, not one column; the own hand on screen; tiles big enough to read)
and Domino Cross late in a round. Screenshots: tests/e2e/artifacts/fit-*.png."""

from __future__ import annotations

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
    page.set_viewport_size(size)
    page.wait_for_timeout(400)  # the board is drawn again after a resize settles
    return page.evaluate(MEASURE)


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


def test_cross_late_in_a_round_fills_its_board(new_page):
    page = new_page("Sari")
    open_table(page, "cross", 2)
    # late in the round: most tiles on the board (a two-player deal draws the boneyard down)
    late = "document.querySelectorAll('.board svg .tile').length >= 14 || !!document.querySelector('[data-testid=result]')"
    play_until([page], lambda: page.evaluate(late), timeout=150)
    if page.locator("[data-testid=result]").count():
        pytest.skip("the round ended early")  # pragma: no cover - seeded deals reach 14 tiles
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        m = measure(page, size)
        shot(page, f"fit-cross-late-{name}")
        assert_words(page, f"cross late {name}")
        assert m["share"] >= 0.3, m  # the pieces' box covers a good part of the board
        assert m["tile"] >= (22 if name == "phone" else 34), m
    if my_turn(page):
        act(page)
    assert page.errors == []
