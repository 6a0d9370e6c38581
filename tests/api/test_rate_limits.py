"""Rate limits over REST against real app instances on one Redis (docs/api.md "Rate limits"): 429
``rate_limited`` with ``Retry-After``, nothing changed by a refused request, per player and per
address, X-Forwarded-For only from a trusted proxy, one count across replicas, and a Redis
outage during the check answered 503. Small limits in the settings keep the tests fast."""

from __future__ import annotations

from ipaddress import ip_network

import httpx
import pytest
from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import Player as PlayerRow
from app.services import money
from tests.ws.client import register


def refused(r: httpx.Response, window: int = 60) -> int:
    """Assert a 429 in the API's error shape; the seconds to wait."""
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["code"] == "rate_limited" and body["detail"], body
    wait = int(r.headers["retry-after"])
    assert body["retry_after"] == wait and 1 <= wait <= window, (wait, body)
    return wait


async def players_in(srv) -> int:
    async with srv.live.db() as session:
        return (await session.execute(select(func.count()).select_from(PlayerRow))).scalar_one()


async def test_a_sign_up_flood_gets_429_and_grants_nothing(live_server):
    srv = await live_server(limit_signup_address="3/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        for i in range(3):
            await register(http, f"Flood {i}")
        before = (await players_in(srv), await money.audit(srv.live.db))
        for i in range(5):
            refused(await http.post("/api/players", json={"name": f"Flood more {i}"}))
        assert "set-cookie" not in (await http.post("/api/players", json={"name": "X1"})).headers
    after = (await players_in(srv), await money.audit(srv.live.db))
    assert after == before and before[0] == 3
    assert after[1]["ok"] and after[1]["granted"] == 3 * srv.settings.starting_balance


async def test_create_table_is_limited_per_player_and_makes_no_table(live_server):
    srv = await live_server(limit_create_table_player="2/minute")
    spec = {"game": "cross", "seats": 2, "sit": {}}  # seated, so the lobby lists it
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, ana = await register(http, "Ana")
        _, budi = await register(http, "Budi")
        for _ in range(2):
            assert (await http.post("/api/tables", headers=ana, json=spec)).status_code == 201
        refused(await http.post("/api/tables", headers=ana, json=spec))
        assert (await http.get("/api/tables")).json()["total"] == 2
        # another player at the same address has a budget of their own
        assert (await http.post("/api/tables", headers=budi, json=spec)).status_code == 201
        # without a player nothing is counted: 401 first
        http.cookies.clear()
        assert (await http.post("/api/tables", json=spec)).status_code == 401


async def test_sit_is_limited_per_player_and_takes_no_seat_or_chips(live_server):
    srv = await live_server(limit_sit_player="1/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, ana = await register(http, "Ana")
        chips = {"game": "gaple", "seats": 2, "options": {"stake": 10}}
        first, second = [
            (await http.post("/api/tables", headers=ana, json=chips)).json()["id"] for _ in range(2)
        ]
        r = await http.post(f"/api/tables/{first}/seats/0", headers=ana, json={"buy_in": 300})
        assert r.status_code == 200, r.text
        wallet = (await http.get("/api/players/me/wallet", headers=ana)).json()["balance"]
        before = (await http.get(f"/api/tables/{second}")).json()
        refused(await http.post(f"/api/tables/{second}/seats/0", headers=ana, json={"buy_in": 300}))
        assert (await http.get(f"/api/tables/{second}")).json() == before
        assert before["seats"][0]["player_id"] is None
        assert (await http.get("/api/players/me/wallet", headers=ana)).json()["balance"] == wallet
    assert (await money.audit(srv.live.db))["ok"]


async def test_quick_join_is_limited_per_player_and_makes_no_table(live_server):
    srv = await live_server(limit_quick_join_player="1/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, ana = await register(http, "Ana")
        r = await http.post("/api/quick-join", headers=ana, json={"game": "cross"})
        assert r.status_code == 200, r.text
        refused(await http.post("/api/quick-join", headers=ana, json={"game": "moon"}))
        assert (await http.get("/api/tables")).json()["total"] == 1


async def test_the_address_limit_counts_every_player_behind_it(live_server):
    srv = await live_server(limit_create_table_address="2/minute")
    spec = {"game": "cross", "seats": 2, "sit": {}}  # seated, so the lobby lists it
    async with httpx.AsyncClient(base_url=srv.url) as http:
        heads = [(await register(http, name))[1] for name in ("Ana", "Budi", "Citra")]
        for auth in heads[:2]:
            assert (await http.post("/api/tables", headers=auth, json=spec)).status_code == 201
        refused(await http.post("/api/tables", headers=heads[2], json=spec))


async def test_forwarded_for_is_ignored_from_an_untrusted_peer(live_server):
    srv = await live_server(limit_signup_address="1/minute")  # trusted_proxies: none
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.post("/api/players", json={"name": "Ana"}, headers=xff("203.0.113.1"))
        assert r.status_code == 201
        refused(await http.post("/api/players", json={"name": "Budi"}, headers=xff("203.0.113.2")))


async def test_forwarded_for_is_honoured_from_a_trusted_proxy(live_server):
    srv = await live_server(
        limit_signup_address="1/minute", trusted_proxies=[ip_network("127.0.0.0/8")]
    )
    async with httpx.AsyncClient(base_url=srv.url) as http:
        for i, client in enumerate(("203.0.113.1", "203.0.113.2", "2001:db8:1:2::1")):
            r = await http.post("/api/players", json={"name": f"P{i}"}, headers=xff(client))
            assert r.status_code == 201, (client, r.text)
        # a made-up address written left of the real one does not buy a fresh budget
        refused(
            await http.post(
                "/api/players", json={"name": "Spoof"}, headers=xff("198.51.100.9, 203.0.113.1")
            )
        )
        # nor does another address of the same IPv6 /64
        refused(
            await http.post("/api/players", json={"name": "Six"}, headers=xff("2001:db8:1:2::99"))
        )
        # without the header the proxy itself is the client
        assert (await http.post("/api/players", json={"name": "Proxy"})).status_code == 201


async def test_an_exempt_address_skips_the_address_limits_but_not_the_players(live_server):
    """MEJA_RATE_LIMIT_EXEMPT (the operator's own load generator): its address signs up as
    often as it likes, a player signing in from it still has a budget of their own, and
    every other address keeps its limit."""
    srv = await live_server(
        limit_signup_address="1/minute",
        limit_sit_player="1/minute",
        trusted_proxies=[ip_network("127.0.0.0/8")],
        rate_limit_exempt=[ip_network("198.51.100.0/24")],
    )
    async with httpx.AsyncClient(base_url=srv.url) as http:
        heads = []
        for i in range(3):
            r = await http.post(
                "/api/players", json={"name": f"Bench {i}"}, headers=xff("198.51.100.7")
            )
            assert r.status_code == 201, r.text
            heads.append({"Authorization": f"Bearer {r.json()['token']}", **xff("198.51.100.7")})
        assert (
            await http.post("/api/players", json={"name": "Ana"}, headers=xff("203.0.113.1"))
        ).status_code == 201
        refused(await http.post("/api/players", json={"name": "Budi"}, headers=xff("203.0.113.1")))
        spec = {"game": "cross", "seats": 2}
        tid = (await http.post("/api/tables", headers=heads[0], json=spec)).json()["id"]
        assert (await http.post(f"/api/tables/{tid}/seats/0", headers=heads[1])).status_code == 200
        # the same player's second sit is over their own limit, exempt address or not
        refused(await http.post(f"/api/tables/{tid}/seats/1", headers=heads[1]))


async def test_two_instances_share_one_limit(live_server):
    a = await live_server(limit_signup_address="2/minute")
    b = await live_server(limit_signup_address="2/minute")
    async with httpx.AsyncClient(base_url=a.url) as ha, httpx.AsyncClient(base_url=b.url) as hb:
        await register(ha, "On A")
        await register(hb, "On B")
        refused(await ha.post("/api/players", json={"name": "Again A"}))
        refused(await hb.post("/api/players", json={"name": "Again B"}))


async def test_redis_unreachable_during_the_check_is_503_and_registers_nobody(
    live_server, spare_redis
):
    srv = await live_server(redis_url=spare_redis)
    admin = Redis.from_url(spare_redis)
    with pytest.raises(RedisConnectionError):  # the server goes away as it answers
        await admin.execute_command("SHUTDOWN", "NOSAVE")
    await admin.aclose()
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        r = await http.post("/api/players", json={"name": "No Redis"})
    assert (r.status_code, r.json()["code"]) == (503, "redis_unavailable"), r.text
    assert await players_in(srv) == 0


@pytest.mark.parametrize(
    "setting", [{"limit_sit_player": "lots"}, {"limit_chat_address": "10/fortnight"}]
)
def test_a_limit_that_cannot_be_read_stops_the_start(setting):
    with pytest.raises(ValidationError, match=f"MEJA_{next(iter(setting)).upper()}"):
        Settings(**setting)


def test_a_trusted_proxy_that_is_no_address_stops_the_start():
    with pytest.raises(ValidationError, match="trusted_proxies"):
        Settings(trusted_proxies=["nginx"])
    assert Settings(limit_chat_player="").rate_limits.get("limit_chat_player") is None


def xff(value: str) -> dict[str, str]:
    return {"X-Forwarded-For": value}


async def test_login_attempts_are_limited_per_account_whether_it_exists_or_not(live_server):
    """Every attempt counts (a right password too), before any lookup: the limit answers the
    same for a real account and an unknown name, and another account keeps its budget."""
    srv = await live_server(limit_login_account="3/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.post(
            "/api/accounts", json={"username": "Sari", "password": "kopi-tubruk-77"}
        )
        assert r.status_code == 201, r.text
        http.cookies.clear()
        for name in ("sari", "nobody"):
            for _ in range(3):
                r = await http.post(
                    "/api/session", json={"username": name, "password": "salah-1234"}
                )
                assert r.json()["code"] == "bad_credentials"
            refused(await http.post("/api/session", json={"username": name, "password": "x" * 8}))
        # the right password now is refused too, with the same answer, and signs nobody in
        r = await http.post("/api/session", json={"username": "SARI", "password": "kopi-tubruk-77"})
        refused(r)
        assert "set-cookie" not in r.headers
        r = await http.post("/api/accounts", json={"username": "Tono", "password": "nasi-goreng-9"})
        http.cookies.clear()
        r = await http.post("/api/session", json={"username": "tono", "password": "nasi-goreng-9"})
        assert r.status_code == 200, r.text


async def test_password_change_attempts_count_against_the_login_limits(live_server):
    """A stolen access token guessing the current password at ``/api/accounts/me/password``
    spends the account's login budget (and the address's): the same secret, the same limit."""
    srv = await live_server(limit_login_account="4/minute", limit_login_address="100/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.post(
            "/api/accounts", json={"username": "Sari", "password": "kopi-tubruk-77"}
        )
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        http.cookies.clear()
        guess = {"old_password": "tebak-tebak-1", "new_password": "baru-sekali-22"}
        for _ in range(3):
            r = await http.post("/api/accounts/me/password", headers=auth, json=guess)
            assert (r.status_code, r.json()["code"]) == (403, "wrong_password")
        r = await http.post("/api/session", json={"username": "sari", "password": "salah-1234"})
        assert r.json()["code"] == "bad_credentials"
        refused(await http.post("/api/accounts/me/password", headers=auth, json=guess))
        right = {"old_password": "kopi-tubruk-77", "new_password": "baru-sekali-22"}
        refused(await http.post("/api/accounts/me/password", headers=auth, json=right))
        refused(await http.post("/api/session", json={"username": "SARI", "password": "x" * 8}))
        # nothing changed: the old password is still the password
        assert (await http.get("/api/players/me", headers=auth)).status_code == 200
    srv2 = await live_server(limit_login_account="", limit_login_address="2/minute")
    async with httpx.AsyncClient(base_url=srv2.url) as http:  # per address too (a guest's)
        _, guest = await register(http, "Tamu")
        for _ in range(2):
            r = await http.post("/api/accounts/me/password", headers=guest, json=guess)
            assert r.json()["code"] == "not_an_account"
        refused(await http.post("/api/accounts/me/password", headers=guest, json=guess))


async def test_a_registration_flood_gets_429_and_creates_no_account(live_server):
    srv = await live_server(limit_register_address="2/minute")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        for i in range(2):
            r = await http.post(
                "/api/accounts", json={"username": f"u{i}x", "password": "gula-jawa-88"}
            )
            assert r.status_code == 201, r.text
            http.cookies.clear()
        before = (await players_in(srv), await money.audit(srv.live.db))
        r = await http.post("/api/accounts", json={"username": "u9x", "password": "gula-jawa-88"})
        refused(r)
        assert (await players_in(srv), await money.audit(srv.live.db)) == before
