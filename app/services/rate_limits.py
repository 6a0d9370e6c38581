"""Rate limits per player, per account name and per client address (docs/api.md "Rate limits").

``RateLimits.hit(action, player=..., address=...)`` counts one attempt at ``action`` against
each of the action's limits (``Settings.limit_<action>_<who>``) for each who given, most
specific first, and raises ``RateLimited`` (its ``retry_after`` in whole seconds) at the first
one that is full. The counters live in Redis (app/store/limits.py), so every replica counts
the same attempts. Callers hit before they change anything, so a refused request changes
nothing (no player row, no grant, no seat, no table).

Decisions:
- Every attempt counts, whether it then succeeds or fails: the check and the count are one
  atomic step in Redis, so parallel attempts cannot slip past it. For the login, counting
  failures only would need a separate check before the password test and a count after it,
  and a burst of parallel guesses would all pass the check; counting every attempt also bounds
  the Argon2 work one client can cause. The per-account limit is keyed by the casefolded name
  asked for, whether or not that account exists, so a 429 tells nothing about it.
- A limit already counted when a later one refuses keeps that count (the per-player limit is
  hit before the per-address one, so a player's own flood does not use up their neighbours').
- Redis unreachable: the error goes up as for every other Redis call (503 ``redis_unavailable``
  over REST). Failing open would lift the limits exactly when Redis struggles, and everything
  these limits guard (tables, seats, chat, the player cache) needs Redis anyway.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Iterable
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.strategies import RateLimiter

from .clients import limit_key


class RateLimited(Exception):
    """Over a limit: HTTP 429 with ``Retry-After``, the socket's error ``rate_limited``."""

    code = "rate_limited"

    def __init__(self, retry_after: int):
        self.retry_after = retry_after
        self.message = f"too many attempts; try again in {retry_after} s"
        super().__init__(self.message)


class RateLimits:
    def __init__(
        self,
        limiter: RateLimiter,
        limits: dict[str, str],
        exempt: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network] = (),
    ):
        """``limits``: ``Settings.rate_limits``, ``{"limit_<action>_<who>": "10/minute"}``;
        ``exempt``: ``Settings.rate_limit_exempt``, addresses no per-address limit counts."""
        self.limiter = limiter
        self.exempt = tuple(exempt)
        self.items: dict[tuple[str, str], list[RateLimitItem]] = {}
        for name, value in limits.items():
            action, who = name.removeprefix("limit_").rsplit("_", 1)
            self.items[action, who] = parse_many(value)

    async def hit(self, action: str, **who: Any) -> None:
        """Count one attempt at ``action`` for each ``who=identity`` given (``player``,
        ``account``, ``address``; None skips it); RateLimited at the first limit full."""
        for kind, identity in who.items():
            if identity is None or (kind == "address" and self._exempt(identity)):
                continue
            key = limit_key(identity) if kind == "address" else str(identity)
            for item in self.items.get((action, kind), ()):
                if not await self.limiter.hit(item, action, kind, key):
                    stats = await self.limiter.get_window_stats(item, action, kind, key)
                    raise RateLimited(max(1, math.ceil(stats.reset_time - time.time())))

    def _exempt(self, address: str) -> bool:
        if not self.exempt:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:  # an unknown or forwarded non-address: counted as it is
            return False
        return any(ip in net for net in self.exempt)
