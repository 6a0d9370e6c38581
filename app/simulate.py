"""``python -m app simulate``: bots play many seeded matches; prints what happened.

Every seat is played by the game's bot, except the seats named by ``--random-seats``, which play
uniformly random legal moves: that is how a bot's strength is measured against the baseline
(e.g. Gaple ``--random-seats 1,2,3``). Forced moves (docs/rules.md O-4) are applied as the server
applies them. Match ``i`` uses seed ``--seed + i``, so every figure is reproducible.
Game-specific figures come from ``ruleset.match_stats``: numbers are averaged, words counted.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter, defaultdict
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress

from app.games import bots
from app.games.errors import BadOptions
from app.games.registry import available, get_ruleset


def play_match(game: str, n_seats: int, seed: int, options: dict, random_seats=frozenset()):
    """One seeded match; returns (final state, number of actions)."""
    rs = get_ruleset(game)
    rng = random.Random(seed)
    state = rs.new_state(options, n_seats, seed)
    actions = 0
    while (seat := rs.to_act(state)) is not None:
        forced = rs.forced_action(state)
        if forced is None:
            view = rs.view(state, seat)
            pick = (
                bots.random_legal
                if seat in random_seats
                else (lambda v, r: bots.choose(game, v, r))
            )
            forced = rs.parse_action(pick(view, rng))
        state = rs.apply(state, seat, forced).state
        actions += 1
    return state, actions


def run(
    game: str, n_seats: int, matches: int, seed: int, options: dict, random_seats, progress=None
) -> dict[str, Any]:
    rs = get_ruleset(game)
    wins: Counter = Counter()
    score_sums = [0] * n_seats
    numbers: dict[str, float] = defaultdict(float)
    words: dict[str, Counter] = defaultdict(Counter)
    total_actions = 0
    started = time.perf_counter()
    for i in range(matches):
        state, actions = play_match(game, n_seats, seed + i, options, random_seats)
        outcome = rs.outcome(state)
        assert outcome is not None  # play_match plays to the end
        total_actions += actions
        wins.update(outcome.winners)
        score_sums = [a + b for a, b in zip(score_sums, outcome.scores)]
        for key, value in rs.match_stats(state).items():
            if isinstance(value, str):
                words[key][value] += 1
            else:
                numbers[key] += value
        if progress:
            progress(i + 1, matches)
    return {
        "game": game,
        "players": n_seats,
        "matches": matches,
        "seed": seed,
        "random_seats": sorted(random_seats),
        "seconds": round(time.perf_counter() - started, 2),
        "actions_per_match": round(total_actions / matches, 2),
        "win_rate_by_seat": [round(wins[s] / matches, 4) for s in range(n_seats)],
        "score_total_by_seat": score_sums,
        "averages": {k: round(v / matches, 3) for k, v in sorted(numbers.items())},
        "distributions": {
            k: {w: round(c / matches, 4) for w, c in sorted(v.items())}
            for k, v in sorted(words.items())
        },
    }


def render(report: dict[str, Any]) -> str:
    seats = range(report["players"])
    bot = [s for s in seats if s not in report["random_seats"]]
    lines = [
        f"{report['game']}: {report['matches']} matches, {report['players']} players, "
        f"seeds {report['seed']}..{report['seed'] + report['matches'] - 1}, "
        f"{report['seconds']} s",
        f"bot seats {bot}, random-legal seats {report['random_seats']}",
        f"{'actions per match':<28}{report['actions_per_match']}",
    ]
    lines.append(f"{'seat':<28}" + "".join(f"{s:>10}" for s in seats))
    lines.append(f"{'wins':<28}" + "".join(f"{w:>10.1%}" for w in report["win_rate_by_seat"]))
    lines.append(
        f"{'score / chips won (total)':<28}"
        + "".join(f"{v:>10}" for v in report["score_total_by_seat"])
    )
    for key, value in report["averages"].items():
        lines.append(f"{key + ' (average)':<28}{value}")
    for key, dist in report["distributions"].items():
        lines.append(f"{key}:")
        lines.extend(f"  {word:<26}{share:>8.1%}" for word, share in dist.items())
    return "\n".join(lines)


@click.command()
@click.option("--game", type=click.Choice(available()), default="gaple", show_default=True)
@click.option("--players", type=click.IntRange(1), help="seats  [default: the game's usual count]")
@click.option(
    "--rounds",
    "--matches",
    "matches",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="matches to play (a Gaple match is one round)",
)
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the first match")
@click.option("--options", "raw_options", default="{}", help="table options as a JSON object")
@click.option(
    "--random-seats", default="", help="comma-separated seats played by random legal moves"
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, writable=True),
    help="also write the report as JSON to this file",
)
def simulate(
    game: str,
    players: int | None,
    matches: int,
    seed: int,
    raw_options: str,
    random_seats: str,
    json_path: str | None,
) -> None:
    """Let bots play many seeded matches and print what happened."""
    rs = get_ruleset(game)
    n_seats = players or rs.default_seats
    if not rs.min_seats <= n_seats <= rs.max_seats:
        raise click.BadParameter(
            f"{game} seats {rs.min_seats} to {rs.max_seats} players", param_hint="--players"
        )
    try:
        seats = frozenset(int(s) for s in random_seats.split(",") if s.strip())
    except ValueError:
        raise click.BadParameter("seat numbers, e.g. 1,2,3", param_hint="--random-seats") from None
    if not seats <= set(range(n_seats)):
        raise click.BadParameter(f"seats are 0 to {n_seats - 1}", param_hint="--random-seats")
    try:
        options = json.loads(raw_options)
    except ValueError as err:
        raise click.BadParameter(f"not JSON ({err})", param_hint="--options") from None
    try:
        rs.parse_options(options, n_seats)  # fail fast with the option's name
    except BadOptions as err:
        raise click.BadParameter(str(err), param_hint="--options") from None
    stderr = Console(stderr=True)
    with Progress(console=stderr, transient=True, disable=not stderr.is_terminal) as bar:
        task = bar.add_task(f"{game}, {n_seats} players", total=matches)
        report = run(
            game,
            n_seats,
            matches,
            seed,
            options,
            seats,
            lambda done, total: bar.update(task, completed=done),
        )
    click.echo(render(report))
    if json_path:
        with open(json_path, "w") as f:
            json.dump(report, f, indent=2)
