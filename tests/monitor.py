"""The commands a Redis server ran while a block of code ran, from ``MONITOR``: what the code
sent (``sent``) and what the scripts it called ran (``scripted``), each as redis-py reads
MONITOR's line (``HMGET key v chips``: the words without their quotes). For a server of the
test's own (``spare_redis``): MONITOR shows every client's commands."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis


@dataclass
class Ran:
    sent: list[str] = field(default_factory=list)
    scripted: list[str] = field(default_factory=list)

    def names(self) -> list[str]:
        """The sent commands' names (EVALSHA with its script's sha), sorted."""
        return sorted(
            " ".join(c.split(" ")[:2]) if "EVALSHA" in c else c.split(" ")[0] for c in self.sent
        )


async def monitored(url: str, block: Callable[[], Awaitable[Any]]) -> tuple[Any, Ran]:
    """``block()``'s result and what Redis ran meanwhile (up to a marker sent after it)."""
    ran, marker = Ran(), f"end-{uuid.uuid4().hex}"
    watcher, other = Redis.from_url(url), Redis.from_url(url)
    try:
        async with watcher.monitor() as m:
            result = await block()
            await other.echo(marker)
            while True:
                info = await m.next_command()
                if marker in info["command"]:
                    return result, ran
                lua = info.get("client_type") == "lua"
                (ran.scripted if lua else ran.sent).append(info["command"])
    finally:
        await watcher.aclose()
        await other.aclose()
