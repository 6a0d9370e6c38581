"""The rate limits of the REST routes, as dependencies (services/rate_limits.py).

``by_address("signup")`` counts a request per client address; ``by_player("sit")`` per signed-in
player and per address (after the 401 check, so a request without a player counts nothing).
They run before the route does anything; over a limit the route answers 429 ``rate_limited``
(deps.install_errors). A request the route then refuses (a 422, a 409) has counted too.
"""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request

from app.services.clients import client_address

from .deps import Player, live


def address_of(request: Request) -> str:
    """The client's address (the trusted-proxy rule of services/clients.py)."""
    return client_address(request.scope, live(request).settings.trusted_proxies)


def by_address(action: str) -> Any:
    async def check(request: Request) -> None:
        await live(request).limits.hit(action, address=address_of(request))

    return Depends(check)


def by_player(action: str) -> Any:
    async def check(request: Request, player: Player) -> None:
        await live(request).limits.hit(action, player=player["id"], address=address_of(request))

    return Depends(check)
