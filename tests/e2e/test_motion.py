"""A played tile slides from its player's plate to its place on the board: every slide starts
on the plate of the seat that played the tile (the page's log says which), for our own tiles
and the bots'; with reduced motion asked for, nothing slides."""

from __future__ import annotations

import pytest

from .conftest import screenshots
from .play import act, my_turn, open_vs_bots, play_until

pytestmark = pytest.mark.e2e

# Each animation started on a board tile: the tile, the plate its first frame sits on, the seat
# that played that tile by the page's log, and whether the document runs it.
RECORD = """
window.__slides = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const rect = this.getBoundingClientRect();
  const anim = animate.call(this, frames, options);
  if (!this.matches('g.tile') || !frames[0]?.translate) return anim;
  const [dx, dy] = frames[0].translate.split(' ').map(parseFloat);
  const ctm = this.parentNode.getScreenCTM();
  const here = new DOMPoint(rect.x + rect.width / 2, rect.y + rect.height / 2)
    .matrixTransform(ctm.inverse());
  const at = new DOMPoint(here.x + dx, here.y + dy).matrixTransform(ctm);
  const plate = [...document.querySelectorAll('.plate')].find((p) => {
    const r = p.getBoundingClientRect();
    return at.x >= r.left && at.x <= r.right && at.y >= r.top && at.y <= r.bottom;
  });
  const tile = this.querySelector('title').textContent.split('|').map(Number);
  const ev = [...window.meja.log].reverse().find((e) => e.type === 'played'
    && [e.tile.join('|'), [...e.tile].reverse().join('|')].includes(tile.join('|')));
  window.__slides.push({ tile, from: plate ? +plate.dataset.seat : null, by: ev?.seat,
    me: window.meja.view.seat, running: document.getAnimations().includes(anim) });
  return anim;
};
"""


def slides(page) -> list[dict]:
    found: list[dict] = page.evaluate("window.__slides")
    return found


def played(page) -> int:
    n: int = page.evaluate("window.meja.log.filter(e => e.type === 'played').length")
    return n


def test_a_played_tile_slides_in_from_its_players_plate(new_page):
    page = new_page("Gita")
    page.context.add_init_script(RECORD)
    page.reload()
    page.wait_for_selector(".lobby .game-card")
    open_vs_bots(page, "gaple")

    def both() -> bool:
        seen = slides(page)
        return any(s["by"] == s["me"] for s in seen) and any(s["by"] != s["me"] for s in seen)

    play_until([page], both, timeout=60)
    seen = slides(page)
    assert seen and all(s["running"] for s in seen)
    assert all(s["from"] == s["by"] for s in seen), seen  # each from the plate of who played it
    screenshots(page, "motion-gaple")

    page.emulate_media(reduced_motion="reduce")
    before = len(slides(page))
    moves = played(page)
    play_until(
        [page],
        lambda: played(page) >= moves + 3 or page.locator("[data-testid=result]").count() > 0,
        timeout=60,
    )
    assert len(slides(page)) == before  # reduced motion: tiles appear in place
    if my_turn(page):
        act(page)
    assert page.errors == []
