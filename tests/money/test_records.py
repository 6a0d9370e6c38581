"""Every game's finished match is stored once with its log, and replays to its stored result."""

from __future__ import annotations

import random
import uuid

import pytest
from sqlalchemy import func, select

from app.db.models import Match, MatchSeat, Move, Round
from app.games.registry import available, get_ruleset
from app.services import replay
from app.services.records import outbox_consumer
from app.services.table import outbox
from app.store.keys import Keys, bucket_of
from app.store.outbox import FIELD
from tests.money.sim import drain


def seats_for(rs) -> int:
    return max(rs.min_seats, min(4, rs.max_seats))


@pytest.mark.parametrize("game", available())
async def test_a_finished_match_of_every_game_is_stored_and_replays(redis, sessions, prefix, game):
    rs, tid, seed = get_ruleset(game), "T" + uuid.uuid4().hex[:8], 4242
    n = seats_for(rs)
    options = {"stacks": [1000] * n} if game == "gaple" else {}
    ctx = outbox.MatchContext(tid, 1, game, seed, options, [None] * n)
    state, rng, log, v = rs.new_state(options, n, seed), random.Random(seed), [], 0
    rounds = 0
    while (seat := rs.to_act(state)) is not None:
        action = rng.choice(rs.legal_actions(state, seat))
        step = rs.apply(state, seat, action)
        v += 1
        log.append({"seat": seat, "v": v, "action": action.to_json()})
        rounds += sum(e["type"] == "round_over" for e in step.events)
        for entry in outbox.step_entries(ctx, v, step, log):
            await redis.xadd(Keys(prefix).outbox(tid), {FIELD: outbox.dumps(entry)})
        state = step.state
    await redis.sadd(Keys(prefix).outboxes(bucket_of(tid)), tid)
    await drain(outbox_consumer(redis, sessions, prefix=prefix))
    async with sessions() as s:
        match = (await s.execute(select(Match))).scalar_one()
        assert (match.game, match.n_seats, match.seed) == (game, n, str(seed))
        assert match.result == rs.outcome(state).to_json()
        count = (await s.execute(select(func.count()).select_from(Move))).scalar()
        assert count == len(log)
        seats = (await s.execute(select(func.count()).select_from(MatchSeat))).scalar()
        assert seats == n
        stored_rounds = (await s.execute(select(func.count()).select_from(Round))).scalar()
        assert stored_rounds == rounds >= 1
    report = await replay.replay_match(sessions, match.id)
    assert report.ok and report.moves == len(log), report
