"""Operations: ``/healthz`` (the process is alive), ``/readyz`` and ``/metrics`` (Prometheus,
app/metrics.py).

Ready means "can serve tables": Redis answers within a couple of seconds. The database only
holds the records and the wallets, written through the outbox, so play goes on while it is
down: ``/readyz`` then stays 200 and names it in ``degraded`` (and ``meja_dependency_up``), and
a load balancer keeps routing players to the replica instead of pulling every one at once."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel, Field

from .bodies import JsonRoute
from .deps import Live

router = APIRouter(route_class=JsonRoute, tags=["ops"])


class Alive(BaseModel):
    ok: bool


class Ready(BaseModel):
    ready: bool = Field(description="can serve tables: Redis answers (503 otherwise)")
    redis: bool
    database: bool
    degraded: list[str] = Field(
        description="what did not answer; play goes on without the database"
    )


# HEAD too: probes and load balancers often send it (Starlette's plain routes answer it for
# every GET, FastAPI's do not); kept out of the schema, which lists each operation once.
@router.get("/healthz", response_model=Alive)
@router.head("/healthz", include_in_schema=False)
async def healthz() -> dict:
    return {"ok": True}


@router.get("/readyz", response_model=Ready, responses={503: {"model": Ready}})
@router.head("/readyz", include_in_schema=False)
async def readyz(live: Live) -> JSONResponse:
    checks = await live.health.probe()
    degraded = [name for name, ok in checks.items() if not ok]
    body = {"ready": checks["redis"], **checks, "degraded": degraded}
    return JSONResponse(body, status_code=200 if checks["redis"] else 503)


@router.get("/metrics", include_in_schema=False)
async def metrics(live: Live) -> Response:
    await live.health.probe()
    try:
        await live.metrics.refresh()
    except Exception:  # Redis down: still serve the process's own numbers
        logging.getLogger("meja.metrics").warning("metrics: Redis not readable", exc_info=True)
    return Response(live.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
