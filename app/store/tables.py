"""Table snapshots in Redis: load, compare-and-set, events, logs. Never interprets game state.

A table is one hash ``{v, doc}``: the version and the JSON table document (seats, stacks, the
dumped game state, the clock). Every change goes through ``cas`` (scripts/cas.lua), which checks
the version and writes the document, the command id, the events, the outbox entries, the action
log, the next deadline and the publication in one atomic step.

The process keeps the last snapshot of each table it has seen. A cached snapshot is trusted only
for tables the hub watches (it hears every new version of those through pub/sub); others are
reloaded. ``round_trips`` counts Redis round trips so tests can hold a move to one (cache current)
or two (cache stale or cold).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import orjson
from redis.asyncio import Redis

from ..metrics import count_round_trip
from .keys import Keys

SCRIPTS = Path(__file__).parent / "scripts"
LOG_TTL = 7 * 24 * 3600  # an action log outlives its match by far (records are built at the end)


@dataclasses.dataclass
class Snapshot:
    tid: str
    v: int
    doc: dict[str, Any]
    memo: dict[str, Any] = dataclasses.field(default_factory=dict)  # per-process derived data


@dataclasses.dataclass(frozen=True)
class CasResult:
    status: str  # "ok" | "dup" (command seen before) | "stale" (version moved on)
    v: int
    current: Snapshot | None = None  # "ok": the new snapshot; "stale": the table as it is now


class TableStore:
    def __init__(self, redis: Redis, keys: Keys, *, stream_len: int, command_ttl: int):
        self.redis = redis
        self.keys = keys
        self.stream_len = stream_len
        self.command_ttl = command_ttl
        self.round_trips = 0
        self.cache: dict[str, Snapshot] = {}
        self.heard: dict[str, int] = {}  # latest version announced on pub/sub, watched tables
        self._cas = redis.register_script((SCRIPTS / "cas.lua").read_text())

    # --- reading -------------------------------------------------------------------------------
    async def load(self, tid: str) -> Snapshot | None:
        self._trip()
        v, doc = await self.redis.hmget(self.keys.table(tid), ["v", "doc"])
        if v is None:
            return None
        return self._remember(Snapshot(tid, int(v), orjson.loads(doc)))

    async def snapshot(self, tid: str) -> Snapshot | None:
        """The cached snapshot when it is known to be current, else a fresh load."""
        snap = self.cache.get(tid)
        if snap is not None and tid in self.heard and snap.v >= self.heard[tid]:
            return snap
        return await self.load(tid)

    async def load_many(self, tids: list[str]) -> list[Snapshot]:
        if not tids:
            return []
        self._trip()
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in tids:
                pipe.hmget(self.keys.table(tid), ["v", "doc"])
            rows = await pipe.execute()
        return [Snapshot(tid, int(v), orjson.loads(doc))
                for tid, (v, doc) in zip(tids, rows) if v is not None]

    async def command_result(self, tid: str, cmd: str) -> int | None:
        self._trip()
        first = await self.redis.get(self.keys.command(tid, cmd))
        return int(first) if first is not None else None

    async def events_since(self, tid: str, after: int, upto: int) -> list[tuple[int, list]] | None:
        """Events of versions after..upto as (version, events); None when the stream no longer
        reaches back that far (the caller then sends a fresh state without the gap)."""
        if upto <= after:
            return []
        self._trip()
        rows = await self.redis.xrange(self.keys.events(tid), f"{after + 1}-0", f"{upto}-0")
        out = [(int(rid.split(b"-")[0]), orjson.loads(fields[b"e"])) for rid, fields in rows]
        if [v for v, _ in out] != list(range(after + 1, upto + 1)):
            return None
        return out

    async def live_tables(self) -> list[str]:
        self._trip()
        return [t.decode() for t in await self.redis.zrevrange(self.keys.live, 0, -1)]

    async def action_log(self, tid: str, match_no: int) -> list[dict[str, Any]]:
        """The match's action log. The service keeps the current match's log with the snapshot
        it writes (``memo["log"]``, exactly what the script appended), so the move that ends a
        match costs no extra round trip when the cache is current. A cached log newer than the
        caller's snapshot only feeds a compare-and-set that then fails as stale."""
        snap = self.cache.get(tid)
        if snap is not None and snap.memo.get("log_match") == match_no:
            return list(snap.memo["log"])
        self._trip()
        rows = await self.redis.lrange(self.keys.log(tid, match_no), 0, -1)
        return [orjson.loads(x) for x in rows]

    # --- writing -------------------------------------------------------------------------------
    async def cas(
        self,
        tid: str,
        expected: int,
        doc: dict[str, Any],
        *,
        events: list[dict[str, Any]],
        cmd: str | None = None,
        deadline_ms: int | None = None,
        log: list[dict[str, Any]] = (),
        match_no: int = 0,
        outbox: list[str] = (),
        live: str = "",
    ) -> CasResult:
        k = self.keys
        raw_doc = orjson.dumps(doc)
        keys = [k.table(tid), k.events(tid), k.outbox(tid), k.log(tid, match_no), k.clocks,
                k.command(tid, cmd or "-"), k.live]
        args = [tid, expected, raw_doc, "1" if cmd else "0", orjson.dumps(events),
                "" if deadline_ms is None else deadline_ms, k.channel(tid), self.stream_len,
                self.command_ttl, live, len(outbox), *outbox,
                len(log), *(orjson.dumps(e) for e in log), LOG_TTL]
        self._trip()
        reply = await self._cas(keys=keys, args=args)
        status = reply[0].decode()
        if status == "ok":
            v = int(reply[1])
            return CasResult("ok", v, self._remember(Snapshot(tid, v, doc)))
        if status == "dup":
            return CasResult("dup", int(reply[1]))
        v = int(reply[1])
        current = self._remember(Snapshot(tid, v, orjson.loads(reply[2]))) if v else None
        return CasResult("stale", v, current)

    async def set_deadline(self, tid: str, at_ms: int | None) -> None:
        """Put a table's deadline back after a claim that found nothing to do."""
        self._trip()
        if at_ms is None:
            await self.redis.zrem(self.keys.clocks, tid)
        else:
            await self.redis.zadd(self.keys.clocks, {tid: at_ms})

    def _trip(self) -> None:
        self.round_trips += 1
        count_round_trip()  # ops: round trips per action (app.metrics)

    def forget(self, tid: str) -> None:
        """The hub stopped watching the table: its cached snapshot can no longer be trusted."""
        self.heard.pop(tid, None)
        self.cache.pop(tid, None)

    def _remember(self, snap: Snapshot) -> Snapshot:
        """Cache the snapshot if the table is watched (only those caches are ever trusted, so
        the cache holds no more tables than this process has sockets for)."""
        old = self.cache.get(snap.tid)
        if snap.tid in self.heard and (old is None or old.v <= snap.v):
            self.cache[snap.tid] = snap
        return snap
