"""The constrained types of the routes' fields: every text refuses control characters, every id,
page and number in a path or query has bounds in the OpenAPI document.

A value past its bounds is a 422 naming its field before any service sees it: Postgres refuses
a NUL in a string and a number beyond 64 bits, and Redis an offset beyond them, so unbounded
values used to reach them and come back as 500s.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from app.services import catalog

ID_MAX = 2**63 - 1  # the database's ids are 64-bit: a larger number names nothing
PAGE_MAX = 10_000  # with at most 200 a page, an offset far inside 64 bits
# Unicode's control characters (category Cc): C0, DEL and C1. Tabs and newlines included: no
# field of the API is more than one line.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Table and match ids in URLs: secrets.token_urlsafe's alphabet (app/services/table/seating.py and
# app/services/history.py make them; the older hex table ids fit it too).
PUBLIC_ID = r"^[A-Za-z0-9_-]{1,40}$"


def no_control(value: str) -> str:
    """422 ``control_character``: a NUL, a tab, a newline... in a text field."""
    if CONTROL.search(value):
        raise PydanticCustomError(
            "control_character", "control characters (NUL, tab, newline, ...) are not allowed"
        )
    return value


class _NoControlSchema:
    """Says it in the OpenAPI document too, as the pattern a client can check."""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        schema = handler(core_schema)
        schema.setdefault("pattern", r"^[^\x00-\x1f\x7f-\x9f]*$")
        return dict(schema)


Text = Annotated[str, AfterValidator(no_control), _NoControlSchema()]

PlayerId = Annotated[int, Path(ge=1, le=ID_MAX)]
TableId = Annotated[str, Path(pattern=PUBLIC_ID)]
MatchId = Annotated[str, Path(pattern=PUBLIC_ID)]
Seat = Annotated[int, Path(ge=0, le=catalog.most_seats() - 1)]
Page = Annotated[int, Query(ge=1, le=PAGE_MAX)]
