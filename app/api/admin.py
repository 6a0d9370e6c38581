"""The operators' console's routes, ``/api/admin/...`` (docs/operations/console.md).

Every route needs a signed-in player whose role is ``admin`` in the database now: 401 without a
session, 403 ``not_admin`` without the role. Every action (ban, unban, chips, closing a table,
retrying a dead letter) takes a ``reason`` and is written to the operators' log.

``GET /api/admin/audit`` (the money invariants) also answers ``Authorization: Bearer
<MEJA_ADMIN_TOKEN>``, so monitoring can read it without an account.
"""

from __future__ import annotations

import hmac
import re
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, field_validator
from pydantic_core import PydanticCustomError

from app.services import admin_log
from app.services import admin_players as P
from app.services.wiring import Services

from .admin_models import (
    ActionPage,
    Adjusted,
    AdminPlayer,
    Banned,
    Closed,
    DeadLetter,
    DeadLetterPage,
    LedgerPage,
    MoneyReport,
    PlayerDetail,
    PlayerPage,
    Summary,
    TableState,
)
from .bodies import JsonRoute
from .deps import Live, answers, identity, live
from .fields import PAGE_MAX, PlayerId, TableId, Text
from .lobby import TableList

router = APIRouter(
    route_class=JsonRoute,
    prefix="/api/admin",
    tags=["admin"],
    responses=answers(401, 403, 404, 409, 422, 503),
)
page = APIRouter(route_class=JsonRoute, include_in_schema=False)
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
MAX_ADJUST = 10**9


async def current_admin(request: Request) -> dict:
    """The signed-in operator; 401 without a session, 403 ``not_admin`` without the role."""
    player = (await identity(request)).player
    if await P.role_of(live(request).db, player["id"]) != "admin":
        raise P.AdminError(403, "not_admin", "this needs an operator (the admin role)")
    return player


Admin = Annotated[dict, Depends(current_admin)]
Page = Annotated[int, Query(ge=1, le=PAGE_MAX)]
PerPage = Annotated[int, Query(ge=1, le=100)]


def _reason(value: str) -> str:
    value = " ".join(value.split())
    if not 3 <= len(value) <= 200:
        raise PydanticCustomError("bad_reason", "say why, in 3 to 200 characters")
    return value


class Why(BaseModel):
    reason: Text

    @field_validator("reason")
    @classmethod
    def _why(cls, value: str) -> str:
        return _reason(value)


class Adjust(Why):
    amount: int
    request_id: str

    @field_validator("amount")
    @classmethod
    def _amount(cls, value: int) -> int:
        if value == 0 or abs(value) > MAX_ADJUST:
            raise PydanticCustomError("bad_amount", "a whole number of chips, not 0")
        return value

    @field_validator("request_id")
    @classmethod
    def _request_id(cls, value: str) -> str:
        if not REQUEST_ID.fullmatch(value):
            raise PydanticCustomError("bad_request_id", "8 to 64 letters, digits, _ or -")
        return value


def actions(live: Services) -> P.PlayerActions:
    return P.PlayerActions(live.db, live.sessions, live.tables)


@router.get("/players", response_model=PlayerPage)
async def players(
    admin: Admin,
    live: Live,
    q: Annotated[Text, Query(max_length=40)] = "",
    page: Page = 1,
    per_page: PerPage = 20,
) -> dict:
    """Players whose name or username contains ``q``, newest first."""
    return await P.search(live.db, q.strip(), page=page, per_page=per_page)


@router.get("/players/{pid}", response_model=PlayerDetail)
async def player(pid: PlayerId, admin: Admin, live: Live) -> dict:
    """The player, their role and ban, and their wallet (balance, chips on tables)."""
    return await P.detail(live.db, pid)


@router.get("/players/{pid}/ledger", response_model=LedgerPage)
async def player_ledger(
    pid: PlayerId, admin: Admin, live: Live, page: Page = 1, per_page: PerPage = 20
) -> dict:
    """The player's ledger entries, newest first."""
    return await P.ledger_page(live.db, pid, page=page, per_page=per_page)


