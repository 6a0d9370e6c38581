"""The client -> server messages of the table socket (docs/design.md "The WebSocket protocol").

Messages are JSON objects in text frames; a binary frame is answered ``bad_message`` unread
(whatever it holds: a client that sends them speaks another protocol). ``parse`` turns raw text
into one of the message classes or raises BadMessage: over the size limit, not JSON, not an
object, an unknown ``type``, a missing, extra or mistyped field. Such a message is answered
``bad_message`` and never reaches the rules. ``RateLimiter`` is a token
bucket per connection.

Either side may ping: a client's ``{"type": "ping"}`` is answered ``{"type": "pong"}``, and the
server sends ``{"type": "ping"}`` to a client silent for ``ping_interval`` seconds, which must
answer (``{"type": "pong"}``; any message will do) within ``ping_timeout`` or be dropped.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import orjson

CMD_MAX = 64


class BadMessage(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Act:
    cmd: str
    v: int
    action: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Sync:
    v: int


@dataclasses.dataclass(frozen=True)
class Chat:
    text: str


@dataclasses.dataclass(frozen=True)
class Quick:
    """A quick chat line: one of ``QUICK_CHAT``, which the clients translate."""

    id: str


# Quick chat: short phrases and emotes by id (the browser's words: ``quick.<id>``). The chat's
# path and rate limit; an id not listed is refused ``unknown_quick_chat``.
QUICK_CHAT = frozenset(
    {"hello", "nice", "hurry", "sorry", "thanks", "gg", "laugh", "wow", "angry", "cool"}
)


@dataclasses.dataclass(frozen=True)
class Ping:
    pass


@dataclasses.dataclass(frozen=True)
class Pong:
    """The answer to the server's ``{"type": "ping"}`` (sent to a client silent for a while)."""


FIELDS: dict[str, tuple[type, dict[str, type]]] = {
    "act": (Act, {"cmd": str, "v": int, "action": dict}),
    "sync": (Sync, {"v": int}),
    "chat": (Chat, {"text": str}),
    "quick": (Quick, {"id": str}),
    "ping": (Ping, {}),
    "pong": (Pong, {}),
}


def parse(raw: str, *, max_bytes: int, chat_max: int) -> Act | Sync | Chat | Quick | Ping | Pong:
    size = len(raw.encode())
    if size > max_bytes:
        raise BadMessage(f"messages are at most {max_bytes} bytes")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise BadMessage("a message is one JSON object") from e
    if not isinstance(data, dict) or data.get("type") not in FIELDS:
        raise BadMessage(f"unknown message type (expected one of {', '.join(FIELDS)})")
    cls, fields = FIELDS[data["type"]]
    if set(data) - {"type"} != set(fields):
        raise BadMessage(f"'{data['type']}' takes the fields {', '.join(fields) or 'none'}")
    for name, tp in fields.items():
        value = data[name]
        bad_int = tp is int and (isinstance(value, bool) or (isinstance(value, int) and value < 0))
        if not isinstance(value, tp) or bad_int:
            raise BadMessage(f"'{name}' must be {'a whole number' if tp is int else tp.__name__}")
    msg = cls(**{name: data[name] for name in fields})
    if isinstance(msg, Act) and not 0 < len(msg.cmd) <= CMD_MAX:
        raise BadMessage(f"'cmd' has 1 to {CMD_MAX} characters")
    if isinstance(msg, Chat) and not 0 < len(msg.text.strip()) <= chat_max:
        raise BadMessage(f"a chat line has 1 to {chat_max} characters")
    return msg


class RateLimiter:
    """Token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
