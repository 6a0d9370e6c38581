"""Measure the Mexican Train bot against random legal players.

    .venv/bin/python bench/bots_mexican_train.py --matches 300 --players 4 --rounds 3

Match i is dealt from seed i; the bot sits in seat i % players and every other seat plays
uniformly random legal moves (forced draws and passes are applied as the server applies them,
O-4). Everyone sees only their own view. The bot "wins" a match when its total is the lowest
(T-12); shared lowest totals are counted separately. The same arguments print the same figure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.bots import mexican_train as bot  # noqa: E402
from app.games.bots import random_legal  # noqa: E402
from app.games.registry import get_ruleset  # noqa: E402

RS = get_ruleset("mexican_train")


def play_match(seed: int, n_seats: int, bot_seat: int, options: dict) -> tuple[int, ...]:
    """Play one match; returns the final totals."""
    state = RS.new_state(options, n_seats, seed)
    rngs = [random.Random(f"{seed}/{s}") for s in range(n_seats)]
    while (seat := RS.to_act(state)) is not None:
        action = RS.forced_action(state)
        if action is None:
            pick = bot.choose if seat == bot_seat else random_legal
            action = RS.parse_action(pick(RS.view(state, seat), rngs[seat]))
        state = RS.apply(state, seat, action).state
    outcome = RS.outcome(state)
    assert outcome is not None  # no one is to act: the match is over
    return outcome.scores


def measure(matches: int, n_seats: int, rounds: int, first_seed: int = 0) -> tuple[int, int]:
    """(matches the bot alone had the lowest total, matches it shared the lowest total)."""
    alone = shared = 0
    for seed in range(first_seed, first_seed + matches):
        me = seed % n_seats
        totals = play_match(seed, n_seats, me, {"rounds": rounds})
        if totals[me] == min(totals):
            if totals.count(totals[me]) == 1:
                alone += 1
            else:
                shared += 1
    return alone, shared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9))
    parser.add_argument("--rounds", type=int, default=3, choices=range(1, 14))
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    alone, shared = measure(args.matches, args.players, args.rounds, args.first_seed)
    print(
        f"mexican_train bot vs {args.players - 1} random, {args.rounds} rounds, "
        f"{args.matches} matches (seeds {args.first_seed}..{args.first_seed + args.matches - 1})"
        f": lowest total alone {alone / args.matches:.1%}, shared {shared / args.matches:.1%}, "
        f"together {(alone + shared) / args.matches:.1%} "
        f"({time.perf_counter() - start:.1f} s)"
    )


if __name__ == "__main__":
    main()
