"""The operators' log: every admin action as one ``admin_action`` row (who, what, to which
target, why, when), written in the same transaction as the action where the action is a
database write, so neither lands without the other (docs/operations/console.md)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import reach
from app.db.models import AdminAction, Player


def note(
    session: AsyncSession,
    admin_id: int | None,
    action: str,
    target: str,
    reason: str | None,
    detail: dict[str, Any] | None = None,
) -> None:
    """Add the row to the caller's transaction."""
    session.add(
        AdminAction(admin_id=admin_id, action=action, target=target, reason=reason, detail=detail)
    )


async def record(
    db: reach.Sessions,
    admin_id: int | None,
    action: str,
    target: str,
    reason: str | None,
    detail: dict[str, Any] | None = None,
) -> None:
    """The row in a transaction of its own (an action that is not a database write)."""
    with reach.reachable("the action cannot be logged"):
        async with db.begin() as session:
            note(session, admin_id, action, target, reason, detail)


async def page(db: reach.Sessions, *, page: int, per_page: int) -> dict[str, Any]:
    """The log, newest first, with the operator's name."""
    with reach.reachable("the operators' log cannot be read"):
        async with db() as session:
            total = (await session.execute(select(func.count(AdminAction.id)))).scalar_one()
            rows = await session.execute(
                select(AdminAction, Player.name)
                .outerjoin(Player, Player.id == AdminAction.admin_id)
                .order_by(AdminAction.id.desc())
                .offset((page - 1) * per_page)
                .limit(per_page)
            )
            items = [
                {
                    "id": a.id,
                    "admin_id": a.admin_id,
                    "admin": name,
                    "action": a.action,
                    "target": a.target,
                    "reason": a.reason,
                    "detail": a.detail,
                    "at": reach.iso(a.created_at),
                }
                for a, name in rows
            ]
    return {"items": items, "page": page, "per_page": per_page, "total": int(total)}
