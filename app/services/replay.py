"""``python -m app replay MATCH_ID``: re-run a stored match through its ruleset.

The database keeps each finished match's game, options, seed and action log; a ruleset is a
pure function of those, so applying the log to ``new_state(options, n_seats, seed)`` must end
in exactly the stored result. A mismatch means a record or a ruleset changed under us.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json

import click
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Match, Move
from app.db.session import make_engine, make_sessionmaker
from app.games.registry import get_ruleset


@dataclasses.dataclass(frozen=True)
class Replay:
    match_id: int
    ok: bool
    moves: int
    stored: dict | None
    replayed: dict | None
    problem: str = ""


def rerun(game: str, options: dict, n_seats: int, seed: int, moves: list[dict]) -> dict | None:
    """The outcome JSON of a match rebuilt from its record (None if it does not finish)."""
    rs = get_ruleset(game)
    state = rs.new_state(options, n_seats, seed)
    for mv in moves:
        state = rs.apply(state, mv["seat"], rs.parse_action(mv["action"])).state
    outcome = rs.outcome(state)
    return outcome.to_json() if outcome is not None else None


async def replay_match(db: async_sessionmaker[AsyncSession], match_id: int) -> Replay:
    async with db() as session:
        match = await session.get(Match, match_id)
        if match is None:
            return Replay(match_id, False, 0, None, None, "no such match")
        moves = (
            (
                await session.execute(
                    select(Move).where(Move.match_id == match_id).order_by(Move.seq)
                )
            )
            .scalars()
            .all()
        )
    if match.result is None or match.options is None or match.n_seats is None or match.seed is None:
        return Replay(match_id, False, len(moves), None, None, "the match has not finished")
    log = [{"seat": m.seat, "action": m.action} for m in moves]
    try:
        replayed = rerun(match.game, match.options, match.n_seats, int(match.seed), log)
    except Exception as err:  # noqa: BLE001 - any refusal is a failed replay
        problem = f"{type(err).__name__}: {err}"
        return Replay(match_id, False, len(moves), match.result, None, problem)
    # Compare through JSON text so tuples/lists and int keys read the same on both sides.
    same = json.dumps(replayed, sort_keys=True) == json.dumps(match.result, sort_keys=True)
    return Replay(
        match_id,
        same,
        len(moves),
        match.result,
        replayed,
        "" if same else "the replayed result differs from the stored one",
    )


@click.command()
@click.argument("match_id", type=click.IntRange(min=1))
@click.option("--url", help="database URL  [default: DATABASE_URL, else the embedded SQLite file]")
def replay(match_id: int, url: str | None) -> None:
    """Re-run the stored match MATCH_ID through its ruleset and check its result
    (exit 1 when it differs)."""

    async def run() -> Replay:
        engine = make_engine(url)
        try:
            return await replay_match(make_sessionmaker(engine), match_id)
        finally:
            await engine.dispose()

    report = asyncio.run(run())
    if report.ok:
        click.echo(f"match {report.match_id}: {report.moves} moves replayed, result reproduced")
        return
    click.echo(f"match {report.match_id}: FAILED: {report.problem}")
    if report.replayed is not None:
        click.echo("stored:   " + json.dumps(report.stored, sort_keys=True))
        click.echo("replayed: " + json.dumps(report.replayed, sort_keys=True))
    raise SystemExit(1)
