"""``GET /api/games``: every game's seats and options as data, the same the rules enforce."""

from __future__ import annotations

import httpx
import pytest

from app.games import registry
from tests.ws.client import register


@pytest.fixture
async def http(live_server):
    srv = await live_server(turn_seconds=25)
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield client


async def test_the_catalog_lists_every_game_with_its_options(http):
    body = (await http.get("/api/games")).json()
    games = {g["name"]: g for g in body["games"]}
    assert list(games) == list(registry.GAMES)
    gaple = games["gaple"]
    assert gaple["seats"] == {"min": 2, "max": 4, "default": 4}
    assert gaple["chips"] is True and gaple["managed"] == ["stacks", "previous_winner"]
    field = next(o for o in gaple["options"] if o["key"] == "field")
    assert field == {
        "key": "field",
        "type": "choice",
        "default": "normal",
        "label": "opt.field",
        "help": "opt.field.help",
        "choices": ["normal", "bet"],
        "min": None,
        "max": None,
    }
    assert games["mexican_train"]["seats"]["max"] == 8
    assert [o["key"] for o in games["moon"]["options"]] == ["first_lead_trump"]
    assert games["cross"]["chips"] is False
    assert body["table_options"][0]["key"] == "turn_seconds"
    assert body["table_options"][0]["default"] == 25


async def test_a_table_refuses_what_the_catalog_bounds(http):
    """The bounds the catalog shows are the ones the rules check (one declaration)."""
    _, auth = await register(http, "Sari")
    target = next(
        o
        for g in (await http.get("/api/games")).json()["games"]
        if g["name"] == "cross"
        for o in g["options"]
        if o["key"] == "target"
    )
    too_big = {"game": "cross", "seats": 2, "options": {"target": target["max"] + 1}}
    r = await http.post("/api/tables", headers=auth, json=too_big)
    assert r.status_code == 422
    assert r.json()["field"] == ["body", "options", "target"]
    ok = {"game": "cross", "seats": 2, "options": {"target": target["max"]}}
    assert (await http.post("/api/tables", headers=auth, json=ok)).status_code == 201
    managed = {"game": "gaple", "seats": 2, "options": {"stacks": [100, 100]}}
    assert (await http.post("/api/tables", headers=auth, json=managed)).status_code == 422
