"""What the lobby lists and how (services/table/listing.py ``list_tables``): filters and sorts as
query parameters, private tables reached by a join code, abandoned tables left out, and a player's
own tables."""

from __future__ import annotations

import httpx
import pytest

from tests.ws.client import register


@pytest.fixture
async def http(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield client


async def table(http, auth, game="gaple", seats=2, private=False, **options) -> dict:
    r = await http.post(
        "/api/tables",
        headers=auth,
        json={"game": game, "seats": seats, "options": options, "private": private},
    )
    assert r.status_code == 201, r.text
    return r.json()


async def sit(http, auth, tid: str, seat: int = 0, stake: int = 10) -> dict:
    """Seat 0 (or ``seat``) with the least buy-in ``stake`` allows (ten stakes)."""
    r = await http.post(
        f"/api/tables/{tid}/seats/{seat}", headers=auth, json={"buy_in": 10 * stake}
    )
    assert r.status_code == 200, r.text
    return r.json()


async def listed(http, **params) -> list[str]:
    r = await http.get("/api/tables", params=params)
    assert r.status_code == 200, r.text
    return [t["id"] for t in r.json()["items"]]


async def test_tables_filter_by_stake_and_open_seats_and_sort(http):
    _, a = await register(http, "Lina")
    ids = {}
    for stake, seats in ((20, 2), (10, 4), (50, 3)):
        ids[stake] = (await table(http, a, seats=seats, stake=stake))["id"]
        await sit(http, a, ids[stake], stake=stake)
    moon = (await table(http, a, game="moon", seats=4))["id"]
    await sit(http, a, moon)
    newest = [moon, ids[50], ids[10], ids[20]]
    assert await listed(http) == newest
    assert await listed(http, sort="stake_low") == [moon, ids[10], ids[20], ids[50]]
    assert await listed(http, sort="stake_high") == [ids[50], ids[20], ids[10], moon]
    # open seats: moon 3, stake 10: 3, stake 50: 2, stake 20: 1 (among equals the newest by
    # the second, app/services/table/lobby_index.py: these two were made within the same second)
    by_seats = await listed(http, sort="open_seats")
    assert set(by_seats[:2]) == {moon, ids[10]} and by_seats[2:] == [ids[50], ids[20]]
    assert await listed(http, game="gaple", stake=50) == [ids[50]]
    await http.post(f"/api/tables/{ids[20]}/bots", headers=a)
    assert await listed(http, game="gaple", seats="open") == [ids[50], ids[10]]
    assert await listed(http, game="gaple", seats="full") == [ids[20]]  # only to watch


@pytest.mark.asyncio(loop_scope="class")
class TestRefusedOnOneServer:
    """Bad listing parameters, refused with 422 on one server."""

    @pytest.fixture
    def http(self, class_http):
        return class_http

    @pytest.mark.parametrize(
        "params,code,field",
        [
            ({"stake": "ten"}, "int_parsing", ["query", "stake"]),
            ({"stake": 0}, "greater_than_equal", ["query", "stake"]),
            ({"sort": "cheapest"}, "literal_error", ["query", "sort"]),
            ({"seats": "maybe"}, "bad_seats", ["query", "seats"]),
            ({"game": "chess"}, "no_such_game", ["query", "game"]),
            ({"per_page": 500}, "less_than_equal", ["query", "per_page"]),
        ],
    )
    async def test_bad_listing_parameters_are_422_naming_them(self, http, params, code, field):
        r = await http.get("/api/tables", params=params)
        assert r.status_code == 422, r.text
        assert (r.json()["code"], r.json()["field"]) == (code, field)


async def test_a_private_table_is_never_listed_and_its_code_lets_friends_in(http):
    _, host = await register(http, "Tuan Rumah")
    _, friend = await register(http, "Teman")
    made = await table(http, host, seats=3, private=True, stake=10)
    assert made["private"] is True and len(made["code"]) == 6
    await sit(http, host, made["id"])
    assert made["id"] not in await listed(http)
    # quick join never lands a stranger there: it makes a table of its own
    _, stranger = await register(http, "Orang Lain")
    quick = (await http.post("/api/quick-join", headers=stranger, json={"game": "gaple"})).json()
    assert quick["table"]["id"] != made["id"]

    typed = f" {made['code'][:3].lower()}-{made['code'][3:].lower()} "  # as a friend types it
    found = await http.get(f"/api/codes/{typed}", headers=friend)
    assert found.status_code == 200 and found.json()["id"] == made["id"]
    await sit(http, friend, made["id"], 1)

    wrong = await http.get("/api/codes/ZZZZZZ", headers=friend)
    assert (wrong.status_code, wrong.json()["code"]) == (404, "no_such_code")
    bad = await http.get("/api/codes/ab!", headers=friend)
    assert (bad.status_code, bad.json()["code"], bad.json()["field"]) == (
        422,
        "bad_code",
        ["path", "code"],
    )
    public = await table(http, host, stake=10)
    assert public["private"] is False and public["code"] is None


async def test_tables_nobody_is_at_are_not_listed(http):
    _, a = await register(http, "Putri")
    left = (await table(http, a, game="moon", seats=4))["id"]
    await sit(http, a, left)
    assert left in await listed(http)
    # the last human leaves before any match: the bots go with them, the table is empty
    assert (await http.delete(f"/api/tables/{left}/seats/0", headers=a)).status_code == 200
    bots_only = (await table(http, a, game="cross", seats=2))["id"]
    await http.post(f"/api/tables/{bots_only}/bots", headers=a)
    never = (await table(http, a, game="cross", seats=2))["id"]
    shown = await listed(http)
    assert left not in shown and bots_only not in shown and never not in shown


async def test_my_tables_are_where_i_sit_newest_first(http):
    _, a = await register(http, "Sari")
    _, b = await register(http, "Hadi")
    http.cookies.clear()  # each request names its player (Bearer)
    assert (await http.get("/api/players/me/tables")).status_code == 401
    first = (await table(http, a, game="cross", seats=2))["id"]
    await sit(http, a, first)
    second = (await table(http, a, game="moon", seats=4, private=True))["id"]
    await sit(http, a, second, 2)
    other = (await table(http, b, game="cross", seats=2))["id"]
    await sit(http, b, other)

    async def mine(auth) -> list[str]:
        r = await http.get("/api/players/me/tables", headers=auth)
        assert r.status_code == 200, r.text
        return [t["id"] for t in r.json()["items"]]

    assert await mine(a) == [second, first]
    assert await mine(b) == [other]
    await http.delete(f"/api/tables/{second}/seats/2", headers=a)
    assert await mine(a) == [first]


async def test_join_codes_cannot_be_guessed_one_after_another(live_server):
    srv = await live_server(limit_join_code_player="3/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, guesser = await register(http, "Penebak")
        http.cookies.clear()
        assert (await http.get("/api/codes/ZZZZZZ")).status_code == 401  # signed in only
        for _ in range(3):
            r = await http.get("/api/codes/ZZZZZZ", headers=guesser)
            assert r.json()["code"] == "no_such_code"
        r = await http.get("/api/codes/YYYYYY", headers=guesser)
        assert (r.status_code, r.json()["code"]) == (429, "rate_limited")
