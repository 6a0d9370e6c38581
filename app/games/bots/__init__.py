"""Bots: one module per game (``bots/<game>.py``) with ``choose(view, rng) -> dict``.

A bot sees only ``ruleset.view(state, seat)`` — never the state — and returns one of the
actions listed in ``view["legal"]`` (their JSON form), so a bot can never cheat or play an
illegal move. The package replaces DESIGN.md's single ``bots.py``: four bots in one module
would pass the ~400-line limit.
"""

from __future__ import annotations

import importlib
import random
from functools import cache
from typing import Any


@cache
def _bot(game: str):
    return importlib.import_module(f"{__name__}.{game}").choose


def choose(game: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The bot's action for the seat whose view this is (it must be that seat's turn)."""
    if not view["legal"]:
        raise ValueError("the bot was asked to act with no legal action")
    return _bot(game)(view, rng)


def random_legal(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The baseline the bots are measured against: a uniformly random legal action."""
    return rng.choice(view["legal"])
