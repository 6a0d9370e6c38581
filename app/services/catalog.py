"""The games this server plays, as the lobby and the client see them (``GET /api/games``).

Each ruleset's descriptor (app/games/base.py) says its seats and options; the table adds its own
option, the turn clock (docs/rules.md O-3), so the client builds its whole create form from this.
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
            }
        ],
    }
