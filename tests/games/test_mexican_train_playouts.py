"""Mexican Train bots finishing whole matches at every table size, and the bot's edge over random
players (the random playouts of every game are in test_playouts.py).
"""

import random

import pytest

from app.games.bots import mexican_train as bot
from app.games.bots import random_legal
from app.games.registry import get_ruleset

RS = get_ruleset("mexican_train")


def bot_match(seed: int, n: int, options: dict, bot_seats) -> tuple:
    state = RS.new_state(options, n, seed)
    rng = random.Random(seed)
    while (seat := RS.to_act(state)) is not None:
        forced = RS.forced_action(state)
        if forced is None:
            view = RS.view(state, seat)
            raw = (bot.choose if seat in bot_seats else random_legal)(view, rng)
            assert raw in view["legal"]
            forced = RS.parse_action(raw)
        state = RS.apply(state, seat, forced).state
    return state


@pytest.mark.parametrize("n", range(2, 9))
def test_bots_finish_full_matches(n):
    for seed in range(3):
        options = {"rounds": 13 if seed == 0 else 2, "doubles": ("satisfy", "chain")[seed % 2]}
        state = bot_match(seed, n, options, set(range(n)))
        assert [r["engine"] for r in state.rounds_log] == list(
            range(12, 12 - options["rounds"], -1)
        )


def test_bot_beats_three_random_players():
    """The figure for 300 matches is in bench/bots_mexican_train.py; 40 here stay fast."""
    wins = 0
    for seed in range(40):
        me = seed % 4
        totals = RS.outcome(bot_match(seed, 4, {"rounds": 3}, {me})).scores
        wins += totals[me] == min(totals)
    assert wins >= 24, f"the bot had the lowest total in only {wins} of 40 matches"
