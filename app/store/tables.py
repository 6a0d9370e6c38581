"""Table snapshots in Redis: load, compare-and-set, events, logs. Never interprets game state.

A table is one hash ``{v, doc, at}``: the version, the JSON table document (seats, stacks, the
dumped game state, the clock) and ``at``, the table's next deadline (its own copy of its clock
entry). Every change goes through ``cas`` (scripts/cas.lua), which checks the version and writes
the document, the command id, the events, the outbox entries, the action log, the deadline and
the publication in one atomic step.

Redis Cluster (DESIGN.md "Past one machine"): the script touches only keys with the table's
hash tag ``{table_id}``. The two global indexes, ``clocks`` (table -> deadline, what sweepers
scan) and ``tables:live`` (the lobby and the outbox consumer), are written by commands sent in
the same pipeline as the EVALSHA: still one round trip per move, but not atomic with it. Why
that is safe:

- The clock entry is only a wake-up hint. Whoever claims a due entry loads the table and acts
  on the document's own clock, version-checked by the next compare-and-set (services/moves.py
  ``run_clock``); an entry that is early or stale is put back to the document's deadline. So a
  deadline written by a compare-and-set that *lost* the race (stale / duplicate command) does no
  harm when it is early.
- A lost race could also have removed or postponed the winner's entry. The script answers a
  loser with the table's current ``at``, and the loser re-adds it with ``ZADD LT`` (only ever
  earlier): one more round trip, on the losing path only. A pipeline's commands run back to
  back, so the loser's stray write comes right after its own failed script, before the repair.
- A clock update lost outright (connection cut between the commands, a failover losing the
  last writes) is re-armed from the hash's ``at`` by the sweepers' periodic repair
  (clocks.py ``Sweeper.rearm``), again with ``ZADD LT``.
- The registry: a new table is added in its creating pipeline (a fresh random id cannot lose
  its first compare-and-set); a closing table is removed only after its compare-and-set won (a
  second round trip, once per table). A closed table still listed (crash in between) is skipped
  and dropped by the next lobby read.

The process keeps the last snapshot of each table it has seen. A cached snapshot is trusted only
for tables the hub watches (it hears every new version of those through pub/sub); others are
reloaded. ``round_trips`` counts Redis round trips (a pipeline is one) so tests can hold a move
to one (cache current) or two (cache stale or cold); ``on_trip`` is told of each one with its
duration in seconds (the metrics count them per action and time them, without the store
knowing of metrics).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import orjson
from redis.asyncio import Redis
from redis.exceptions import NoScriptError

from .keys import Keys

SCRIPTS = Path(__file__).parent / "scripts"
T = TypeVar("T")
LOG_TTL = 7 * 24 * 3600  # an action log outlives its match by far (records are built at the end)


@dataclasses.dataclass
class Snapshot:
    tid: str
    v: int
    doc: Any  # the table document (app/services/table_doc.py TableDoc), never interpreted here
    memo: dict[str, Any] = dataclasses.field(default_factory=dict)  # per-process derived data


@dataclasses.dataclass(frozen=True)
class CasResult:
    status: str  # "ok" | "dup" (command seen before) | "stale" (version moved on)
    v: int
    current: Snapshot | None = None  # "ok": the new snapshot; "stale": the table as it is now
    at: bytes | None = None  # "stale": the table's own deadline (to repair the clock entry)


class TableStore:
    def __init__(
        self,
        redis: Redis,
        keys: Keys,
        *,
        stream_len: int,
        command_ttl: int,
        on_trip: Callable[[float], None] = lambda seconds: None,
    ):
        self.redis = redis
        self.on_trip = on_trip
        self.keys = keys
        self.stream_len = stream_len
        self.command_ttl = command_ttl
        self.round_trips = 0
        self.cache: dict[str, Snapshot] = {}
        self.heard: dict[str, int] = {}  # latest version announced on pub/sub, watched tables
        # this process's compare-and-sets in flight (futures: waiting on them costs no task)
        self.writing: dict[str, list[asyncio.Future]] = {}
        self._cas = redis.register_script((SCRIPTS / "cas.lua").read_text())

    # --- reading -------------------------------------------------------------------------------
    async def load(self, tid: str) -> Snapshot | None:
        v, doc = await self._trip(self.redis.hmget(self.keys.table(tid), ["v", "doc"]))
        if v is None or doc is None:
            return None
        return self._remember(Snapshot(tid, int(v), orjson.loads(doc)))

    async def snapshot(
        self, tid: str, *, at_least: int = 0, fresh: bool = False
    ) -> Snapshot | None:
        """The table as services read it: the cached snapshot when it is known to be current
        and at version ``at_least`` or later, else (or with ``fresh``) a load."""
        snap = None if fresh else await self._current(tid)
        if snap is None or snap.v < at_least:
            snap = await self.load(tid)
        return snap

    def cached(self, tid: str) -> Snapshot | None:
        """The last snapshot seen of a watched table, without a round trip (may be behind)."""
        return self.cache.get(tid)

    def heard_version(self, tid: str) -> int:
        """The newest version pub/sub announced for a watched table (0 when none yet)."""
        return self.heard.get(tid, 0)

    def watch(self, tid: str) -> None:
        """The hub watches the table from now on: its snapshots may be cached."""
        self.heard.setdefault(tid, 0)

    def hear(self, tid: str, v: int) -> None:
        """Pub/sub (or a fresh load) announced version ``v`` of a watched table."""
        if tid in self.heard:
            self.heard[tid] = max(self.heard[tid], v)

    async def _current(self, tid: str) -> Snapshot | None:
        """The cached snapshot when it is known to be current, else None."""
        snap = self.cache.get(tid)
        if (
            snap is not None
            and tid in self.heard
            and snap.v < self.heard[tid]
            and tid in self.writing
        ):
            # the version announced may be our own compare-and-set, whose reply comes after
            # the publication (the pipeline's index updates run in between): wait for it
            await asyncio.wait(self.writing[tid], timeout=1.0)
            snap = self.cache.get(tid)
        if snap is not None and tid in self.heard and snap.v >= self.heard[tid]:
            return snap
        return None

    async def load_many(self, tids: list[str]) -> list[Snapshot]:
        if not tids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in tids:
                pipe.hmget(self.keys.table(tid), ["v", "doc"])
            rows = await self._trip(pipe.execute())
        return [
            Snapshot(tid, int(v), orjson.loads(doc))
            for tid, (v, doc) in zip(tids, rows)
            if v is not None
        ]

    async def command_result(self, tid: str, player: Any, cmd: str) -> int | None:
        """The version a player's command first produced (None: not applied, or expired)."""
        first = await self._trip(self.redis.get(self.keys.command(tid, _command_id(player, cmd))))
        return int(first) if first is not None else None

    async def events_since(self, tid: str, after: int, upto: int) -> list[tuple[int, list]] | None:
        """Events of versions after..upto as (version, events); None when the stream no longer
        reaches back that far (the caller then sends a fresh state without the gap)."""
        if upto <= after:
            return []
        rows: Any = await self._trip(
            self.redis.xrange(self.keys.events(tid), f"{after + 1}-0", f"{upto}-0")
        )
        out = [(int(rid.split(b"-")[0]), orjson.loads(fields[b"e"])) for rid, fields in rows]
        if [v for v, _ in out] != list(range(after + 1, upto + 1)):
            return None
        return out

    async def recent_events(self, tid: str, upto: int, versions: int) -> list[dict[str, Any]]:
        """The events of the ``versions`` versions up to ``upto``, oldest first (what a socket
        that connects without a version is shown of what just happened). Not past ``upto``:
        the stream may already hold newer versions than the state they come with."""
        rows: Any = await self._trip(
            self.redis.xrevrange(self.keys.events(tid), max=f"{upto}-0", count=versions)
        )
        return [e for _, fields in reversed(rows) for e in orjson.loads(fields[b"e"])]

    async def outbox_backlog(self, tid: str) -> int:
        """Entries of the table's outbox not yet written to the database."""
        return int(await self._trip(self.redis.xlen(self.keys.outbox(tid))))

    async def live_tables(self) -> list[str]:
        tids: Any = await self._trip(self.redis.zrevrange(self.keys.live, 0, -1))
        return [t.decode() for t in tids]

    async def action_log(self, tid: str, match_no: int) -> list[dict[str, Any]]:
        """The match's action log. The service keeps the current match's log with the snapshot
        it writes (``memo["log"]``: the JSON the script appended), so the move that ends a
        match costs no extra round trip when the cache is current. A cached log newer than the
        caller's snapshot only feeds a compare-and-set that then fails as stale."""
        snap = self.cache.get(tid)
        if snap is not None and snap.memo.get("log_match") == match_no:
            rows = snap.memo["log"]
        else:
            rows = await self._trip(self.redis.lrange(self.keys.log(tid, match_no), 0, -1))
        return [orjson.loads(x) for x in rows]

    # --- writing -------------------------------------------------------------------------------
    def script_keys(self, tid: str, match_no: int, cmd: tuple[Any, str] | None) -> list[str]:
        """The KEYS of scripts/cas.lua: all under the table's hash tag (one Cluster slot)."""
        k = self.keys
        return [
            k.table(tid),
            k.events(tid),
            k.outbox(tid),
            k.log(tid, match_no),
            k.command(tid, _command_id(*cmd) if cmd else "-"),
        ]

    async def cas(
        self,
        tid: str,
        expected: int,
        doc: Any,
        *,
        events: list[dict[str, Any]],
        cmd: tuple[Any, str] | None = None,
        deadline_ms: int | None = None,
        log: Sequence[bytes] = (),
        match_no: int = 0,
        outbox: Sequence[str] = (),
        live: str = "",
        expire: int | None = None,
        repair: bool = True,
    ) -> CasResult:
        """``cmd``: (player, command id) of a player's move, applied at most once: a second
        compare-and-set with the same pair answers "dup" with the first one's version. The
        pair, not the id alone: ids are the clients' own, and another player's move that
        reused one would be dropped as a duplicate.
        ``log`` and ``outbox``: the action log's and the outbox's new entries, as JSON (the
        caller keeps the same lines with its snapshot, app/services/table_write.py).
        ``live``: "" leaves the lobby registry alone, a score adds the table (creation), "-"
        removes it once this change won (closing; ``expire`` then sets the keys' TTL).
        ``repair=False``: the caller retries at once when this loses, and that retry writes
        the clock entry again, so the loser's repair (a round trip) is skipped."""
        k = self.keys
        args = [
            tid,
            expected,
            orjson.dumps(doc),
            "1" if cmd else "0",
            orjson.dumps(events),
            "" if deadline_ms is None else deadline_ms,
            k.channel(tid),
            self.stream_len,
            self.command_ttl,
            "" if expire is None else expire,
            len(outbox),
            *outbox,
            len(log),
            *log,
            LOG_TTL,
        ]
        keys = self.script_keys(tid, match_no, cmd)
        done = asyncio.get_running_loop().create_future()
        self.writing.setdefault(tid, []).append(done)
        try:
            try:
                reply = await self._trip(self._cas_pipeline(tid, keys, args, deadline_ms, live))
            except NoScriptError:  # first use on this server, or its script cache was flushed:
                # load it once (not counted: a one-time cost like opening the connection)
                await self.redis.script_load(self._cas.script)
                reply = await self._cas_pipeline(tid, keys, args, deadline_ms, live)
            return await self._settle(tid, doc, reply, live, repair)
        finally:
            done.set_result(None)
            futures = self.writing.get(tid, [])
            if done in futures:
                futures.remove(done)
            if not futures:
                self.writing.pop(tid, None)

    async def _settle(
        self, tid: str, doc: dict[str, Any], reply: list, live: str, repair: bool
    ) -> CasResult:
        k = self.keys
        status = reply[0].decode()
        if status == "ok":
            v = int(reply[1])
            if live == "-":  # its last entries are still read: the stream stays remembered
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.sadd(k.outbox_streams, k.outbox(tid))
                    pipe.zrem(k.live, tid)
                    await self._trip(pipe.execute())
            return CasResult("ok", v, self._remember(Snapshot(tid, v, doc)))
        if repair:
            await self.repair_clock(tid, reply[-1])
        if status == "dup":
            return CasResult("dup", int(reply[1]))
        v = int(reply[1])
        current = self._remember(Snapshot(tid, v, orjson.loads(reply[2]))) if v else None
        return CasResult("stale", v, current, reply[3])

    async def _cas_pipeline(
        self, tid: str, keys: list, args: list, deadline_ms: int | None, live: str
    ) -> list:
        """EVALSHA plus the global index updates: one round trip (see the module docstring)."""
        k = self.keys
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.evalsha(self._cas.sha, len(keys), *keys, *args)
            if deadline_ms is None:
                pipe.zrem(k.clocks, tid)
            else:
                pipe.zadd(k.clocks, {tid: deadline_ms})
            if live not in ("", "-"):
                pipe.zadd(k.live, {tid: float(live)})
                pipe.sadd(k.outbox_streams, k.outbox(tid))
            replies = await pipe.execute(raise_on_error=False)
        if isinstance(replies[0], Exception):
            raise replies[0]
        return replies[0]

    async def repair_clock(self, tid: str, at: bytes | str | None) -> None:
        """This compare-and-set lost, yet its pipeline wrote the clock entry: put back the
        table's own deadline (only ever earlier, so it cannot undo a newer winner's entry)."""
        if at:
            await self._trip(self.redis.zadd(self.keys.clocks, {tid: int(at)}, lt=True))

    async def unlist(self, tids: list[str]) -> None:
        """Drop tables from the lobby registry (closed ones a crash left listed)."""
        await self._trip(self.redis.zrem(self.keys.live, *tids))

    async def set_deadline(self, tid: str, at_ms: int | None) -> None:
        """Put a table's deadline back after a claim that found nothing to do."""
        if at_ms is None:
            await self._trip(self.redis.zrem(self.keys.clocks, tid))
        else:
            await self._trip(self.redis.zadd(self.keys.clocks, {tid: at_ms}))

    async def _trip(self, call: Awaitable[T]) -> T:
        """One round trip: counted, timed and reported to ``on_trip``."""
        self.round_trips += 1
        start = time.perf_counter()
        try:
            return await call
        finally:
            self.on_trip(time.perf_counter() - start)

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


def _command_id(player: Any, cmd: str) -> str:
    """A command's record is per player: ``<player>:<id>`` (the ids of players, who send
    commands, hold no colon, so the pair reads back one way only)."""
    return f"{player}:{cmd}"
