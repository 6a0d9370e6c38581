"""Seeded random playouts of every game in the registry at every player count it allows, through
the shared harness (tests/games/playout.py: tiles conserved, O-1 only legal actions and only the
seat to act, ``load(dump(s)) == s``, O-2 no view or event shows a hidden tile, determinism from
seed and actions), plus each game's own invariants as small hooks (a ``Sweep`` subclass).

A game added to the registry is swept with the default ``Sweep`` (200 matches per player count,
its default options) without any change here. Per player count: 2,000 Gaple rounds, 2,000 Domino
Cross matches, 150 Mexican Train matches, and Moon matches for about 2,000 scored rounds (50 with
four players, 10 three-handed: random players bid wildly, so nearly every contract fails and a
match lasts about 40 rounds with four players and 220 with three). The first tenth of each
budget is the quick test (``make check``); the rest is slow-marked. The full state check runs on
every state of every ``FULL_MATCH_EVERY``-th match and, in the others, on every
``check_every``-th state besides the first, the last and each one after a round ends or is dealt.

``MOON_PLAYOUT_MATCHES=2000`` (CI) plays on to that many whole Moon matches per player count,
checked more sparsely (slow-marked too).
"""

from __future__ import annotations

import os

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games import tiles as T
from app.games.base import Step
from app.games.cross import KEEP_IN_BONEYARD, hand_size, round_points
from app.games.errors import GameError
from app.games.moon import scoring as S
from app.games.registry import available, get_ruleset

from .playout import (
    TILE_TEXT,
    check_old_round_events,
    pairs_text,
    playout,
    replay,
    round_end_cut,
    tiles_in,
)

FULL_MATCH_EVERY = 200
REPLAY_EVERY = 25
QUICK_SHARE = 10  # the quick test plays the first 1/QUICK_SHARE of a budget
MOON_MATCHES = int(os.environ.get("MOON_PLAYOUT_MATCHES", "0"))


class Sweep:
    """How one game is swept at one player count; the defaults suit any ruleset."""

    budget = 200  # matches per player count
    check_every = 10  # the full check on every such state of a sampled match
    refuse_every = 7

    def __init__(self, rs, n: int):
        self.rs, self.n = rs, n

    def options(self, seed: int) -> dict:
        return {}

    def step(self, state, legal, action, step) -> None:
        """A game's own checks of one step (``state`` is the state before it)."""

    def final(self, state, options: dict) -> None:
        """A game's own checks of a finished match."""

    def finish(self) -> None:
        """Checks over the whole sweep."""


class GapleSweep(Sweep):
    budget = 2000  # one round is one match
    check_every = 5

    def options(self, seed):
        return {
            "stake": 5,
            "field": "bet" if seed % 2 else "normal",
            "stacks": [5 + (seed * 7 + s * 13) % 200 for s in range(self.n)],
        }

    def final(self, state, options):
        assert sum(state.stacks) == sum(options["stacks"]), "chips not conserved"
        assert min(state.stacks) >= 0  # G-11
        assert sum(self.rs.outcome(state).scores) == 0  # G-10: the winner gets what others pay


class MoonSweep(Sweep):
    check_every = 20

    def __init__(self, rs, n):
        super().__init__(rs, n)
        self.budget = 50 if n == 4 else 10  # about 2,000 scored rounds

    def options(self, seed):
        return {"players": self.n, "first_lead_trump": seed % 2 == 1}

    def final(self, state, options):
        check_moon_match(self.rs, state, self.n)


def check_moon_match(rs, state, players: int) -> None:
    """M-10/M-11 (and M-13's individual sides): the outcome follows the scores."""
    outcome = rs.outcome(state)
    sides = [S.side_of(s, players) for s in range(players)]
    assert outcome.scores == tuple(state.scores[side] for side in sides)
    assert len(state.scores) == S.n_sides(players)
    winner = outcome.detail["winner_side"]
    assert set(outcome.winners) == {s for s in range(players) if sides[s] == winner}
    if outcome.detail["ending"] == "moon":
        assert state.last_round["contract"] == 21 and state.last_round["made"]
    else:
        assert S.match_winner(state.scores) == winner
    tally = state.tally
    assert tally["rounds"] == state.round_no == tally["made"] + tally["failed"]
    assert all(isinstance(v, (int, str)) for v in rs.match_stats(state).values())


