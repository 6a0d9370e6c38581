"""Find a ruleset by name. Each game module exposes ``RULESET``; a module that does not exist
yet is simply not available, so adding a game needs no change anywhere else."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import Any

from .base import Ruleset
from .errors import BadOptions

GAMES = ("gaple", "moon", "cross", "mexican_train")


def _module(name: str) -> str:
    return f"{__package__}.{name}"


@cache
def available() -> tuple[str, ...]:
    return tuple(g for g in GAMES if importlib.util.find_spec(_module(g)) is not None)


@cache
def get_ruleset(name: str) -> Ruleset[Any, Any]:
    if name not in available():
        raise BadOptions("game", f"unknown game {name!r} (available: {', '.join(available())})")
    rs: Ruleset[Any, Any] = importlib.import_module(_module(name)).RULESET
    return rs
