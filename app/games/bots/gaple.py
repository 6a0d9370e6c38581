"""Gaple bot: plays from its own view only.

Why these weights: a Lewat is paid to the player *before* the one who cannot play, so leaving
ends that the next players are unlikely to hold earns chips; heavy tiles cost the most at a
Dead-End or on a bet table; keeping tiles that still fit the ends avoids paying Lewat itself.
"""

from __future__ import annotations

import random
from typing import Any

from .. import tiles as T


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal: list[dict[str, Any]] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    hand = [T.tile(*t) for t in view["hand"]]
    seen = hand + [T.tile(*p) for p in view["line"]]
    ends = view["ends"]
    best, best_score = legal[0], float("-inf")
    for action in legal:
        score = _score(action, hand, seen, ends) + rng.random() * 0.01
        if score > best_score:
            best, best_score = action, score
    return best


def _new_ends(tile: T.Tile, end: str, ends: dict[str, int] | None) -> tuple[int, int]:
    if ends is None:
        return tile
    if end == "left":
        return T.other_end(tile, ends["left"]), ends["right"]
    return ends["left"], T.other_end(tile, ends["right"])


def _score(
    action: dict[str, Any], hand: list[T.Tile], seen: list[T.Tile], ends: dict[str, int] | None
) -> float:
    tile = T.tile(*action["tile"])
    rest = T.remove(tuple(hand), tile)
    if not rest:
        return 1000.0
    new = _new_ends(tile, action["end"], ends)
    # tiles with each end number that opponents might still hold (7 per number in the set)
    unseen = [7 - sum(T.has_number(t, v) for t in seen if t != tile) - 1 for v in new]
    blocking = sum(max(0, 3 - u) for u in unseen)
    follow = sum(any(T.has_number(t, v) for t in rest) for v in new)
    return 0.6 * T.pips(tile) + 2.5 * T.is_double(tile) + 3.0 * follow + 2.0 * blocking
