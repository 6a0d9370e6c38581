"""A match against bots made from the create form: its options reach the table, and "play again"
deals a new match. (A round of each game against bots, played by clicking with screenshots of
its table, is in tests/e2e/test_between_rounds.py.)"""

from __future__ import annotations

import pytest

from .play import RESULT, play_until

pytestmark = pytest.mark.e2e


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
