"""Accounts: ``POST /api/accounts`` (register, or save the signed-in guest as an account) and
``POST /api/accounts/me/password``. Both answer like a login: the player, its access token and
the session's cookies (a password change ends every other session)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from .bodies import JsonRoute
from .deps import Live, MaybePlayer, Player, answers
from .fields import Text
from .limits import check
from .session import SignedIn, signed_in

router = APIRouter(
    route_class=JsonRoute,
    prefix="/api/accounts",
    tags=["accounts"],
    responses=answers(401, 403, 409, 422, 429, 503),
)


class NewAccount(BaseModel):
    username: Text = Field(max_length=64)
    password: Text = Field(max_length=1024)


class NewPassword(BaseModel):
    old_password: Text = Field(max_length=1024)
    new_password: Text = Field(max_length=1024)


@router.post("", status_code=201, response_model=SignedIn)
async def register(
    body: NewAccount, request: Request, response: Response, live: Live, guest: MaybePlayer
) -> SignedIn:
    """A new account; signed in as a guest, that guest becomes the account (same player,
    wallet, history and seats). 409 ``username_taken`` / ``already_registered``, 422
    ``bad_username``, ``weak_password``, ``common_password``. Rate limited per client address
    and per guest (429 ``rate_limited``), counted before anything is written."""
    await check(request, "register", player=guest["id"] if guest else None)
    issued = await live.accounts.register(body.username, body.password, guest)
    return signed_in(response, request, *issued)


@router.post("/me/password", response_model=SignedIn)
async def change_password(
    body: NewPassword, request: Request, response: Response, live: Live, player: Player
) -> SignedIn:
    """A new password (the current one is needed: 403 ``wrong_password``); every session of
    the account ends, and this client gets a new one. Each attempt counts against the login's
    limits, per account and per address (429 ``rate_limited``), before the password is
    checked: guessing the current password here is guessing it at the login, so a stolen
    access token gets no more guesses than the login gives."""
    username = player.get("username")
    await check(request, "login", account=username.casefold() if username else None)
    player = await live.accounts.change_password(player, body.old_password, body.new_password)
    return signed_in(response, request, player, await live.sessions.start(player))
