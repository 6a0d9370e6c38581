"""Operations: ``/healthz`` (the process is alive), ``/readyz`` (Redis and the database answer
within a couple of seconds; 503 otherwise) and ``/metrics`` (Prometheus, app/metrics.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text

from .deps import Live

router = APIRouter(tags=["ops"])
PROBE_SECONDS = 2.0


@router.get("/healthz")
async def healthz() -> dict:
    return {"ok": True}


@router.get("/readyz")
async def readyz(live: Live) -> JSONResponse:
    checks = {"redis": False, "database": False}
    with contextlib.suppress(Exception):
        checks["redis"] = bool(await asyncio.wait_for(live.redis.ping(), PROBE_SECONDS))
    with contextlib.suppress(Exception):  # the app's own pool (and schema / search_path)
        await asyncio.wait_for(_select_one(live.db), PROBE_SECONDS)
        checks["database"] = True
    return JSONResponse(
        {"ready": all(checks.values()), **checks}, status_code=200 if all(checks.values()) else 503
    )


async def _select_one(sessions) -> None:
    async with sessions() as session:
        await session.execute(text("SELECT 1"))


@router.get("/metrics", include_in_schema=False)
async def metrics(live: Live) -> Response:
    try:
        await live.metrics.refresh(live)
    except Exception:  # Redis down: still serve the process's own numbers
        logging.getLogger("meja.metrics").warning("metrics: Redis not readable", exc_info=True)
    return Response(live.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
