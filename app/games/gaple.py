"""Gaple: the Indonesian block game with Lewat payments, Dead-End and x1-x5 multipliers.

RULES.md section 1 (G-1 .. G-12). One state is one *round*: the table (the service) deals round
after round (G-12) and passes each round's starting stacks in the options, so chips stay exact
inside the pure core: Lewat payments (G-6) and the settlement (G-10) move chips between the
stacks held in the state, capped at what the payer has (G-11).

The line is kept as oriented pieces ``(left, right)``: the left end of the line is
``line[0][0]`` and the right end ``line[-1][1]``. After the first tile ``[a|b]`` the left end
shows a and the right end b.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import tiles as T
from .base import (
    JSON,
    Action,
    Outcome,
    Ruleset,
    Step,
    action_fields,
    action_kind,
    check_known,
    evolve,
    opt_choice,
    opt_int,
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
    last_events: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def ends(self) -> tuple[int, int] | None:
        return (self.line[0][0], self.line[-1][1]) if self.line else None



def _step(state: State, events: tuple[JSON, ...], **changes) -> Step:
    """The next state, which keeps the move's public events for its views, and the events."""
    return Step(evolve(state, last_events=events, **changes), events)


def _blocked(hands, left: int, right: int) -> bool:
    """No tile in any hand fits either end (a plain loop: this runs after every tile played)."""
    for hand in hands:
        for t in hand:
            if left in t or right in t:
                return False
    return True


def _pay(stacks: list[int], payer: int, payee: int, due: int, kind: str, **extra) -> JSON:
    """Move up to ``due`` chips from payer to payee, never below zero (G-11)."""
    amount = min(due, stacks[payer])
    stacks[payer] -= amount
    stacks[payee] += amount
    return {"kind": kind, "payer": payer, "payee": payee, "amount": amount,
            "shortfall": due - amount, **extra}


def multiplier(last: tuple[int, int], ends: tuple[int, int]) -> str:
    """G-9: the multiplier of a round won by playing ``last`` on a line with ``ends``."""
    a, b = last
    if a == b:
        return "quintet" if ends == (a, a) else "triple"
    if sorted(ends) == [a, b]:
        return "quartet"
    return "double"


def dead_end_winner(hands, last_player: int) -> int:
    """G-8: lowest pips, fewest tiles, smallest tops, smallest bottoms, then turn order from the
    player who played the last tile (that player first)."""
    n = len(hands)

    def key(seat: int):
        hand = hands[seat]
        return (T.hand_pips(hand), len(hand), sorted(t[0] for t in hand),
                sorted(t[1] for t in hand), (seat - last_player) % n)

    return min(range(n), key=key)


