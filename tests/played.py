"""Whole matches played by the bots through the rules (no server), as the records writer's
``match`` entries, so a test can store a real, replayable match with a known course."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from app.games import bots
from app.games.registry import get_ruleset
from tests.stats.records import match


def played(game: str, options: dict, n: int, seed: int) -> tuple[dict, list[dict], list]:
    """(outcome JSON, the action log, each seat's dealt hand) of a match the bots play out."""
    rs = get_ruleset(game)
    state = rs.new_state(options, n, seed)
    hands = [rs.view(state, s)["hand"] for s in range(n)]
    rng, log = random.Random(seed), []
    while (seat := rs.to_act(state)) is not None:
        action = bots.choose(game, rs.view(state, seat), rng)
        state = rs.apply(state, seat, rs.parse_action(action)).state
        log.append({"seat": seat, "v": len(log) + 1, "action": action})
    outcome = rs.outcome(state)
    assert outcome is not None
    return outcome.to_json(), log, hands


def entry(game: str, players: list, options: dict, seed: int, at: datetime | None = None):
    """(the ``match`` entry, its action log, the dealt hands) of a match the bots play out."""
    result, log, hands = played(game, options, len(players), seed)
    e = match(game, players, result["winners"], result["scores"], at or datetime.now(UTC))
    e.update(options=options, seed=str(seed), result=result, moves=log)
    return e, log, hands
