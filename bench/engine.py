"""Rules-engine throughput: random legal playouts per ruleset, in rounds/s and actions/s.

    python bench/engine.py [--seconds 3] [--game gaple] [--vs-dominoes]

Each ruleset plays seeded matches with uniformly random legal actions (the service's per-move
work minus I/O: legal_actions + apply). ``--vs-dominoes`` runs the `dominoes` PyPI package's
4-player block game the same way in the same process and prints the ratio Gaple / dominoes.
A Gaple "round" is one Gaple state; for the other games the unit is a whole match.
Times are CPU time of this process (``time.process_time``), so other load on a shared machine
does not count against either side; the Gaple/dominoes comparison also alternates short windows
of each and reports the median ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.registry import available, get_ruleset  # noqa: E402

SEATS = {"gaple": 4, "moon": 4, "cross": 4, "mexican_train": 4}
OPTIONS = {"mexican_train": {"rounds": 13}}
WINDOWS = 10


def bench_ruleset(game: str, seconds: float, first_seed: int = 0) -> tuple[float, float]:
    rs = get_ruleset(game)
    n, options = SEATS.get(game, rs.default_seats), OPTIONS.get(game, {})
    rounds, actions = first_seed, 0
    deadline = time.process_time() + seconds
    started = time.process_time()
    while time.process_time() < deadline:
        rng = random.Random(rounds)
        state = rs.new_state(options, n, rounds)
        while (seat := rs.to_act(state)) is not None:
            state = rs.apply(state, seat, rng.choice(rs.legal_actions(state, seat))).state
            actions += 1
        rounds += 1
    elapsed = time.process_time() - started
    return (rounds - first_seed) / elapsed, actions / elapsed


def bench_dominoes(seconds: float) -> tuple[float, float]:
    import dominoes

    rounds = actions = 0
    deadline = time.process_time() + seconds
    started = time.process_time()
    while time.process_time() < deadline:
        rng = random.Random(rounds)
        game = dominoes.Game.new(starting_player=rng.randrange(4))
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))
            actions += 1
        rounds += 1
    elapsed = time.process_time() - started
    return rounds / elapsed, actions / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument(
        "--game",
        action="append",
        choices=available(),
        help="repeatable; default: every available game",
    )
    parser.add_argument("--vs-dominoes", action="store_true")
    args = parser.parse_args()
    rows = [(g, *bench_ruleset(g, args.seconds)) for g in args.game or available()]
    if args.vs_dominoes:
        rows.append(("dominoes (PyPI)", *bench_dominoes(args.seconds)))
    print(f"{'engine':<18}{'rounds/s':>12}{'actions/s':>12}")
    for name, rps, aps in rows:
        print(f"{name:<18}{rps:>12.0f}{aps:>12.0f}")
    if args.vs_dominoes:
        ratios = []
        for window in range(WINDOWS):
            gaple = bench_ruleset("gaple", args.seconds / WINDOWS, first_seed=window * 100_000)
            ratios.append(gaple[0] / bench_dominoes(args.seconds / WINDOWS)[0])
        ratios.sort()
        print(
            f"gaple / dominoes rounds/s: median {statistics.median(ratios):.2f}x over "
            f"{WINDOWS} alternating windows (min {ratios[0]:.2f}x, max {ratios[-1]:.2f}x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
