"""Domino tiles, sets, pips and dealing: the one place tile logic lives.

A tile is a tuple ``(low, high)`` with ``low <= high`` — the smaller number written first
(docs/rules.md "Common terms"). On the wire a tile is the JSON list ``[low, high]``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .errors import IllegalAction

Tile = tuple[int, int]
Hand = tuple[Tile, ...]


def tile(a: int, b: int) -> Tile:
    return (a, b) if a <= b else (b, a)


def full_set(top: int) -> tuple[Tile, ...]:
    """All tiles from [0|0] to [top|top], in a fixed order."""
    return tuple((a, b) for a in range(top + 1) for b in range(a, top + 1))


DOUBLE_SIX = full_set(6)
DOUBLE_TWELVE = full_set(12)


def is_double(t: Tile) -> bool:
    return t[0] == t[1]


def pips(t: Tile) -> int:
    return t[0] + t[1]


def hand_pips(hand: Iterable[Tile]) -> int:
    return sum(a + b for a, b in hand)


def has_number(t: Tile, n: int) -> bool:
    return t[0] == n or t[1] == n


def other_end(t: Tile, n: int) -> int:
    """The number left open after matching ``n`` with tile ``t`` (t must contain n)."""
    return t[1] if t[0] == n else t[0]


def sort_hand(hand: Iterable[Tile]) -> Hand:
    return tuple(sorted(hand))


def remove(hand: Hand, t: Tile) -> Hand:
    """The hand without one copy of ``t`` (which must be in it)."""
    i = hand.index(t)
    return hand[:i] + hand[i + 1 :]


def shuffled(tiles: Sequence[Tile], rng: random.Random) -> list[Tile]:
    out = list(tiles)
    rng.shuffle(out)
    return out


def deal(
    tiles: Sequence[Tile], counts: Sequence[int], rng: random.Random
) -> tuple[tuple[Hand, ...], tuple[Tile, ...]]:
    """Shuffle and deal ``counts[i]`` tiles to seat i; returns (sorted hands, the rest in order)."""
    pool = shuffled(tiles, rng)
    hands, at = [], 0
    for c in counts:
        hands.append(sort_hand(pool[at : at + c]))
        at += c
    return tuple(hands), tuple(pool[at:])


def deal_exact(
    tiles: Sequence[Tile],
    hands: Sequence[Sequence[Sequence[int]]],
    n_seats: int,
    rng: random.Random,
    stock: Sequence[Sequence[int]] | None = None,
) -> tuple[tuple[Hand, ...], tuple[Tile, ...]]:
    """Use the given hands (tests, replays); the undealt tiles are shuffled by ``rng``.

    ``stock`` fixes the front of the undealt tiles (the boneyard, top first); the others follow
    shuffled. Raises ValueError when a tile is outside the set or named twice.
    """
    if len(hands) != n_seats:
        raise ValueError(f"hands: expected {n_seats} hands, got {len(hands)}")
    valid = set(tiles)
    seen: set[Tile] = set()
    out = []
    for h in hands:
        hand = []
        for raw in h:
            t = tile(*raw)
            if t not in valid or t in seen:
                raise ValueError(f"hands: tile {list(t)} is not in the set or dealt twice")
            seen.add(t)
            hand.append(t)
        out.append(sort_hand(hand))
    front = []
    for raw in stock or ():
        t = tile(*raw)
        if t not in valid or t in seen:
            raise ValueError(f"stock: tile {list(t)} is not in the set or named twice")
        seen.add(t)
        front.append(t)
    rest = shuffled([t for t in tiles if t not in seen], rng)
    return tuple(out), tuple(front + rest)


def parse_tile(raw: object, top: int) -> Tile:
    """A tile from its JSON form ``[a, b]``; IllegalAction when malformed or off the set."""
    if (
        not isinstance(raw, (list, tuple))
        or len(raw) != 2
        or not all(type(x) is int and 0 <= x <= top for x in raw)
    ):
        raise IllegalAction(f"a tile is a pair of numbers 0..{top}, like [3, 5]")
    return tile(raw[0], raw[1])


def to_json(t: Tile) -> list[int]:
    return [t[0], t[1]]


def hand_json(hand: Iterable[Tile]) -> list[list[int]]:
    return [[a, b] for a, b in hand]
