"""One page plays Moon, Domino Cross and Mexican Train against bots to the end of a round, by
clicking; screenshots of each table at desktop and phone sizes go to tests/e2e/artifacts/."""

from __future__ import annotations

import pytest

from .conftest import screenshots, shot
from .play import RESULT, act, my_turn, open_vs_bots, play_until

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("game", ["moon", "cross", "mexican_train"])
def test_one_page_plays_a_round_against_bots(new_page, game):
    page = new_page("Rina")
    open_vs_bots(page, game)
    assert page.locator(".plate").count() == 4
    # a few moves in, take the pictures, then play the round out
    play_until(
        [page],
        lambda: (
            page.locator(".board svg .tile").count() >= 3
            or page.locator(".bid-bubble.has-bid").count() >= 1
        ),
        timeout=60,
    )
    if my_turn(page) and not page.locator(RESULT).count():
        act(page)
    screenshots(page, game)
    moves = play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=150)
    assert moves > 0
    panel = page.locator(RESULT)
    assert panel.locator("[data-testid=scores] tbody tr").count() >= 2
    shot(page, f"{game}-desktop-result")
    assert page.locator(".log li").count() > 5  # the history tells what happened
    assert page.errors == []


def test_t2_a_one_round_match_from_the_create_form_then_play_again(new_page):
    """The create form's options reach the table (rounds: 1); the match ends after one round
    and "play again" deals a new match."""
    page = new_page("Tari")
    page.click(".game-card[data-game=mexican_train] [data-action=create]")
    form = page.locator("form.create")
    form.locator("select[name=seats]").select_option("2")
    form.locator("input[name=rounds]").fill("1")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    assert page.locator(".plate").count() == 2
    assert "1/1" in page.locator(".table-sub").inner_text()
    play_until([page], lambda: page.locator(f"{RESULT}[data-kind=over]").count() > 0, timeout=120)
    panel = page.locator(RESULT)
    assert panel.locator(".result-winner").inner_text().strip()
    panel.locator("[data-action=rematch]").click()
    page.wait_for_function("document.querySelector('.table-page').dataset.over === '0'")
    assert page.locator(".hand .hand-tile").count() == 15  # T-1: a new deal
    assert page.errors == []
