"""Moon's actions, state and deal (docs/rules.md M-1, M-2, M-13).

One state is a whole match: the round's deal, the bidding, the contract and trump, the tricks, and
the scores carried from round to round. Each deal comes from ``rng_for(seed, "deal", round,
redeal)``, so a match replays from (options, seed, actions); ``hands=`` fixes the first deal only.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from .. import tiles as T
from ..base import Action, Deal, RawTile
from ..rng import rng_for
from .bidding import Bid
from .tricks import Trump

Tile = tuple[int, int]
Hand = tuple[Tile, ...]
HAND_SIZE = 7
# M-13: the three-handed set drops the blanks except [0|0], leaving 22 tiles (one for the widow).
THREE_HANDED_SET = tuple(t for t in T.DOUBLE_SIX if 0 not in t or t == (0, 0))


class Phase(enum.Enum):
    BIDDING = "bidding"
    TRUMP = "trump"
    DISCARD = "discard"  # three players: the bid winner has taken the widow and discards one
    PLAY = "play"
    OVER = "over"


@dataclasses.dataclass(frozen=True)
class BidAction(Action):
    kind = "bid"
    value: int


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    kind = "pass"


@dataclasses.dataclass(frozen=True)
class NameTrump(Action):
    kind = "trump"
    suit: Trump


@dataclasses.dataclass(frozen=True)
class Discard(Action):
    kind = "discard"
    tile: Tile


@dataclasses.dataclass(frozen=True)
class Play(Action):
    kind = "play"
    tile: Tile


PASS = Pass()


@dataclasses.dataclass(frozen=True)
class Trick:
    """Tiles in the order played, the first by ``leader``; ``winner`` once complete."""

    leader: int
    tiles: tuple[Tile, ...]
    winner: int | None

    @property
    def taker(self) -> int:
        """The seat that won this completed trick."""
        assert self.winner is not None, "the trick is not complete"
        return self.winner


@dataclasses.dataclass(frozen=True)
class State:
    options: dict[str, Any]
    seed: int
    phase: Phase
    round_no: int  # 1-based; a redeal after all passed stays in the same round
    redeal_no: int
    first_bidder: int
    hands: tuple[Hand, ...]
    widow: tuple[Tile, ...]  # three players: the face-down tile until the bid winner takes it
    discard: tuple[Tile, ...]  # three players: the bid winner's discard, face down
    bids: tuple[Bid, ...]
    bidder: int | None
    contract: int | None
    trump: Trump | None
    trick: Trick | None  # the trick being played
    tricks: tuple[Trick, ...]  # this round's completed tricks
    scores: tuple[int, ...]  # per side: team (4 players) or player (3 players)
    tally: dict[str, int]  # match statistics: rounds, redeals, made, failed, contract_<v>
    last_round: dict[str, Any] | None  # the previous round's result, without tiles
    result: dict[str, Any] | None

    @property
    def n(self) -> int:
        return len(self.hands)

    # The phase decides which optional fields are set; these read them where it guarantees them
    # (an AssertionError is a bug in the ruleset, never a player's bad move).
    @property
    def current_trick(self) -> Trick:
        """The trick being played (play phase)."""
        assert self.trick is not None, f"no trick in the {self.phase.value} phase"
        return self.trick

    @property
    def named_trump(self) -> Trump:
        """The trump the bid winner named (from the discard or play phase on)."""
        assert self.trump is not None, f"no trump in the {self.phase.value} phase"
        return self.trump

    @property
    def declarer(self) -> tuple[int, int]:
        """The bid winner and the contract (from the trump phase on)."""
        assert self.bidder is not None and self.contract is not None, "no contract yet"
        return self.bidder, self.contract


def tile_set(n_seats: int) -> tuple[Tile, ...]:
    return T.DOUBLE_SIX if n_seats == 4 else THREE_HANDED_SET


def deal(
    seed: int,
    n_seats: int,
    round_no: int,
    redeal_no: int,
    hands: Deal | None = None,
    stock: Sequence[RawTile] | None = None,
) -> tuple[tuple[Hand, ...], tuple[Tile, ...]]:
    """(hands, widow) of one deal: all 28 tiles with four players (M-2), 7 each and a one-tile
    widow with three (M-13). ``hands``/``stock`` give an exact deal (ValueError when invalid)."""
    tiles = tile_set(n_seats)
    rng = rng_for(seed, "deal", round_no, redeal_no)
    if hands is None:
        return T.deal(tiles, [HAND_SIZE] * n_seats, rng)
    if any(len(h) != HAND_SIZE for h in hands):
        raise ValueError(f"hands: every hand has {HAND_SIZE} tiles")
    return T.deal_exact(tiles, hands, n_seats, rng, stock=stock)
