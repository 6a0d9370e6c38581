"""Playing through the page the way a person does: click a highlighted tile (and the end, arm
or train when the page asks), or the one button offered (pass, draw, bid, trump ...)."""

from __future__ import annotations

import contextlib
import time

from playwright.sync_api import Error as PlaywrightError

RESULT = "[data-testid=result]"
BUY_IN = "dialog[data-testid=buy-in]"
AT_MY_TURN = "document.querySelector('.table-page')?.dataset.myTurn === '1'"  # one round trip
PLAYED_OR_ASKED = """v => document.querySelector('.table-page')?.dataset.v !== v
    || !!document.querySelector('.choice-btn')"""


def my_turn(page) -> bool:
    return page.get_attribute(".table-page", "data-my-turn") == "1"


def version(page) -> str:
    return page.get_attribute(".table-page", "data-v") or ""


def act(page) -> bool:
    """Make one move by clicking; True when something was clicked."""
    before = version(page)
    try:
        tiles = page.locator(".hand-tile.legal")
        if tiles.count():
            tiles.first.click(timeout=2000)
            # played at once, or (a tile that goes more than one way) the question where, drawn
            # on the next frame
            page.wait_for_function(PLAYED_OR_ASKED, arg=before, timeout=5000)
            choice = page.locator(".choice-btn")
            if choice.count():
                choice.first.click(timeout=2000)
        else:
            buttons = page.locator(".hand-bar .act")
            if not buttons.count():
                return False
            buttons.first.click(timeout=2000)
    except PlaywrightError:
        return False  # the page re-rendered under the click: look again
    with contextlib.suppress(PlaywrightError):  # wait for the server's answer, then look again
        page.wait_for_function(
            "v => document.querySelector('.table-page')?.dataset.v !== v", arg=before, timeout=5000
        )
    return True


def play_until(pages, done, timeout: float = 90) -> int:
    """Move for whichever page's turn it is until ``done()``; returns the moves made."""
    moves = 0
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, "the game did not get there in time"
        acted = False
        for page in pages:
            if page.evaluate(AT_MY_TURN):
                acted = act(page) or acted
                moves += 1
        if not acted:
            pages[0].wait_for_timeout(40)
    return moves


def open_vs_bots(page, game: str, amount: int | None = None) -> str:
    """The game's "play against bots", the buy-in dialog of a chips game confirmed (with
    ``amount`` typed in, else as offered); returns the table id."""
    page.click(f".game-card[data-game={game}] [data-action=bots]")
    return seated(page, amount)


def quick_join(page, game: str, stake: int | None = None, amount: int | None = None) -> str:
    """The game's "quick join" (a chips game: the stake room ``stake``'s, else the card's, the
    room the wallet opens), the buy-in dialog confirmed; returns the table id."""
    if stake is None:
        page.click(f".game-card[data-game={game}] [data-action=quick]")
    else:
        page.click(f".rooms[data-game={game}] .room[data-stake='{stake}'] [data-action=room]")
    return seated(page, amount)


def seated(page, amount: int | None = None) -> str:
    """After a click that sits: the buy-in dialog, when one opens, confirmed; the table's id
    once its hand is drawn."""
    page.wait_for_selector(f"{BUY_IN}, .felt .hand-area", timeout=15000)
    if page.locator(BUY_IN).count():
        accept_buy_in(page, amount)
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    return page.get_attribute(".table-page", "data-table")


def accept_buy_in(page, amount: int | None = None) -> None:
    """Answer the sit dialog of a chips table: the amount offered, or ``amount`` typed in."""
    dialog = page.locator(BUY_IN)
    dialog.wait_for(timeout=10000)
    if amount is not None:
        dialog.locator("input[name=buy_in]").fill(str(amount))
    dialog.locator("[data-action=buy-in]").click()
    dialog.wait_for(state="detached", timeout=10000)


def leave(page) -> None:
    """ "Keluar meja", confirming when the page asks (mid-round: static/js/leave.js); back in
    the lobby."""
    page.click(".table-top [data-action=leave]")
    confirm = page.locator("dialog[data-testid=leave] [data-action=confirm-leave]")
    lobby = page.locator(".lobby .game-card").first
    confirm.or_(lobby).wait_for(timeout=10000)
    if confirm.count():
        confirm.click()
    page.wait_for_selector(".lobby .game-card")
