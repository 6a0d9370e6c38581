"""The rate limits of the REST routes (services/rate_limits.py).

``by_address("signup")`` counts a request per client address; ``by_player("sit")`` per signed-in
player and per address (after the 401 check, so a request without a player counts nothing).
Both are route dependencies: they run before the route does anything, and a request the route
then refuses (a 422, a 409) has counted too. ``check(request, "login", account=name)`` is the
same count for a route whose limit needs what only its body says. Over a limit the route
answers 429 ``rate_limited`` (deps.install_errors).
"""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request

from app.services.clients import client_address

from .deps import Player, live


def address_of(request: Request) -> str:
    """The client's address (the trusted-proxy rule of services/clients.py)."""
    return client_address(request.scope, live(request).settings.trusted_proxies)


async def check(request: Request, action: str, **who: Any) -> None:
    """Count one ``action`` for each ``who=identity`` (None skips it), then for the address."""
    await live(request).limits.hit(action, **who, address=address_of(request))


def by_address(action: str) -> Any:
    async def dependency(request: Request) -> None:
        await check(request, action)

    return Depends(dependency)


def by_player(action: str) -> Any:
    async def dependency(request: Request, player: Player) -> None:
        await check(request, action, player=player["id"])

    return Depends(dependency)
