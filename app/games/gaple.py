"""Gaple: the Indonesian block game with Lewat payments, Dead-End and x1-x5 multipliers.

docs/rules.md section 1 (G-1 .. G-12). One state is one *round*: the table (the service) deals round
after round (G-12) and passes each round's starting stacks in the options, so chips stay exact
inside the pure core: Lewat payments (G-6) and the settlement (G-10) move chips between the
stacks held in the state, capped at what the payer has (G-11).

The line is kept as oriented pieces ``(left, right)``: the left end of the line is
``line[0][0]`` and the right end ``line[-1][1]``. After the first tile ``[a|b]`` the left end
shows a and the right end b.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import tiles as T
from .base import (
    JSON,
    Action,
    Deal,
    GameDescriptor,
    Option,
    Outcome,
    Payment,
    PaymentKind,
    RawTile,
    RoundResult,
    Ruleset,
    Step,
    action_fields,
    action_kind,
    hidden_from,
)
from .errors import BadOptions, IllegalAction
from .rng import rng_for

HAND_SIZE = 7
MULTIPLIERS = {"single": 1, "double": 2, "triple": 3, "quartet": 4, "quintet": 5}
MAX_STAKE = 10**9


@dataclasses.dataclass(frozen=True)
class Play(Action):
    kind = "play"
    tile: tuple[int, int]
    end: str


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    kind = "pass"


PASS = Pass()
# Every possible play, built once: legal_actions and parse_action hand out these objects, which
# keeps move generation and the legality check cheap on the hot path.
PLAYS = {(t, end): Play(t, end) for t in T.DOUBLE_SIX for end in ("left", "right")}
ON_LEFT = {t: PLAYS[t, "left"] for t in T.DOUBLE_SIX}
ON_RIGHT = {t: PLAYS[t, "right"] for t in T.DOUBLE_SIX}
PASS_ONLY = (PASS,)

# Inside the engine a hand is also kept as a bitmask (bit i = tile i of the double-six set, which
# is in sorted order), because listing, checking and applying moves run on every move and set
# arithmetic on one int is far cheaper than scanning tuples of tiles.
BIT = {t: 1 << i for i, t in enumerate(T.DOUBLE_SIX)}
SHOWING = tuple(sum(b for t, b in BIT.items() if v in t) for v in range(7))  # tiles with number v


def _mask(hand: Iterable[T.Tile]) -> int:
    return sum(map(BIT.__getitem__, hand))


def _fitting(v: int, on_end: dict[T.Tile, Play]) -> dict[int, tuple[Play, ...]]:
    """Every subset of the seven tiles showing ``v`` (as a mask) -> its plays on one end, in
    sorted tile order, so a hand's plays on an end showing v are one lookup of
    ``hand & SHOWING[v]``."""
    showing = [t for t in T.DOUBLE_SIX if v in t]
    table = {}
    for subset in range(1 << len(showing)):
        chosen = [t for i, t in enumerate(showing) if subset >> i & 1]
        table[_mask(chosen)] = tuple(on_end[t] for t in chosen)
    return table


FIT_LEFT = tuple(_fitting(v, ON_LEFT) for v in range(7))
FIT_RIGHT = tuple(_fitting(v, ON_RIGHT) for v in range(7))


@dataclasses.dataclass(frozen=True)
class State:
    options: dict[str, Any]
    seed: int
    hands: tuple[tuple[tuple[int, int], ...], ...]
    undealt: tuple[tuple[int, int], ...]
    line: tuple[tuple[int, int], ...]
    turn: int | None
    stacks: tuple[int, ...]
    payments: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None
    # Derived from ``hands`` (not dumped, not compared) for the hot path: each hand as a mask and
    # the union of all hands, kept up to date by every move instead of rebuilt from the tuples.
    # The leading underscore keeps them out of orjson's dump of the state too
    # (app/services/table/doc.py seal).
    _masks: tuple[int, ...] = dataclasses.field(init=False, repr=False, compare=False)
    _held: int = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Derive the masks (``load`` and exact deals); refuse hands a mask cannot hold."""
        try:
            masks = tuple([_mask(h) for h in self.hands])
        except KeyError as err:
            raise ValueError(f"state.hands: {err.args[0]} is not a double-six tile") from None
        held = sum(masks)
        if held.bit_count() != sum(len(h) for h in self.hands):
            raise ValueError("state.hands: a tile is held twice")
        object.__setattr__(self, "_masks", masks)
        object.__setattr__(self, "_held", held)

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def ends(self) -> tuple[int, int] | None:
        return (self.line[0][0], self.line[-1][1]) if self.line else None


