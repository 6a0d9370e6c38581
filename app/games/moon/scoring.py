"""Moon's scoring (docs/rules.md M-10, M-11), as pure functions over per-side figures.

A *side* is a team of partners with four players (seats 0 and 2 are side 0, 1 and 3 side 1) or a
single player with three (M-13). Scores, tricks and deltas are tuples indexed by side.

Decided: a made 21 wins the match at once *instead* of scoring tricks, so the scores are left
as they were (the winner may even be behind on points); the round result says ``"moon": true``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .bidding import SHOOT

TARGET = 21
TRICKS = 7


@dataclasses.dataclass(frozen=True)
class RoundScore:
    scores: tuple[int, ...]
    deltas: tuple[int, ...]
    made: bool
    moon: bool  # a made 21: the bidding side wins the match at once


def side_of(seat: int, n_seats: int) -> int:
    return seat % 2 if n_seats == 4 else seat


def n_sides(n_seats: int) -> int:
    return 2 if n_seats == 4 else n_seats


def made_bid(bid: int, tricks_won: int) -> bool:
    """M-10: a bid of 4..7 needs that many tricks; 21 needs all seven."""
    return tricks_won >= (TRICKS if bid == SHOOT else bid)


def score_round(
    scores: Sequence[int], bidder_side: int, bid: int, tricks: Sequence[int]
) -> RoundScore:
    """M-10: the bidding side scores its tricks when it makes its bid and loses the bid when it
    fails (21 for a failed 21; scores may go negative); every other side scores its tricks."""
    if sum(tricks) != TRICKS:
        raise ValueError(f"a round has {TRICKS} tricks, not {sum(tricks)}")
    made = made_bid(bid, tricks[bidder_side])
    if made and bid == SHOOT:
        return RoundScore(tuple(scores), (0,) * len(scores), True, True)
    deltas = tuple(
        (tricks[s] if made else -bid) if s == bidder_side else tricks[s] for s in range(len(scores))
    )
    new = tuple(a + d for a, d in zip(scores, deltas, strict=True))
    return RoundScore(new, deltas, made, False)


def match_winner(scores: Sequence[int]) -> int | None:
    """M-11 after a round: the side with 21 or more that is strictly ahead of every other side;
    None (play another round) when nobody has 21 or the leaders at 21+ are tied."""
    top = max(scores)
    if top < TARGET or list(scores).count(top) > 1:
        return None
    return list(scores).index(top)
