"""Measure the Domino Cross bot against a uniformly random legal player.

    .venv/bin/python bench/bots_cross.py --matches 1000 --players 2

Match i is dealt from seed i; the bot sits in seat i % players (so it opens as often as anyone)
and every other seat plays random legal moves. Both sides see only their own views. The figure
is reproducible: the same arguments print the same result.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.bots import cross as bot  # noqa: E402
from app.games.bots import random_legal  # noqa: E402
from app.games.registry import get_ruleset  # noqa: E402

RS = get_ruleset("cross")


def play_match(seed: int, n_seats: int, bot_seat: int, options: dict | None = None) -> int:
    """Play one match; returns the winning seat."""
    state = RS.new_state(options or {}, n_seats, seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(n_seats)]
    while (seat := RS.to_act(state)) is not None:
        view = RS.view(state, seat)
        pick = bot.choose if seat == bot_seat else random_legal
        action = RS.parse_action(pick(view, rngs[seat]))
        state = RS.apply(state, seat, action).state
    outcome = RS.outcome(state)
    assert outcome is not None  # no one is to act: the match is over
    return outcome.winners[0]


def win_rate(matches: int, n_seats: int = 2, first_seed: int = 0) -> float:
    wins = sum(
        play_match(seed, n_seats, seed % n_seats) == seed % n_seats
        for seed in range(first_seed, first_seed + matches)
    )
    return wins / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    rate = win_rate(args.matches, args.players, args.first_seed)
    print(
        f"cross bot vs random, {args.players} players, {args.matches} matches "
        f"(seeds {args.first_seed}..{args.first_seed + args.matches - 1}): "
        f"bot won {rate:.1%} ({time.perf_counter() - start:.1f} s)"
    )


if __name__ == "__main__":
    main()
