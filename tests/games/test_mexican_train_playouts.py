"""Seeded random Mexican Train matches (2-8 players, a few rounds each) keeping every invariant
of the shared harness, plus bot matches and the bot's edge over random players.

The shared ``playout`` runs the loop and checks the deal's events against the new round; a step
that ends a round also deals the next one, so the events up to ``round_over`` belong to the old
round (they may name only the tile just played). The full ``check_state`` (views of every seat,
JSON round trip, legal JSON) runs on every ``full_every(n)``-th step and around every round
change, cheap checks on every step, refusals on every 7th.
"""

import random

import pytest

from app.games import tiles as T
from app.games.bots import mexican_train as bot
from app.games.bots import random_legal
from app.games.registry import get_ruleset

from .playout import check_old_round_events, check_state, playout, replay

RS = get_ruleset("mexican_train")
FULL_SET = sorted(T.DOUBLE_TWELVE)
MATCHES = 1000


def full_every(n: int) -> int:
    """Views grow with the players: check them fully a little less often at big tables."""
    return 10 + 2 * n


def options_for(seed: int) -> dict:
    return {"rounds": 1 + seed % 3, "doubles": ("satisfy", "chain")[seed % 2],
            "first_turn_multi": seed % 5 != 0}


def random_illegal(state, rng: random.Random):
    """A well-formed action that is not legal now (a random tile on a random train, or a draw)."""
    legal = set(RS.legal_actions(state, state.turn))
    for _ in range(20):
        raw = rng.choice([
            {"kind": "play", "tile": list(rng.choice(FULL_SET)),
             "train": rng.choice([*range(state.n), "mexican"])},
            {"kind": rng.choice(["draw", "pass", "end_turn"])},
        ])
        action = RS.parse_action(raw)
        if action not in legal:
            return action
    return None


def check_step(state, legal, action, step) -> None:
    """What the old round's events name; the full check on the new round after a round change."""
    check_old_round_events(step, action)
    if step.state.round_no != state.round_no:
        assert step.state.round_no == state.round_no + 1
        check_state(RS, step.state, state.n, FULL_SET)


def checked_match(seed: int, n: int, options: dict):
    return playout(RS, options, n, seed, full_set=FULL_SET, check_every=full_every(n),
                   refuse_every=7, illegal=random_illegal, extra=check_step)


@pytest.mark.parametrize("n", range(2, 9))
def test_random_matches_keep_every_invariant(n):
    seeds = [s for s in range(MATCHES) if 2 + s % 7 == n]
    for seed in seeds:
        options = options_for(seed)
        state, log = checked_match(seed, n, options)
        outcome = RS.outcome(state)
        log_rounds = state.rounds_log
        assert [r["round"] for r in log_rounds] == list(range(1, options["rounds"] + 1))
        assert [r["engine"] for r in log_rounds] == [12 - i for i in range(options["rounds"])]
        assert list(outcome.scores) == [sum(r["scores"][s] for r in log_rounds) for s in range(n)]
        assert set(outcome.winners) == {s for s in range(n) if outcome.scores[s] == min(
            outcome.scores)}
        for r in log_rounds:
            assert all(r["scores"][s] == 0 for s in r["out"])
            assert (r["ending"] == "out") == bool(r["out"])
        if seed % 40 == n:
            assert replay(RS, options, n, seed, log) == state


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
            range(12, 12 - options["rounds"], -1))


def test_bot_beats_three_random_players():
    """The figure for 300 matches is in bench/bots_mexican_train.py; 40 here stay fast."""
    wins = 0
    for seed in range(40):
        me = seed % 4
        totals = RS.outcome(bot_match(seed, 4, {"rounds": 3}, {me})).scores
        wins += totals[me] == min(totals)
    assert wins >= 24, f"the bot had the lowest total in only {wins} of 40 matches"
