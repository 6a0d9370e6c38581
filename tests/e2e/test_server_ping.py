"""The page answers the server's ping (a socket silent for ``ping_interval`` is pinged and
dropped unless it answers, app/ws/endpoint.py)."""

from __future__ import annotations

import pytest

from .play import open_vs_bots

pytestmark = pytest.mark.e2e


def test_the_page_answers_the_servers_ping(new_page):
    page = new_page("Pinged")
    open_vs_bots(page, "cross")
    sent = page.evaluate("""() => {
        const sock = window.meja.socket, sent = [];
        const send = sock.ws.send.bind(sock.ws);
        sock.ws.send = (text) => { sent.push(JSON.parse(text)); send(text); };
        sock.ws.dispatchEvent(new MessageEvent("message", {data: '{"type": "ping"}'}));
        return sent;
    }""")
    assert sent == [{"type": "pong"}]
    assert not page.errors