class Gaple(Ruleset):
    name = "gaple"
    state_type = State
    min_seats = 2
    max_seats = 4
    OPTIONS = ("stake", "field", "opener", "stacks", "previous_winner")

    def parse_options(self, options: Mapping[str, Any], n_seats: int) -> JSON:
        self.check_seats(n_seats)
        check_known(options, self.OPTIONS)
        stake = opt_int(options, "stake", 10, 1, MAX_STAKE)
        stacks = options.get("stacks", [100 * stake] * n_seats)
        if (not isinstance(stacks, (list, tuple)) or len(stacks) != n_seats
                or not all(type(s) is int and s >= 0 for s in stacks)):
            raise BadOptions("stacks", f"must be {n_seats} whole numbers of chips, none negative")
        for seat, chips in enumerate(stacks):
            if chips < stake:
                raise BadOptions("stacks", f"seat {seat} has fewer chips than one stake (G-11)")
        previous = options.get("previous_winner")
        if previous is not None and (type(previous) is not int or not 0 <= previous < n_seats):
            raise BadOptions("previous_winner", f"must be a seat from 0 to {n_seats - 1} or null")
        return {
            "stake": stake,
            "field": opt_choice(options, "field", "normal", ("normal", "bet")),
            "opener": opt_choice(options, "opener", "random", ("random", "previous_winner")),
            "stacks": list(stacks),
            "previous_winner": previous,
        }

    def new_state(self, options, n_seats, seed, *, hands=None, stock=None) -> State:
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
        return State(options=opts, seed=seed, hands=dealt, undealt=rest, line=(), turn=opener,
                     stacks=tuple(opts["stacks"]), payments=(), last_events=(), result=None)

    def to_act(self, state: State) -> int | None:
        return state.turn

    def legal_actions(self, state: State, seat: int) -> tuple[Action, ...]:
        if state.turn != seat:
            return ()
        hand, line = state.hands[seat], state.line
        if not line:
            return tuple([ON_LEFT[t] for t in hand])
        left, right = line[0][0], line[-1][1]
        plays = [ON_LEFT[t] for t in hand if left in t] + [ON_RIGHT[t] for t in hand if right in t]
        return tuple(plays) if plays else (PASS,)  # G-5: pass only with nothing to play

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        """The same answer as ``action in legal_actions``, without listing them (hot path)."""
        hand, line = state.hands[seat], state.line
        ends = (line[0][0], line[-1][1]) if line else None
        if action is PASS:
            return ends is not None and not any(ends[0] in t or ends[1] in t for t in hand)
        if action.tile not in hand:
            return False
        if ends is None:
            return action.end == "left"
        return ends[0 if action.end == "left" else 1] in action.tile

    def parse_action(self, raw: Any) -> Action:
        if action_kind(raw, ("play", "pass")) == "pass":
            action_fields(raw)
            return PASS
        tile, end = action_fields(raw, "tile", "end")
        if end not in ("left", "right"):
            raise IllegalAction("end must be 'left' or 'right'")
        return PLAYS[T.parse_tile(tile, 6), end]

    def refusal(self, state: State, seat: int, action: Action) -> str:
        if isinstance(action, Pass):
            return "you hold a playable tile, so you must play (G-5)"
        if action.tile not in state.hands[seat]:
            return f"you do not hold {list(action.tile)}"
        if state.ends is None:
            return "the first tile opens the line: send it with end 'left'"
        return f"{list(action.tile)} does not match the {action.end} end ({state.ends})"

    def _apply(self, state: State, seat: int, action: Action) -> Step:
        if isinstance(action, Pass):
            return self._lewat(state, seat)
        return self._play(state, seat, action)

    def _lewat(self, state: State, seat: int) -> Step:
        """G-6: the passing player pays one stake to the previous player, at once."""
        stacks = list(state.stacks)
        pay = _pay(stacks, seat, (seat - 1) % state.n, state.options["stake"], "lewat")
        events = ({"type": "passed", "seat": seat}, {"type": "lewat", **pay})
        return _step(state, events, turn=(seat + 1) % state.n, stacks=tuple(stacks),
                     payments=state.payments + (pay,))

    def _play(self, state: State, seat: int, action: Play) -> Step:
        t, line = action.tile, state.line
        ends = (line[0][0], line[-1][1]) if line else None
        if ends is None:
            line = (t,)
        elif action.end == "left":
            line = ((T.other_end(t, ends[0]), ends[0]),) + line
        else:
            line = line + ((ends[1], T.other_end(t, ends[1])),)
        hands = list(state.hands)
        hands[seat] = T.remove(hands[seat], t)
        hands = tuple(hands)
        events = ({"type": "played", "seat": seat, "tile": list(t), "end": action.end},)
        if not hands[seat]:  # G-7 going out
            return self._settle(state, hands, line, seat, "out", multiplier(t, ends), events)
        if _blocked(hands, line[0][0], line[-1][1]):  # G-8 Dead-End
            winner = dead_end_winner(hands, seat)
            return self._settle(state, hands, line, winner, "dead_end", "single", events)
        return _step(state, events, line=line, hands=hands, turn=(seat + 1) % len(hands))

    def _settle(self, state: State, hands, line, winner: int, ending: str, mult: str,
                events) -> Step:
        """G-10: every other player pays the winner, capped by their stack (G-11)."""
        opts, value = state.options, MULTIPLIERS[mult]
        stacks = list(state.stacks)
        payments = list(state.payments)
        for seat in range(state.n):
            if seat == winner:
                continue
            left = T.hand_pips(hands[seat])
            due = opts["stake"] * value * (left if opts["field"] == "bet" else 1)
            payments.append(_pay(stacks, seat, winner, due, "settlement", pips=left))
        result = {
            "winner": winner,
            "ending": ending,
            "multiplier": {"name": mult, "value": value},
            "payments": payments,
            "stacks": stacks,
            "hands": [T.hand_json(h) for h in hands],
        }
        over = {"type": "round_over", **result}
        return _step(state, (*events, over), hands=hands, line=line, turn=None,
                     stacks=tuple(stacks), payments=tuple(payments), result=result)

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
            "game": self.name,
            "seat": seat,
            "to_act": state.turn,
            "legal": self.legal_json(state, seat),
            "over": state.result is not None,
            "hand": T.hand_json(state.hands[seat]) if seat is not None else None,
            "line": [list(p) for p in state.line],
            "ends": {"left": state.ends[0], "right": state.ends[1]} if state.ends else None,
            "hand_counts": [len(h) for h in state.hands],
            "stacks": list(state.stacks),
            "stake": state.options["stake"],
            "field": state.options["field"],
            "last_events": list(state.last_events),
            "result": state.result,
        }

    def all_tiles(self, state: State) -> list[tuple[int, int]]:
        return [T.tile(*p) for p in state.line] + [t for h in state.hands for t in h] + list(
            state.undealt)

    def hidden_tiles(self, state: State, seat: int | None) -> set[tuple[int, int]]:
        if state.result is not None:
            return set(state.undealt)  # G-1: undealt tiles stay hidden even after the round
        hidden = set(state.undealt)
        for s, hand in enumerate(state.hands):
            if s != seat:
                hidden.update(hand)
        return hidden

    def match_stats(self, state: State) -> JSON:
        """Per-round figures for ``python -m app simulate``."""
        result = state.result
        return {
            "multiplier": result["multiplier"]["name"],
            "dead_end": int(result["ending"] == "dead_end"),
            "lewat": sum(p["kind"] == "lewat" for p in result["payments"]),
            "tiles_played": len(state.line),
        }


RULESET = Gaple()
