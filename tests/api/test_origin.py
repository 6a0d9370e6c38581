"""CSRF: a call that changes something, made with the cookie from another site's page, is
refused 403 ``bad_origin``; the server's own pages, the trusted origins, Bearer clients and
clients that are no browser (no Origin, no Referer) are not."""

from __future__ import annotations

import httpx
import pytest

from app.config import Settings
from tests.ws.client import register

EVIL = "http://evil.example"


@pytest.fixture
async def chips_table(live_server):
    srv = await live_server(allowed_origins=["https://meja.example"])
    http = httpx.AsyncClient(base_url=srv.url)
    host_token, host = await register(http, "Table Host")
    tid = (
        await http.post(
            "/api/tables",
            headers=host,
            json={"game": "gaple", "seats": 4, "options": {"stake": 10}},
        )
    ).json()["id"]
    token, auth = await register(http, "Cookie Victim")
    http.cookies.clear()
    yield srv, http, tid, {"Cookie": f"{srv.settings.cookie_name}={token}"}, auth
    await http.aclose()


async def balance(http, auth) -> int:
    return (await http.get("/api/players/me/wallet", headers=auth)).json()["balance"]


async def test_a_cookie_call_from_another_site_is_refused(chips_table):
    srv, http, tid, cookie, auth = chips_table
    before = await balance(http, auth)
    forged = {**cookie, "Content-Type": "text/plain"}  # what a cross-site form can send
    for path in (
        f"/api/tables/{tid}/seats/1",
        f"/api/tables/{tid}/bots",
        f"/api/tables/{tid}/rematch",
    ):
        for headers in ({"Origin": EVIL}, {"Referer": f"{EVIL}/page"}, {"Origin": "null"}):
            r = await http.post(path, headers={**forged, **headers}, content=b"")
            assert r.status_code == 403, (path, headers, r.text)
            assert r.json()["code"] == "bad_origin" and r.json()["detail"]
    r = await http.delete(f"/api/tables/{tid}/seats/1", headers={**cookie, "Origin": EVIL})
    assert r.status_code == 403
    r = await http.post("/api/players", headers={"Origin": EVIL}, json={"name": "Login Csrf"})
    assert r.status_code == 403  # no cookie to steal, but one to replace: refused too
    table = (await http.get(f"/api/tables/{tid}", headers={"Origin": EVIL})).json()
    assert [s["name"] for s in table["seats"]] == [None] * 4  # reading is fine
    assert await balance(http, auth) == before


async def test_own_trusted_bearer_and_non_browser_calls_pass(chips_table):
    srv, http, tid, cookie, auth = chips_table
    small = {"buy_in": 100}  # the cash-out of one sit may still be in the outbox at the next
    r = await http.post(
        f"/api/tables/{tid}/seats/1", headers={**cookie, "Origin": srv.url}, json=small
    )
    assert r.status_code == 200, r.text
    r = await http.delete(
        f"/api/tables/{tid}/seats/1", headers={**cookie, "Referer": f"{srv.url}/#/table/{tid}"}
    )
    assert r.status_code == 200, r.text
    r = await http.post(
        f"/api/tables/{tid}/seats/1",
        headers={**cookie, "Origin": "https://meja.example"},
        json=small,
    )
    assert r.status_code == 200, r.text  # a trusted origin (allowed_origins)
    r = await http.delete(f"/api/tables/{tid}/seats/1", headers=cookie)  # no browser
    assert r.status_code == 200, r.text
    r = await http.post(f"/api/tables/{tid}/seats/2", headers={**auth, "Origin": EVIL}, json=small)
    assert r.status_code == 200, r.text  # a Bearer token is no ambient credential


def test_the_local_origins_are_trusted_in_the_embedded_mode_only(tmp_path):
    dev = ["http://127.0.0.1:8000", "http://localhost:8000"]
    embedded = Settings(data_dir=tmp_path, redis_url=None)
    deployed = Settings(data_dir=tmp_path, redis_url="redis://redis:6379/0")
    named = Settings(
        data_dir=tmp_path,
        redis_url="redis://redis:6379/0",
        allowed_origins=["https://meja.example"],
    )
    assert embedded.trusted_origins == dev and deployed.trusted_origins == []
    assert named.trusted_origins == ["https://meja.example"]
    assert deployed.trusts_origin("https://meja.example", "meja.example")  # its own host
    assert not deployed.trusts_origin("http://localhost:8000", "meja.example")
    assert embedded.trusts_origin("http://localhost:8000", "127.0.0.1:8000")
    assert not named.trusts_origin("null", "meja.example")
