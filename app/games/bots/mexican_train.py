"""Mexican Train bot: builds a long run for its own train and sheds heavy tiles elsewhere.

It reads only the view. From its own train's open end it finds the longest line of its own
tiles (most tiles, then most pips): that is the *keeper*, played on its own train one tile at a
time, all of it on the first turn. Other plays go on the Mexican Train and on marked trains,
heaviest first, with tiles not needed by the keeper; a double is played early when the bot can
cover it itself (two tiles gone in one turn). Covering a double is forced by the rules. Its own
train gets priority while its marker is out, since others may spoil the keeper meanwhile.
"""

from __future__ import annotations

import random
from typing import Any

SEARCH_BUDGET = 3000  # nodes of the keeper search; big hands early in a round stay cheap
OFF_KEEPER_BONUS = 6.0
KEEPER_ELSEWHERE_PENALTY = 12.0
SPOIL_OWN_PENALTY = 3.0
MARKER_BONUS = 15.0
DOUBLE_BONUS = 12.0


def keeper(hand: list[tuple[int, int]], start: int) -> list[tuple[int, int]]:
    """The longest line of tiles from ``start`` (ties: the most pips), searched within a budget."""
    best: list[tuple[int, int]] = []
    best_key = (0, 0)
    budget = [SEARCH_BUDGET]
    path: list[tuple[int, int]] = []
    used: set[tuple[int, int]] = set()
    by_number: dict[int, list[tuple[int, int]]] = {}
    for t in hand:
        for x in set(t):
            by_number.setdefault(x, []).append(t)

    def walk(end: int, pips: int) -> None:
        nonlocal best, best_key
        if (len(path), pips) > best_key:
            best, best_key = list(path), (len(path), pips)
        for t in by_number.get(end, ()):
            if budget[0] <= 0:
                return
            if t in used:
                continue
            budget[0] -= 1
            used.add(t)
            path.append(t)
            walk(t[1] if t[0] == end else t[0], pips + t[0] + t[1])
            path.pop()
            used.discard(t)

    walk(start, 0)
    return best


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal: list[dict[str, Any]] = view["legal"]
    plays = [a for a in legal if a["kind"] == "play"]
    if not plays:
        return legal[0]
    if len(plays) == 1:
        return plays[0]  # never end a first-turn run early: every tile played is one less
    me = view["seat"]
    hand = [tuple(t) for t in view["hand"]]
    own = view["trains"][me]
    line = keeper(hand, own["open_end"])
    on_keeper = set(line)
    first_run = view["first_turn"][me] and all(p["train"] == me for p in plays)
    scored = []
    for p in plays:
        t = tuple(p["tile"])
        score = float(t[0] + t[1])
        if p["train"] == me:
            if line and t == line[0]:
                score += MARKER_BONUS if own["marker"] else 0.0
                score += 100.0 if first_run else 0.0
            else:
                score -= SPOIL_OWN_PENALTY * len(line)
        elif t in on_keeper:
            score -= KEEPER_ELSEWHERE_PENALTY
        else:
            score += OFF_KEEPER_BONUS
        if t[0] == t[1] and any(x != t and t[0] in x for x in hand):
            score += DOUBLE_BONUS
        scored.append((score, p))
    best = max(s for s, _ in scored)
    return rng.choice([p for s, p in scored if s == best])