class CrossSweep(Sweep):
    budget = 2000
    check_every = 50

    def __init__(self, rs, n):
        super().__init__(rs, n)
        self.endings: set[str] = set()

    def options(self, seed):
        return {"draw_until_playable": seed % 2 == 1}

    def step(self, state, legal, action, step):
        """Boneyard floor, C-5/C-6/C-7 choices, C-9 scoring, what the events name, and the
        next round's deal."""
        n = state.n
        assert len(state.boneyard) >= KEEP_IN_BONEYARD
        check_cross_legal(state, legal)
        check_old_round_events(step, action)
        cut = round_end_cut(step.events)
        for event in step.events[:cut]:
            if event["type"] == "round_over":
                check_cross_round_over(event)
        if not cut and action.kind == "play":  # a plain move names no tile but the one it plays
            assert step.events[0]["tile"] == list(action.tile) and len(step.events) == 1
        new = step.state
        if new.round_no != state.round_no:  # C-10 next round, C-1 deal, C-2 opener
            assert new.round_no == state.round_no + 1
            assert "round_started" in [e["type"] for e in step.events]
            assert [len(h) for h in new.hands] == [hand_size(n)] * n
            assert new.spinner is None and new.turn == new.opener

    def final(self, state, options):
        """C-9 points add up to the scores; C-10 the match ends at the first round where
        someone reaches 100, and only then."""
        n = self.n
        outcome = self.rs.outcome(state)
        (winner,) = outcome.winners
        totals = [0] * n
        for r in state.rounds:
            assert max(totals) < 100, "a round was dealt after someone reached the target"
            self.endings.add(r["ending"])
            if r["winner"] is not None:
                totals[r["winner"]] += r["points"]
        assert tuple(totals) == outcome.scores == state.scores
        assert outcome.scores[winner] >= 100 > sorted(outcome.scores)[-2]
        assert [r["round"] for r in state.rounds] == list(range(1, state.round_no + 1))

    def finish(self):
        assert self.endings == {"domino", "blocked"}  # C-8: both endings occur


def check_cross_legal(state, legal) -> None:
    """C-5/C-6/C-7: a draw or pass is the only choice; a drawn tile is the only tile."""
    kinds = {a.kind for a in legal}
    if kinds != {"play"}:
        assert len(legal) == 1, legal
        assert (legal[0].kind == "draw") == (len(state.boneyard) > KEEP_IN_BONEYARD)
    if state.drawn is not None:
        assert {a.tile for a in legal} == {state.drawn}
    if state.spinner is None:  # C-2: the highest double opens
        (only,) = legal
        top = max(t for h in state.hands for t in h if T.is_double(t))
        assert only.tile == top and only.arm is None and top in state.hands[state.turn]


def check_cross_round_over(event) -> None:
    """C-9 recomputed from the revealed hands."""
    hands = [[T.tile(*t) for t in h] for h in event["hands"]]
    assert event["pips"] == [T.hand_pips(h) for h in hands]
    out = event["winner"] if event["ending"] == "domino" else None
    if out is not None:
        assert hands[out] == []
    assert (event["winner"], event["points"]) == round_points(hands, event["ending"], out)


class MexicanTrainSweep(Sweep):
    budget = 150

    def __init__(self, rs, n):
        super().__init__(rs, n)
        self.check_every = 10 + 2 * n  # views grow with the players

    def options(self, seed):
        return {
            "rounds": 1 + seed % 3,
            "doubles": ("satisfy", "chain")[seed % 2],
            "first_turn_multi": seed % 5 != 0,
        }

    def step(self, state, legal, action, step):
        check_old_round_events(step, action)
        if step.state.round_no != state.round_no:
            assert step.state.round_no == state.round_no + 1

    def final(self, state, options):
        """T-2 engines, T-12 scoring (out scores 0), T-13 one round after another."""
        n = self.n
        outcome = self.rs.outcome(state)
        log_rounds = state.rounds_log
        assert [r["round"] for r in log_rounds] == list(range(1, options["rounds"] + 1))
        assert [r["engine"] for r in log_rounds] == [12 - i for i in range(options["rounds"])]
        assert list(outcome.scores) == [sum(r["scores"][s] for r in log_rounds) for s in range(n)]
        assert set(outcome.winners) == {
            s for s in range(n) if outcome.scores[s] == min(outcome.scores)
        }
        for r in log_rounds:
            assert all(r["scores"][s] == 0 for s in r["out"])
            assert (r["ending"] == "out") == bool(r["out"])


SWEEPS: dict[str, type[Sweep]] = {
    "gaple": GapleSweep,
    "moon": MoonSweep,
    "cross": CrossSweep,
    "mexican_train": MexicanTrainSweep,
}
CASES = [
    (game, n)
    for game in available()
    for n in range(get_ruleset(game).min_seats, get_ruleset(game).max_seats + 1)
]


