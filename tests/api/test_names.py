"""Display names are NFKC-normalised, and names that read as a bot's are refused (422, the
field named, ``type`` ``bot_name``): a player cannot pass for the table's bots."""

from __future__ import annotations

import pytest


@pytest.mark.asyncio(loop_scope="class")
class TestNamesOnOneServer:
    """On one server: a refused name changes nothing, and each kept one is a player of its
    own, read back with its own token."""

    @pytest.fixture
    def http(self, class_http):
        return class_http

    @pytest.mark.parametrize(
        "name", ["Bot 2", "bot2", "BOT", "B0t-3", "Ｂｏｔ　２", "𝐁𝐨𝐭 𝟐", "Вот 2", "Bot ٢", "bot.12"]
    )
    async def test_names_that_imitate_a_bot_are_refused(self, http, name):
        r = await http.post("/api/players", json={"name": name})
        assert r.status_code == 422, (name, r.text)
        err = r.json()
        assert err["field"] == ["body", "name"] and err["code"] == "bot_name", err

    @pytest.mark.parametrize(
        ("given", "kept"),
        [
            ("Ｓａｒｉ", "Sari"),
            ("𝐃𝐞𝐰𝐢", "Dewi"),
            ("Botak", "Botak"),
            ("Robot 2", "Robot 2"),
            ("Budi  Santoso", "Budi Santoso"),
        ],
    )
    async def test_names_are_kept_normalised(self, http, given, kept):
        r = await http.post("/api/players", json={"name": given})
        assert r.status_code == 201, r.text
        assert r.json()["player"]["name"] == kept
        me = await http.get(
            "/api/players/me", headers={"Authorization": f"Bearer {r.json()['token']}"}
        )
        assert me.json()["name"] == kept

    async def test_other_bad_names_say_so(self, http):
        for name in ("<script>", "__"):
            r = await http.post("/api/players", json={"name": name})
            assert r.status_code == 422 and r.json()["code"] == "bad_name", name
            assert "min" not in r.json() and "max" not in r.json(), name
        r = await http.post("/api/players", json={"name": "a\nb"})  # as in every text field
        assert (r.status_code, r.json()["code"]) == (422, "control_character")

    async def test_a_name_of_the_wrong_length_says_the_rules_limits(self, http):
        """The page words the refusal itself, from the code and the limits the body carries; the
        same limits are what the page's hint reads (``GET /api/players/rules``)."""
        rules = (await http.get("/api/players/rules")).json()
        assert rules["name"] == {"min": 2, "max": 24}
        for name in ("x", "x" * 25, " y "):
            r = await http.post("/api/players", json={"name": name})
            body = r.json()
            assert r.status_code == 422, name
            assert (body["code"], body["min"], body["max"]) == ("name_length", 2, 24), name
            assert body["field"] == ["body", "name"]
        assert (await http.post("/api/players", json={"name": "x" * 24})).status_code == 201
