"""The games this server plays, as the lobby and the client see them (``GET /api/games``).

Each ruleset's descriptor (app/games/base.py) says its seats and options; the table adds its own
options, the turn clock (docs/rules.md O-3) and, at chips tables only (``chips``), the start
countdown (O-5), so the client builds its whole create form from this. ``buy_in`` gives the
bounds of a buy-in in stakes (app/services/table/stakes.py), for the client's sit dialog.
"""

from __future__ import annotations

from typing import Any

from app.config import Settings
from app.games import registry


def games(settings: Settings) -> dict[str, Any]:
    return {
        "games": [registry.get_ruleset(name).descriptor.to_json() for name in registry.available()],
        "table_options": [
            {
                "key": "turn_seconds",
                "type": "int",
                "min": 1,
                "max": 600,
                "default": settings.turn_seconds,
                "label": "create.turn_seconds",
                "help": "create.turn_seconds.help",
            },
            {
                "key": "start_seconds",
                "type": "int",
                "min": 0,
                "max": 60,
                "default": settings.start_seconds,
                "label": "create.start_seconds",
                "help": "create.start_seconds.help",
                "chips": True,
            },
        ],
        "buy_in": {
            "min_stakes": settings.buy_in_min_stakes,
            "max_stakes": settings.buy_in_max_stakes,
        },
    }


def lowest_stake() -> int:
    """The smallest stake any game played for chips allows (its ``stake`` option's lower
    bound): a player with fewer chips than this can sit at no table (docs/players.md "Free
    chips")."""
    bounds = [
        option.lo
        for name in registry.available()
        if (descriptor := registry.get_ruleset(name).descriptor).chips
        for option in descriptor.options
        if option.key == "stake" and option.lo is not None
    ]
    return min(bounds, default=1)


def most_seats() -> int:
    """The most seats any game this server plays has (the bound of a seat number)."""
    return max(registry.get_ruleset(name).descriptor.max_seats for name in registry.available())
