"""Moon's suits, following and trick winners (docs/rules.md M-3, M-6, M-8, M-9).

A trump choice is what the bid winner names: a number 0..6, ``"doubles"`` or ``"none"``
(follow-me). A tile belongs either to the trump suit (``TRUMP``) or to number suits:

- number trump v: every tile with v is a trump and only a trump; ``[v|v]`` ranks highest, then
  the others by their other number;
- doubles trump: the seven doubles are the trump suit, ranked by their number, and belong to no
  number suit;
- otherwise a double belongs to its number's suit only, a non-double to both its numbers' suits.

A non-trump tile that is led asks for its higher number (tiles are ``(low, high)``, so ``t[1]``;
a double: its number), and it is the highest tile of that suit when it is a double. Within a
number suit s the double ranks highest, then the others by their number other than s.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .. import tiles as T

Tile = tuple[int, int]
Trump = int | str
TRUMP = "trump"
NUMBER_TRUMPS = tuple(range(7))
TRUMPS: tuple[Trump, ...] = (*NUMBER_TRUMPS, "doubles", "none")
TOP = 7  # the rank of the double, above every other number


def is_trump(t: Tile, trump: Trump) -> bool:
    if isinstance(trump, int):  # a number trump
        return t[0] == trump or t[1] == trump
    return trump == "doubles" and t[0] == t[1]


def suits_of(t: Tile, trump: Trump) -> frozenset[int | str]:
    """Every suit the tile belongs to under this trump (M-3, M-6)."""
    if is_trump(t, trump):
        return frozenset((TRUMP,))
    return frozenset(t)


def led_suit(t: Tile, trump: Trump) -> int | str:
    """The suit a led tile asks for (M-8): the trump suit, or the tile's higher number."""
    return TRUMP if is_trump(t, trump) else t[1]


def follows(t: Tile, suit: int | str, trump: Trump) -> bool:
    """Whether the tile is of the suit led (a trump never follows a number suit)."""
    if isinstance(suit, str):  # TRUMP
        return is_trump(t, trump)
    return not is_trump(t, trump) and T.has_number(t, suit)


def may_follow(hand: Sequence[Tile], led: Tile, trump: Trump) -> tuple[Tile, ...]:
    """The tiles of the hand that may be played to a trick led with ``led`` (M-8): the tiles of
    the suit led if there are any, else every tile (trumping is never compulsory)."""
    members = _suit_members(led_suit(led, trump), trump)
    same = tuple(t for t in hand if t in members)
    return same or tuple(hand)


@cache
def _suit_members(suit: int | str, trump: Trump) -> frozenset[Tile]:
    """Every tile that ``follows`` the suit under this trump (a move lists them from a hand)."""
    return frozenset(t for t in T.DOUBLE_SIX if follows(t, suit, trump))


def rank(t: Tile, suit: int | str, trump: Trump) -> int:
    """Strength of a tile inside a suit it belongs to: the double is TOP, the others their other
    number; a doubles-trump double its number."""
    number = trump if suit == TRUMP else suit
    if not isinstance(number, int):  # the doubles trump, ranked by their number
        return t[0]
    return TOP if t[0] == t[1] else T.other_end(t, number)


def strength(t: Tile, suit: int | str, trump: Trump) -> tuple[int, int]:
    """Sort key of a tile played to a trick whose suit is ``suit``: trumps beat the suit led,
    which beats everything else (tiles that neither follow nor trump can never win)."""
    if is_trump(t, trump):
        return (2, rank(t, TRUMP, trump))
    if follows(t, suit, trump):
        return (1, rank(t, suit, trump))
    return (0, 0)


def winning_index(played: Sequence[Tile], trump: Trump) -> int:
    """Index of the tile that wins (or is winning) a trick, the first one being the lead (M-9)."""
    suit = led_suit(played[0], trump)
    return max(range(len(played)), key=lambda i: strength(played[i], suit, trump))
