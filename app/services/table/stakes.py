"""What a seat at a chips table may hold: a buy-in's bounds follow the table's stake (docs/design.md
"Money"), so any stake can be played and no stack is too thin to last a few rounds.

Decision: the default is the most the table allows, capped by the player's wallet. At the
default stake of 10 that is the 1,000 a seat always got, and a bigger stack sits out fewer
rounds (G-11 caps every payment at the stack). A bot sits with the most the table allows.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.config import Settings


@dataclass(frozen=True)
class BuyInLimits:
    low: int
    default: int
    high: int

    def to_json(self) -> dict[str, int]:
        return {"min": self.low, "default": self.default, "max": self.high}


def buy_in_limits(stake: int, settings: Settings, wallet: int | None = None) -> BuyInLimits:
    """The bounds of a buy-in at ``stake``; ``wallet``: the player's balance, which caps the
    default (never below the minimum: a wallet that short cannot sit, whatever it names)."""
    low, high = stake * settings.buy_in_min_stakes, stake * settings.buy_in_max_stakes
    default = high if wallet is None else max(low, min(high, wallet))
    return BuyInLimits(low, default, high)
