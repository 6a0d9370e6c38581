"""The lobby's create form is built from the server's descriptors (GET /api/games): every field,
its bounds, default and words come from there, and a table created with options other than the
defaults gets them. Pictures of the form of each game go to tests/e2e/artifacts/."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .conftest import DESKTOP, PHONE, shot
from .play import accept_buy_in

pytestmark = pytest.mark.e2e

FORM_FIELDS = """form => [...form.elements].filter(e => e.name).map(e => ({
  name: e.name, type: e.type, value: e.value, checked: e.checked,
  min: e.getAttribute('min'), max: e.getAttribute('max'),
  options: e.tagName === 'SELECT' ? [...e.options].map(o => [o.value, o.selected]) : null }))"""


def get(url: str):
    with urllib.request.urlopen(url) as res:
        return json.load(res)


def check_form(page, game: dict, table_options: list[dict]) -> None:
    form = page.locator(f"form.create[data-game={game['name']}]")
    fields = form.evaluate(FORM_FIELDS)
    by_name: dict[str, list[dict]] = {}
    for f in fields:
        by_name.setdefault(f["name"], []).append(f)
    (seats,) = by_name.pop("seats")
    seat_range = game["seats"]
    assert seats["options"] == [
        [str(n), n == seat_range["default"]]
        for n in range(seat_range["min"], seat_range["max"] + 1)
    ]
    assert [f["type"] for f in by_name.pop("bots")] == ["checkbox"]
    assert [(f["type"], f["checked"]) for f in by_name.pop("private")] == [("checkbox", False)]
    declared = game["options"] + table_options
    assert set(by_name) == {o["key"] for o in declared}, "one field per declared option"
    assert not set(by_name) & set(game["managed"]), "the table's own options are not asked"
    for o in declared:
        got = by_name[o["key"]]
        if o["type"] == "int":
            (f,) = got
            assert (f["type"], f["min"], f["max"], f["value"]) == (
                "number",
                str(o["min"]),
                str(o["max"]),
                str(o["default"]),
            ), o["key"]
        elif o["type"] == "bool":
            (f,) = got
            assert (f["type"], f["checked"]) == ("checkbox", o["default"]), o["key"]
        else:
            assert [(f["type"], f["value"], f["checked"]) for f in got] == [
                ("radio", str(c), c == o["default"]) for c in o["choices"]
            ], o["key"]
    words = form.inner_text()
    assert "⟦" not in words
    helps = [o for o in declared if o["help"]]
    assert form.locator("small").count() >= len(helps), "each option's explanation is shown"


def test_the_create_form_comes_from_the_descriptors(new_page, server):
    catalog = get(f"{server}/api/games")
    page = new_page("Wati", viewport=DESKTOP)
    cards = page.locator(".game-card")
    assert [cards.nth(i).get_attribute("data-game") for i in range(cards.count())] == [
        g["name"] for g in catalog["games"]
    ]
    for game in catalog["games"]:
        page.click(f".game-card[data-game={game['name']}] [data-action=create]")
        page.wait_for_selector(f"form.create[data-game={game['name']}]")
        own = [o for o in catalog["table_options"] if game["chips"] or not o["chips"]]
        check_form(page, game, own)  # the start countdown (O-5): chips tables only
        page.locator("form.create").scroll_into_view_if_needed()
        shot(page, f"lobby-create-{game['name']}-desktop")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(150)
        page.locator("form.create").scroll_into_view_if_needed()
        shot(page, f"lobby-create-{game['name']}-phone")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.set_viewport_size(DESKTOP)
        page.click("form.create button[type=button]")  # cancel
        page.wait_for_selector("form.create", state="detached")
    assert page.errors == []


def test_a_table_created_with_options_other_than_the_defaults_has_them(new_page, server):
    page = new_page("Yanto", viewport=DESKTOP)
    page.click(".game-card[data-game=cross] [data-action=create]")
    form = page.locator("form.create[data-game=cross]")
    form.locator("select[name=seats]").select_option("3")
    form.locator("input[name=target]").fill("50")
    form.locator("input[name=draw_until_playable]").check()
    form.locator("input[name=turn_seconds]").fill("45")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    table = page.get_attribute(".table-page", "data-table")
    summary = get(f"{server}/api/tables/{table}")
    assert summary["n_seats"] == 3
    assert summary["options"]["target"] == 50
    assert summary["options"]["draw_until_playable"] is True
    assert summary["turn_seconds"] == 45
    assert "Target 50" in page.locator(".table-sub").inner_text()

    # The lobby lists it with the options that differ from the defaults, in short words.
    page.click(".table-top button:has-text('Lobi')")
    row = page.locator(f".table-row[data-table='{table}']")
    row.wait_for(timeout=10000)
    tags = row.locator(".pill-soft").all_inner_texts()
    assert tags == ["Target 50", "Ambil sampai bisa", "45 dtk/giliran"]
    shot(page, "lobby-with-options-desktop")

    # A chips game: the stake is an option like any other, shown as the table's stake.
    page.click(".game-card[data-game=gaple] [data-action=create]")
    form = page.locator("form.create[data-game=gaple]")
    form.locator("input[name=stake]").fill("20")
    form.locator("input[name=field][value=bet]").check()
    form.locator("button[type=submit]").click()
    accept_buy_in(page)
    page.wait_for_selector(".felt .hand-area", timeout=15000)
    table = page.get_attribute(".table-page", "data-table")
    summary = get(f"{server}/api/tables/{table}")
    assert (summary["stake"], summary["options"]["field"]) == (20, "bet")
    assert page.locator(".table-sub").inner_text() == "Taruhan 20 · Bidang Bet"
    assert page.errors == []
