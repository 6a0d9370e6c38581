"""REST fuzzing over the whole OpenAPI document (schemathesis) against a real server: every
operation, with data that fits its schema and data that does not, signed in as an operator
(the session cookie and the Origin the CSRF check wants, app/api/origin.py), so the admin
routes are reached too. No answer may be a 5xx.

Bounded in time: ``EXAMPLES`` cases per operation and generation mode, derandomized so a
failure is the same on every run (about a minute on 2 cores). The rate limits are off, so the
cases reach the routes instead of 429s; logout runs last, as it ends the session.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.api.test_admin import operator
from tests.conftest import NO_LIMITS

EXAMPLES = 40
FAST_HASHES = {"password_time_cost": 1, "password_memory_kib": 8192}


def fuzz(spec: dict, url: str, headers: dict, cookies: dict) -> list[str]:
    """Every operation's cases, sent; the ones answered with a 5xx, described."""
    for ops in spec["paths"].values():  # always our session: no generated credentials
        for op in ops.values():
            op.pop("security", None)
    schema = schemathesis.openapi.from_dict(spec)
    operations = [result.ok() for result in schema.get_all_operations()]
    operations.sort(key=lambda op: (op.method.upper(), op.path) == ("DELETE", "/api/session"))
    failures: list[str] = []
    for op in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(
                max_examples=EXAMPLES,
                derandomize=True,
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=op.as_strategy(generation_mode=mode))
            def send(case: Any) -> None:
                r = case.call(base_url=url, headers=headers, cookies=cookies, timeout=30)
                if r.status_code >= 500:
                    failures.append(f"{r.status_code} {case.as_curl_command()}\n{r.text[:300]}")

            try:
                send()
            except Unsatisfiable:  # nothing in this operation can be made invalid
                assert mode is GenerationMode.NEGATIVE, op
    return failures


async def test_no_operation_answers_5xx(live_server):
    srv = await live_server(**FAST_HASHES, **NO_LIMITS)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        auth = await operator(srv, http, "ops.fuzz")
    cookies = {srv.settings.cookie_name: auth["Authorization"].removeprefix("Bearer ")}
    spec = srv.app.openapi()
    failures = await asyncio.to_thread(fuzz, spec, srv.url, {"Origin": srv.url}, cookies)
    assert not failures, "\n\n".join(failures[:10])
