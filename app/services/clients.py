"""Who a request comes from: ``client_address(scope, trusted_proxies)``, for the rate limits
and for any log line that names the client (docs/api.md "Rate limits").

The peer address is the client's unless the peer is a configured trusted proxy
(``Settings.trusted_proxies``). Then the client is the right-most ``X-Forwarded-For`` entry
that is not itself a trusted proxy: every proxy appends the address it was reached from, so the
entries to the right of the first untrusted one were written by proxies we trust, and anything
further left was written by the client and may be made up (MDN, "X-Forwarded-For", "Selecting
an IP address"). uvicorn's own proxy-header handling is off (app/serve.py) so that this is the
one place that decides.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
UNKNOWN = "unknown"  # no peer address (a unix socket): all such clients share it
MAX_LEN = 64  # an unparsable forwarded entry is kept as text, this long at most


def client_address(scope: Mapping[str, Any], trusted_proxies: Iterable[Network]) -> str:
    """The client's address (normalised: ``::ffff:1.2.3.4`` is ``1.2.3.4``) for an ASGI HTTP or
    WebSocket scope."""
    trusted = list(trusted_proxies)
    peer = scope.get("client")
    hop = _parse(peer[0]) if peer else None
    if hop is None:
        return str(peer[0])[:MAX_LEN] if peer else UNKNOWN
    if not _trusted(hop, trusted):
        return str(hop)
    forwarded = b",".join(v for k, v in scope.get("headers", ()) if k == b"x-forwarded-for")
    for entry in reversed(forwarded.decode("latin-1").split(",")):
        entry = entry.strip()
        if not entry:
            continue
        address = _parse(entry)
        if address is None:
            return entry[:MAX_LEN]
        if not _trusted(address, trusted):
            return str(address)
        hop = address
    return str(hop)  # every hop is a proxy of ours: the left-most one is the client


def limit_key(address: str) -> str:
    """The rate limits' key for an address: an IPv6 client is its /64, the block one home or
    phone is given (RFC 6177), so a fresh address from it is not a fresh budget."""
    parsed = _parse(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return address


def _parse(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, trusted: list[Network]) -> bool:
    return any(address in network for network in trusted)
