"""The REST calls that seat the load tools' players, made as a browser's player makes them.

Set-up registers thousands of guests and tables before any socket opens, so the calls are
bounded (``concurrency``), retried when a kept-alive connection was closed meanwhile, and a
line on stderr says the set-up is still going.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Iterable
from http.cookiejar import DefaultCookiePolicy
from typing import Any, TypeVar

import httpx

T = TypeVar("T")


class Api:
    """The few REST calls the tools need (register, create, sit), as a player would make them."""

    def __init__(self, url: str, concurrency: int = 32):
        self.http = httpx.AsyncClient(
            base_url=url, timeout=60, limits=httpx.Limits(max_connections=concurrency)
        )
        # Players are told apart by their Bearer tokens: the session cookies each sign-up
        # sets would otherwise ride along on every later player's request.
        self.http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        self.gate = asyncio.Semaphore(concurrency)
        self.calls = 0

    async def call(
        self, method: str, path: str, token: str | None = None, **kw: Any
    ) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for attempt in range(4):  # a kept-alive connection the server closed meanwhile
            try:
                async with self.gate:
                    r = await self.http.request(method, path, headers=headers, **kw)
                break
            except httpx.TransportError:
                if attempt == 3:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        self.calls += 1
        if r.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    async def register(self, name: str) -> str:
        return (await self.call("POST", "/api/players", json={"name": name}))["token"]

    async def create(self, token: str, game: str, seats: int, options: dict[str, Any]) -> str:
        body = {"game": game, "seats": seats, "options": options}
        return (await self.call("POST", "/api/tables", token, json=body))["id"]

    async def sit(self, token: str, tid: str, seat: int, buy_in: int | None = None) -> None:
        """Sit (with ``buy_in`` chips, else the default); a chips table may already be playing,
        so a ``stale`` answer is tried again."""
        body = {"json": {"buy_in": buy_in}} if buy_in is not None else {}
        for attempt in range(10):
            try:
                await self.call("POST", f"/api/tables/{tid}/seats/{seat}", token, **body)
                return
            except RuntimeError as e:
                if '"stale"' not in str(e) or attempt == 9:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))

    async def close(self) -> None:
        await self.http.aclose()

    @contextlib.asynccontextmanager
    async def ticking(self, every: float = 10.0) -> AsyncIterator[None]:
        """A line on stderr every ``every`` s while a long set-up runs."""

        async def tick() -> None:
            t0 = time.monotonic()
            while True:
                await asyncio.sleep(every)
                print(
                    f"  set-up: {self.calls} requests in {time.monotonic() - t0:.0f}s",
                    file=sys.stderr,
                    flush=True,
                )

        task = asyncio.create_task(tick())
        try:
            yield
        finally:
            task.cancel()


async def gather_limited(coros: Iterable[Awaitable[T]], limit: int) -> list[T]:
    """``asyncio.gather`` with at most ``limit`` of the awaitables running at once."""
    gate = asyncio.Semaphore(limit)

    async def one(c: Awaitable[T]) -> T:
        async with gate:
            return await c

    return await asyncio.gather(*(one(c) for c in coros))
