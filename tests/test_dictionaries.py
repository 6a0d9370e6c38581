"""The client's dictionaries name every state the server's views can be in: a phase the page
shows without an entry would read as a raw key (``⟦moon.phase.over⟧``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.games.moon.state import Phase

LANG = Path(__file__).resolve().parents[1] / "static" / "js" / "lang"


def keys(lang: str) -> set[str]:
    return set(re.findall(r'^  "([^"]+)":', (LANG / f"{lang}.js").read_text(), re.M))


@pytest.mark.parametrize("lang", ["id", "en"])
def test_every_moon_phase_has_words(lang):
    missing = {p.value for p in Phase} - {k.removeprefix("moon.phase.") for k in keys(lang)}
    assert not missing, f"{lang}.js has no moon.phase.{sorted(missing)}"
