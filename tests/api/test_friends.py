"""Friends, table invites and daily missions over REST on a real app (docs/api.md "Friends",
docs/players.md "Friends" and "Daily missions"): each refusal's code with nothing changed,
friends online and at which table, an invite read from another process's lobby, invites that
expire, the invite rate limit, and today's missions."""

from __future__ import annotations

import asyncio

import httpx

from tests.ws.client import SeatClient, register, sit_at_new_chips_table


async def signed_in(http, name: str) -> tuple[int, dict]:
    _, auth = await register(http, name)
    me = (await http.get("/api/players/me", headers=auth)).json()
    return me["id"], auth


async def friends_of(http, auth) -> list[dict]:
    r = await http.get("/api/friends", headers=auth)
    assert r.status_code == 200, r.text
    return r.json()["friends"]


def code(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, r.text
    return r.json()["code"]


async def test_adding_a_friend_refuses_self_unknown_and_twice_and_shows_who_is_online(
    live_server,
):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        a, ah = await signed_in(http, "Ayu")
        b, bh = await signed_in(http, "Budi")
        add = "/api/friends"
        assert code(await http.post(add, headers=ah, json={"player_id": a}), 422) == "friend_self"
        unknown = await http.post(add, headers=ah, json={"player_id": 10**9})
        assert code(unknown, 404) == "no_such_player"
        assert await friends_of(http, ah) == []  # nothing written by the refusals
        r = await http.post(add, headers=ah, json={"player_id": b})
        assert r.status_code == 201 and r.json() == {
            "id": b,
            "name": "Budi",
            "online": False,
            "table": None,
        }
        again = await http.post(add, headers=ah, json={"player_id": b})
        assert code(again, 409) == "already_friends"
        assert [(f["id"], f["online"]) for f in await friends_of(http, ah)] == [(b, False)]
        await http.get("/api/invites", headers=bh)  # Budi's lobby asks: he is online
        [budi] = await friends_of(http, ah)
        assert budi["online"] and budi["table"] is None
        assert await friends_of(http, bh) == []  # Ayu's list is hers (a friend is added)
        assert (await http.delete(f"/api/friends/{b}", headers=ah)).status_code == 204
        assert code(await http.delete(f"/api/friends/{b}", headers=ah), 404) == "not_friends"
    async with httpx.AsyncClient(base_url=srv.url) as nobody:
        assert code(await nobody.get("/api/friends"), 401) == "not_signed_in"


async def test_an_invite_sent_through_one_process_shows_in_the_friends_lobby_on_another(
    live_server,
):
    one = await live_server()
    two = await live_server()  # the same Redis and database: a second process
    async with (
        httpx.AsyncClient(base_url=one.url) as h1,
        httpx.AsyncClient(base_url=two.url) as h2,
    ):
        a, ah = await signed_in(h1, "Ayu")
        b, bh = await signed_in(h1, "Budi")
        tid = await sit_at_new_chips_table(h1, ah)
        send = f"/api/friends/{b}/invite"
        assert code(await h1.post(send, headers=ah, json={"table": tid}), 409) == "not_friends"
        await h1.post("/api/friends", headers=ah, json={"player_id": b})
        other = await sit_at_new_chips_table(h1, bh)
        elsewhere = await h1.post(send, headers=ah, json={"table": other})
        assert code(elsewhere, 409) == "invite_not_seated"
        assert (await h2.get("/api/invites", headers=bh)).json()["invites"] == []
        [where] = await friends_of(h1, ah)
        assert where["table"]["id"] == other  # Budi sits there (a public table)
        sent = await h1.post(send, headers=ah, json={"table": tid})
        assert sent.status_code == 201, sent.text
        [got] = (await h2.get("/api/invites", headers=bh)).json()["invites"]
        assert (got["from"], got["name"], got["table"], got["game"]) == (a, "Ayu", tid, "gaple")
        assert got["expires"] - got["at"] == one.settings.invite_seconds * 1000
        accepted = await h2.post(f"/api/invites/{got['id']}/accept", headers=bh)
        assert accepted.status_code == 200 and accepted.json()["table"]["id"] == tid
        # used up; the seat itself is taken through the normal path, with a buy-in
        again = await h2.post(f"/api/invites/{got['id']}/accept", headers=bh)
        assert code(again, 404) == "no_such_invite"
        sat = await h2.post(f"/api/tables/{tid}/seats/1", headers=bh, json={"buy_in": 200})
        assert sat.status_code == 200, sat.text
        assert code(await h1.post(send, headers=ah, json={"table": tid}), 409) == "friend_seated"


async def test_an_invite_expires_and_invites_are_rate_limited(live_server):
    srv = await live_server(invite_seconds=1, limit_invite_player="2/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        a, ah = await signed_in(http, "Ayu")
        b, bh = await signed_in(http, "Budi")
        tid = await sit_at_new_chips_table(http, ah)
        await http.post("/api/friends", headers=ah, json={"player_id": b})
        sent = (await http.post(f"/api/friends/{b}/invite", headers=ah, json={"table": tid})).json()
        await asyncio.sleep(1.1)
        late = await http.post(f"/api/invites/{sent['id']}/accept", headers=bh)
        assert code(late, 410) == "invite_expired"
        await http.post(f"/api/friends/{b}/invite", headers=ah, json={"table": tid})
        await asyncio.sleep(1.1)
        assert (await http.get("/api/invites", headers=bh)).json()["invites"] == []  # dropped
        third = await http.post(f"/api/friends/{b}/invite", headers=ah, json={"table": tid})
        assert code(third, 429) == "rate_limited"


async def test_todays_missions_start_at_nothing_in_jakartas_day(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await signed_in(http, "Ayu")
        r = await http.get("/api/missions", headers=auth)
        assert r.status_code == 200, r.text
        body = r.json()
        assert [m["name"] for m in body["missions"]] == [
            "gaple_rounds",
            "moon_contract",
            "cross_round",
        ]
        assert all(m["count"] == 0 and not m["done"] and not m["paid"] for m in body["missions"])
        assert body["next_at"].endswith("17:00:00Z") or body["next_at"].endswith("17:00:00+00:00")


async def test_a_friend_at_a_table_is_online_by_its_socket_and_a_private_table_stays_hidden(
    live_server,
):
    srv = await live_server(lobby_seen_seconds=5)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, ah = await signed_in(http, "Ayu")
        token, bh = await register(http, "Budi")
        b = (await http.get("/api/players/me", headers=bh)).json()["id"]
        await http.post("/api/friends", headers=ah, json={"player_id": b})
        r = await http.post(
            "/api/tables",
            headers=bh,
            json={"game": "gaple", "seats": 2, "private": True, "sit": {"buy_in": 200}},
        )
        assert r.status_code == 201, r.text
        [budi] = await friends_of(http, ah)
        assert budi["table"] == {"private": True} and not budi["online"]  # no id: no way in
        sock = await SeatClient(srv.ws_url, r.json()["id"], token).connect()
        try:
            await sock.until(lambda m: m.get("type") == "presence")
            [budi] = await friends_of(http, ah)
            assert budi["online"]  # by his socket at the table: his lobby never asked
        finally:
            await sock.close()
