"""O-1 refusals over the socket: every refused message is answered and changes nothing.

A two-seat Gaple table with a fixed seed; after each refusal the table's version is unchanged
and the players receive no new state.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import httpx
import orjson
import pytest
import pytest_asyncio
import websockets

from tests.conftest import shared_server
from tests.ws.client import SeatClient, register, start_match


@pytest.fixture
async def table(live_server):
    """A table of the test's own, for the tests that play on it or use up a socket's rate."""
    async with seated(await live_server(seeds=lambda tid, m: 4242)) as t:
        yield t


@pytest_asyncio.fixture(scope="class", loop_scope="class")
async def refusals_table(live_redis_url, redis_mode, tmp_path_factory):
    """One table for every test of a class that only sends what is refused: each checks that
    nothing changed, so the next one finds it as the first did. Its turn clock never runs out
    and its sockets' rate never runs dry meanwhile (neither is these tests' subject)."""
    async with (
        shared_server(
            live_redis_url,
            redis_mode,
            tmp_path_factory.mktemp("refusals"),
            seeds=lambda tid, m: 4242,
            turn_seconds=600,
            rate_per_second=1e4,
        ) as srv,
        seated(srv) as t,
    ):
        yield t


@pytest_asyncio.fixture(scope="class", loop_scope="class")
async def odd_digits(refusals_table):
    """A player of the shared server who makes a new table for each odd version."""
    async with httpx.AsyncClient(base_url=refusals_table[0].url) as http:
        _, auth = await register(http, "Odd Digits")
    return auth


@contextlib.asynccontextmanager
async def seated(srv):
    """A two-seat Gaple match begun (and a spectator): (server, table id, the two players'
    clients, the spectator's, an HTTP client), everyone at the same version."""
    tid, clients, watcher = await start_match(srv, "gaple", 2)
    http = httpx.AsyncClient(base_url=srv.url)
    v = (await http.get(f"/api/tables/{tid}")).json()["v"]
    for c in (*clients, watcher):
        await c.until(lambda m, v=v: m["type"] == "state" and m["v"] == v)
    yield srv, tid, clients, watcher, http
    await http.aclose()
    for c in (*clients, watcher):
        await c.close()


async def version(http, tid) -> int:
    return (await http.get(f"/api/tables/{tid}")).json()["v"]


def turn(clients) -> tuple[SeatClient, SeatClient]:
    """(the client whose turn it is, the other one)."""
    first, second = clients
    return (first, second) if first.my_turn() else (second, first)


async def refused(client, msg, code: str, http, tid) -> dict:
    before = await version(http, tid)
    await client.send(msg)
    answer = await client.until(lambda m: m["type"] in ("error", "ack", "state"))
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert await version(http, tid) == before
    return answer


@pytest.mark.asyncio(loop_scope="class")
class TestOnOneServer:
    """Refusals that change nothing, on one table (``refusals_table``), and the fresh state of
    a new table, on its server."""

    async def test_o1_illegal_action_is_refused_with_no_change(self, refusals_table):
        srv, tid, clients, _, http = refusals_table
        mover, _ = turn(clients)
        await refused(
            mover,
            {"type": "act", "cmd": "x1", "v": mover.latest["v"], "action": {"kind": "pass"}},
            "illegal_action",
            http,
            tid,
        )
        await refused(
            mover,
            {"type": "act", "cmd": "x2", "v": mover.latest["v"], "action": {"kind": "fly"}},
            "illegal_action",
            http,
            tid,
        )

    async def test_o1_acting_out_of_turn_is_refused(self, refusals_table):
        srv, tid, clients, watcher, http = refusals_table
        mover, other = turn(clients)
        tile = other.latest["view"]["hand"][0]
        await refused(
            other,
            {
                "type": "act",
                "cmd": "y1",
                "v": other.latest["v"],
                "action": {"kind": "play", "tile": tile, "end": "left"},
            },
            "not_your_turn",
            http,
            tid,
        )
        await refused(
            watcher,
            {"type": "act", "cmd": "y2", "v": watcher.latest["v"], "action": {"kind": "pass"}},
            "not_your_turn",
            http,
            tid,
        )

    async def test_o1_playing_another_seats_tile_is_refused(self, refusals_table):
        srv, tid, clients, _, http = refusals_table
        mover, other = turn(clients)
        tile = other.latest["view"]["hand"][0]
        answer = await refused(
            mover,
            {
                "type": "act",
                "cmd": "z1",
                "v": mover.latest["v"],
                "action": {"kind": "play", "tile": tile, "end": "left"},
            },
            "illegal_action",
            http,
            tid,
        )
        assert "do not hold" in answer["message"]

    async def test_stale_version_is_refused(self, refusals_table):
        srv, tid, clients, _, http = refusals_table
        mover, _ = turn(clients)
        legal = mover.latest["view"]["legal"][0]
        await refused(
            mover,
            {"type": "act", "cmd": "s1", "v": mover.latest["v"] - 1, "action": legal},
            "stale",
            http,
            tid,
        )
        await refused(
            mover,
            {"type": "act", "cmd": "s2", "v": mover.latest["v"] + 5, "action": legal},
            "stale",
            http,
            tid,
        )

    @pytest.mark.parametrize(
        "raw",
        [
            "not json",
            "[1, 2]",
            '{"type": "dance"}',
            '{"type": "act", "cmd": 1, "v": 0, "action": {}}',
            '{"type": "act", "cmd": "a", "v": "3", "action": {}}',
            '{"type": "act", "cmd": "a", "v": true, "action": {}}',
            '{"type": "act", "cmd": "a", "v": 3}',
            '{"type": "sync", "v": -1}',
            '{"type": "ping", "extra": 1}',
            '{"type": "chat", "text": ""}',
            '{"type": "chat", "text": "' + "x" * 5000 + '"}',
        ],
        ids=[
            "not-json",
            "array",
            "unknown-type",
            "cmd-int",
            "v-str",
            "v-bool",
            "missing-field",
            "negative-v",
            "extra-field",
            "empty-chat",
            "oversized",
        ],
    )
    async def test_malformed_messages_get_bad_message(self, refusals_table, raw):
        srv, tid, clients, _, http = refusals_table
        await refused(clients[0], raw, "bad_message", http, tid)
        await clients[0].send({"type": "ping"})  # the connection is still fine
        assert (await clients[0].until(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"

    async def test_bad_or_forged_token_is_refused(self, refusals_table):
        srv, tid, clients, _, http = refusals_table
        head, body, _sig = clients[0].token.split(".")
        forged = f"{head}.{body}." + "A" * 43
        for token in ("nonsense", forged, clients[0].token + "x"):
            r = await http.get("/api/players/me", headers={"Authorization": f"Bearer {token}"})
            assert (r.status_code, r.json()["code"]) == (401, "bad_token")
            c = await SeatClient(srv.ws_url, tid, token).connect()
            with pytest.raises(websockets.ConnectionClosed):
                await c.recv()
            assert c.ws.close_code == 4401
        r = await http.post(
            f"/api/tables/{tid}/bots", headers={"Authorization": "Bearer " + forged}
        )
        assert r.status_code == 401

    async def test_spectator_and_unknown_table(self, refusals_table):
        srv = refusals_table[0]
        async with httpx.AsyncClient(base_url=srv.url) as http:
            token, _ = await register(http, "Watcher")
        c = await SeatClient(srv.ws_url, "nope", token).connect()
        msg = await c.recv()
        assert msg["type"] == "error" and msg["code"] == "not_found"
        await c.close()

    @pytest.mark.parametrize(
        "since",
        ["%C2%B2", "%D9%A3", "9" * 5000, "-1", "1e3"],
        ids=["superscript-two", "arabic-three", "5000-digits", "minus", "exp"],
    )
    async def test_a_version_not_in_ascii_digits_gets_a_fresh_state(
        self, refusals_table, odd_digits, since
    ):
        srv = refusals_table[0]
        async with httpx.AsyncClient(base_url=srv.url) as http:
            tid = (
                await http.post(
                    "/api/tables", headers=odd_digits, json={"game": "cross", "seats": 2}
                )
            ).json()["id"]
        async with websockets.connect(f"{srv.ws_url}/ws/tables/{tid}?v={since}") as ws:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), 5))
            # a fresh state, with the recent events a new socket gets (table/views.py HISTORY)
            assert msg["type"] == "state" and msg["v"] == 1
            assert msg["events"] == [{"type": "created"}]


