"""Quick chat: a phrase or emote by id (app/ws/protocol.py QUICK_CHAT) goes to every socket as a
chat line, through the chat's rate limit; an unknown id is refused and nothing is said."""

from __future__ import annotations

from tests.ws.client import SeatClient
from tests.ws.test_chat_limits import seated


async def heard(client: SeatClient, quiet: float = 0.5) -> list[dict]:
    """The chat lines and errors a socket gets until it has been quiet for ``quiet`` seconds."""
    got = []
    try:
        while True:
            msg = await client.recv(quiet)
            if msg["type"] in ("chat", "error"):
                got.append(msg)
    except TimeoutError:
        return got


async def test_a_quick_line_reaches_everyone_and_an_unknown_id_is_refused(live_server):
    one = await live_server()
    two = await live_server()
    token, tid = await seated(one, "Wati")
    talker = await SeatClient(one.ws_url, tid, token).connect()
    listener = await SeatClient(two.ws_url, tid, None).connect()
    for c in (talker, listener):
        await c.until(lambda m: m["type"] == "presence")

    await talker.send({"type": "quick", "id": "laugh"})
    for c in (talker, listener):
        line = await c.until(lambda m: m["type"] == "chat")
        assert (line["quick"], line["name"], line["seat"]) == ("laugh", "Wati", 0)
        assert "text" not in line

    await talker.send({"type": "quick", "id": "nope"})
    (refused,) = await heard(talker)
    assert (refused["type"], refused["code"], refused["cmd"]) == (
        "error",
        "unknown_quick_chat",
        None,
    )
    assert await heard(listener) == []
    assert len(await one.live.hub.recent_chat(tid)) == 1  # the refused one is not kept

    await talker.send({"type": "quick", "id": 7})
    assert (await talker.until(lambda m: m["type"] == "error"))["code"] == "bad_message"
    await listener.send({"type": "quick", "id": "gg"})
    assert (await listener.until(lambda m: m["type"] == "error"))["code"] == "not_your_turn"
    for c in (talker, listener):
        await c.close()


async def test_quick_lines_count_against_the_chat_limit(live_server):
    srv = await live_server(limit_chat_player="2/minute")
    token, tid = await seated(srv, "Yanti")
    talker = await SeatClient(srv.ws_url, tid, token).connect()
    await talker.send({"type": "chat", "text": "halo"})
    await talker.send({"type": "quick", "id": "hello"})
    await talker.send({"type": "quick", "id": "gg"})
    got = await heard(talker)
    assert [m.get("text") or m.get("quick") or m["code"] for m in got] == [
        "halo",
        "hello",
        "rate_limited",
    ]
    assert got[-1]["retry_after"] > 0
    await talker.close()
