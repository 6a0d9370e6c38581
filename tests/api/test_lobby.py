"""The REST lobby against a real app instance (real Redis): players, tables, seats, bots."""

from __future__ import annotations

import httpx
import pytest

from tests.api.test_admin import operator
from tests.ws.client import register


@pytest.fixture
async def http(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield client


async def new_table(http, auth, game: str, seats: int) -> str:
    r = await http.post("/api/tables", headers=auth, json={"game": game, "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"]


async def test_guest_gets_a_signed_token_and_a_cookie(http):
    r = await http.post("/api/players", json={"name": "  Budi   Santoso "})
    assert r.status_code == 201
    body = r.json()
    assert body["player"]["name"] == "Budi Santoso"
    assert r.cookies.get("meja_token") == body["token"]
    assert "httponly" in r.headers["set-cookie"].lower()
    me = await http.get("/api/players/me")  # the cookie alone is enough
    assert me.json() == body["player"]
    http.cookies.clear()
    assert (await http.get("/api/players/me")).status_code == 401
    bearer = {"Authorization": f"Bearer {body['token']}"}
    assert (await http.get("/api/players/me", headers=bearer)).json() == body["player"]


@pytest.mark.asyncio(loop_scope="class")
class TestRefusedOnOneServer:
    """Refusals on one server: bad names and table options (422), a table made by no one
    (401). None changes anything."""

    @pytest.fixture
    def http(self, class_http):
        return class_http

    @pytest.mark.parametrize("name", ["", "a", "x" * 25, "<script>", "   ", "a\nb", "__"])
    async def test_bad_names_are_422(self, http, name):
        r = await http.post("/api/players", json={"name": name})
        assert r.status_code == 422
        assert r.json()["field"] == ["body", "name"]

    @pytest.mark.parametrize(
        "body,loc",
        [
            ({"game": "chess", "seats": 2}, ["body", "game"]),
            ({"game": "gaple", "seats": 9}, ["body", "seats"]),
            (
                {"game": "gaple", "seats": 2, "options": {"stake": "ten"}},
                ["body", "options", "stake"],
            ),
            (
                {"game": "gaple", "seats": 2, "options": {"colour": 1}},
                ["body", "options", "colour"],
            ),
            (
                {"game": "gaple", "seats": 2, "options": {"stacks": [1, 2]}},
                ["body", "options", "stacks"],
            ),
            ({"game": "gaple", "seats": 2, "turn_seconds": 0}, ["body", "turn_seconds"]),
        ],
    )
    async def test_bad_table_options_are_422_naming_the_field(self, http, body, loc):
        _, auth = await register(http, "Creator")
        r = await http.post("/api/tables", json=body, headers=auth)
        assert r.status_code == 422, r.text
        assert r.json()["field"] == loc

    async def test_create_needs_a_player(self, http):
        r = await http.post("/api/tables", json={"game": "gaple", "seats": 2})
        assert r.status_code == 401


async def test_list_filters_and_pages(http):
    _, auth = await register(http, "Lister")
    made = []
    for game, stake in (("gaple", 10), ("gaple", 50), ("moon", None), ("cross", None)):
        options = {"stake": stake} if stake else {}
        r = await http.post(
            "/api/tables",
            headers=auth,
            json={"game": game, "seats": 2 if game != "moon" else 4, "options": options},
        )
        made.append(r.json()["id"])
        # the lobby lists tables someone is at (services/table/listing.py)
        buy_in = {"buy_in": 10 * stake} if stake else {}  # the least a stake allows
        sat = await http.post(f"/api/tables/{made[-1]}/seats/1", headers=auth, json=buy_in)
        assert sat.status_code == 200, sat.text
    everything = (await http.get("/api/tables")).json()
    assert everything["total"] == 4 and {t["id"] for t in everything["items"]} == set(made)
    gaple = (await http.get("/api/tables", params={"game": "gaple"})).json()
    assert {t["id"] for t in gaple["items"]} == set(made[:2])
    rich = (await http.get("/api/tables", params={"stake": 50})).json()
    assert [t["id"] for t in rich["items"]] == [made[1]]
    page = (await http.get("/api/tables", params={"per_page": 3, "page": 2})).json()
    assert len(page["items"]) == 1 and page["total"] == 4
    await http.post(f"/api/tables/{made[0]}/bots", headers=auth)
    open_ = (await http.get("/api/tables", params={"seats": "open"})).json()
    assert made[0] not in {t["id"] for t in open_["items"]} and open_["total"] == 3


async def test_sit_leave_and_their_refusals(http):
    _, a = await register(http, "Ani")
    _, b = await register(http, "Bayu")
    tid = await new_table(http, a, "moon", 4)
    assert (await http.post(f"/api/tables/{tid}/seats/0", headers=a)).status_code == 200
    assert (await http.post(f"/api/tables/{tid}/seats/0", headers=b)).json()["code"] == "seat_taken"
    assert (await http.post(f"/api/tables/{tid}/seats/1", headers=a)).status_code == 409
    assert (await http.post(f"/api/tables/{tid}/seats/7", headers=b)).status_code == 404
    assert (await http.delete(f"/api/tables/{tid}/seats/0", headers=b)).status_code == 409
    assert (await http.get("/api/tables/nope")).status_code == 404
    table = (await http.delete(f"/api/tables/{tid}/seats/0", headers=a)).json()
    assert table["seats"][0]["name"] is None and table["status"] == "waiting"


async def test_bots_fill_the_table_and_the_match_starts(http):
    _, a = await register(http, "Citra")
    tid = await new_table(http, a, "moon", 4)
    await http.post(f"/api/tables/{tid}/seats/2", headers=a)
    table = (await http.post(f"/api/tables/{tid}/bots", headers=a)).json()
    assert [s["bot"] for s in table["seats"]] == [True, True, False, True]
    assert table["status"] == "playing" and table["match_no"] == 1


async def test_only_a_seated_player_or_an_operator_fills_a_table_with_bots(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, host = await register(http, "Gita")
        _, stranger = await register(http, "Hadi")
        for private in (False, True):
            r = await http.post(
                "/api/tables",
                headers=host,
                json={"game": "moon", "seats": 4, "private": private, "sit": {}},
            )
            tid, v = r.json()["id"], r.json()["v"]
            r = await http.post(f"/api/tables/{tid}/bots", headers=stranger)
            assert (r.status_code, r.json()["code"]) == (403, "not_at_table"), r.text
            table = (await http.get(f"/api/tables/{tid}")).json()
            assert table["v"] == v and not any(s and s["bot"] for s in table["seats"])
        http.cookies.clear()  # a new account, not the last guest saved as one
        ops = await operator(srv, http)
        table = (await http.post(f"/api/tables/{tid}/bots", headers=ops)).json()
        assert [s["bot"] for s in table["seats"]] == [False, True, True, True]


async def test_quick_join_finds_an_open_seat_or_makes_a_bot_table(http):
    _, a = await register(http, "Dewi")
    _, b = await register(http, "Eko")
    first = (await http.post("/api/quick-join", headers=a, json={"game": "gaple"})).json()
    assert first["seat"] == 0 and first["table"]["status"] == "playing"
    assert all(s["bot"] for s in first["table"]["seats"][1:])
    _, c = await register(http, "Fajar")  # Dewi's grant is one default buy-in, now at play
    tid = await new_table(http, c, "gaple", 3)
    assert (await http.post(f"/api/tables/{tid}/seats/1", headers=c)).status_code == 200
    joined = (await http.post("/api/quick-join", headers=b, json={"game": "gaple"})).json()
    assert joined["table"]["id"] == tid and joined["seat"] == 0
    r = await http.post("/api/quick-join", headers=b, json={"game": "chess"})
    assert r.status_code == 422


async def test_ops_endpoints_and_openapi(http):
    assert (await http.get("/healthz")).json() == {"ok": True}
    ready = await http.get("/readyz")
    assert ready.status_code == 200 and ready.json()["redis"] is True
    paths = (await http.get("/openapi.json")).json()["paths"]
    for path in (
        "/api/players",
        "/api/players/me",
        "/api/tables",
        "/api/tables/{tid}",
        "/api/tables/{tid}/seats/{n}",
        "/api/tables/{tid}/bots",
        "/api/quick-join",
    ):
        assert path in paths


async def test_o3_turn_seconds_may_also_come_with_the_game_options(http):
    _, auth = await register(http, "Fajar")
    r = await http.post(
        "/api/tables",
        headers=auth,
        json={"game": "cross", "seats": 2, "options": {"turn_seconds": 45}},
    )
    assert r.status_code == 201 and r.json()["turn_seconds"] == 45
    assert "turn_seconds" not in r.json()["options"]
    r = await http.post(
        "/api/tables",
        headers=auth,
        json={"game": "cross", "seats": 2, "options": {"turn_seconds": 0}},
    )
    assert r.status_code == 422
    assert r.json()["field"] == ["body", "options", "turn_seconds"]
