"""Moon bot: bids from the tricks its hand can expect with its best trump, and plays to win
tricks cheaply, drawing trumps when its side holds the contract.

It sees only the view: its hand, the bids, the trump, the current trick and the tiles played so
far (``tricks``). Every tile it has not seen (in other hands, the widow or the discard) is
*unknown*; a tile is a *sure winner* when no unknown tile could beat it in the trick.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..base import JSON
from ..moon import tricks as K
from ..moon.state import tile_set

Tile = tuple[int, int]
# Tricks a hand takes beyond its own cautious estimate: the partner's help with four players,
# the widow and loose tricks with three. Tuned by self-play (bench/bots_moon.py): 2.5 beat both
# lower and higher values with four and with three players.
EXTRA_TRICKS = 2.5


def _tiles(raw: Iterable[Sequence[int]]) -> list[Tile]:
    return [(a, b) for a, b in raw]


def _unknown(view: dict[str, Any], hand: list[Tile]) -> set[Tile]:
    played = [t for done in view["tricks"] for t in _tiles(done["tiles"])]
    seen = set(hand) | set(played) | {tuple(p["tile"]) for p in view["trick"]}
    if view.get("my_discard"):
        seen.add(tuple(view["my_discard"]["tile"]))
    return set(tile_set(view["players"])) - seen


def expected_tricks(hand: list[Tile], trump: K.Trump, unknown: set[Tile]) -> float:
    """A rough count of the tricks this hand takes with this trump: trumps with few unknown
    trumps above them, and side-suit doubles (the top of their suit) that may survive a ruff."""
    mine = sorted(
        (t for t in hand if K.is_trump(t, trump)),
        key=lambda t: K.rank(t, K.TRUMP, trump),
        reverse=True,
    )
    out_trumps = [t for t in unknown if K.is_trump(t, trump)]
    total = 0.0
    for i, t in enumerate(mine):
        above = sum(K.rank(u, K.TRUMP, trump) > K.rank(t, K.TRUMP, trump) for u in out_trumps)
        lower_mine = len(mine) - i - 1
        total += 1.0 if above == 0 else 0.7 if lower_mine >= above else 0.2
    ruff_risk = min(1.0, len(out_trumps) / 6)
    for t in hand:
        if K.is_trump(t, trump):
            continue
        suit = K.led_suit(t, trump)
        higher = [
            u
            for u in unknown
            if K.follows(u, suit, trump) and K.rank(u, suit, trump) > K.rank(t, suit, trump)
        ]
        if not higher:
            total += 0.9 - 0.4 * ruff_risk
        elif len(higher) == 1 and len(mine) >= 3:
            total += 0.3
    return total


def best_trump(hand: list[Tile], unknown: set[Tile]) -> tuple[K.Trump, float]:
    scored = [(expected_tricks(hand, t, unknown), i, t) for i, t in enumerate(K.TRUMPS)]
    est, _, trump = max(scored)
    return trump, est


def _choose_bid(view: dict[str, Any], hand: list[Tile], legal: list[JSON]) -> JSON:
    unknown = _unknown(view, hand)
    trump, est = best_trump(hand, unknown)
    est += EXTRA_TRICKS
    high = view["high_bid"]
    me = view["side_of"][view["seat"]]
    if high and view["side_of"][high["seat"]] == me and est < high["value"] + 2:
        return {"kind": "pass"}  # partner holds the contract: do not bid over them lightly
    holds_every_trump = trump != "none" and not any(K.is_trump(u, trump) for u in unknown)
    if holds_every_trump and all(K.is_trump(t, trump) for t in hand):
        return _pick(legal, "bid", 21) or {"kind": "pass"}
    bids = [a for a in legal if a["kind"] == "bid" and a["value"] <= 7 and a["value"] <= est]
    return min(bids, key=lambda a: a["value"]) if bids else {"kind": "pass"}


def _pick(legal: list[JSON], kind: str, value: Any) -> JSON | None:
    return next((a for a in legal if a["kind"] == kind and a.get("value") == value), None)


def _keep_value(t: Tile, trump: K.Trump) -> tuple[bool, bool, int, int]:
    """How much a tile is worth keeping: trumps, then doubles, then high tiles."""
    suit = K.led_suit(t, trump)
    return (K.is_trump(t, trump), t[0] == t[1], K.rank(t, suit, trump), t[1])


def _beats(t: Tile, best: Tile, suit: int | str, trump: K.Trump) -> bool:
    return K.strength(t, suit, trump) > K.strength(best, suit, trump)


def _sure(t: Tile, played: list[Tile], unknown: set[Tile], trump: K.Trump) -> bool:
    """No unknown tile could beat ``t`` in this trick (``played`` may be empty: t leads)."""
    trick = played + [t]
    suit = K.led_suit(trick[0], trump)
    best = trick[K.winning_index(trick, trump)]
    return best == t and not any(_beats(u, t, suit, trump) for u in unknown)


def _choose_play(view: dict[str, Any], hand: list[Tile], options: list[Tile]) -> Tile:
    trump, n = view["trump"], view["players"]
    unknown = _unknown(view, hand)
    played = [tuple(p["tile"]) for p in view["trick"]]
    low = min(options, key=lambda t: _keep_value(t, trump))
    me = view["side_of"][view["seat"]]
    if not played:
        ours = view["side_of"][view["bidder"]] == me
        trumps_out = any(K.is_trump(u, trump) for u in unknown)
        sure = [t for t in options if _sure(t, [], unknown, trump)]
        sure_trumps = [t for t in sure if K.is_trump(t, trump)]
        if ours and trumps_out and sure_trumps:
            return max(sure_trumps, key=lambda t: _keep_value(t, trump))  # draw trumps
        if sure:
            return max(sure, key=lambda t: _keep_value(t, trump))
        return low
    suit = K.led_suit(played[0], trump)
    lead = view["trick"][0]["seat"]
    i_best = K.winning_index(played, trump)
    best = played[i_best]
    partner_winning = view["side_of"][(lead + i_best) % n] == me
    last = len(played) == n - 1
    if partner_winning and (last or not any(_beats(u, best, suit, trump) for u in unknown)):
        return low
    winners = [t for t in options if _beats(t, best, suit, trump)]
    if not winners:
        return low
    cheapest = min(winners, key=lambda t: _keep_value(t, trump))
    if last:
        return cheapest
    sure = [t for t in winners if _sure(t, played, unknown, trump)]
    if sure:
        return min(sure, key=lambda t: _keep_value(t, trump))
    if partner_winning:
        return low
    return max(winners, key=lambda t: _keep_value(t, trump))


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = view["legal"]
    hand = _tiles(view["hand"])
    phase = view["phase"]
    if phase == "bidding":
        return _choose_bid(view, hand, legal)
    if phase == "trump":
        trump, _ = best_trump(hand, _unknown(view, hand))
        return {"kind": "trump", "suit": trump}
    if phase == "discard":
        tile = min(hand, key=lambda t: _keep_value(t, view["trump"]))
        return {"kind": "discard", "tile": list(tile)}
    options = [tuple(a["tile"]) for a in legal]
    return {"kind": "play", "tile": list(_choose_play(view, hand, options))}
