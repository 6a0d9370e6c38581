"""How the table services refuse: one exception for REST and one error message for sockets."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused table request: HTTP ``status``, a stable ``code``, and the ``field`` for 422."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field


def not_found(tid: str) -> TableError:
    return TableError(404, "not_found", f"no table {tid}")


def closed(tid: str) -> TableError:
    return TableError(409, "table_closed", f"table {tid} is closed; pick another one")


def error_reply(cmd: str | None, code: str, message: str) -> dict[str, Any]:
    """The socket's ``error`` message (docs/design.md "The WebSocket protocol")."""
    return {"type": "error", "cmd": cmd, "code": code, "message": message}
