"""Seeded random playouts that check the invariants every ruleset must keep.

``playout`` plays uniformly random legal moves from a seed and, at every step, checks:
- tiles are conserved (``all_tiles`` is always the game's whole set);
- ``to_act`` is None exactly when ``outcome`` is not None, and views agree on it;
- the acting seat has legal actions, their JSON parses back to the same actions, and every other
  seat is refused with NotYourTurn (and changes nothing: states are immutable);
- ``load(dump(s)) == s`` through real JSON text;
- no view (each seat and a spectator) and no public event shows a tile its audience may not see.
Long sweeps may run the full ``check_state`` only every ``check_every``-th step (tiles conserved
and the match not over are still checked at every step) and the refusals every
``refuse_every``-th; ``illegal`` tries a wrong action of the acting seat and ``extra`` adds a
game's own checks to every step. ``replay`` re-applies a log from the same seed, for the
determinism check.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from app.games.errors import GameOver, IllegalAction, NotYourTurn

ROUND_END_EVENTS = ("round_over", "match_over")


def tiles_in(obj: Any) -> Iterator[tuple[int, int]]:
    """Tiles in a JSON value: 2-int lists that are list elements or the value of a "tile" key."""
    stack = [(obj, False)]
    while stack:
        value, is_tile_place = stack.pop()
        if type(value) is dict:
            stack.extend((v, k == "tile") for k, v in value.items())
        elif type(value) is list:
            if (is_tile_place and len(value) == 2 and type(value[0]) is int
                    and type(value[1]) is int):
                yield (min(value), max(value))
            else:
                stack.extend((x, True) for x in value)


def assert_no_leak(payload: Any, hidden: set, who: str) -> None:
    leaked = sorted(set(tiles_in(payload)) & hidden)
    assert not leaked, f"{who} can see hidden tiles {leaked}"


def check_state(rs, state, n_seats: int, full_set: list) -> None:
    seat = rs.to_act(state)
    assert (seat is None) == (rs.outcome(state) is not None)
    assert sorted(rs.all_tiles(state)) == full_set, "tiles not conserved"
    text = json.dumps(rs.dump(state))
    assert rs.load(json.loads(text)) == state, "load(dump(s)) != s"
    for viewer in (None, *range(n_seats)):
        view = rs.view(state, viewer)
        assert view["to_act"] == seat and view["over"] == (seat is None)
        assert view["seat"] == viewer
        json.dumps(view)
        assert_no_leak(view, rs.hidden_tiles(state, viewer), f"seat {viewer}")
        if viewer is not None and viewer == seat:
            legal = rs.legal_actions(state, seat)
            assert [rs.parse_action(a) for a in view["legal"]] == list(legal)
        else:
            assert view["legal"] == []


def check_events(rs, step) -> None:
    """Public events must not show a hidden tile. A move that ends a round may deal the next
    one in the same step: only the events after the last round end belong to the new deal, and
    the round-end events themselves may reveal the finished round's hands."""
    events = list(step.events)
    assert all(isinstance(e.get("type"), str) for e in events)
    public_hidden = rs.hidden_tiles(step.state, None)
    for event in events[round_end_cut(events):]:
        assert_no_leak(event, public_hidden, f"event {event['type']}")


def round_end_cut(events) -> int:
    """Index of the first event after the last round end (0 when no round ended)."""
    return max((i for i, e in enumerate(events) if e["type"] in ROUND_END_EVENTS), default=-1) + 1


def check_old_round_events(step, action) -> None:
    """For games that deal the next round in the step that ends one: the events before the
    round end may name only the tile just played (the round-end events may reveal hands), and
    no draw event names its tile."""
    played = {action.tile} if action.kind == "play" else set()
    for event in step.events[:round_end_cut(step.events)]:
        if event["type"] not in ROUND_END_EVENTS:
            assert set(tiles_in(event)) <= played, f"event {event} names a hidden tile"
    for event in step.events:
        assert event["type"] != "drew" or "tile" not in event, f"{event} names the drawn tile"


def playout(rs, options: dict, n_seats: int, seed: int, max_steps: int = 100_000, *,
            full_set: list | None = None, check_every: int = 1, refuse_every: int = 1,
            illegal: Callable[[Any, random.Random], Any] | None = None,
            extra: Callable[[Any, list, Any, Any], None] | None = None):
    """Random legal play from ``seed`` to the end; returns (final state, [(seat, action json)]).

    ``full_set``: the game's whole set, sorted (default: ``all_tiles`` of the first state).
    ``check_every``: run the full ``check_state`` on every such step (and on the final state);
    the others check only that tiles are conserved and the match is not over.
    ``refuse_every``: on every such step the other seat gets NotYourTurn, a malformed action
    IllegalAction, and ``illegal(state, rng)``'s action (if not None) is refused for the acting
    seat; it draws from the playout's rng, before the move is chosen.
    ``extra(state, legal, action, step)``: a game's own checks of each step (state before it).
    """
    rng = random.Random(seed)
    state = rs.new_state(options, n_seats, seed)
    full_set = full_set or sorted(rs.all_tiles(state))
    log: list[tuple[int, dict]] = []
    for step_no in range(max_steps):
        seat = rs.to_act(state)
        if seat is None or step_no % check_every == 0:
            check_state(rs, state, n_seats, full_set)
        else:
            assert sorted(rs.all_tiles(state)) == full_set, "tiles not conserved"
            assert rs.outcome(state) is None
        if seat is None:
            with pytest.raises(GameOver):
                rs.apply(state, 0, rs.parse_action({"kind": "pass"}))
            return state, log
        legal = rs.legal_actions(state, seat)
        assert legal, "the seat to act has no legal action"
        if step_no % refuse_every == 0:
            with pytest.raises(NotYourTurn):
                rs.apply(state, (seat + 1) % n_seats, legal[0])
            with pytest.raises(IllegalAction):
                rs.parse_action({"kind": "no-such-move"})
            wrong = illegal(state, rng) if illegal else None
            if wrong is not None:
                with pytest.raises(IllegalAction):
                    rs.apply(state, seat, wrong)
        action = rng.choice(legal)
        step = rs.apply(state, seat, action)
        check_events(rs, step)
        if extra:
            extra(state, legal, action, step)
        log.append((seat, action.to_json()))
        state = step.state
    raise AssertionError(f"no end after {max_steps} steps")


def replay(rs, options: dict, n_seats: int, seed: int, log) -> Any:
    state = rs.new_state(options, n_seats, seed)
    for seat, action in log:
        state = rs.apply(state, seat, rs.parse_action(action)).state
    return state
