"""Mexican Train data: the actions, the round state, and the deal with the engine (T-1 .. T-4).

The trains are kept as one tuple: index ``s`` is seat s's personal train, index ``n`` the
Mexican Train. Each train is a tuple of oriented pieces ``(from, to)``: ``from`` matches the
previous open end (the engine number for the first piece) and ``to`` is the new open end.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from .. import tiles as T
from ..base import JSON, Action, Deal, RawTile
from ..rng import rng_for

TOP = 12  # double-twelve set (T-1)
MEXICAN = "mexican"

Tile = tuple[int, int]


def hand_size(n_seats: int) -> int:
    """T-1 [decided]: 15 tiles with 2-4 players, 12 with 5-6, 10 with 7-8."""
    return 15 if n_seats <= 4 else 12 if n_seats <= 6 else 10


def engine_number(round_no: int) -> int:
    """T-2: round 1 is played from [12|12], round 2 from [11|11], ... round 13 from [0|0]."""
    return TOP - (round_no - 1)


@dataclasses.dataclass(frozen=True)
class Play(Action):
    kind = "play"
    tile: Tile
    train: int | str  # a seat, or "mexican"


@dataclasses.dataclass(frozen=True)
class Draw(Action):
    kind = "draw"


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    """Put out one's marker and end the turn (T-7, T-8, T-9)."""

    kind = "pass"


@dataclasses.dataclass(frozen=True)
class EndTurn(Action):
    """Stop a first-turn run (T-7)."""

    kind = "end_turn"


DRAW, PASS, END_TURN = Draw(), Pass(), EndTurn()
TrainAction = Play | Draw | Pass | EndTurn


@dataclasses.dataclass(frozen=True)
class State:
    options: dict[str, Any]
    seed: int
    round_no: int
    engine_by: int  # the seat that placed this round's engine in the hub (T-3)
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]  # top first
    trains: tuple[tuple[Tile, ...], ...]  # seats' trains, then the Mexican Train
    markers: tuple[bool, ...]
    turn: int | None
    first_turn: tuple[bool, ...]  # seats that have not yet finished their first turn (T-7, T-10)
    run: bool  # the player to act may still play a first-turn run on their own train (T-7)
    played: int  # tiles the player to act has played this turn
    extra: bool  # the player to act has the extra play of a double (T-9)
    drawn: Tile | None  # the tile just drawn: the only one that may be played now (T-8)
    uncovered: tuple[int, ...]  # trains ending in a double still to be covered, oldest first
    passes: int  # passes in a row with the boneyard empty and no new marker (T-11)
    totals: tuple[int, ...]
    rounds_log: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def engine(self) -> int:
        return engine_number(self.round_no)

    def end(self, k: int) -> int:
        """The open end of train ``k``: the engine number until the train is started (T-4)."""
        train = self.trains[k]
        return train[-1][1] if train else self.engine

    def train_name(self, k: int) -> int | str:
        return MEXICAN if k == self.n else k


def board_view(state: State) -> dict[str, Any]:
    """The public board (O-2): the hub, every train and the Mexican Train. The views show it,
    and a round's ``round_over`` event keeps its last one for the pause (O-6)."""
    n = state.n
    return {
        "hub": {"tile": [state.engine, state.engine], "placed_by": state.engine_by},
        "trains": [
            {
                "seat": k,
                "tiles": [list(p) for p in state.trains[k]],
                "open_end": state.end(k),
                "marker": state.markers[k],
                "started": bool(state.trains[k]),
            }
            for k in range(n)
        ],
        "mexican": {
            "tiles": [list(p) for p in state.trains[n]],
            "open_end": state.end(n),
            "beside_hub": n == 8,
        },
    }


def deal_round(
    options: JSON,
    n: int,
    seed: int,
    round_no: int,
    totals: Sequence[int],
    rounds_log: Sequence[JSON],
    hands: Deal | None = None,
    stock: Sequence[RawTile] | None = None,
) -> tuple[State, tuple[JSON, ...]]:
    """Deal a round and place its engine (T-1, T-3); the state is ready for the first turn.

    Nobody decides anything here: the holder of the engine places it, or, when nobody holds
    it, the players draw for it clockwise from seat (round - 1) mod n. The drawn tiles other
    than the engine stay in the drawers' hands. Events report every step (draws name no tile).
    """
    rng = rng_for(seed, "deal", round_no)
    if hands is None:
        dealt, rest = T.deal(T.DOUBLE_TWELVE, [hand_size(n)] * n, rng)
    else:
        dealt, rest = T.deal_exact(T.DOUBLE_TWELVE, hands, n, rng, stock)
    number = engine_number(round_no)
    engine = (number, number)
    held = list(dealt)
    bone = list(rest)
    events: list[JSON] = [
        {
            "type": "dealt",
            "round": round_no,
            "engine": number,
            "hand_counts": [len(h) for h in held],
            "boneyard": len(bone),
        }
    ]
    holder = next((s for s in range(n) if engine in held[s]), None)
    drawn_for = holder is None
    if holder is not None:
        held[holder] = T.remove(held[holder], engine)
    seat = (round_no - 1) % n
    while holder is None:
        drawn = bone.pop(0)
        events.append({"type": "drew", "seat": seat, "for": "engine"})
        if drawn == engine:
            holder = seat
        else:
            held[seat] = T.sort_hand(held[seat] + (drawn,))
            seat = (seat + 1) % n
    events.append(
        {"type": "engine_placed", "seat": holder, "tile": [number, number], "drawn": drawn_for}
    )
    first = (holder + 1) % n
    state = State(
        options=options,
        seed=seed,
        round_no=round_no,
        engine_by=holder,
        hands=tuple(held),
        boneyard=tuple(bone),
        trains=((),) * (n + 1),
        markers=(False,) * n,
        turn=first,
        first_turn=(True,) * n,
        run=options["first_turn_multi"],
        played=0,
        extra=False,
        drawn=None,
        uncovered=(),
        passes=0,
        totals=tuple(totals),
        rounds_log=tuple(rounds_log),
        result=None,
    )
    return state, tuple(events)
