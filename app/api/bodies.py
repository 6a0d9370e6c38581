"""Request bodies: at most ``Settings.max_body_bytes``, read before any route parses them, and
parsed as strict JSON by orjson.

``BodyLimit`` (pure ASGI, inside the access middleware) answers 413 ``body_too_large`` to a
``Content-Length`` over the limit without reading a byte, and to a body sent in chunks as soon
as the chunks pass it; a body within the limit is handed on whole. A route therefore never sees
more than the limit, and parsing and validating that much takes well under a millisecond:
without it a 16 MB body held the event loop for some 12 s.

``JsonRoute`` is every router's route class: its request parses JSON with orjson, which
refuses what the standard library lets through (``NaN``, ``Infinity``, numbers that overflow
to infinity such as ``1e400``, lone surrogates) and nests no deeper than 1,024 levels. Its
``JSONDecodeError`` is the standard library's, so FastAPI answers it 422 ``json_invalid``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import Request, Response
from fastapi.routing import APIRoute

from app import logs

from .access import send_json

TOO_LARGE = "the request body is larger than {limit} bytes"


class BodyLimit:
    def __init__(self, app: Any, settings: Any) -> None:
        self.app, self.limit = app, settings.max_body_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(scope, send)
            return
        chunks, size = [], 0
        while (message := await receive())["type"] == "http.request":
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(scope, send)
                return
            if not message.get("more_body", False):
                message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                break
        pending = [message]  # the whole body, or the client's going away

        async def replay() -> dict[str, Any]:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope, send) -> None:
        live = getattr(scope["app"].state, "services", None)
        if live is not None:
            live.metrics.error("rest", "body_too_large")
        await send_json(
            send,
            413,
            {
                "detail": TOO_LARGE.format(limit=self.limit),
                "code": "body_too_large",
                "max": self.limit,
                "request_id": logs.request_id(),
            },
        )


def _content_length(scope) -> int | None:
    """The declared length; None when absent or not a number (the chunks are counted)."""
    for key, value in scope["headers"]:
        if key == b"content-length":
            return int(value) if value.isdigit() else None
    return None


class JsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = orjson.loads(await self.body())
        return self._json


class JsonRoute(APIRoute):
    """A route whose JSON body is parsed by orjson (``JsonRequest``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(JsonRequest(request.scope, request.receive))

        return strict
