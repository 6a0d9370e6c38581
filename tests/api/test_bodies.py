"""Request bodies from outside, on a real server: JSON the standard library would take but no
client should send (NaN, Infinity, 1e400, lone surrogates), bodies over the limit, and control
characters in text fields are refused with a precise 4xx, never a 500, and change nothing."""

from __future__ import annotations

import asyncio
import socket
from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import func, select

from app.db.models import Player as PlayerRow
from tests.api.test_admin import operator
from tests.ws.client import register

BAD_JSON = [
    b'{"name": NaN}',
    b'{"name": Infinity}',
    b'{"name": -Infinity}',
    b'{"name": 1e400}',
    b'{"name": "\\ud800"}',  # a lone surrogate, escaped
    b'{"name": "\xed\xa0\x80"}',  # and as (invalid) UTF-8
    b"[" * 2000 + b"]" * 2000,  # deeper than orjson's 1,024 levels
]


async def players_in(srv) -> int:
    async with srv.live.db() as session:
        return (await session.execute(select(func.count()).select_from(PlayerRow))).scalar_one()


@pytest.fixture
async def srv(live_server):
    return await live_server()


async def test_json_that_is_not_json_is_422_json_invalid_on_every_body_route(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Sari")
        before = await players_in(srv)
        routes = [
            ("/api/players", {}),
            ("/api/session", {}),
            ("/api/accounts", {}),
            ("/api/accounts/me/password", auth),
            ("/api/tables", auth),
            ("/api/quick-join", auth),
        ]
        for path, headers in routes:
            for raw in BAD_JSON:
                r = await http.post(
                    path, content=raw, headers={**headers, "Content-Type": "application/json"}
                )
                assert r.status_code == 422, (path, raw[:20], r.status_code, r.text)
                assert r.json()["code"] == "json_invalid" and r.json()["field"][0] == "body"
        assert await players_in(srv) == before


async def test_a_body_over_the_limit_is_413_unread(srv):
    limit = srv.settings.max_body_bytes
    big = b'{"name": "' + b"a" * (16 << 20) + b'"}'
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        r = await http.post("/api/players", content=big, headers=JSON)
        assert r.status_code == 413, r.text
        body = r.json()
        assert (body["code"], body["max"]) == ("body_too_large", limit) and body["request_id"]
        assert len(r.content) < 300

        async def chunks():  # no Content-Length: the chunks are counted as they come
            for _ in range(64):
                yield b"a" * 4096

        r = await http.post("/api/players", content=chunks())
        assert (r.status_code, r.json()["code"]) == (413, "body_too_large")
        # just under the limit is read, parsed and refused by the field's own rule
        name = "a" * (limit - 20)
        r = await http.post("/api/players", json={"name": name})
        assert (r.status_code, r.json()["code"]) == (422, "name_length")
        assert name not in r.text and len(r.content) < 2000  # the refused value is not echoed


async def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_sent(srv):
    """A client that announces 16 MB gets its 413 without sending any of it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", srv.port, family=socket.AF_INET)
    writer.write(
        b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 16777216\r\n\r\n"
    )
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.1 413 "), head
    writer.close()


JSON = {"Content-Type": "application/json"}
CONTROL = ["a\x00b", "a\x07b", "a\tb", "a\nb", "a\x7fb", "a\x85b"]


async def test_control_characters_are_422_control_character_in_every_text_field(srv):
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Sari")
        http.cookies.clear()  # a new account, not the last guest saved as one
        ops = await operator(srv, http)
        me = (await http.get("/api/players/me", headers=auth)).json()["id"]
        before = await players_in(srv)
        for text in CONTROL:
            calls = [
                ("POST", "/api/players", {"json": {"name": f"Ab{text}"}}),
                ("POST", "/api/session", {"json": {"username": text, "password": "x" * 12}}),
                ("POST", "/api/session", {"json": {"username": "sari", "password": text}}),
                ("POST", "/api/accounts", {"json": {"username": text, "password": "y" * 12}}),
                ("POST", "/api/tables", {"json": {"game": text, "seats": 2}, "headers": auth}),
                ("POST", "/api/quick-join", {"json": {"game": text}, "headers": auth}),
                ("GET", "/api/tables", {"params": {"game": text}}),
                ("GET", f"/api/leaderboards/{quote(text)}", {}),
                ("GET", f"/api/codes/{quote(text)}", {"headers": auth}),
                ("GET", "/api/admin/players", {"params": {"q": text}, "headers": ops}),
                (
                    "POST",
                    f"/api/admin/players/{me}/ban",
                    {"json": {"reason": f"cheat {text}"}, "headers": ops},
                ),
            ]
            for method, path, kw in calls:
                r = await http.request(method, path, **kw)
                assert r.status_code == 422, (method, path, repr(text), r.status_code, r.text)
                assert r.json()["code"] == "control_character", (path, r.json())
        assert await players_in(srv) == before
        assert (await http.get("/api/players/me", headers=auth)).status_code == 200  # not banned