@router.post("/players/{pid}/ban", response_model=Banned)
async def ban(pid: PlayerId, body: Why, admin: Admin, live: Live) -> dict:
    """Refused everywhere from now on (403 ``banned``), sockets closed, seats given up."""
    return await actions(live).ban(admin["id"], pid, body.reason)


@router.post("/players/{pid}/unban", response_model=AdminPlayer)
async def unban(pid: PlayerId, body: Why, admin: Admin, live: Live) -> dict:
    return await actions(live).unban(admin["id"], pid, body.reason)


@router.post("/players/{pid}/chips", response_model=Adjusted)
async def adjust_chips(pid: PlayerId, body: Adjust, admin: Admin, live: Live) -> dict:
    """Chips from the house (``amount`` > 0) or back to it; ``request_id`` makes a retried
    request move them once (``moved`` is then false)."""
    return await actions(live).adjust(admin["id"], pid, body.amount, body.reason, body.request_id)


@router.get("/tables", response_model=TableList)
async def tables(admin: Admin, live: Live, page: Page = 1, per_page: PerPage = 20) -> dict:
    """Every live table, newest first: private ones and those nobody is at too."""
    return await live.tables.all_tables(page=page, per_page=per_page)


@router.get("/tables/{tid}", response_model=TableState)
async def table(tid: TableId, admin: Admin, live: Live) -> dict:
    """The table's summary and a spectator's view (no hidden tile)."""
    return await live.admin.table_state(tid)


@router.post("/tables/{tid}/close", response_model=Closed)
async def close_table(tid: TableId, body: Why, admin: Admin, live: Live) -> dict:
    """Close it now: every stack back to its wallet (bots' to the house)."""
    return await live.admin.close_table(admin["id"], tid, body.reason)


@router.get("/outbox/dead", response_model=DeadLetterPage)
async def dead_letters(admin: Admin, live: Live, page: Page = 1, per_page: PerPage = 20) -> dict:
    """Outbox entries that could not be written, newest first, with their error."""
    total, items = await live.admin.dead_letters(page=page, per_page=per_page)
    return {"items": items, "page": page, "per_page": per_page, "total": total}


@router.post("/outbox/dead/{entry_id}/retry", response_model=DeadLetter)
async def retry_dead_letter(
    entry_id: Annotated[str, Path(max_length=41)], body: Why, admin: Admin, live: Live
) -> dict:
    """Put the entry back on its table's stream, to be written again."""
    if not re.fullmatch(r"\d{1,20}-\d{1,20}", entry_id):
        raise P.AdminError(404, "unknown_dead_letter", f"no dead letter {entry_id}")
    return await live.admin.retry_dead(admin["id"], entry_id, body.reason)


@router.get("/actions", response_model=ActionPage)
async def action_log(admin: Admin, live: Live, page: Page = 1, per_page: PerPage = 20) -> dict:
    """The operators' log, newest first."""
    return await admin_log.page(live.db, page=page, per_page=per_page)


@router.get("/summary", response_model=Summary)
async def summary(admin: Admin, live: Live) -> dict:
    """The money audit and the metrics an operator looks at first (the dependencies probed
    now, as ``/metrics`` does)."""
    await live.health.probe()
    return {
        "audit": await live.admin.money_report(),
        "metrics": await live.admin.metrics_summary(),
    }


async def audit_reader(request: Request) -> None:
    """The static token (``MEJA_ADMIN_TOKEN``) or an operator's session."""
    expected = live(request).settings.admin_token
    auth = request.headers.get("authorization", "")
    given = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    if expected and hmac.compare_digest(given.encode(), expected.encode()):
        return
    await current_admin(request)


@router.get("/audit", dependencies=[Depends(audit_reader)], response_model=MoneyReport)
async def audit(live: Live) -> dict:
    """The money invariants (docs/design.md "Money")."""
    return await live.admin.money_report()


@page.get("/admin")
async def console() -> RedirectResponse:
    """The console is a screen of the one-page client (static/js/admin.js)."""
    return RedirectResponse("/#/admin")
