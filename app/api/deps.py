"""Shared pieces of the REST routes: the services, the current player, error answers.

Refusals are answered ``{"detail": <message>, "code": <code>}`` (a 422 names its field like
FastAPI's own validation instead; a refused chip claim adds ``next_at``). A missing, expired,
forged or revoked access token is 401 with its code (``not_signed_in``, ``token_expired``:
refresh and retry, ``bad_token``); a banned player's is 403 ``banned``. A database that cannot
be reached is 503 ``database_unavailable``, wherever it shows: routes that read it wrap the
call in ``database()``, services raise ``reach.Unavailable``.

Every error body also carries ``request_id`` (the ``X-Request-ID`` of the answer, in every log
line of the request: app/api/access.py), FastAPI's own 422, 404 and 405 included, and every
error answer is counted in ``meja_errors_total{via="rest",code}``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, Security
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyCookie, HTTPBearer
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from app import logs
from app.db import reach
from app.services import chip_claims
from app.services.accounts import AccountError
from app.services.admin_players import AdminError
from app.services.friends import FriendError
from app.services.rate_limits import RateLimited
from app.services.sessions import AuthError, Banned, Identity
from app.services.table.errors import TableError
from app.services.wiring import Services
from app.store.outage import REDIS_DOWN


class ErrorBody(BaseModel):
    """Every error answer of the REST API (the socket's error message is its own): a stable
    ``code`` the clients translate, an English ``detail`` for people reading logs, and for a
    refused field its location (``["body", "name"]``), every validation error and the limits
    of the rule it broke (``min``, ``max``), so the client's words say the server's numbers."""

    code: str
    detail: str
    request_id: str
    field: list[str | int] | None = None
    errors: list[dict[str, Any]] | None = None
    min: int | None = None  # a refused field: the rule's limits, e.g. name_length 2 and 24
    max: int | None = None
    retry_after: int | None = None  # 429: seconds, as the Retry-After header
    next_at: str | None = None  # a refused chip claim: when it opens again


MEANINGS = {
    401: "not signed in, or the access token expired (`token_expired`: refresh) or was refused",
    403: "forbidden: another site's page (`bad_origin`), a banned player, not an admin, ...",
    404: "no such table, player, game, match or invite",
    410: "`invite_expired`: a table invite past its time",
    409: "refused by the current state (a taken seat, a claimed bonus, a taken username, ...)",
    413: "`body_too_large`: a request body over `MEJA_MAX_BODY_BYTES` (its `max`), unread",
    422: "a refused field: `field` names it, `code` says why",
    429: "over a rate limit: `retry_after` seconds, as the Retry-After header",
    503: "Redis or the database cannot be reached right now: try again after Retry-After",
}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a router's routes may give, for OpenAPI (the same ``ErrorBody``)."""
    return {s: {"model": ErrorBody, "description": MEANINGS[s]} for s in statuses}


# The credentials, declared so that OpenAPI names them; ``token_of`` reads them.
BEARER = HTTPBearer(auto_error=False, description="an access token (the JSON `token`)")
COOKIE = APIKeyCookie(name="meja_token", auto_error=False, description="the browser's cookie")


def live(request: Request) -> Services:
    """The process's services (app/services/wiring.py), typed through."""
    return request.app.state.services


def token_of(request: Request) -> str | None:
    """The access token: ``Authorization: Bearer`` (non-browser clients), else the cookie."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(live(request).settings.cookie_name)


async def identity(
    request: Request,
    _bearer: Annotated[Any, Security(BEARER)] = None,
    _cookie: Annotated[Any, Security(COOKIE)] = None,
) -> Identity:
    """Who the request speaks for; 401 ``not_signed_in``, ``token_expired`` or ``bad_token``."""
    return await live(request).sessions.authenticate(token_of(request))


async def current_player(who: Annotated[Identity, Depends(identity)]) -> dict:
    """The signed-in player (Authorization: Bearer <token>, or the cookie); 401 otherwise."""
    return who.player


async def maybe_player(request: Request) -> dict | None:
    """The signed-in player, or None when the request carries no token at all (an expired
    or refused one is still a 401: the client refreshes, or signs in again)."""
    token = token_of(request)
    return None if token is None else (await live(request).sessions.authenticate(token)).player


Player = Annotated[dict, Depends(current_player)]
MaybePlayer = Annotated[dict | None, Depends(maybe_player)]
Live = Annotated[Services, Depends(live)]


def database():
    """Around a route's database reads: unreachable -> 503 ``database_unavailable``."""
    return reach.reachable("this cannot be read")


def install_errors(app: FastAPI) -> None:
    """TableError -> its HTTP status; a 422 names the field like FastAPI's own validation.
    Over a rate limit -> 429 ``rate_limited`` with ``Retry-After`` (and ``retry_after`` in the
    body, the same seconds, for the page to show).
    Redis unreachable, cut mid-request or a node failing over (``REDIS_DOWN``,
    app/store/outage.py) -> 503 ``redis_unavailable``: the request may or may not have been
    applied, so the client reads the table again rather than retrying blindly."""

    async def redis_down(request: Request, exc: Exception) -> JSONResponse:
        return error(
            request,
            {
                "detail": "the live tables cannot be reached right now; try again shortly",
                "code": "redis_unavailable",
            },
            503,
            {"Retry-After": "2"},
        )

    for kind in REDIS_DOWN:
        app.add_exception_handler(kind, redis_down)

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        body = _body(exc.code, exc.message, exc.field)
        return error(request, body, exc.status, _retry(exc.status))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        """FastAPI's own 422 body (``detail``: the errors), with the request id; never the
        refused values themselves (``input``): an answer does not echo what it was sent."""
        errors = [{k: v for k, v in e.items() if k != "input"} for e in exc.errors()]
        return error(request, {"detail": jsonable_encoder(errors[:MAX_ERRORS])}, 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        """FastAPI's own answer (404 for an unknown path, 405 for a method), with the id."""
        return error(request, {"detail": exc.detail}, exc.status_code, exc.headers)

    @app.exception_handler(chip_claims.ClaimRefused)
    async def claim_refused(request: Request, exc: chip_claims.ClaimRefused) -> JSONResponse:
        """409 with, when the claim opens again, ``next_at`` and ``Retry-After``."""
        body: dict[str, Any] = {"detail": exc.message, "code": exc.code}
        headers = None
        if exc.next_at is not None:
            body["next_at"] = exc.next_at.isoformat()
            wait = (exc.next_at - datetime.now(UTC)).total_seconds()
            headers = {"Retry-After": str(max(1, math.ceil(wait)))}
        return error(request, body, 409, headers)

    @app.exception_handler(RateLimited)
    async def rate_limited(request: Request, exc: RateLimited) -> JSONResponse:
        return error(
            request,
            {"detail": exc.message, "code": exc.code, "retry_after": exc.retry_after},
            429,
            {"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(AuthError)
    async def refused(request: Request, exc: AuthError) -> JSONResponse:
        body = {"detail": exc.message, "code": exc.code}
        return error(request, body, 401, {"WWW-Authenticate": "Bearer"})

    @app.exception_handler(Banned)
    async def banned(request: Request, exc: Banned) -> JSONResponse:
        return error(request, {"detail": exc.message, "code": exc.code}, 403)

    @app.exception_handler(AccountError)
    async def account_error(request: Request, exc: AccountError) -> JSONResponse:
        body = _body(exc.code, exc.message, exc.field, exc.limits)
        return error(request, body, exc.status)

    @app.exception_handler(AdminError)
    async def admin_error(request: Request, exc: AdminError) -> JSONResponse:
        return error(request, {"detail": exc.message, "code": exc.code}, exc.status)

    @app.exception_handler(FriendError)
    async def friend_error(request: Request, exc: FriendError) -> JSONResponse:
        return error(request, {"detail": exc.message, "code": exc.code}, exc.status)

    @app.exception_handler(reach.Unavailable)
    async def unavailable(request: Request, exc: reach.Unavailable) -> JSONResponse:
        return error(request, {"detail": exc.message, "code": exc.code}, 503, _retry(503))


MAX_ERRORS = 20  # a 422 lists at most this many of its validation errors
# The metrics' code of an answer without one of its own (FastAPI's 404, 405, ...).
STATUS_CODES = {404: "not_found", 405: "method_not_allowed", 422: "invalid_request"}
# A validation error's limits (its ``ctx``: ours, or pydantic's own names) as ``min``/``max``.
LIMITS = {"min": "min", "max": "max", "min_length": "min", "max_length": "max"}
LIMITS |= {"ge": "min", "le": "max"}


def error(
    request: Request, body: dict[str, Any], status: int, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """An error answer in the API's one shape (``ErrorBody``), with the request's id, counted
    by its code."""
    body = uniform(body, status)
    metrics = getattr(getattr(request.app.state, "services", None), "metrics", None)
    if metrics is not None:
        metrics.error("rest", body["code"])
    return JSONResponse({**body, "request_id": logs.request_id()}, status, headers)


def uniform(body: dict[str, Any], status: int) -> dict[str, Any]:
    """Every refusal as ``{code, detail, field?, errors?}``: a validation error's list (FastAPI's
    own 422, or a field named by a service) gives its first error's type, message and location,
    and keeps the whole list in ``errors``; an answer without a code (FastAPI's 404, 405) gets
    its status's."""
    detail = body.get("detail")
    if isinstance(detail, list) and detail:
        first = detail[0]
        out = {**body, "code": first.get("type"), "detail": first.get("msg", "")}
        ctx = first.get("ctx") or {}
        for key, limit in LIMITS.items():
            if isinstance(ctx.get(key), int) and not isinstance(ctx[key], bool):
                out[limit] = ctx[key]
        return {**out, "field": list(first.get("loc", ())), "errors": detail}
    return {**body, "code": body.get("code") or STATUS_CODES.get(status, f"http_{status}")}


def _body(
    code: str, message: str, field: str | None, limits: dict[str, int] | None = None
) -> dict[str, Any]:
    """A refusal's body; one of a field names it like FastAPI's own validation (a field of
    the body, or ``query.<name>`` / ``path.<name>``; its limits in the error's ``ctx``, as
    pydantic puts them)."""
    if field is None:
        return {"detail": message, "code": code}
    loc = field.split(".")
    if loc[0] not in ("query", "path"):
        loc = ["body", *loc]
    error: dict[str, Any] = {"loc": loc, "msg": message, "type": code}
    if limits:
        error["ctx"] = limits
    return {"detail": [error]}


def _retry(status: int) -> dict[str, str] | None:
    """A 503 (an outage) says when to try again."""
    return {"Retry-After": "5"} if status == 503 else None
