"""Bots: one module per game (``bots/<game>.py``) with ``choose(view, rng) -> dict``.

A bot sees only ``ruleset.view(state, seat)`` — never the state — and returns one of the
actions listed in ``view["legal"]`` (their JSON form), so a bot can never cheat or play an
illegal move. The package replaces the first design's single ``bots.py`` (docs/design.md "Where
the code differs from the first design"): four bots in one module would pass the ~400-line
limit.

Every bot is imported here, with the package: a bot that is missing or does not import fails
at start-up, loudly, instead of leaving its game's seats to random play.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import cross, gaple, mexican_train, moon

Bot = Callable[[dict[str, Any], random.Random], dict[str, Any]]
BOTS: dict[str, Bot] = {
    "gaple": gaple.choose,
    "moon": moon.choose,
    "cross": cross.choose,
    "mexican_train": mexican_train.choose,
}


def choose(game: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The bot's action for the seat whose view this is (it must be that seat's turn)."""
    if not view["legal"]:
        raise ValueError("the bot was asked to act with no legal action")
    try:
        bot = BOTS[game]
    except KeyError:
        raise LookupError(f"no bot plays {game!r}") from None
    return bot(view, rng)


def random_legal(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The baseline the bots are measured against: a uniformly random legal action."""
    return rng.choice(view["legal"])