async def test_replayed_command_gets_its_first_answer_and_applies_once(table):
    srv, tid, clients, _, http = table
    mover, _ = turn(clients)
    v = mover.latest["v"]
    msg = {"type": "act", "cmd": "once", "v": v, "action": mover.latest["view"]["legal"][0]}
    await mover.send(msg)
    ack = await mover.until(lambda m: m["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "cmd": "once", "v": v + 1}
    after = await version(http, tid)
    for _ in range(2):
        await mover.send(msg)
        again = await mover.until(lambda m: m["type"] in ("ack", "error"))
        assert again == ack
    assert await version(http, tid) == after
    log = await srv.live.store.action_log(tid, 1)
    assert [e["by"] for e in log].count("player") == 1


async def test_a_command_id_is_the_players_own(table):
    """B reusing the id A gave a move is B's own command: applied, not answered with A's."""
    srv, tid, clients, _, http = table
    a, b = turn(clients)
    v = a.latest["v"]
    await a.send({"type": "act", "cmd": "same", "v": v, "action": a.latest["view"]["legal"][0]})
    assert await a.until(lambda m: m["type"] in ("ack", "error")) == {
        "type": "ack",
        "cmd": "same",
        "v": v + 1,
    }
    await b.until(lambda m: m["type"] == "state" and m["v"] == v + 1)
    assert b.my_turn()
    await b.send({"type": "act", "cmd": "same", "v": v + 1, "action": b.latest["view"]["legal"][0]})
    assert await b.until(lambda m: m["type"] in ("ack", "error")) == {
        "type": "ack",
        "cmd": "same",
        "v": v + 2,
    }
    assert await version(http, tid) >= v + 2
    log = await srv.live.store.action_log(tid, 1)
    assert [e["v"] for e in log if e["by"] == "player"] == [v + 1, v + 2]


async def test_a_binary_frame_gets_bad_message_even_holding_a_valid_message(table):
    srv, tid, clients, _, http = table
    mover, _ = turn(clients)
    move = {
        "type": "act",
        "cmd": "bin",
        "v": mover.latest["v"],
        "action": mover.latest["view"]["legal"][0],
    }
    answer = await refused(mover, orjson.dumps(move), "bad_message", http, tid)
    assert "text" in answer["message"]
    await mover.send(move)  # the same as text is played
    assert (await mover.until(lambda m: m["type"] in ("ack", "error")))["type"] == "ack"


async def test_flood_is_rate_limited_and_changes_nothing(table):
    srv, tid, clients, _, http = table
    before = await version(http, tid)
    mover, _ = turn(clients)
    settings = srv.live.settings
    sent = settings.rate_burst + 30
    started = time.monotonic()
    for i in range(sent):
        await mover.send({"type": "act", "cmd": f"f{i}", "v": 0, "action": {"kind": "pass"}})
    answers = [await mover.until(lambda m: m["type"] in ("ack", "error")) for _ in range(sent)]
    # the bucket refills while a loaded machine sends and answers: that many more pass
    refilled = int((time.monotonic() - started) * settings.rate_per_second) + 1
    limited = sum(a["code"] == "rate_limited" for a in answers)
    assert limited >= min(30 - refilled, 10), (limited, refilled)
    assert all(a["type"] == "error" for a in answers)
    assert await version(http, tid) == before


async def test_wrong_origin_is_refused(table, live_server):
    srv, tid, clients, _, http = table
    with pytest.raises(websockets.InvalidStatus):
        await SeatClient(srv.ws_url, tid, clients[0].token).connect(origin="http://evil.example")
    with pytest.raises(websockets.InvalidStatus):  # trusted in the embedded mode only
        await SeatClient(srv.ws_url, tid, clients[0].token).connect(origin="http://localhost:8000")
    other = await live_server(allowed_origins=["https://meja.example"])
    ok = await SeatClient(other.ws_url, tid, clients[0].token).connect(
        origin="https://meja.example"
    )
    assert (await ok.recv())["type"] == "state"
    same = await SeatClient(srv.ws_url, tid, None).connect(origin=srv.url)
    assert (await same.recv())["type"] == "state"
    await asyncio.gather(ok.close(), same.close())