def _successor(state: State) -> tuple[State, dict[str, Any]]:
    """The next state and its field dict for the caller to fill in. A copy without
    ``__init__``, keyword packing or field checks (``base.evolve``), as this runs on every
    move; callers set only existing fields."""
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    return new, fields


# ``Step(state, events, payments, rounds)`` without the named tuple's Python-level __new__ (one
# per move); every field is given, as tuple.__new__ knows no defaults.
_new_step = tuple.__new__


def _pay(
    stacks: list[int], payer: int, payee: int, due: int, kind: PaymentKind, pips: int | None = None
) -> Payment:
    """Move up to ``due`` chips from payer to payee, never below zero (G-11)."""
    amount = min(due, stacks[payer])
    stacks[payer] -= amount
    stacks[payee] += amount
    return Payment(kind, payer, payee, amount, due - amount, pips)


def multiplier(last: tuple[int, int], ends: tuple[int, int] | None) -> str:
    """G-9: the multiplier of a round won by playing ``last`` on a line with ``ends`` (None:
    the line was empty, so the last tile was also the first and matched only one way)."""
    a, b = last
    if ends is None:
        return "triple" if a == b else "double"
    if a == b:
        return "quintet" if ends == (a, a) else "triple"
    if sorted(ends) == [a, b]:
        return "quartet"
    return "double"


def dead_end_winner(hands: Sequence[T.Hand], last_player: int) -> int:
    """G-8: lowest pips, fewest tiles, smallest tops, smallest bottoms, then turn order from the
    player who played the last tile (that player first)."""
    n = len(hands)
    pips = [T.hand_pips(h) for h in hands]
    lowest = min(pips)
    tied = [seat for seat in range(n) if pips[seat] == lowest]
    if len(tied) == 1:  # the usual case: skip the tie-breaks
        return tied[0]

    def key(seat: int) -> tuple[int, list[int], list[int], int]:
        hand = hands[seat]
        return (
            len(hand),
            sorted(t[0] for t in hand),
            sorted(t[1] for t in hand),
            (seat - last_player) % n,
        )

    return min(tied, key=key)


GapleAction = Play | Pass


