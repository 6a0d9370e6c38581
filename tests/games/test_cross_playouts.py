"""Seeded random Domino Cross matches, 2,000 for each of 2, 3 and 4 players, keeping the shared
harness's invariants and Cross's own, plus bot matches and the bot's edge over random play.

The shared ``playout`` runs the loop. A step that ends a round also deals the next one, so the
events up to ``round_over`` belong to the old round (they may name only the tile just played,
and ``round_over`` is recomputed) and the deal's events are checked against the new round. The
full ``check_state`` (every seat's view scanned for hidden tiles, JSON round trip, legal JSON)
runs on every step of every ``FULL_MATCH_EVERY``-th match and on every ``FULL_STEP_EVERY``-th
step of the others; the cheap checks (tiles conserved, legal actions, the step's public events)
run on every step, refusals on every 7th. Half the matches use ``draw_until_playable``.
"""

import random

import pytest

from app.games import tiles as T
from app.games.bots import cross as bot
from app.games.bots import random_legal
from app.games.cross import KEEP_IN_BONEYARD, hand_size, round_points
from app.games.registry import get_ruleset

from .playout import check_old_round_events, playout, replay, round_end_cut

RS = get_ruleset("cross")
FULL_SET = sorted(T.DOUBLE_SIX)
MATCHES = 2000
FULL_MATCH_EVERY = 200
FULL_STEP_EVERY = 200


def options_for(seed: int) -> dict:
    return {"draw_until_playable": seed % 2 == 1}


def random_illegal(state, rng: random.Random):
    """A well-formed action that is not legal now, or None when none was found quickly."""
    legal = set(RS.legal_actions(state, state.turn))
    for _ in range(10):
        raw = rng.choice([
            {"kind": "play", "tile": list(rng.choice(FULL_SET)),
             "arm": rng.choice(["n", "e", "s", "w"])},
            {"kind": "play", "tile": list(rng.choice(FULL_SET))},
            {"kind": rng.choice(["draw", "pass"])},
        ])
        action = RS.parse_action(raw)
        if action not in legal:
            return action
    return None


def check_legal(state, legal) -> None:
    """C-5/C-6/C-7: a draw or pass is the only choice; a drawn tile is the only tile."""
    kinds = {a.kind for a in legal}
    if kinds != {"play"}:
        assert len(legal) == 1, legal
        assert (legal[0].kind == "draw") == (len(state.boneyard) > KEEP_IN_BONEYARD)
    if state.drawn is not None:
        assert {a.tile for a in legal} == {state.drawn}
    if state.spinner is None:
        (only,) = legal
        top = max(t for h in state.hands for t in h if T.is_double(t))
        assert only.tile == top and only.arm is None and top in state.hands[state.turn]


def check_round_over(event, n: int) -> None:
    """C-9 recomputed from the revealed hands."""
    hands = [[T.tile(*t) for t in h] for h in event["hands"]]
    assert event["pips"] == [T.hand_pips(h) for h in hands]
    out = event["winner"] if event["ending"] == "domino" else None
    if out is not None:
        assert hands[out] == []
    assert (event["winner"], event["points"]) == round_points(hands, event["ending"], out)


def check_step(state, legal, action, step) -> None:
    """Cross's own checks of one step: boneyard floor, C-5/C-6/C-7 choices, C-9 scoring,
    what the events name, and the next round's deal."""
    n = state.n
    assert len(state.boneyard) >= KEEP_IN_BONEYARD
    check_legal(state, legal)
    check_old_round_events(step, action)
    cut = round_end_cut(step.events)
    for event in step.events[:cut]:
        if event["type"] == "round_over":
            check_round_over(event, n)
    if not cut and action.kind == "play":  # a plain move names no tile but the one it plays
        assert step.events[0]["tile"] == list(action.tile) and len(step.events) == 1
    new = step.state
    if new.round_no != state.round_no:  # C-10 next round, C-1 deal, C-2 opener
        assert new.round_no == state.round_no + 1
        assert "round_started" in [e["type"] for e in step.events]
        assert [len(h) for h in new.hands] == [hand_size(n)] * n
        assert new.spinner is None and new.turn == new.opener


def checked_match(seed: int, n: int, options: dict):
    every = 1 if seed % FULL_MATCH_EVERY == 0 else FULL_STEP_EVERY
    return playout(RS, options, n, seed, full_set=FULL_SET, check_every=every, refuse_every=7,
                   illegal=random_illegal, extra=check_step)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_matches_keep_every_invariant(n):
    endings = set()
    for seed in range(MATCHES):
        options = options_for(seed)
        state, log = checked_match(seed, n, options)
        outcome = RS.outcome(state)
        (winner,) = outcome.winners
        totals = [0] * n
        for r in state.rounds:
            assert max(totals) < 100, "a round was dealt after someone reached the target"
            endings.add(r["ending"])
            if r["winner"] is not None:
                totals[r["winner"]] += r["points"]
        assert tuple(totals) == outcome.scores == state.scores
        assert outcome.scores[winner] >= 100 > sorted(outcome.scores)[-2]
        assert [r["round"] for r in state.rounds] == list(range(1, state.round_no + 1))
        if seed % 50 == n:
            assert replay(RS, options, n, seed, log) == state
    assert endings == {"domino", "blocked"}


EVERY_ACTION = [RS.parse_action(raw) for raw in (
    [{"kind": "draw"}, {"kind": "pass"}]
    + [{"kind": "play", "tile": list(t)} for t in FULL_SET]
    + [{"kind": "play", "tile": list(t), "arm": arm} for t in FULL_SET for arm in "nesw"])]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_is_legal_agrees_with_legal_actions(n):
    """``apply`` asks the fast ``is_legal``; it must answer exactly as ``legal_actions`` lists."""
    for seed in range(12):
        rng = random.Random(seed)
        state = RS.new_state(options_for(seed), n, seed)
        while (seat := RS.to_act(state)) is not None:
            legal = set(RS.legal_actions(state, seat))
            assert {a for a in EVERY_ACTION if RS.is_legal(state, seat, a)} == legal
            state = RS.apply(state, seat, rng.choice(sorted(legal, key=str))).state


def bot_match(seed: int, n: int, bot_seats, options=None):
    state = RS.new_state(options or {}, n, seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(n)]
    while (seat := RS.to_act(state)) is not None:
        forced = RS.forced_action(state)
        if forced is None:
            view = RS.view(state, seat)
            raw = (bot.choose if seat in bot_seats else random_legal)(view, rngs[seat])
            assert raw in view["legal"]
            forced = RS.parse_action(raw)
        state = RS.apply(state, seat, forced).state
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bots_finish_matches(n):
    for seed in range(20):
        state = bot_match(seed, n, set(range(n)), options_for(seed))
        assert max(state.scores) >= 100


def test_bot_beats_a_random_player():
    """The figure for 1,000 matches comes from bench/bots_cross.py; 100 here stay fast."""
    wins = sum(bot_match(seed, 2, {seed % 2}).result["winner"] == seed % 2
               for seed in range(100))
    assert wins >= 75, f"the bot won only {wins} of 100 matches against random play"
