"""Errors the rules core raises.

Each carries a stable machine-readable ``code`` (what clients and tests switch on) and a human
``message`` (what a player reads). They subclass ValueError so plain callers can catch them too.
"""

from __future__ import annotations


class GameError(ValueError):
    code = "game_error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class IllegalAction(GameError):
    """The action is malformed, or not legal for this seat now (O-1)."""

    code = "illegal_action"


class NotYourTurn(GameError):
    code = "not_your_turn"


class GameOver(GameError):
    code = "game_over"


class BadOptions(GameError):
    """A table option is unknown or out of range; ``field`` names it."""

    code = "bad_options"

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