class Gaple(Ruleset[State, GapleAction]):
    descriptor = GameDescriptor(
        "gaple",
        2,
        4,
        chips=True,
        managed=("stacks", "previous_winner"),
        options=(
            Option("stake", 10, 1, MAX_STAKE, help=True),
            Option("field", "normal", choices=("normal", "bet"), help=True),
            Option("opener", "random", choices=("random", "previous_winner")),
        ),
    )
    state_type = State

    def parse_options(self, options: Mapping[str, Any], n_seats: int) -> JSON:
        self.check_seats(n_seats)
        parsed = self.descriptor.parse(options)
        stake = parsed["stake"]
        stacks = options.get("stacks")
        if stacks is None and "stacks" not in options:
            stacks = [100 * stake] * n_seats  # valid by construction: nothing to check
        elif (
            not isinstance(stacks, (list, tuple))
            or len(stacks) != n_seats
            or not all(type(s) is int and s >= 0 for s in stacks)
        ):
            raise BadOptions("stacks", f"must be {n_seats} whole numbers of chips, none negative")
        else:
            for seat, chips in enumerate(stacks):
                if chips < stake:
                    raise BadOptions("stacks", f"seat {seat} has fewer chips than one stake (G-11)")
        previous = options.get("previous_winner")
        if previous is not None and (type(previous) is not int or not 0 <= previous < n_seats):
            raise BadOptions("previous_winner", f"must be a seat from 0 to {n_seats - 1} or null")
        return {**parsed, "stacks": list(stacks), "previous_winner": previous}

    def new_state(
        self,
        options: Mapping[str, Any],
        n_seats: int,
        seed: int,
        *,
        hands: Deal | None = None,
        stock: Sequence[RawTile] | None = None,
    ) -> State:
        opts = self.parse_options(options, n_seats)
        rng = rng_for(seed, "deal")
        if hands is None:
            dealt, rest = T.deal(T.DOUBLE_SIX, [HAND_SIZE] * n_seats, rng)
        else:
            dealt, rest = T.deal_exact(T.DOUBLE_SIX, hands, n_seats, rng)
        if opts["opener"] == "previous_winner" and opts["previous_winner"] is not None:
            opener = opts["previous_winner"]
        else:
            opener = rng.randrange(n_seats)  # G-2
        if not dealt[opener]:  # G-2: the opener plays a tile; with none nobody could act
            raise BadOptions("hands", f"seat {opener} opens the round and holds no tile")
        # Built without the frozen dataclass __init__ (it sets each field through
        # object.__setattr__; a round is only ~25 moves, so this shows): same fields as State().
        masks = tuple([_mask(h) for h in dealt])
        state = object.__new__(State)
        state.__dict__.update(
            options=opts,
            seed=seed,
            hands=dealt,
            undealt=rest,
            line=(),
            turn=opener,
            stacks=tuple(opts["stacks"]),
            payments=(),
            result=None,
            _masks=masks,
            _held=sum(masks),
        )
        return state

    def to_act(self, state: State) -> int | None:
        return state.turn

    def legal_actions(self, state: State, seat: int) -> tuple[GapleAction, ...]:
        if state.turn != seat:
            return ()
        line = state.line
        if not line:
            return tuple([ON_LEFT[t] for t in state.hands[seat]])
        hand, left, right = state._masks[seat], line[0][0], line[-1][1]
        plays = FIT_LEFT[left][hand & SHOWING[left]] + FIT_RIGHT[right][hand & SHOWING[right]]
        return plays or PASS_ONLY  # G-5: pass only with nothing to play

    def is_legal(self, state: State, seat: int, action: GapleAction) -> bool:
        """The same answer as ``action in legal_actions``, without listing them (hot path)."""
        hand, line = state._masks[seat], state.line
        if isinstance(action, Pass):
            return bool(line) and not hand & (SHOWING[line[0][0]] | SHOWING[line[-1][1]])
        if not hand & BIT.get(action.tile, 0):
            return False
        if not line:
            return action.end == "left"
        if action.end == "left":
            return line[0][0] in action.tile
        return action.end == "right" and line[-1][1] in action.tile

    def parse_action(self, raw: Any) -> GapleAction:
        if action_kind(raw, ("play", "pass")) == "pass":
            action_fields(raw)
            return PASS
        tile, end = action_fields(raw, "tile", "end")
        if end not in ("left", "right"):
            raise IllegalAction("end must be 'left' or 'right'")
        return PLAYS[T.parse_tile(tile, 6), end]

    def refusal(self, state: State, seat: int, action: GapleAction) -> str:
        if isinstance(action, Pass):
            return "you hold a playable tile, so you must play (G-5)"
        if action.tile not in state.hands[seat]:
            return f"you do not hold {list(action.tile)}"
        if state.ends is None:
            return "the first tile opens the line: send it with end 'left'"
        return f"{list(action.tile)} does not match the {action.end} end ({state.ends})"

    def apply(self, state: State, seat: int, action: GapleAction) -> Step[State]:
        """``Ruleset.apply`` with the turn and legality checks folded into the move code, as
        this runs on every move. Whatever the fast path refuses goes through the generic path,
        which raises the precise error."""
        step = None
        if seat == state.turn and seat is not None:
            if type(action) is Play:
                step = self._play(state, seat, action)
            elif type(action) is Pass:
                step = self._lewat(state, seat)
        return step or super().apply(state, seat, action)

    def _apply(self, state: State, seat: int, action: GapleAction) -> Step[State]:
        if isinstance(action, Pass):
            step = self._lewat(state, seat)
        else:
            step = self._play(state, seat, action)
        assert step is not None, "a legal action is never refused"
        return step

    def _lewat(self, state: State, seat: int) -> Step[State] | None:
        """G-6: the passing player pays one stake to the previous player, at once.
        None when passing is not legal (G-5: the seat can play, or nobody has opened)."""
        line = state.line
        if not line or state._masks[seat] & (SHOWING[line[0][0]] | SHOWING[line[-1][1]]):
            return None
        n = len(state.hands)
        stacks = list(state.stacks)
        pay = _pay(stacks, seat, (seat - 1) % n, state.options["stake"], "lewat")
        record = pay.to_json()
        events = ({"type": "passed", "seat": seat}, {"type": "lewat", **record})
        new, fields = _successor(state)
        fields["turn"], fields["stacks"] = (seat + 1) % n, tuple(stacks)
        fields["payments"] = state.payments + (record,)
        return _new_step(Step, (new, events, (pay,), ()))

    def _play(self, state: State, seat: int, action: Play) -> Step[State] | None:
        """G-4, and G-7/G-8 when the tile ends the round. None when the play is not legal."""
        t, end, line = action.tile, action.end, state.line
        bit = BIT.get(t, 0)
        if not state._masks[seat] & bit:
            return None
        a, b = t
        ends = None
        if not line:
            if end != "left":
                return None
            line = (t,)
        else:  # the new piece shows the tile's other number outwards
            ends = left, right = line[0][0], line[-1][1]
            if end == "left" and (a == left or b == left):
                line = ((b, a) if a == left else t,) + line
            elif end == "right" and (a == right or b == right):
                line = line + ((t if a == right else (b, a)),)
            else:
                return None
        held_by, masks = list(state.hands), list(state._masks)
        held_by[seat] = T.remove(held_by[seat], t)
        masks[seat] ^= bit
        hands = tuple(held_by)
        events = ({"type": "played", "seat": seat, "tile": [a, b], "end": end},)
        if not masks[seat]:  # G-7 going out
            return self._settle(state, hands, masks, line, seat, "out", multiplier(t, ends), events)
        held = state._held ^ bit
        if not held & (SHOWING[line[0][0]] | SHOWING[line[-1][1]]):  # G-8 Dead-End
            winner = dead_end_winner(hands, seat)
            return self._settle(state, hands, masks, line, winner, "dead_end", "single", events)
        new = object.__new__(State)  # _successor inlined: most moves are plays
        fields = new.__dict__
        fields.update(state.__dict__)
        fields["hands"], fields["_masks"], fields["_held"] = hands, tuple(masks), held
        fields["line"], fields["turn"] = line, (seat + 1) % len(hands)
        return _new_step(Step, (new, events, (), ()))

    def _settle(
        self,
        state: State,
        hands: tuple[T.Hand, ...],
        masks: list[int],
        line: tuple[T.Tile, ...],
        winner: int,
        ending: str,
        mult: str,
        events: tuple[JSON, ...],
    ) -> Step[State]:
        """G-10: every other player pays the winner, capped by their stack (G-11)."""
        opts, value = state.options, MULTIPLIERS[mult]
        unit = opts["stake"] * value  # per loser; times their pips on a bet table
        bet = opts["field"] == "bet"
        stacks = list(state.stacks)
        settlements = []
        for seat in range(len(hands)):
            if seat == winner:
                continue
            left = T.hand_pips(hands[seat])
            settlements.append(
                _pay(stacks, seat, winner, unit * left if bet else unit, "settlement", left)
            )
        payments = [*state.payments, *(p.to_json() for p in settlements)]
        result = {
            "winner": winner,
            "ending": ending,
            "multiplier": {"name": mult, "value": value},
            "payments": payments,
            "stacks": stacks,
            "hands": [T.hand_json(h) for h in hands],
        }
        events = (*events, {"type": "round_over", **result})
        new, fields = _successor(state)
        fields.update(
            hands=hands,
            _masks=tuple(masks),
            _held=sum(masks),
            line=line,
            turn=None,
            stacks=tuple(stacks),
            payments=tuple(payments),
            result=result,
        )
        over = RoundResult(None, winner, ending, value, result, tuple(settlements))
        return Step(new, events, (), (over,))

    def stacks(self, state: State) -> tuple[int, ...]:
        return state.stacks

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        start = state.options["stacks"]
        return Outcome(
            winners=(state.result["winner"],),
            scores=tuple(s - s0 for s, s0 in zip(state.stacks, start)),
            detail=state.result,
        )

    def view(self, state: State, seat: int | None) -> JSON:
        """O-2: own hand, the line, counts, stacks; the hands are shown once the round is over."""
        return {
            **self.view_header(state, seat),
            "hand": T.hand_json(state.hands[seat]) if seat is not None else None,
            "line": [list(p) for p in state.line],
            "ends": {"left": state.ends[0], "right": state.ends[1]} if state.ends else None,
            "hand_counts": [len(h) for h in state.hands],
            "stacks": list(state.stacks),
            "stake": state.options["stake"],
            "field": state.options["field"],
            "result": state.result,
        }

    def all_tiles(self, state: State) -> list[tuple[int, int]]:
        return (
            [T.tile(*p) for p in state.line]
            + [t for h in state.hands for t in h]
            + list(state.undealt)
        )

    def hidden_tiles(self, state: State, seat: int | None) -> set[tuple[int, int]]:
        # G-1: undealt tiles stay hidden even after the round; the hands are shown then
        return hidden_from(seat, state.hands, state.undealt, hands_shown=state.result is not None)

    def match_stats(self, state: State) -> JSON:
        """Per-round figures for ``python -m app simulate``."""
        result = state.result
        assert result is not None, "the round is not over"
        return {
            "multiplier": result["multiplier"]["name"],
            "dead_end": int(result["ending"] == "dead_end"),
            "lewat": sum(p["kind"] == "lewat" for p in result["payments"]),
            "tiles_played": len(state.line),
        }


RULESET = Gaple()
