"""The client's address (app/services/clients.py): the peer's, or the right-most
X-Forwarded-For entry that is not a trusted proxy when the peer is one."""

from __future__ import annotations

from ipaddress import ip_network

import pytest

from app.services.clients import client_address, limit_key

PROXIES = [ip_network("10.0.0.0/8"), ip_network("fd00::/8")]


def scope(peer: str | None, *forwarded: str) -> dict:
    return {
        "client": (peer, 4711) if peer else None,
        "headers": [(b"host", b"meja")] + [(b"x-forwarded-for", f.encode()) for f in forwarded],
    }


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("203.0.113.5", ["198.51.100.1"], "203.0.113.5"),  # an untrusted peer: header ignored
        ("10.0.0.2", [], "10.0.0.2"),  # a proxy with no header is the client
        ("10.0.0.2", ["198.51.100.1"], "198.51.100.1"),
        ("10.0.0.2", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),  # the left one is made up
        ("10.0.0.2", ["198.51.100.1, 10.0.0.7"], "198.51.100.1"),  # two proxies of ours
        ("10.0.0.2", ["6.6.6.6", "198.51.100.1,10.1.1.1"], "198.51.100.1"),  # several headers
        ("10.0.0.2", ["10.0.0.9, 10.0.0.7"], "10.0.0.9"),  # only proxies: the left-most
        ("10.0.0.2", ["unknown, 198.51.100.1"], "198.51.100.1"),
        ("10.0.0.2", ["not-an-ip"], "not-an-ip"),
        ("fd00::1", ["2001:db8::5"], "2001:db8::5"),
        ("::ffff:10.0.0.2", ["::ffff:198.51.100.1"], "198.51.100.1"),  # v4-mapped is v4
        (None, ["198.51.100.1"], "unknown"),  # no peer (a unix socket): never a proxy
    ],
)
def test_client_address(peer, forwarded, client):
    assert client_address(scope(peer, *forwarded), PROXIES) == client


def test_without_trusted_proxies_the_peer_is_the_client():
    assert client_address(scope("10.0.0.2", "198.51.100.1"), []) == "10.0.0.2"


def test_an_ipv6_client_is_limited_as_its_64_block():
    assert limit_key("2001:db8:1:2::99") == limit_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert limit_key("198.51.100.1") == "198.51.100.1"
