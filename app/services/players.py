"""Guest players and their signed tokens.

A token is ``<payload>.<signature>``: the payload is base64url JSON ``{"pid": ...}`` and the
signature an HMAC-SHA256 of it under the server's key, so any process can check a token without
a lookup, and a forged or altered one is refused (HTTP 401 / socket close 4401).

Until chips & records switch ``register`` to ``money.register_player`` (CONTRACTS.md), guests
are kept in Redis.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

import orjson
from redis.asyncio import Redis

from app.store.keys import Keys

NAME_MIN, NAME_MAX = 2, 24
NAME_EXTRA = " _-.'"


def check_name(name: str) -> str:
    """A display name: 2-24 letters, digits, spaces and ``_-.'``; ValueError otherwise."""
    name = " ".join(name.split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ValueError(f"a name has {NAME_MIN} to {NAME_MAX} characters")
    if not all(c.isalnum() or c in NAME_EXTRA for c in name) or not any(c.isalnum() for c in name):
        raise ValueError("a name uses letters, digits, spaces and _ - . ' only")
    return name


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sign(key: bytes, pid: Any) -> str:
    payload = _b64(orjson.dumps({"pid": pid}))
    mac = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return f"{payload}.{_b64(mac)}"


def verify(key: bytes, token: str) -> Any | None:
    """The player id a token carries, or None when it is malformed or not signed by us."""
    try:
        payload, mac = token.split(".")
        good = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(good, mac):
            return None
        return orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["pid"]
    except (ValueError, KeyError, TypeError):
        return None


class Players:
    def __init__(self, redis: Redis, keys: Keys, signing_key: bytes):
        self.redis, self.keys, self.key = redis, keys, signing_key

    async def register(self, name: str) -> tuple[dict, str]:
        pid = "g" + secrets.token_hex(8)
        player = {"id": pid, "name": check_name(name)}
        await self.redis.set(self.keys.player(pid), orjson.dumps(player))
        return player, sign(self.key, pid)

    async def from_token(self, token: str | None) -> dict | None:
        pid = verify(self.key, token) if token else None
        if pid is None:
            return None
        raw = await self.redis.get(self.keys.player(pid))
        return orjson.loads(raw) if raw else None
