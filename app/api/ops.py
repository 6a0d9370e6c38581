"""Operations: ``/healthz`` (the process is alive) and ``/readyz`` (Redis and the database
answer; 503 otherwise)."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from .deps import Live

router = APIRouter(tags=["ops"])


@router.get("/healthz")
async def healthz() -> dict:
    return {"ok": True}


@router.get("/readyz")
async def readyz(live: Live) -> JSONResponse:
    checks = {"redis": False, "database": False}
    with contextlib.suppress(Exception):
        checks["redis"] = bool(await live.redis.ping())
    engine = create_async_engine(live.settings.database_url)
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        checks["database"] = True
    except Exception:
        pass
    finally:
        await engine.dispose()
    return JSONResponse({"ready": all(checks.values()), **checks},
                        status_code=200 if all(checks.values()) else 503)
