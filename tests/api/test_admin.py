"""The operators' console's routes over real HTTP (docs/operations/console.md): each
action, its refusal without a session (401) and without the admin role (403), the ledger and
the operators' log after a chip adjustment, a ban closing the socket, a closed table's chips
back in the wallet, and a dead letter retried."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from click.testing import CliRunner

from app.__main__ import cli
from app.games import registry
from app.services.table import doc as D
from app.services.table import outbox
from tests.api.test_sessions import closed_with
from tests.ws.client import SeatClient, register, sit_at_new_chips_table

PASSWORD = "kopi-tubruk-77"


def grant(url: str, username: str) -> None:
    """``python -m app admin grant USERNAME`` against the server's database."""
    result = CliRunner().invoke(cli, ["admin", "grant", username, "--url", url])
    assert result.exit_code == 0, result.output


async def operator(srv, http: httpx.AsyncClient, username: str = "ops.sari") -> dict:
    """An account made an operator by the command line; its Authorization header."""
    r = await http.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    await asyncio.to_thread(grant, srv.settings.database_url, username)
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def until(check, timeout: float = 30.0):
    """Poll ``check()`` (async) until it returns something truthy (the outbox is async)."""
    async with asyncio.timeout(timeout):
        while not (got := await check()):
            await asyncio.sleep(0.05)
    return got


@pytest.fixture
async def srv(live_server):
    return await live_server(admin_token="kunci-audit-0123456789-XYZ")


ROUTES = [
    ("GET", "/api/admin/players?q=a", None),
    ("GET", "/api/admin/players/1", None),
    ("GET", "/api/admin/players/1/ledger", None),
    ("POST", "/api/admin/players/1/ban", {"reason": "cheating"}),
    ("POST", "/api/admin/players/1/unban", {"reason": "appeal"}),
    ("POST", "/api/admin/players/1/chips", {"amount": 5, "reason": "gift", "request_id": "a" * 8}),
    ("GET", "/api/admin/tables", None),
    ("GET", "/api/admin/tables/abc", None),
    ("POST", "/api/admin/tables/abc/close", {"reason": "stuck"}),
    ("GET", "/api/admin/outbox/dead", None),
    ("POST", "/api/admin/outbox/dead/1-0/retry", {"reason": "fixed"}),
    ("GET", "/api/admin/actions", None),
    ("GET", "/api/admin/summary", None),
    ("GET", "/api/admin/audit", None),
]


async def test_every_console_route_is_401_without_a_session_and_403_without_the_role(srv):
    async with (
        httpx.AsyncClient(base_url=srv.url) as http,
        httpx.AsyncClient(base_url=srv.url) as stranger,
    ):
        _, player = await register(http, "Biasa")
        for method, path, body in ROUTES:
            r = await stranger.request(method, path, json=body)
            assert (r.status_code, r.json()["code"]) == (401, "not_signed_in"), path
            r = await http.request(method, path, json=body, headers=player)
            assert (r.status_code, r.json()["code"]) == (403, "not_admin"), path
        me = (await http.get("/api/players/me", headers=player)).json()
        assert me["role"] == "player"
        r = await http.get("/api/admin/actions", headers=player)
        assert r.status_code == 403


