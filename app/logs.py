"""Structured logs: one JSON object per line on stderr, for whatever collects container output.

Every line has ``ts``, ``level``, ``logger`` and ``msg``; anything passed with ``extra=`` becomes
a field. Lines written while a table is being worked on carry ``table`` (and ``v``, the version)
from :func:`table_context`, so one table's story can be filtered out of all the replicas' logs.

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
from collections.abc import Iterator
from typing import Any

import orjson

_TABLE: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "meja_table", default=None
)

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


@contextlib.contextmanager
def table_context(table: str, v: int | None = None) -> Iterator[None]:
    """Lines logged inside (in this task and tasks it starts) carry ``table`` and ``v``."""
    token = _TABLE.set({"table": table, "v": v})
    try:
        yield
    finally:
        _TABLE.reset(token)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
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
