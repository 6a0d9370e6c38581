"""Cross-site request forgery: a REST call that changes something (POST, PUT, PATCH, DELETE)
made by another site's page is refused with 403 ``bad_origin``.

The browser sends the HttpOnly cookie with such a request on its own (SameSite=Lax still lets
through a site's sibling subdomains and other ports of the same host), so a page elsewhere
could take a seat, and its buy-in, in the player's name. Browsers name the page's origin in
``Origin`` (older ones, or some privacy settings, only in ``Referer``); it must be one the
server trusts (``Settings.trusts_origin``: its own, or one of ``allowed_origins``).

Not checked: safe methods (they change nothing); requests with ``Authorization: Bearer`` (a
token the page must hold and send itself is no ambient credential); requests with neither
``Origin`` nor ``Referer`` (no browser sends a cross-site request without them). Calls without
a cookie are checked as well: ``POST /api/players`` from another site would replace the
player's cookie, and with it their guest and chips.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from app import logs

from .access import send_json

SAFE = {"GET", "HEAD", "OPTIONS", "TRACE"}
REFUSED = {
    "detail": "this request comes from a page of another site; it is "
    "refused (use the site itself, or a Bearer token)",
    "code": "bad_origin",
}


class OriginCheck:
    """Pure ASGI middleware (no per-request objects beyond the header scan)."""

    def __init__(self, app, settings) -> None:
        self.app, self.settings = app, settings

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE and not self._ok(scope):
            live = getattr(scope["app"].state, "services", None)
            if live is not None:
                live.metrics.error("rest", "bad_origin")
            await send_json(send, 403, {**REFUSED, "request_id": logs.request_id()})
            return
        await self.app(scope, receive, send)

    def _ok(self, scope) -> bool:
        headers = {
            k: v
            for k, v in scope["headers"]
            if k in (b"origin", b"referer", b"authorization", b"host")
        }
        if headers.get(b"authorization", b"")[:7].lower() == b"bearer ":
            return True
        origin = headers.get(b"origin", b"").decode("latin-1") or None
        if origin is None and b"referer" in headers:
            ref = urlsplit(headers[b"referer"].decode("latin-1"))
            origin = f"{ref.scheme}://{ref.netloc}" if ref.scheme and ref.netloc else "null"
        if origin is None:
            return True
        host = headers.get(b"host", b"").decode("latin-1") or None
        return self.settings.trusts_origin(origin, host)
