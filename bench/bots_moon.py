"""Measure the Moon bot: a team of two bots against two random-legal players.

    .venv/bin/python bench/bots_moon.py --matches 1000            # 4 players, the issue's figure
    .venv/bin/python bench/bots_moon.py --matches 1000 --players 3  # one bot, two random players
    .venv/bin/python bench/bots_moon.py --matches 300 --self-play   # bots only: bid statistics

Match k uses seed k (and ``random.Random(k)`` for the random players), and the bots sit on side
k % 2 (seats 0+2 or 1+3; with three players seat k % 3), so the figure is reproducible and does
not favour a seat. Prints the bots' win rate and the contracts' made rate.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.bots import choose, random_legal  # noqa: E402
from app.games.registry import get_ruleset  # noqa: E402

RS = get_ruleset("moon")


def play_match(seed: int, players: int, bot_seats: set[int]):
    """Play one seeded match; returns (final state, contracts as (seat, value, made))."""
    rng = random.Random(seed)
    state = RS.new_state({"players": players}, players, seed)
    contracts = []
    while (seat := RS.to_act(state)) is not None:
        view = RS.view(state, seat)
        pick = choose("moon", view, rng) if seat in bot_seats else random_legal(view, rng)
        step = RS.apply(state, seat, RS.parse_action(pick))
        for event in step.events:
            if event["type"] == "round_over":
                contracts.append((event["bidder"], event["contract"], event["made"]))
        state = step.state
    return state, contracts


def bot_seats(seed: int, players: int, self_play: bool) -> set[int]:
    if self_play:
        return set(range(players))
    return {seed % 2, seed % 2 + 2} if players == 4 else {seed % players}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--self-play", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    wins = 0
    bids: Counter = Counter()
    made: Counter = Counter()
    rounds = 0
    for seed in range(args.matches):
        seats = bot_seats(seed, args.players, args.self_play)
        state, contracts = play_match(seed, args.players, seats)
        outcome = RS.outcome(state)
        assert outcome is not None  # play_match plays the match to its end
        wins += bool(seats & set(outcome.winners))
        rounds += len(contracts)
        for bidder, value, ok in contracts:
            who = "bot" if bidder in seats else "random"
            bids[who, value] += 1
            made[who] += ok
    seconds = time.perf_counter() - start
    if not args.self_play:
        print(f"bots won {wins}/{args.matches} matches ({100 * wins / args.matches:.1f}%)")
    print(f"{rounds} rounds, {rounds / args.matches:.1f} per match, {seconds:.1f} s")
    for who in ("bot", "random"):
        total = sum(c for (w, _), c in bids.items() if w == who)
        if total:
            spread = ", ".join(f"{v}: {bids[who, v]}" for v in (4, 5, 6, 7, 21))
            print(f"{who} contracts {total} ({spread}); made {100 * made[who] / total:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
