"""Accounts against a real app (real Redis and database): registering, logging in, the guest
who saves itself as an account, password changes, and the welcome grant."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from app.db.models import LedgerTxn
from app.db.models import Player as PlayerRow
from app.services import money
from tests.services.helpers import play_turn
from tests.ws.client import register

# Cheap Argon2 costs keep the tests fast; the production costs are the settings' defaults.
FAST = {"password_time_cost": 1, "password_memory_kib": 8192}
PASSWORD = "kopi-tubruk-42"


@pytest.fixture
async def srv(live_server):
    return await live_server(**FAST)


@pytest.fixture
async def http(srv):
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield client


async def signup(http, username: str, password: str = PASSWORD, **kw) -> httpx.Response:
    return await http.post("/api/accounts", json={"username": username, "password": password}, **kw)


async def login(http, username: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/session", json={"username": username, "password": password})


async def balance(http, headers=None) -> int:
    return (await http.get("/api/players/me/wallet", headers=headers)).json()["balance"]


async def test_a_new_account_is_signed_in_with_its_welcome_grant(srv, http):
    r = await signup(http, "Sari.K")
    assert r.status_code == 201, r.text
    player = r.json()["player"]
    assert {k: player[k] for k in ("name", "kind", "username")} == {
        "name": "Sari.K",
        "kind": "account",
        "username": "sari.k",
    }
    cookies = r.headers.get_list("set-cookie")
    access = next(c for c in cookies if c.startswith("meja_token="))
    refresh = next(c for c in cookies if c.startswith("meja_refresh="))
    assert "HttpOnly" in access and "SameSite=lax" in access and "Path=/;" in access
    assert "HttpOnly" in refresh and "Path=/api/session" in refresh
    assert "Secure" not in access  # cookie_secure is off here
    assert (await http.get("/api/players/me")).json() == player  # the cookie alone
    settings = srv.settings
    assert await balance(http) == settings.starting_balance + settings.welcome_grant
    assert (await money.audit(srv.live.db))["ok"]


async def test_secure_cookies_when_the_setting_says_so(live_server):
    srv = await live_server(cookie_secure=True, **FAST)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.post("/api/players", json={"name": "Over Tls"})
    assert all("Secure" in c for c in r.headers.get_list("set-cookie"))


async def test_usernames_are_unique_case_insensitively(http):
    assert (await signup(http, "Budi_99")).status_code == 201
    http.cookies.clear()
    r = await signup(http, "bUDI_99", "another-pass-77")
    assert (r.status_code, r.json()["code"]) == (409, "username_taken")
    r = await login(http, "BUDI_99")
    assert r.status_code == 200 and r.json()["player"]["username"] == "budi_99"


@pytest.mark.asyncio(loop_scope="class")
class TestRefusedSignUps:
    """Refused sign-ups on one server: none makes a player, so each finds none made."""

    server_settings = FAST

    @pytest.fixture
    def srv(self, class_server):
        return class_server

    @pytest.fixture
    def http(self, class_http):
        return class_http

    @pytest.mark.parametrize(
        "username,password,field,code",
        [
            ("ab", PASSWORD, "username", "bad_username"),
            ("x" * 25, PASSWORD, "username", "bad_username"),
            ("budi santoso", PASSWORD, "username", "bad_username"),
            ("bùdi", PASSWORD, "username", "bad_username"),
            ("Bot-2", PASSWORD, "username", "bot_name"),
            ("___", PASSWORD, "username", "bad_name"),
            ("rina", "short7!", "password", "weak_password"),
            ("rina", "x" * 257, "password", "long_password"),
            ("rina", "password1", "password", "common_password"),
            ("rina", "Qwerty123", "password", "common_password"),
        ],
    )
    async def test_refused_sign_ups_name_the_field_and_change_nothing(
        self, srv, http, username, password, field, code
    ):
        r = await signup(http, username, password)
        assert r.status_code == 422, r.text
        body = r.json()
        assert (body["field"], body["code"]) == (["body", field], code)
        limits = {"bad_username": (3, 24), "weak_password": (8, 256), "long_password": (8, 256)}
        assert (body.get("min"), body.get("max")) == limits.get(
            code, (None, None)
        )  # the page says them
        async with srv.live.db() as s:
            assert (await s.execute(select(func.count()).select_from(PlayerRow))).scalar() == 0


async def test_unknown_user_and_wrong_password_get_the_same_answer_after_the_same_work(
    srv, http, monkeypatch
):
    assert (await signup(http, "Wati")).status_code == 201
    http.cookies.clear()
    verified: list[str] = []

    class Counted(PasswordHasher):
        def verify(self, hash, password):
            verified.append(str(hash).split("$")[3])  # the costs: m=...,t=...,p=...
            return super().verify(hash, password)

    costs = {"time_cost": 1, "memory_cost": 8192}
    monkeypatch.setattr(srv.live.accounts, "hasher", Counted(**costs))
    wrong = await login(http, "wati", "not-the-password")
    unknown = await login(http, "nobody-here", "not-the-password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["request_id"] != unknown.json()["request_id"]  # one per request
    assert (
        _without_id(wrong.json())
        == _without_id(unknown.json())
        == {
            "detail": "the username or the password is wrong",
            "code": "bad_credentials",
        }
    )
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers
    assert len(verified) == 2 and verified[0] == verified[1]  # one Argon2 check each, same costs


async def test_a_hash_with_old_costs_is_redone_at_login(srv, http, live_server):
    assert (await signup(http, "Joko")).status_code == 201
    stronger = await live_server(password_time_cost=2, password_memory_kib=8192)
    async with httpx.AsyncClient(base_url=stronger.url) as other:
        assert (await login(other, "joko")).status_code == 200
    async with srv.live.db() as s:
        hashed = (
            await s.execute(select(PlayerRow.password_hash).where(PlayerRow.username == "joko"))
        ).scalar_one()
    assert "t=2" in hashed
    assert PasswordHasher(time_cost=2, memory_cost=8192).verify(hashed, PASSWORD)
    assert (await login(http, "joko")).status_code == 200  # still the same password


async def test_a_guest_saved_as_an_account_keeps_wallet_history_and_seat(srv, http):
    token, auth = await register(http, "Tamu Rina")
    guest = (await http.get("/api/players/me", headers=auth)).json()
    tid = (await http.post("/api/tables", headers=auth, json={"game": "gaple", "seats": 2})).json()[
        "id"
    ]
    assert (await http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={})).status_code == 200
    assert (await http.post(f"/api/tables/{tid}/bots", headers=auth)).status_code == 200
    async with asyncio.timeout(30):  # one round against the bot: a finished match in history
        while not (await http.get("/api/players/me/matches", headers=auth)).json()["items"]:
            await play_turn(srv, tid)
            await asyncio.sleep(0.02)
    before = await balance(http, auth)
    r = await signup(http, "rina.tamu", headers=auth)
    assert r.status_code == 201, r.text
    account = r.json()["player"]
    assert account == {**guest, "kind": "account", "username": "rina.tamu"}
    new = {"Authorization": f"Bearer {r.json()['token']}"}
    assert await balance(http, new) == before + srv.settings.welcome_grant
    assert (await http.get("/api/players/me/matches", headers=new)).json()["total"] >= 1
    seats = (await http.get(f"/api/tables/{tid}")).json()["seats"]
    assert seats[0]["name"] == "Tamu Rina"
    snap = await srv.live.store.load(tid)
    assert snap.doc["seats"][0]["player"] == guest["id"]
    assert (await http.get("/api/players/me", headers=auth)).json()["kind"] == "account"
    r = await signup(http, "rina.again", headers=new)
    assert (r.status_code, r.json()["code"]) == (409, "already_registered")
    assert (await money.audit(srv.live.db))["ok"]


async def test_the_welcome_grant_is_given_once_even_when_asked_twice_at_once(srv, http):
    token, auth = await register(http, "Dua Kali")
    pid = (await http.get("/api/players/me", headers=auth)).json()["id"]
    first, second = await asyncio.gather(
        signup(http, "dua.kali", headers=auth), signup(http, "dua.kali2", headers=auth)
    )
    assert sorted([first.status_code, second.status_code]) == [201, 409]
    done = await asyncio.gather(*(money.grant_welcome(srv.live.db, pid, 10_000) for _ in range(2)))
    assert done == [False, False]  # the sign-up granted it already
    async with srv.live.db() as s:
        keys = (await s.execute(select(LedgerTxn.key).where(LedgerTxn.kind == "welcome"))).all()
    assert keys == [(f"welcome:{pid}",)]
    wanted = srv.settings.starting_balance + srv.settings.welcome_grant
    assert await balance(http, auth) == wanted
    assert (await money.audit(srv.live.db))["ok"]


async def test_changing_the_password_needs_the_old_one_and_ends_every_session(srv, http):
    assert (await signup(http, "Dewi")).status_code == 201
    other_device = httpx.AsyncClient(base_url=srv.url)
    async with other_device:
        assert (await login(other_device, "dewi")).status_code == 200
        change = {"old_password": "wrong-old-pass", "new_password": "teh-manis-dingin"}
        r = await http.post("/api/accounts/me/password", json=change)
        assert (r.status_code, r.json()["code"]) == (403, "wrong_password")
        change["old_password"] = PASSWORD
        r = await http.post("/api/accounts/me/password", json={**change, "new_password": "1234"})
        assert (r.status_code, r.json()["code"]) == (422, "weak_password")
        r = await http.post("/api/accounts/me/password", json=change)
        assert r.status_code == 200, r.text
        assert (await http.get("/api/players/me")).status_code == 200  # this client: signed in
        me = await other_device.get("/api/players/me")
        assert (me.status_code, me.json()["code"]) == (401, "bad_token")
        again = await other_device.post("/api/session/refresh")
        assert (again.status_code, again.json()["code"]) == (401, "session_ended")
    assert (await login(http, "dewi")).status_code == 401
    assert (await login(http, "dewi", "teh-manis-dingin")).status_code == 200


async def test_a_guest_has_no_password_to_change(http):
    _, auth = await register(http, "Tamu Saja")
    change = {"old_password": "anything-at-all", "new_password": "teh-manis-dingin"}
    r = await http.post("/api/accounts/me/password", headers=auth, json=change)
    assert (r.status_code, r.json()["code"]) == (403, "not_an_account")


def _without_id(body: dict) -> dict:
    return {k: v for k, v in body.items() if k != "request_id"}
