"""The table's sounds: a tile placed, a Lewat, your turn and a round won, each played through
Web Audio (the page's oscillators are counted), none before the person has touched the page,
and the header's mute switch silences them all, remembered after a reload."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, shot
from .play import open_vs_bots, play_until
from .records import store

pytestmark = pytest.mark.e2e

# What the page played: the cue names it announces, and the Web Audio notes really started, kept
# on window and written to the console (read without touching the page: every Playwright call
# into a page counts as a user gesture there).
LISTEN = """
window.__cues = [];
window.addEventListener('meja:sound', (e) => {
  window.__cues.push(e.detail);
  console.log('meja:sound ' + e.detail);
});
window.__notes = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) {
  window.__notes += 1;
  console.log('meja:note');
  return start.apply(this, a);
};
"""
ME = "() => fetch('/api/players/me').then(r => r.json())"


def heard(page) -> tuple[list[str], int]:
    cues, notes = page.evaluate("[window.__cues, window.__notes]")
    return cues, notes


def forward(page, times: int) -> None:
    for _ in range(times):
        before = page.get_attribute(".replay-step", "data-step")
        if page.is_disabled("[data-replay=forward]"):
            return
        page.click("[data-replay=forward]")
        page.wait_for_function(
            "s => document.querySelector('.replay-step').dataset.step !== s", arg=before
        )


def test_tile_lewat_and_win_sound_and_mute_silences_them_after_a_reload(
    new_page, server, server_database
):
    page = new_page("Sekar")
    me = page.evaluate(ME)["id"]
    log, _ = store(server_database, me)  # a round with a Lewat, won by seat 0 (us)
    match_id = page.evaluate(
        "() => fetch('/api/players/me/matches').then(r => r.json()).then(b => b.items[0].id)"
    )
    page.context.add_init_script(LISTEN)
    page.goto(f"{server}/#/replay/{match_id}")
    page.reload()  # a hash change keeps the page: load it afresh, listened to, untouched
    page.wait_for_selector(".replay-step")
    assert page.get_attribute("#mute", "data-muted") == "0"
    assert page.get_attribute("#mute", "aria-label") == "Suara nyala: klik untuk membisukan"
    assert heard(page) == ([], 0)  # opening a replay makes no sound

    forward(page, len(log))
    cues, notes = heard(page)
    assert {"tile", "lewat", "win"} <= set(cues), cues
    assert "turn" not in cues  # a replay has no turn to take
    assert notes >= 2 * len(cues)  # each cue is notes really played

    page.click("[data-testid=result] .result-foot .btn")  # close the round's panel
    page.click("#mute")
    assert page.get_attribute("#mute", "data-muted") == "1"
    shot(page, "mute-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "mute-phone")
    page.set_viewport_size(DESKTOP)
    page.click("[data-replay=start]")
    forward(page, 8)
    assert heard(page) == (cues, notes)  # muted: not a sound
    page.reload()
    page.wait_for_selector(".replay-step")
    assert page.get_attribute("#mute", "data-muted") == "1"  # remembered
    assert page.get_attribute("#mute", "aria-label") == "Suara mati: klik untuk menyalakan"
    forward(page, 8)
    assert heard(page) == ([], 0)
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.get_attribute("#mute", "aria-label") == "Sound off: click to turn it on"
    page.click("#mute")  # on again: the next tile sounds
    page.click("[data-replay=start]")
    forward(page, 3)
    assert "tile" in heard(page)[0]
    assert page.errors == []


# The version of every state message a page's socket gets, written to the console.
TAP = """
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'state') console.log('ws:v ' + m.v);
    });
  }
};
"""


def test_your_turn_at_a_live_table_and_a_spectator_hears_tiles_once_they_touch_the_page(
    new_page, server
):
    page = new_page("Sekar")
    page.context.add_init_script(LISTEN)
    page.reload()
    page.wait_for_selector(".lobby .game-card")
    tid = open_vs_bots(page, "gaple")
    watcher = new_page("Bayu")
    watcher.context.add_init_script(LISTEN + TAP)
    console: list[str] = []
    watcher.on("console", lambda m: console.append(m.text))
    watcher.goto(f"{server}/#/t/{tid}")
    watcher.reload()  # a page of its own that nobody touches: no call into it until checked

    def played() -> int:  # by the player's page
        n: int = page.evaluate("window.meja.log.filter(e => e.type === 'played').length")
        return n

    def watcher_has(what) -> None:  # waits by the player's page: the watcher is not touched
        for _ in range(400):
            if what():
                return
            page.wait_for_timeout(50)
        raise AssertionError(f"the watcher's page did not get there: {console[-5:]}")

    def caught_up() -> bool:
        seen = [int(c.split()[1]) for c in console if c.startswith("ws:v ")]
        return bool(seen) and max(seen) >= int(page.get_attribute(".table-page", "data-v"))

    start = played()
    play_until([page], lambda: "turn" in heard(page)[0] and played() >= start + 4, timeout=60)
    cues, notes = heard(page)
    assert "tile" in cues and notes > 0
    watcher_has(caught_up)  # it got every move live
    assert not [c for c in console if c.startswith("meja:")]  # not a sound before a touch
    watcher.click("[data-tab=history]")
    start = played()
    play_until([page], lambda: played() >= start + 4, timeout=60)
    watcher_has(lambda: "meja:sound tile" in console)
    watcher_has(caught_up)
    cues = [c.split(" ", 1)[1] for c in console if c.startswith("meja:sound ")]
    assert "turn" not in cues and "win" not in cues  # a spectator's ears: tiles and Lewat
    assert "meja:note" in console
    assert page.errors == [] and watcher.errors == []
