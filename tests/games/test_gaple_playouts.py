"""Seeded random Gaple rounds for every player count, checking the shared invariants plus
Gaple's own: chips conserved, never negative, and determinism from (seed, actions)."""

import pytest

from app.games.registry import get_ruleset

from .playout import playout, replay

RS = get_ruleset("gaple")
ROUNDS = 2000


@pytest.mark.parametrize("n_seats", [2, 3, 4])
def test_random_rounds_keep_every_invariant(n_seats):
    for seed in range(ROUNDS):
        options = {"stake": 5, "field": "bet" if seed % 2 else "normal",
                   "stacks": [5 + (seed * 7 + s * 13) % 200 for s in range(n_seats)]}
        state, log = playout(RS, options, n_seats, seed)
        assert sum(state.stacks) == sum(options["stacks"]), "chips not conserved"
        assert min(state.stacks) >= 0
        outcome = RS.outcome(state)
        assert sum(outcome.scores) == 0
        if seed % 50 == 0:
            assert replay(RS, options, n_seats, seed, log) == state
