"""Mexican Train turns: which plays are legal and what each action does (T-5 .. T-13).

A turn is a short sequence of steps by one seat, all through ``apply``: plays, at most one
draw per play owed, and an ending (the turn ends by itself after a single play, or with
``pass`` = marker out, or ``end_turn`` after a first-turn run). State fields ``run``,
``played``, ``extra`` and ``drawn`` describe where the seat is inside its turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import tiles as T
from ..base import JSON, RoundResult, Step, evolve
from .model import (
    DRAW,
    END_TURN,
    PASS,
    Draw,
    Pass,
    Play,
    State,
    Tile,
    TrainAction,
    board_view,
    deal_round,
)


def available(s: State, seat: int) -> tuple[int, ...]:
    """The trains ``seat`` may play on now (T-6, T-7, T-9)."""
    if s.uncovered and not (s.extra and s.options["doubles"] == "chain"):
        return (s.uncovered[0],)  # the oldest uncovered double closes every other train
    if s.first_turn[seat] and s.options["first_turn_multi"]:
        return (seat,)
    n = s.n
    return tuple(k for k in range(n + 1) if k in (seat, n) or s.markers[k])


def plays(s: State, seat: int, tiles: Iterable[Tile]) -> list[Play]:
    out: list[Play] = []
    for k in available(s, seat):
        end, name = s.end(k), s.train_name(k)
        out.extend(Play(t, name) for t in tiles if t[0] == end or t[1] == end)
    return out


def legal(s: State, seat: int) -> tuple[TrainAction, ...]:
    if s.turn != seat:
        return ()
    if s.drawn is not None:  # T-8: the drawn tile is played if it fits, else the marker goes out
        return tuple(plays(s, seat, (s.drawn,))) or (PASS,)
    found = plays(s, seat, s.hands[seat])
    if found:
        if s.run and s.played and not s.extra:
            return (*found, END_TURN)
        return tuple(found)
    return (DRAW,) if s.boneyard else (PASS,)


def train_index(s: State, name: int | str) -> int:
    """The index in ``s.trains`` of a seat's train or of the Mexican Train (``MEXICAN``)."""
    return name if isinstance(name, int) else s.n


def apply(s: State, seat: int, action: TrainAction) -> Step[State]:
    if isinstance(action, Play):
        return _play(s, seat, action)
    if isinstance(action, Draw):
        top = s.boneyard[0]
        hands = list(s.hands)
        hands[seat] = T.sort_hand(hands[seat] + (top,))
        new = evolve(s, hands=tuple(hands), boneyard=s.boneyard[1:], drawn=top, run=False)
        return Step(new, ({"type": "drew", "seat": seat},))
    if isinstance(action, Pass):
        markers = list(s.markers)
        markers[seat] = True
        # T-11: passes in a row with the boneyard empty; a new marker opens a train, so the
        # passes before it no longer show that their players are stuck: count again from it
        passes = 0 if s.boneyard else 1 if not s.markers[seat] else s.passes + 1
        new = evolve(s, markers=tuple(markers), passes=passes)
        return _end_turn(new, seat, [{"type": "passed", "seat": seat, "marker": True}])
    return _end_turn(s, seat, [{"type": "ended_turn", "seat": seat}])


def _play(s: State, seat: int, action: Play) -> Step[State]:
    t, k = action.tile, train_index(s, action.train)
    end = s.end(k)
    trains = list(s.trains)
    trains[k] = trains[k] + ((end, T.other_end(t, end)),)
    hands = list(s.hands)
    hands[seat] = T.remove(hands[seat], t)
    markers = list(s.markers)
    event: JSON = {"type": "played", "seat": seat, "tile": T.to_json(t), "train": action.train}
    if k == seat and markers[seat]:  # T-5: only the owner's own play lifts the marker
        markers[seat] = False
        event["marker_removed"] = True
    uncovered = tuple(x for x in s.uncovered if x != k)  # any play on a double covers it
    double = T.is_double(t)
    if double:
        uncovered += (k,)
    new = evolve(
        s,
        trains=tuple(trains),
        hands=tuple(hands),
        markers=tuple(markers),
        drawn=None,
        played=s.played + 1,
        uncovered=uncovered,
        passes=0,
        extra=double,
    )
    events = [event]
    if not hands[seat]:  # T-10: going out, even on a double
        others_first = any(f for x, f in enumerate(s.first_turn) if x != seat)
        if not others_first:
            return _round_over(new, "out", events)
        return _end_turn(new, seat, events)  # the others still take their first turn
    if double or (new.run and plays(new, seat, hands[seat])):
        return Step(new, tuple(events))  # the extra play of a double, or the run goes on
    return _end_turn(new, seat, events)


def _end_turn(s: State, seat: int, events: list[JSON]) -> Step[State]:
    n = s.n
    first = list(s.first_turn)
    first[seat] = False
    if s.passes >= n:  # T-11: everyone passed in turn with the boneyard empty
        return _round_over(s, "blocked", events)
    nxt = (seat + 1) % n
    if not first[nxt] and any(not h for h in s.hands):  # T-10: first turns are all taken
        return _round_over(s, "out", events)
    new = evolve(
        s,
        turn=nxt,
        first_turn=tuple(first),
        played=0,
        extra=False,
        drawn=None,
        run=s.options["first_turn_multi"] and first[nxt] and not s.uncovered,
    )
    return Step(new, tuple(events))


def _round_over(s: State, ending: str, events: list[JSON]) -> Step[State]:
    """T-12: each player scores the pips left in hand (0 for who went out); T-13 deals on."""
    scores = [T.hand_pips(h) for h in s.hands]
    totals = [a + b for a, b in zip(s.totals, scores, strict=True)]
    record = {
        "round": s.round_no,
        "engine": s.engine,
        "ending": ending,
        "out": [x for x, h in enumerate(s.hands) if not h],
        "scores": scores,
        "totals": totals,
    }
    log = s.rounds_log + (record,)
    detail = {**record, "hands": [T.hand_json(h) for h in s.hands]}
    events.append({"type": "round_over", **detail, "board": board_view(s)})
    rounds = (RoundResult(s.round_no, None, ending, None, detail),)
    if s.round_no < s.options["rounds"]:
        new, dealt = deal_round(s.options, s.n, s.seed, s.round_no + 1, totals, log)
        return Step(new, (*events, *dealt), (), rounds)
    best = min(totals)
    result = {
        "winners": [x for x, v in enumerate(totals) if v == best],
        "totals": totals,
        "rounds": [dict(r) for r in log],
    }
    events.append({"type": "match_over", "winners": result["winners"], "totals": totals})
    final = evolve(s, turn=None, totals=tuple(totals), rounds_log=log, drawn=None, result=result)
    return Step(final, tuple(events), (), rounds)
