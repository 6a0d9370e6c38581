"""Domino Cross beyond the shared random playouts (test_playouts.py): ``is_legal`` agrees with
``legal_actions`` on every action in random matches, bots finish matches, and the bot's edge over
random play.
"""

import random

import pytest

from app.games import tiles as T
from app.games.bots import cross as bot
from app.games.bots import random_legal
from app.games.registry import get_ruleset

RS = get_ruleset("cross")
FULL_SET = sorted(T.DOUBLE_SIX)


def options_for(seed: int) -> dict:
    return {"draw_until_playable": seed % 2 == 1}


EVERY_ACTION = [
    RS.parse_action(raw)
    for raw in (
        [{"kind": "draw"}, {"kind": "pass"}]
        + [{"kind": "play", "tile": list(t)} for t in FULL_SET]
        + [{"kind": "play", "tile": list(t), "arm": arm} for t in FULL_SET for arm in "nesw"]
    )
]


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
    wins = sum(bot_match(seed, 2, {seed % 2}).result["winner"] == seed % 2 for seed in range(100))
    assert wins >= 75, f"the bot won only {wins} of 100 matches against random play"
