"""A stand-in for the live table where it touches money, for testing chips & records
without the server: buy-in before sitting, each move's outbox entries written atomically with
the table state (MULTI/EXEC, as the compare-and-set script does), cash-outs through the outbox.
"""

from __future__ import annotations

import random
import uuid

from app.games.gaple import RULESET as GAPLE
from app.services import money
from app.services.table import outbox
from app.store.keys import Keys, bucket_of
from app.store.outbox import FIELD, OutboxConsumer


class SimTable:
    def __init__(self, redis, sessions, prefix: str, stake: int = 10):
        self.redis, self.sessions, self.prefix, self.stake = redis, sessions, prefix, stake
        self.tid = "T" + uuid.uuid4().hex[:8]
        self.version = 0
        self.match_no = 0
        self.players: list[int | None] = [None] * 4
        self.stacks = [0] * 4
        self.sit_version = [0] * 4
        self.events: list[tuple[int, dict]] = []  # (version, event)
        self.bought: dict[int, int] = {}
        self.cashed: dict[int, int] = {}

    @property
    def stream(self) -> str:
        return Keys(self.prefix).outbox(self.tid)

    async def open(self) -> None:
        await self.redis.sadd(Keys(self.prefix).outboxes(bucket_of(self.tid)), self.tid)

    async def _commit(self, entries: list[outbox.Entry]) -> None:
        """One atomic table change: the new version and its outbox entries."""
        self.version += 1
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(Keys(self.prefix).base(self.tid) + ":v", self.version)
            for e in entries:
                pipe.xadd(self.stream, {FIELD: outbox.dumps(e)})
            await pipe.execute()

    async def sit(self, seat: int, player_id: int, amount: int) -> None:
        sit = self.version + 1
        await money.buy_in(
            self.sessions,
            player_id,
            self.tid,
            seat,
            amount,
            key=money.buy_in_key(self.tid, seat, sit),
        )
        self.players[seat], self.stacks[seat], self.sit_version[seat] = player_id, amount, sit
        self.bought[player_id] = self.bought.get(player_id, 0) + amount
        await self._commit([])

    async def leave(self, seat: int) -> None:
        pid, amount = self.players[seat], self.stacks[seat]
        self.cashed[pid] = self.cashed.get(pid, 0) + amount
        await self._commit(
            [outbox.cash_out_entry(self.tid, seat, pid, amount, self.sit_version[seat])]
        )
        self.players[seat], self.stacks[seat] = None, 0

    async def play_round(self, seed: int, field: str) -> dict:
        """One Gaple round (a match, G-12) with random legal moves; returns the final result."""
        self.match_no += 1
        options = {"stake": self.stake, "field": field, "stacks": list(self.stacks)}
        ctx = outbox.MatchContext(
            self.tid, self.match_no, "gaple", seed, options, list(self.players), started_at=None
        )
        state = GAPLE.new_state(options, 4, seed)
        rng, log = random.Random(seed), []
        while (seat := GAPLE.to_act(state)) is not None:
            action = rng.choice(GAPLE.legal_actions(state, seat))
            step = GAPLE.apply(state, seat, action)
            v = self.version + 1
            log.append({"seat": seat, "v": v, "action": action.to_json()})
            entries = outbox.step_entries(ctx, v, step, log)
            await self._commit(entries)
            self.events.extend((v, e) for e in step.events)
            state = step.state
        self.stacks = list(state.stacks)
        return state.result


async def drain(consumer: OutboxConsumer, rounds: int = 200) -> None:
    """Run the consumer until every entry is written."""
    for _ in range(rounds):
        await consumer.run_once(block_ms=1)
        if await consumer.backlog() == 0:
            return
    raise AssertionError("the outbox did not drain")


def random_round(seed: int) -> str:
    """The multiplier a round reaches when ``play_round`` plays seed (stacks do not matter)."""
    rng, state = random.Random(seed), GAPLE.new_state({"stake": 10, "stacks": [10**6] * 4}, 4, seed)
    while (seat := GAPLE.to_act(state)) is not None:
        state = GAPLE.apply(state, seat, rng.choice(GAPLE.legal_actions(state, seat))).state
    return state.result["multiplier"]["name"]


def seeds_with_every_multiplier(extra: int = 0) -> list[int]:
    """The first seed ending in each G-9 multiplier, then ``extra`` more seeds."""
    found: dict[str, int] = {}
    seed = 0
    while len(found) < 5:
        found.setdefault(random_round(seed), seed)
        seed += 1
    seeds = sorted(found.values())
    return seeds + [s for s in range(seed, seed + 200) if s not in seeds][:extra]
