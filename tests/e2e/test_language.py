"""The language switch changes every visible string: after switching, no word that only the
other language uses is left on the lobby, the create form or a table (with its result panel)."""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, PHONE, VISIBLE_TEXT, shot
from .play import RESULT, open_vs_bots, play_until

pytestmark = pytest.mark.e2e

WORD = re.compile(r"[^\W\d_]{3,}")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", text))}


def dictionaries(page) -> dict[str, dict[str, str]]:
    return page.evaluate("import('/js/i18n.js').then(m => m.DICTS)")


def check(page, lang: str, only_other: set[str], where: str) -> None:
    text = page.evaluate(VISIBLE_TEXT)
    assert "⟦" not in text, f"{where}: a string without a dictionary entry"
    assert not {"null", "undefined", "nan", "object"} & words(text), f"{where}: {text!r}"
    left = words(text) & only_other
    assert not left, f"{where} in {lang}: untranslated words {sorted(left)}"


def switch(page, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    # the lobby and the table redraw in the next animation frame (static/js/store.js)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def test_language_switch_changes_every_visible_string(new_page):
    page = new_page()
    dicts = dictionaries(page)
    assert set(dicts["id"]) == set(dicts["en"]), "both languages have the same keys"
    id_words = set().union(*(words(v) for v in dicts["id"].values()))
    en_words = set().union(*(words(v) for v in dicts["en"].values()))
    # each language is named in its own words in the switch (as sites usually do)
    own_names = set().union(
        *(words(name) for _, name in page.evaluate("import('/js/i18n.js').then(m => m.LANGS)"))
    )
    # a guest's made-up name ("Tamu 4821", landing.js) is a name, made in the language of the
    # one who tapped "play as a guest", and shown as it is to everyone (the server is shared)
    guest_names = words(dicts["id"]["landing.guest_name"]) | words(
        dicts["en"]["landing.guest_name"]
    )
    own_names |= guest_names
    only = {"id": id_words - en_words - own_names, "en": en_words - id_words - own_names}
    assert {"giliran", "lewat"} & only["id"] and {"turn", "table"} & only["en"]

    assert page.evaluate("document.documentElement.lang") == "id"  # Bahasa Indonesia first
    check(page, "id", only["en"], "welcome")
    page.fill("input[name=name]", "Tester")
    page.click(".welcome form button[type=submit]")
    page.wait_for_selector(".lobby .game-card")
    for game in ("gaple", "moon", "cross", "mexican_train"):
        page.click(f".game-card[data-game={game}] [data-action=create]")
        page.wait_for_selector(f"form.create[data-game={game}]")
        check(page, "id", only["en"], f"create {game}")
        switch(page, "en")
        check(page, "en", only["id"], f"create {game}")
        switch(page, "id")
        page.click("form.create button[type=button]")  # cancel
    shot(page, "lobby-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "lobby-phone")
    switch(page, "en")
    shot(page, "lobby-phone-en")
    check(page, "en", only["id"], "lobby")

    open_vs_bots(page, "gaple")
    page.set_viewport_size(DESKTOP)
    play_until([page], lambda: page.locator(".log li").count() >= 6, timeout=60)
    for lang in ("id", "en"):
        switch(page, lang)
        for tab in ("history", "chat"):
            page.click(f".tab[data-tab={tab}]")
            check(page, lang, only["en" if lang == "id" else "id"], f"table {tab}")
    page.click(".tab[data-tab=history]")
    play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=90)
    for lang in ("en", "id"):
        switch(page, lang)
        check(page, lang, only["en" if lang == "id" else "id"], "result panel")
    assert page.errors == []
