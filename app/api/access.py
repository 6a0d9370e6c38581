"""The access middleware: a request id, an access log line and the HTTP metrics for every
request, and a JSON 500 for an unhandled exception (docs/operations/monitoring.md).

Pure ASGI and outermost of the app's middleware, so that every answer (the Origin check's 403
and the static files included) has its ``X-Request-ID``, and every line logged while it is
served carries the id (app/logs.py ``request_context``). A table socket gets an id too, for the
lines of its life (its refusal, its moves); its messages pass through untouched, so a move
costs nothing here.

Own code rather than an instrumentator package: one layer does the id, the line and the two
metric families, with one clock read at each end; the route label is the template the router
matched (``scope["route"]``, set by Starlette), never the raw path, so the labels stay few.

Decisions:
- The access line is ``info``, except for the probes (``/healthz``, ``/readyz``, ``/metrics``):
  ``debug``, since Prometheus and the container's health check call them every few seconds.
- An unhandled exception is logged here, once, with its traceback (redacted by app/logs.py),
  path and id, and answered 500 ``internal_error`` with the id in the body; it is not passed
  on, so neither Starlette nor uvicorn logs it a second time. If the answer had already begun
  there is nothing left to answer: it is logged and re-raised.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson

from app import logs
from app.services.clients import client_address
from app.services.wiring import Services

access_log = logging.getLogger("meja.access")
error_log = logging.getLogger("meja.errors")
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
INTERNAL = "something went wrong on the server; try again"


class Access:
    def __init__(self, app: Any, settings: Any) -> None:
        self.app, self.settings = app, settings

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = logs.request_id_for(_header(scope, b"x-request-id"))
        with logs.request_context(rid):
            if kind == "websocket":
                await self.app(scope, receive, send)
            else:
                await self._http(scope, receive, send, rid)

    async def _http(self, scope, receive, send, rid: str) -> None:
        status = 500
        started = False

        async def answer(message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                status, started = message["status"], True
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        start = time.perf_counter()
        try:
            await self.app(scope, receive, answer)
        except Exception:
            error_log.exception(
                "unhandled error", extra={"method": scope["method"], "path": scope["path"]}
            )
            if started:
                raise
            if (live := _live(scope)) is not None:
                live.metrics.error("rest", "internal_error")
            await _internal_error(answer, rid)
        finally:
            self._done(scope, status, time.perf_counter() - start)

    def _done(self, scope, status: int, seconds: float) -> None:
        route = _route(scope)
        method = scope["method"]
        if (live := _live(scope)) is not None:
            live.metrics.http_requests.labels(method, route, str(status)).inc()
            live.metrics.http_seconds.labels(method, route).observe(seconds)
        level = logging.DEBUG if route in PROBES else logging.INFO
        if access_log.isEnabledFor(level):
            access_log.log(
                level,
                "request",
                extra={
                    "method": method,
                    "route": route,
                    "path": scope["path"],
                    "status": status,
                    "ms": round(seconds * 1000, 1),
                    "client": client_address(scope, self.settings.trusted_proxies),
                },
            )


def _live(scope) -> Services | None:
    """The app's services; None before its start-up (the lifespan) finished."""
    return getattr(scope["app"].state, "services", None)


def _route(scope) -> str:
    """The route template the router matched; ``static`` for the client's files, ``none``
    when nothing matched (a 404 outside the static files)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if path:
        return path
    return "static" if "endpoint" in scope else "none"


def _header(scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


async def _internal_error(send, rid: str) -> None:
    await send_json(send, 500, {"detail": INTERNAL, "code": "internal_error", "request_id": rid})


async def send_json(send, status: int, payload: dict[str, Any]) -> None:
    """An answer a middleware gives itself, before or instead of any route: the JSON error
    shape of every other answer, with its length."""
    body = orjson.dumps(payload)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
