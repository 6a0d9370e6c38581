"""Structured logs: one JSON object per line on stderr, for whatever collects container output.

Every line has ``ts``, ``level``, ``logger`` and ``msg``; anything passed with ``extra=`` becomes
a field. Lines written while a table is being worked on carry ``table`` (and ``v``, the version)
from :func:`table_context`, so one table's story can be filtered out of all the replicas' logs.
Lines written while a request (or a socket) is served carry its ``request_id`` (bound by the
access middleware, app/api/access.py, with :func:`request_context`): the id is also in the
answer's ``X-Request-ID`` header and in every error body, so a player's report of an error
leads to its lines. A client's own ``X-Request-ID`` is kept when it looks like an id
(:func:`request_id_for`), so a proxy's id follows the request through.

Logs never hold secrets or hidden tiles: the game line (``metrics.Metrics.record_change``) names
action kinds and event types, never their contents, and every line goes through
:func:`redact`, which masks tokens in URLs (uvicorn logs the socket path with ``?token=``),
``Bearer`` headers and passwords inside database / Redis URLs.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import orjson

_TABLE: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "meja_table", default=None
)

_REQUEST: contextvars.ContextVar[str | None] = contextvars.ContextVar("meja_request", default=None)
# An id another hop made: letters, digits and . _ : - (UUIDs, nginx's $request_id, trace ids).
_ID = re.compile(r"[A-Za-z0-9._:-]{8,64}")

_SECRETS = (
    (
        re.compile(r"(?i)\b(token|access_token|ticket|password|secret|key)=([^&\s\"'\]]+)"),
        r"\1=[redacted]",
    ),
    (re.compile(r"(?i)\bbearer\s+[\w.~+/=-]+"), "Bearer [redacted]"),
    (re.compile(r"(\w+://[^:/@\s]*):([^@\s]+)@"), r"\1:[redacted]@"),  # scheme://user:pw@host
)
# Attributes every LogRecord has; the rest came from ``extra=`` and become fields.
# (uvicorn adds ``color_message``, the message with terminal colours: dropped.)
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}


def redact(text: str) -> str:
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class table_context:  # noqa: N801 - used as a function: ``with table_context(tid, v):``
    """Lines logged inside (in this task and tasks it starts) carry ``table`` and ``v``. A
    class, not a generator: every player's move enters one (bench/README.md)."""

    __slots__ = ("_bound", "_token")

    def __init__(self, table: str, v: int | None = None):
        self._bound = {"table": table, "v": v}

    def __enter__(self) -> None:
        self._token = _TABLE.set(self._bound)

    def __exit__(self, *exc: object) -> None:
        _TABLE.reset(self._token)


def request_id_for(incoming: str | None) -> str:
    """The request's id: the client's ``X-Request-ID`` when it looks like an id (8-64 of
    letters, digits, ``._:-``), else a fresh one. Anything else could forge log lines or
    carry a secret into them."""
    if incoming and _ID.fullmatch(incoming):
        return incoming
    return uuid.uuid4().hex


def request_id() -> str | None:
    """The id of the request being served in this task, if any."""
    return _REQUEST.get()


@contextlib.contextmanager
def request_context(rid: str) -> Iterator[None]:
    """Lines logged inside (in this task and tasks it starts) carry ``request_id``."""
    token = _REQUEST.set(rid)
    try:
        yield
    finally:
        _REQUEST.reset(token)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        rid = _REQUEST.get()
        if rid is not None:
            out["request_id"] = rid
        bound = _TABLE.get()
        if bound:
            out.update({k: v for k, v in bound.items() if v is not None})
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        return orjson.dumps(out, default=str).decode()


def setup(level: str = "info") -> None:
    """JSON lines on stderr for the root logger; uvicorn's loggers propagate to it (serve passes
    ``log_config=None`` so uvicorn does not install its own handlers)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
