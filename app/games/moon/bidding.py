"""Moon's bidding (docs/rules.md M-4, M-5).

Each player, clockwise from the round's first bidder, has exactly one turn to pass or bid. A bid
is 4, 5, 6, 7 or 21 (all seven tricks, worth more than 7: it may follow a 7) and must be higher
than every earlier bid. A 21 ends the bidding at once. When everybody has passed, the tiles are
dealt again and the first bidder moves one seat on (M-5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

BID_VALUES = (4, 5, 6, 7, 21)
SHOOT = 21


@dataclasses.dataclass(frozen=True)
class Bid:
    """One turn of the bidding: ``value`` is None for a pass."""

    seat: int
    value: int | None


def high_bid(bids: Sequence[Bid]) -> Bid | None:
    """The highest bid so far (bids only ever rise, so it is the last one made)."""
    made = [b for b in bids if b.value is not None]
    return made[-1] if made else None


def high_value(bids: Sequence[Bid]) -> int:
    """The highest bid so far; 0 before any."""
    return max((b.value for b in bids if b.value is not None), default=0)


def legal_values(bids: Sequence[Bid]) -> tuple[int, ...]:
    """The bids allowed now: every value above the highest so far."""
    floor = high_value(bids)
    return tuple(v for v in BID_VALUES if v > floor)


def bidder_to_act(first: int, bids: Sequence[Bid], n: int) -> int:
    return (first + len(bids)) % n


def is_over(bids: Sequence[Bid], n: int) -> bool:
    """Everyone has had their turn, or someone bid 21."""
    return len(bids) == n or any(b.value == SHOOT for b in bids)


def contract(bids: Sequence[Bid], n: int) -> Bid | None:
    """Who won the bidding and for what, once it is over; None when all passed (M-5)."""
    if not is_over(bids, n):
        raise ValueError("the bidding is not over")
    return high_bid(bids)