async def test_the_audit_answers_the_static_token_and_an_operator(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        ops = await operator(srv, http)
        token = {"Authorization": "Bearer kunci-audit-0123456789-XYZ"}
        for auth in (token, ops):
            r = await http.get("/api/admin/audit", headers=auth)
            assert r.status_code == 200 and r.json()["ok"] is True
        wrong = {"Authorization": "Bearer kunci-audit-0123456789-XYz"}
        assert (await http.get("/api/admin/audit", headers=wrong)).status_code == 401
        summary = (await http.get("/api/admin/summary", headers=ops)).json()
        assert summary["audit"]["ok"] is True
        assert summary["metrics"]["meja_dependency_up"] == {
            "dependency=database": 1.0,
            "dependency=redis": 1.0,
        }
        assert summary["metrics"]["dead_letters"] == 0


async def test_players_are_searched_by_name_or_username_and_paginated(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        ops = await operator(srv, http)
        for name in ("Wayan Satu", "Wayan Dua", "Made"):
            await register(http, name)
        r = await http.get("/api/admin/players", params={"q": "wAYAN", "per_page": 1}, headers=ops)
        body = r.json()
        assert (body["total"], len(body["items"]), body["items"][0]["name"]) == (2, 1, "Wayan Dua")
        page2 = await http.get(
            "/api/admin/players", params={"q": "wayan", "per_page": 1, "page": 2}, headers=ops
        )
        assert [p["name"] for p in page2.json()["items"]] == ["Wayan Satu"]
        by_username = await http.get("/api/admin/players", params={"q": "OPS.S"}, headers=ops)
        assert [p["username"] for p in by_username.json()["items"]] == ["ops.sari"]
        assert by_username.json()["items"][0]["role"] == "admin"
        literal = await http.get("/api/admin/players", params={"q": "%"}, headers=ops)
        assert literal.json()["total"] == 0  # LIKE's wildcard is searched for, not expanded
        bad = await http.get("/api/admin/players", params={"per_page": 500}, headers=ops)
        assert bad.status_code == 422


async def test_a_chip_adjustment_is_one_ledger_transaction_logged_and_moved_once(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        ops = await operator(srv, http)
        token, auth = await register(http, "Ketut")
        pid = (await http.get("/api/players/me", headers=auth)).json()["id"]
        body = {"amount": 250, "reason": "lost chips in an outage", "request_id": "click-0001"}
        first = await http.post(f"/api/admin/players/{pid}/chips", json=body, headers=ops)
        assert first.status_code == 200, first.text
        assert (first.json()["balance"], first.json()["moved"]) == (1250, True)
        again = await http.post(f"/api/admin/players/{pid}/chips", json=body, headers=ops)
        assert (again.json()["balance"], again.json()["moved"]) == (1250, False)
        assert (await http.get("/api/players/me/wallet", headers=auth)).json()["balance"] == 1250

        ledger = (await http.get(f"/api/admin/players/{pid}/ledger", headers=ops)).json()
        assert ledger["total"] == 2  # the starting grant and the adjustment
        assert ledger["items"][0]["kind"] == "adjust" and ledger["items"][0]["amount"] == 250
        log = (await http.get("/api/admin/actions", headers=ops)).json()["items"]
        assert [(a["action"], a["target"], a["reason"], a["admin"]) for a in log[:1]] == [
            ("adjust_chips", f"player:{pid}", "lost chips in an outage", "ops.sari")
        ]
        assert sum(a["action"] == "adjust_chips" for a in log) == 1
        assert log[-1]["action"] == "role_admin" and log[-1]["admin"] is None  # the CLI

        take = {"amount": -2000, "reason": "too much", "request_id": "click-0002"}
        r = await http.post(f"/api/admin/players/{pid}/chips", json=take, headers=ops)
        assert (r.status_code, r.json()["code"]) == (409, "insufficient_chips")
        for bad, code in (
            ({**take, "amount": 0}, "bad_amount"),
            ({**take, "reason": " x "}, "bad_reason"),
            ({**take, "request_id": "no spaces!"}, "bad_request_id"),
        ):
            r = await http.post(f"/api/admin/players/{pid}/chips", json=bad, headers=ops)
            assert (r.status_code, r.json()["code"]) == (422, code)
        r = await http.post("/api/admin/players/999999/chips", json=take, headers=ops)
        assert (r.status_code, r.json()["code"]) == (404, "unknown_player")
        detail = (await http.get(f"/api/admin/players/{pid}", headers=ops)).json()
        assert detail["wallet"]["balance"] == 1250
        assert (await http.get("/api/admin/audit", headers=ops)).json()["ok"] is True


async def test_a_ban_closes_the_socket_frees_the_seat_and_refuses_until_unbanned(srv):
    async with (
        httpx.AsyncClient(base_url=srv.url) as ops_http,
        httpx.AsyncClient(base_url=srv.url) as http,
    ):
        ops = await operator(srv, ops_http)
        r = await http.post("/api/players", json={"name": "Nakal"})  # cookies kept by http
        token = r.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        pid = r.json()["player"]["id"]
        tid = await sit_at_new_chips_table(http, auth)
        sock = await SeatClient(srv.ws_url, tid, token).connect()
        await sock.recv()
        why = {"reason": "abusive chat"}
        r = await ops_http.post(f"/api/admin/players/{pid}/ban", json=why, headers=ops)
        assert r.status_code == 200, r.text
        assert r.json()["seats_left"] == [{"table": tid, "seat": 0}]
        assert await closed_with(sock) == 4401
        r = await http.get("/api/players/me", headers=auth)
        assert (r.status_code, r.json()["code"]) == (403, "banned")
        r = await http.post("/api/session/refresh")
        assert (r.status_code, r.json()["code"]) == (403, "banned")
        table = (await ops_http.get(f"/api/tables/{tid}")).json()  # the banned cookie is refused
        assert table["seats"][0]["name"] is None
        wallet = await until(lambda: _balance(ops_http, ops, pid, 1000))  # the buy-in cashed out
        assert wallet
        r = await ops_http.post(f"/api/admin/players/{pid}/ban", json=why, headers=ops)
        assert (r.status_code, r.json()["code"]) == (409, "already_banned")
        me = (await ops_http.get("/api/players/me", headers=ops)).json()
        r = await ops_http.post(f"/api/admin/players/{me['id']}/ban", json=why, headers=ops)
        assert (r.status_code, r.json()["code"]) == (409, "ban_self")

        r = await ops_http.post(f"/api/admin/players/{pid}/unban", json=why, headers=ops)
        assert r.status_code == 200 and r.json()["banned"] is False
        r = await http.post("/api/session/refresh")  # the kept session signs them in again
        assert r.status_code == 200, r.text
        assert (await http.get("/api/players/me")).status_code == 200
        log = (await ops_http.get("/api/admin/actions", headers=ops)).json()["items"]
        assert [a["action"] for a in log[:2]] == ["unban", "ban"]


async def _balance(http, ops, pid, expected) -> bool:
    detail = (await http.get(f"/api/admin/players/{pid}", headers=ops)).json()
    return detail["wallet"]["balance"] == expected and detail["wallet"]["chips_at_tables"] == 0


async def test_closing_a_table_returns_its_chips_and_shows_only_public_state(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        ops = await operator(srv, http)
        _, auth = await register(http, "Komang")
        pid = (await http.get("/api/players/me", headers=auth)).json()["id"]
        tid = await sit_at_new_chips_table(http, auth, buy_in=300)
        await http.post(f"/api/tables/{tid}/bots", headers=auth)
        listed = (await http.get("/api/admin/tables", headers=ops)).json()
        assert [t["id"] for t in listed["items"]] == [tid]
        state = (await http.get(f"/api/admin/tables/{tid}", headers=ops)).json()
        assert (state["view"]["seat"], state["view"]["hand"]) == (None, None)  # a spectator's
        snap = await srv.live.store.snapshot(tid)
        rs = registry.get_ruleset("gaple")
        hidden = rs.hidden_tiles(D.state_of(snap), None)
        assert hidden and not hidden & _tiles_in(state)  # no hand's tile is shown

        r = await http.post(f"/api/admin/tables/{tid}/close", json={"reason": "stuck"}, headers=ops)
        assert r.status_code == 200, r.text
        assert r.json()["table"]["status"] == "closed"
        stack = r.json()["returned"][str(pid)]
        assert stack > 0
        try:
            await until(lambda: _balance(http, ops, pid, 700 + stack))
        except TimeoutError:  # say what was seen instead
            seen = (await http.get(f"/api/admin/players/{pid}", headers=ops)).json()["wallet"]
            report = (await http.get("/api/admin/audit", headers=ops)).json()
            raise AssertionError(f"expected {700 + stack}: {seen}; audit {report}") from None
        assert (await http.get("/api/admin/tables", headers=ops)).json()["total"] == 0
        r = await http.post(f"/api/admin/tables/{tid}/close", json={"reason": "again"}, headers=ops)
        assert (r.status_code, r.json()["code"]) == (409, "table_closed")
        r = await http.post("/api/admin/tables/nope/close", json={"reason": "gone"}, headers=ops)
        assert (r.status_code, r.json()["code"]) == (404, "not_found")
        audit = await until(lambda: _audit_ok(http, ops))
        assert audit["stacks_in_play"] == 0
        log = (await http.get("/api/admin/actions", headers=ops)).json()["items"]
        assert (log[0]["action"], log[0]["detail"]) == (
            "close_table",
            {"returned": {str(pid): stack}},
        )


def _tiles_in(value) -> set[tuple[int, int]]:
    """Every [a, b] pair of small numbers anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(*map(_tiles_in, value.values())) if value else set()
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(x, int) and 0 <= x <= 12 for x in value):
            return {tuple(sorted(value))}  # type: ignore[arg-type]
        return set().union(*map(_tiles_in, value)) if value else set()
    return set()


async def _audit_ok(http, ops):
    report = (await http.get("/api/admin/audit", headers=ops)).json()
    return report if report["ok"] and report["outbox_backlog"] == 0 else None


async def test_a_dead_letter_is_shown_and_retried_once_written(srv):
    live = srv.live
    entry = outbox.dumps(
        outbox.house_entry("house_stake", "t0dead", "bot:1", 40, "house_stake:t0dead:1:1")
    )
    stream = live.keys.outbox("t0dead")
    dead = f"{live.settings.key_prefix}outbox:dead"
    await live.redis.xadd(dead, {"stream": stream, "e": entry, "error": "OperationalError()"})
    async with httpx.AsyncClient(base_url=srv.url) as http:
        ops = await operator(srv, http)
        page = (await http.get("/api/admin/outbox/dead", headers=ops)).json()
        assert page["total"] == 1
        letter = page["items"][0]
        assert (letter["stream"], letter["error"]) == (stream, "OperationalError()")
        r = await http.post(
            f"/api/admin/outbox/dead/{letter['id']}/retry", json={"reason": "db back"}, headers=ops
        )
        assert r.status_code == 200, r.text
        assert (await http.get("/api/admin/outbox/dead", headers=ops)).json()["total"] == 0

        async def written():
            report = (await http.get("/api/admin/audit", headers=ops)).json()
            return report["stacks_in_play"] == 40  # the bot's stake reached the ledger

        assert await until(written)
        r = await http.post(
            f"/api/admin/outbox/dead/{letter['id']}/retry", json={"reason": "again"}, headers=ops
        )
        assert (r.status_code, r.json()["code"]) == (404, "unknown_dead_letter")
