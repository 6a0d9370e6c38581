"""Shared pieces of the REST routes: the services, the current player, error answers.

Refusals are answered ``{"detail": <message>, "code": <code>}`` (a 422 names its field like
FastAPI's own validation instead; a refused chip claim adds ``next_at``). A missing, expired,
forged or revoked access token is 401 with its code (``not_signed_in``, ``token_expired``:
refresh and retry, ``bad_token``); a banned player's is 403 ``banned``. A database that cannot
be reached is 503 ``database_unavailable``, wherever it shows: routes that read it wrap the
call in ``database()``, services raise ``money.Unavailable``.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.services import chip_claims, money
from app.services.accounts import AccountError
from app.services.admin_players import AdminError
from app.services.rate_limits import RateLimited
from app.services.sessions import AuthError, Banned, Identity
from app.services.table_errors import TableError

ID_MAX = 2**63 - 1  # the database's ids are 64-bit: a larger number names nothing


def live(request: Request) -> Any:
    return request.app.state.live


def token_of(request: Request) -> str | None:
    """The access token: ``Authorization: Bearer`` (non-browser clients), else the cookie."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(live(request).settings.cookie_name)


async def identity(request: Request) -> Identity:
    """Who the request speaks for; 401 ``not_signed_in``, ``token_expired`` or ``bad_token``."""
    return await live(request).sessions.authenticate(token_of(request))


async def current_player(request: Request) -> dict:
    """The signed-in player (Authorization: Bearer <token>, or the cookie); 401 otherwise."""
    return (await identity(request)).player


async def maybe_player(request: Request) -> dict | None:
    """The signed-in player, or None when the request carries no token at all (an expired
    or refused one is still a 401: the client refreshes, or signs in again)."""
    token = token_of(request)
    return None if token is None else (await live(request).sessions.authenticate(token)).player


Player = Annotated[dict, Depends(current_player)]
MaybePlayer = Annotated[dict | None, Depends(maybe_player)]
Live = Annotated[Any, Depends(live)]


def database():
    """Around a route's database reads: unreachable -> 503 ``database_unavailable``."""
    return money.reachable("this cannot be read")


def install_errors(app: FastAPI) -> None:
    """TableError -> its HTTP status; a 422 names the field like FastAPI's own validation.
    Over a rate limit -> 429 ``rate_limited`` with ``Retry-After`` (and ``retry_after`` in the
    body, the same seconds, for the page to show).
    Redis unreachable (or cut mid-request) -> 503 ``redis_unavailable``: the request may or may
    not have been applied, so the client reads the table again rather than retrying blindly."""

    @app.exception_handler(RedisConnectionError)
    @app.exception_handler(RedisTimeoutError)
    async def redis_down(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            {
                "detail": "the live tables cannot be reached right now; try again shortly",
                "code": "redis_unavailable",
            },
            status_code=503,
            headers={"Retry-After": "2"},
        )

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        body = _body(exc.code, exc.message, exc.field)
        return JSONResponse(body, status_code=exc.status, headers=_retry(exc.status))

    @app.exception_handler(chip_claims.ClaimRefused)
    async def claim_refused(request: Request, exc: chip_claims.ClaimRefused) -> JSONResponse:
        """409 with, when the claim opens again, ``next_at`` and ``Retry-After``."""
        body: dict[str, Any] = {"detail": exc.message, "code": exc.code}
        headers = None
        if exc.next_at is not None:
            body["next_at"] = exc.next_at.isoformat()
            wait = (exc.next_at - datetime.now(UTC)).total_seconds()
            headers = {"Retry-After": str(max(1, math.ceil(wait)))}
        return JSONResponse(body, status_code=409, headers=headers)

    @app.exception_handler(RateLimited)
    async def rate_limited(request: Request, exc: RateLimited) -> JSONResponse:
        return JSONResponse(
            {"detail": exc.message, "code": exc.code, "retry_after": exc.retry_after},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(AuthError)
    async def refused(request: Request, exc: AuthError) -> JSONResponse:
        return JSONResponse(
            {"detail": exc.message, "code": exc.code},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )

    @app.exception_handler(Banned)
    async def banned(request: Request, exc: Banned) -> JSONResponse:
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=403)

    @app.exception_handler(AccountError)
    async def account_error(request: Request, exc: AccountError) -> JSONResponse:
        return JSONResponse(_body(exc.code, exc.message, exc.field), status_code=exc.status)

    @app.exception_handler(AdminError)
    async def admin_error(request: Request, exc: AdminError) -> JSONResponse:
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=exc.status)

    @app.exception_handler(money.Unavailable)
    async def unavailable(request: Request, exc: money.Unavailable) -> JSONResponse:
        return JSONResponse(
            {"detail": exc.message, "code": exc.code}, status_code=503, headers=_retry(503)
        )


def _body(code: str, message: str, field: str | None) -> dict[str, Any]:
    """A refusal's body; one of a field names it like FastAPI's own validation."""
    if field is None:
        return {"detail": message, "code": code}
    return {"detail": [{"loc": ["body", *field.split(".")], "msg": message, "type": code}]}


def _retry(status: int) -> dict[str, str] | None:
    """A 503 (an outage) says when to try again."""
    return {"Retry-After": "5"} if status == 503 else None
