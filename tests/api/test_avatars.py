"""Avatars: every player has one from the start (derived from the id), chooses another from the
set (``PUT /api/players/me/avatar``; 422 ``unknown_avatar`` otherwise, nothing changed), and it
shows on the profile and on the seat taken afterwards; a table is named readably
(docs/players.md "Your avatar", "Tables")."""

from __future__ import annotations

import re

import httpx
import pytest

from app.services import avatars


@pytest.fixture
async def http(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield client


async def guest(http, name: str) -> tuple[dict, dict]:
    r = await http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()["player"], {"Authorization": f"Bearer {r.json()['token']}"}


async def test_a_new_player_has_the_avatar_derived_from_their_id(http):
    listed = (await http.get("/api/players/avatars")).json()
    assert listed == {"avatars": list(avatars.AVATARS), "bot": "bot"}
    assert len(set(listed["avatars"])) == 12
    seen = set()
    for name in ("Sari", "Budi", "Cici"):
        player, auth = await guest(http, name)
        assert player["avatar"] == avatars.default_for(player["id"]) in listed["avatars"]
        me = (await http.get("/api/players/me", headers=auth)).json()
        assert me["avatar"] == player["avatar"]
        seen.add(player["avatar"])
    assert len(seen) == 3  # players who sign up one after another look different


async def test_a_chosen_avatar_shows_on_the_profile_and_the_next_seat(http):
    player, auth = await guest(http, "Sari")
    other = next(a for a in avatars.AVATARS if a != player["avatar"])
    r = await http.put("/api/players/me/avatar", headers=auth, json={"avatar": other})
    assert r.status_code == 200 and r.json()["avatar"] == other, r.text
    assert (await http.get("/api/players/me", headers=auth)).json()["avatar"] == other
    profile = (await http.get(f"/api/players/{player['id']}/profile")).json()
    assert profile["avatar"] == other
    r = await http.post("/api/tables", headers=auth, json={"game": "cross", "seats": 2})
    tid = r.json()["id"]
    r = await http.post(f"/api/tables/{tid}/seats/0", headers=auth)
    assert r.status_code == 200, r.text
    r = await http.post(f"/api/tables/{tid}/bots", headers=auth, json={})
    seats = r.json()["seats"]
    assert [(s["name"], s["avatar"]) for s in seats] == [("Sari", other), ("Bot 2", "bot")]
    assert re.fullmatch(r"[A-Z][a-z]+ \d{1,2}", r.json()["name"]), r.json()["name"]
    assert (await http.get(f"/api/tables/{tid}")).json()["name"] == r.json()["name"]


@pytest.mark.asyncio(loop_scope="class")
class TestRefusedOnOneServer:
    """Refused avatar choices on one server: each by a guest of its own, whose avatar stays."""

    @pytest.fixture
    def http(self, class_http):
        return class_http

    @pytest.mark.parametrize("bad", ["dragon", "bot", "", "CAT", 7])
    async def test_an_unknown_avatar_is_refused_and_changes_nothing(self, http, bad):
        player, auth = await guest(http, "Sari")
        r = await http.put("/api/players/me/avatar", headers=auth, json={"avatar": bad})
        assert r.status_code == 422, r.text
        assert r.json()["code"] in ("unknown_avatar", "string_type"), r.json()
        if isinstance(bad, str):
            assert r.json()["code"] == "unknown_avatar" and r.json()["field"] == ["body", "avatar"]
        assert (await http.get("/api/players/me", headers=auth)).json()["avatar"] == player[
            "avatar"
        ]

    async def test_choosing_an_avatar_needs_a_player(self, http):
        r = await http.put("/api/players/me/avatar", json={"avatar": "cat"})
        assert r.status_code == 401