def sweep(game: str, n: int, seeds: range, sparse: int | None = None) -> None:
    """Play the seeded random matches ``seeds``. ``sparse`` (long sweeps): the full, events,
    refusal and move-validation checks only on every such step and every tenth notable one (a
    round's end or deal), and no fully checked match; every match's end is checked in full."""
    rs = get_ruleset(game)
    hooks = SWEEPS.get(game, Sweep)(rs, n)
    for seed in seeds:
        options = hooks.options(seed)
        if sparse is not None:
            every = dict(
                check_every=sparse,
                events_every=sparse,
                refuse_every=sparse,
                validate_every=sparse,
                notable_every=10,
            )
        elif seed % FULL_MATCH_EVERY == 0:
            every = dict(check_every=1, refuse_every=1)
        else:
            every = dict(check_every=hooks.check_every, refuse_every=hooks.refuse_every)
        state, log = playout(rs, options, n, seed, extra=hooks.step, **every)
        hooks.final(state, options)
        if seed % REPLAY_EVERY == 0:
            assert replay(rs, options, n, seed, log) == state, f"seed {seed} replays differently"
    hooks.finish()


def quick(game: str, n: int) -> int:
    """How many of the budget's seeds the quick test plays."""
    return max(1, SWEEPS.get(game, Sweep)(get_ruleset(game), n).budget // QUICK_SHARE)


@pytest.mark.parametrize(("game", "n"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_random_matches_keep_every_invariant(game, n):
    sweep(game, n, range(quick(game, n)))


@pytest.mark.slow
@pytest.mark.parametrize(("game", "n"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_more_random_matches_keep_every_invariant(game, n):
    """The rest of the budget."""
    budget = SWEEPS.get(game, Sweep)(get_ruleset(game), n).budget
    sweep(game, n, range(quick(game, n), budget))


def test_every_game_is_swept():
    """The sweep covers the whole registry; a game's own hooks are optional."""
    assert {g for g, _ in CASES} == set(available())
    assert set(SWEEPS) <= set(available())


MOON_CHUNK = 200  # matches per test, so that parallel workers can share the sweep evenly


@pytest.mark.slow
@pytest.mark.skipif(not MOON_MATCHES, reason="set MOON_PLAYOUT_MATCHES to sweep whole matches")
@pytest.mark.parametrize(
    ("n", "first"),
    [(n, first) for n in (4, 3) for first in range(0, MOON_MATCHES, MOON_CHUNK) or [0]],
)
def test_whole_random_moon_matches(n, first):
    """The matches after the budget, up to MOON_PLAYOUT_MATCHES."""
    budget = MoonSweep(get_ruleset("moon"), n).budget  # those seeds are the other tests'
    sweep("moon", n, range(max(first, budget), min(first + MOON_CHUNK, MOON_MATCHES)), sparse=50)


PAIRS = st.lists(st.integers(-1, 13), min_size=2, max_size=2)  # tiles, scores, counts...
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 14) | st.text('[],:"tile0123', max_size=8) | PAIRS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["tile", "tiles", "hand", "scores"]) | st.text("tiles", max_size=4),
            inner,
            max_size=4,
        )
    ),
    max_leaves=24,
)


@settings(database=None)
@given(JSON_VALUES)
def test_the_text_scan_finds_every_tile_the_walk_finds(value):
    """The harness's fast O-2 scan of a view's JSON text is only as strong as this: every tile
    ``tiles_in`` finds in the parsed value (pips are never negative) is in the text scan."""
    data = orjson.dumps(value)
    walked = {t for t in tiles_in(orjson.loads(data)) if t[0] >= 0}
    assert walked <= pairs_text(data, TILE_TEXT) <= pairs_text(data)


class _Broken:
    """A ruleset with one fault, to show the sampled checks still catch it."""

    def __init__(self, rs, fault: str):
        self.rs, self.fault = rs, fault

    def __getattr__(self, name):
        return getattr(self.rs, name)

    def view(self, state, seat):
        view = self.rs.view(state, seat)
        if self.fault == "leak":
            return {**view, "peek": sorted(self.rs.hidden_tiles(state, seat))[-1:]}
        return view

    def is_legal(self, state, seat, action):
        return self.fault == "accepts anything" or self.rs.is_legal(state, seat, action)

    def apply(self, state, seat, action):
        if self.fault == "accepts anything" and self.rs.to_act(state) is not None:
            try:
                return self.rs.apply(state, seat, action)
            except GameError:  # accepted anyway: the state stays as it was
                return Step(state, ())
        return self.rs.apply(state, seat, action)


@pytest.mark.parametrize(
    ("fault", "message"), [("leak", "hidden tiles"), ("accepts anything", "not refused")]
)
def test_the_harness_catches_a_broken_ruleset(fault, message):
    rs = _Broken(get_ruleset("gaple"), fault)
    with pytest.raises(AssertionError, match=message):
        for seed in range(20):
            playout(rs, {}, 4, seed, check_every=5, refuse_every=7)
