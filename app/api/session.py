"""Signing in and out: ``POST /api/session`` (login), ``POST /api/session/refresh``,
``DELETE /api/session`` (logout: every session of the player), ``POST /api/ws-ticket``.

The browser holds two HttpOnly ``SameSite=Lax`` cookies (``Secure`` with ``cookie_secure``):
the access token (path ``/``) and the refresh session (path ``/api/session``, so it goes
nowhere else). The access cookie outlives its token on purpose: an expired token still reaches
the server, which answers 401 ``token_expired`` (or closes the socket with 4419), and the client
refreshes. Non-browser clients use the JSON ``token`` as ``Authorization: Bearer``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from app.services.sessions import Issued

from .bodies import JsonRoute
from .deps import Live, Player, answers, live, token_of
from .fields import Text
from .limits import check

router = APIRouter(
    route_class=JsonRoute,
    prefix="/api",
    tags=["session"],
    responses=answers(401, 403, 422, 429, 503),
)
REFRESH_PATH = "/api/session"


class Credentials(BaseModel):
    username: Text = Field(max_length=64)
    password: Text = Field(max_length=1024)


class PlayerOut(BaseModel):
    id: int
    name: str
    kind: str
    username: str | None = None
    role: str = "player"
    avatar: str | None = None  # app/services/avatars.py; None only in a cache written before


class SignedIn(BaseModel):
    token: str
    player: PlayerOut


class Ticket(BaseModel):
    ticket: str
    expires_in: int


def set_cookies(response: Response, request: Request, issued: Issued) -> None:
    """The session's two cookies, for as long as its refresh session lasts."""
    settings = live(request).settings
    for name, value, path in (
        (settings.cookie_name, issued.access, "/"),
        (settings.refresh_cookie_name, issued.refresh, REFRESH_PATH),
    ):
        response.set_cookie(
            name,
            value,
            max_age=issued.refresh_seconds,
            path=path,
            httponly=True,
            samesite="lax",
            secure=settings.cookie_secure,
        )


def signed_in(response: Response, request: Request, player: dict, issued: Issued) -> SignedIn:
    set_cookies(response, request, issued)
    return SignedIn(token=issued.access, player=PlayerOut(**player))


@router.post("/session", response_model=SignedIn)
async def login(body: Credentials, request: Request, response: Response, live: Live) -> SignedIn:
    """Log in with a username (any case) and password; 401 ``bad_credentials`` alike for an
    unknown username and a wrong password. Every attempt counts, per account (whether it
    exists or not, so a 429 tells nothing) and per client address, before any lookup or hash:
    429 ``rate_limited``."""
    await check(request, "login", account=body.username.casefold())
    player = await live.accounts.login(body.username, body.password)
    return signed_in(response, request, player, await live.sessions.start(player))


@router.post("/session/refresh", response_model=SignedIn)
async def refresh(request: Request, response: Response, live: Live) -> SignedIn:
    """A new access token from the refresh cookie; 401 ``session_ended`` once it is gone."""
    cookie = request.cookies.get(live.settings.refresh_cookie_name)
    player, issued = await live.sessions.refresh(cookie)
    return signed_in(response, request, player, issued)


@router.delete("/session", status_code=204)
async def logout(request: Request, player: Player, live: Live) -> Response:
    """End every session of the player (every device): tokens refused, sockets closed."""
    await live.sessions.end_all(player["id"])
    response = Response(status_code=204)
    forget_cookies(response, request)
    return response


def forget_cookies(response: Response, request: Request) -> None:
    settings = live(request).settings
    response.delete_cookie(settings.cookie_name, httponly=True, samesite="lax")
    response.delete_cookie(
        settings.refresh_cookie_name, path=REFRESH_PATH, httponly=True, samesite="lax"
    )


@router.post("/ws-ticket", response_model=Ticket)
async def ws_ticket(request: Request, player: Player, live: Live) -> Ticket:
    """A single-use ticket for ``/ws/tables/{id}?ticket=``, valid ``ticket_seconds``: a
    socket URL never carries the token itself."""
    token = token_of(request)
    assert token is not None  # ``Player`` authenticated it
    ticket, seconds = await live.sessions.ticket(token)
    return Ticket(ticket=ticket, expires_in=seconds)
