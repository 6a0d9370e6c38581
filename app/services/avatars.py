"""The players' avatars: a set drawn in the project (static/img/avatars/<id>.svg), one per
player, chosen on the profile page (docs/players.md "Your avatar").

Decisions:
- A player who never chose has one derived from their id (``default_for``), so every plate
  and board row shows a face from the first round, and the same one on every page and replica.
  Ids step through the set by 5 (coprime to its 12), so players who sign up one after another
  get different ones.
- The database keeps only a choice (``player.avatar``, NULL: the default). Bots have their own
  (``BOT``), which a player cannot choose.
- A seat keeps the avatar its player had when sitting down (the table document): a change on
  the profile shows at the next table, never rewriting a table under its other players.
"""

from __future__ import annotations

from typing import Any

AVATARS = (
    "cat",
    "owl",
    "fish",
    "turtle",
    "sun",
    "moon",
    "flower",
    "mountain",
    "boat",
    "coffee",
    "tree",
    "star",
)
BOT = "bot"


class UnknownAvatar(ValueError):
    code = "unknown_avatar"

    def __init__(self, avatar: object):
        super().__init__(f"no avatar {str(avatar)[:40]!r}; one of {', '.join(AVATARS)}")


def default_for(pid: Any) -> str:
    """The avatar of a player who never chose one; ``BOT`` for a bot's seat (its ``"bot:<n>"``
    id, or ``True``: a seat's ``bot`` flag)."""
    if type(pid) is not int:
        return BOT
    return AVATARS[(pid * 5) % len(AVATARS)]


def avatar_of(pid: Any, chosen: str | None) -> str:
    """The chosen avatar while it is one of the set, else the player's default."""
    return chosen if chosen in AVATARS else default_for(pid)


def check(avatar: object) -> str:
    """An avatar a player may choose; UnknownAvatar otherwise (422 ``unknown_avatar``)."""
    if not isinstance(avatar, str) or avatar not in AVATARS:
        raise UnknownAvatar(avatar)
    return avatar
