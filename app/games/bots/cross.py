"""Domino Cross bot: sheds heavy tiles, keeps the numbers it holds many of.

It reads only the view. Every legal play is scored by the pips it gets rid of (pips left in
hand are what an opponent scores, C-9), a bonus for doubles (they fit only one number, so they
get stuck), and how many of the bot's remaining tiles the number it leaves open can take (so it
can follow on its own end). Draws and passes are forced, so they are the only choice when legal.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

PIP_WEIGHT = 1.0
DOUBLE_BONUS = 4.0
FOLLOW_WEIGHT = 2.0
KEEP_WEIGHT = 1.0


def _score(play: dict[str, Any], hand: list[list[int]], ends: dict[str, int]) -> float:
    a, b = play["tile"]
    rest = list(hand)
    rest.remove([a, b])
    counts = Counter(n for t in rest for n in set(t))
    score: float = PIP_WEIGHT * (a + b) + (DOUBLE_BONUS if a == b else 0.0)
    arm = play.get("arm")
    if arm is None:  # the spinner: the only legal move
        return score
    end = ends[arm]
    left_open = b if a == end else a
    score += FOLLOW_WEIGHT * counts[left_open]
    # the matched number leaves the hand; playing a number held by few keeps the plentiful ones
    score -= KEEP_WEIGHT * counts[end]
    return score


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal: list[dict[str, Any]] = view["legal"]
    plays = [a for a in legal if a["kind"] == "play"]
    if not plays:
        return legal[0]
    # every arm shows a number once the spinner is down (a play names no arm before)
    ends: dict[str, int] = {name: arm["end"] for name, arm in view["cross"]["arms"].items()}
    best = max(_score(p, view["hand"], ends) for p in plays)
    return rng.choice([p for p in plays if _score(p, view["hand"], ends) == best])
