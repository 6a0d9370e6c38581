"""Seeded random playouts that check the invariants every ruleset must keep.

``playout`` plays uniformly random legal moves from a seed to the end of the match. The full
``check_state`` runs on the first and the last state, on every ``check_every``-th state and on
every state after a notable step (a round ends or is dealt, a redeal, a Lewat payment):
- tiles are conserved (``all_tiles`` is always the game's whole set);
- ``to_act`` is None exactly when ``outcome`` is not None, and every view agrees on it;
- the acting seat's view lists exactly its legal actions (their JSON parses back to them);
- ``load(dump(s)) == s`` through the JSON bytes the server stores (orjson);
- O-2: no view (each seat and a spectator) shows a tile its audience may not see.
Every step: the seat to act has a legal action and the step's public events show no hidden tile.
Every ``refuse_every``-th step (O-1): another seat is refused with NotYourTurn and an action that
was legal earlier in the match but is not now with IllegalAction. ``extra`` adds a game's own
checks to every step; ``replay`` re-applies the log from the same seed (determinism).

Views and events are scanned as the JSON text the server sends, in one regular-expression pass
that finds every tile ``tiles_in`` would; the slow walk of the parsed value runs only to name a
leak.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import orjson

from app.games.errors import GameOver, IllegalAction, NotYourTurn

ROUND_END_EVENTS = ("round_over", "match_over")
NOTABLE_EVENTS = frozenset({*ROUND_END_EVENTS, "round_started", "dealt", "all_passed", "lewat"})
PAIR_TEXT = re.compile(rb"\[(\d+),(\d+)\]")
# Where ``tiles_in`` finds a tile, in orjson's compact text: a 2-int list that is a list element
# (right after "[" or ",") or the value of a "tile" key.
TILE_TEXT = re.compile(rb'(?:[\[,]|"tile":)\[(\d+),(\d+)\]')


def tiles_in(obj: Any) -> Iterator[tuple[int, int]]:
    """Tiles in a JSON value: 2-int lists that are list elements or the value of a "tile" key."""
    stack = [(obj, False)]
    while stack:
        value, is_tile_place = stack.pop()
        if type(value) is dict:
            stack.extend((v, k == "tile") for k, v in value.items())
        elif type(value) is list:
            if (
                is_tile_place
                and len(value) == 2
                and type(value[0]) is int
                and type(value[1]) is int
            ):
                yield (min(value), max(value))
            else:
                stack.extend((x, True) for x in value)


@cache
def _pair(a: bytes, b: bytes) -> tuple[int, int]:
    x, y = int(a), int(b)
    return (x, y) if x <= y else (y, x)


def pairs_text(data: bytes, pattern: re.Pattern = PAIR_TEXT) -> set[tuple[int, int]]:
    """The 2-int lists in JSON text, as tiles (``TILE_TEXT``: only those in a tile's place)."""
    return {_pair(a, b) for a, b in pattern.findall(data)}


def assert_no_leak(payload: Any, hidden: set, who: str, data: bytes | None = None) -> None:
    """``payload`` (whose orjson text is ``data``, dumped here when not given) shows no tile of
    ``hidden``. The text holds every tile ``tiles_in`` finds: one quick pass over it mostly
    settles the question; a hidden pair in no tile's place (two scores) takes a second pass, and
    only a real leak the walk of the parsed text that names it."""
    if data is None:
        data = orjson.dumps(payload)
    if hidden.isdisjoint(pairs_text(data)) or hidden.isdisjoint(pairs_text(data, TILE_TEXT)):
        return
    leaked = sorted(set(tiles_in(orjson.loads(data))) & hidden)
    assert not leaked, f"{who} can see hidden tiles {leaked}"


def check_state(rs, state, n_seats: int, full_set: list) -> None:
    seat = rs.to_act(state)
    assert (seat is None) == (rs.outcome(state) is not None)
    assert sorted(rs.all_tiles(state)) == full_set, "tiles not conserved"
    dumped = orjson.dumps(rs.dump(state))
    assert rs.load(orjson.loads(dumped)) == state, "load(dump(s)) != s"
    # a live table's document holds orjson's own dump of the state (app/services/table/doc.py seal)
    assert orjson.dumps(state) == dumped, "orjson's dump of the state is not the codec's"
    for viewer in (None, *range(n_seats)):
        view = rs.view(state, viewer)
        assert view["to_act"] == seat and view["over"] == (seat is None)
        assert view["seat"] == viewer
        assert_no_leak(view, rs.hidden_tiles(state, viewer), f"seat {viewer}", orjson.dumps(view))
        if viewer is not None and viewer == seat:
            legal = rs.legal_actions(state, seat)
            assert [rs.parse_action(a) for a in view["legal"]] == list(legal)
        else:
            assert view["legal"] == []


def check_events(rs, step) -> None:
    """Public events must not show a hidden tile. A move that ends a round may deal the next
    one in the same step: only the events after the last round end belong to the new deal, and
    the round-end events themselves may reveal the finished round's hands."""
    events = step.events
    assert all(type(e.get("type")) is str for e in events)
    current = events[round_end_cut(events) :]
    pairs = pairs_text(orjson.dumps(current))
    if pairs:
        public_hidden = rs.hidden_tiles(step.state, None)
        if pairs & public_hidden:
            for event in current:
                assert_no_leak(event, public_hidden, f"event {event['type']}")


def round_end_cut(events) -> int:
    """Index of the first event after the last round end (0 when no round ended)."""
    return max((i for i, e in enumerate(events) if e["type"] in ROUND_END_EVENTS), default=-1) + 1


def check_old_round_events(step, action) -> None:
    """For games that deal the next round in the step that ends one: the events before the
    round end may name only the tile just played (the round-end events may reveal hands), and
    no draw event names its tile."""
    played = {action.tile} if action.kind == "play" else set()
    for event in step.events[: round_end_cut(step.events)]:
        if event["type"] not in ROUND_END_EVENTS:
            assert set(tiles_in(event)) <= played, f"event {event} names a hidden tile"
    for event in step.events:
        assert event["type"] != "drew" or "tile" not in event, f"{event} names the drawn tile"


class Refusals:
    """O-1: only the seat to act may move, and only with a legal action. The wrong actions are
    the match's own: an action that was legal at an earlier check and is not now (a tile since
    played, a bid below the current one...), so every game is covered as it is."""

    def __init__(self, rs, n_seats: int, seed: int):
        self.rs, self.n_seats = rs, n_seats
        self.rng = random.Random(f"{seed}/refusals")  # the moves do not depend on the checks
        self.seen: dict[Any, None] = {}  # ordered, so the picks are reproducible
        self.pool: list[Any] = []

    def check(self, state, seat: int, legal) -> None:
        refused(NotYourTurn, self.rs.apply, state, (seat + 1) % self.n_seats, legal[0])
        if self.pool:
            for _ in range(4):
                wrong = self.rng.choice(self.pool)
                if wrong not in legal:
                    refused(IllegalAction, self.rs.apply, state, seat, wrong)
                    break
        for action in legal:
            if action not in self.seen:
                self.seen[action] = None
                self.pool.append(action)


def refused(error: type[Exception], call: Callable, *args) -> None:
    """``call(*args)`` raises ``error`` (``pytest.raises`` costs more than the move itself)."""
    try:
        call(*args)
    except error:
        return
    shown = args[1:] if len(args) > 1 else args  # not the state
    raise AssertionError(f"{call.__name__}{shown} was not refused with {error.__name__}")


def playout(
    rs,
    options: dict,
    n_seats: int,
    seed: int,
    *,
    check_every: int = 1,
    events_every: int = 1,
    refuse_every: int = 1,
    validate_every: int = 1,
    notable_every: int = 1,
    extra: Callable[[Any, tuple, Any, Any], None] | None = None,
    max_steps: int = 1_000_000,
):
    """Random legal play from ``seed`` to the end; returns (final state, [(seat, action)]).

    ``check_every``: the full ``check_state`` on every such state besides the first, the last and
    those after a notable step; ``events_every``: the events check on every such step and every
    notable one; ``refuse_every``: the refusal checks on every such step; ``validate_every``: the
    chosen move goes through the public ``apply`` on every such step, and straight to ``_apply``
    (the contract's hook for an action known to be legal) on the others, which saves Moon and
    Mexican Train listing the legal actions twice a move in long sweeps. ``notable_every``: the
    state and events checks after every such notable step only (long sweeps: each round's
    boundaries are already checked in the budget's matches).
    ``extra(state, legal, action, step)``: a game's own checks of each step (state before it).
    """
    rng = random.Random(seed)
    state = rs.new_state(options, n_seats, seed)
    full_set = sorted(rs.all_tiles(state))
    refusals = Refusals(rs, n_seats, seed)
    refused(IllegalAction, rs.parse_action, {"kind": "no-such-move"})
    log: list[tuple[int, Any]] = []
    notable = True  # the first state
    step_no = notables = 0
    try:
        while (seat := rs.to_act(state)) is not None:
            if notable or step_no % check_every == 0:
                check_state(rs, state, n_seats, full_set)
            legal = rs.legal_actions(state, seat)
            assert legal, "the seat to act has no legal action"
            if step_no % refuse_every == 0:
                refusals.check(state, seat, legal)
            action = rng.choice(legal)
            if step_no % validate_every == 0:
                step = rs.apply(state, seat, action)
            else:
                step = rs._apply(state, seat, action)
            if any(e["type"] in NOTABLE_EVENTS for e in step.events):
                notables += 1
                notable = notables % notable_every == 0
            else:
                notable = False
            if notable or step_no % events_every == 0:
                check_events(rs, step)
            if extra is not None:
                extra(state, legal, action, step)
            log.append((seat, action))
            state = step.state
            step_no += 1
            assert step_no < max_steps, f"no end after {max_steps} steps"
        check_state(rs, state, n_seats, full_set)
        refused(GameOver, rs.apply, state, *log[-1])
    except AssertionError as failure:
        failure.add_note(
            f"{rs.name}, {n_seats} seats, options {options}, seed {seed}, step {step_no}"
        )
        raise
    return state, log


def replay(rs, options: dict, n_seats: int, seed: int, log) -> Any:
    """The state reached by re-applying ``log`` from the same seed, each action through the
    JSON the wire carries."""
    state = rs.new_state(options, n_seats, seed)
    for seat, action in log:
        wire = orjson.loads(orjson.dumps(action.to_json()))
        state = rs.apply(state, seat, rs.parse_action(wire)).state
    return state
