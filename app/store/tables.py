"""Table snapshots in Redis: load, compare-and-set, events, logs. Never interprets game state.

A table is one hash ``{v, doc, at}``: the version, the JSON table document (seats, stacks, the
dumped game state, the clock) and ``at``, the table's next deadline (its own copy of its clock
entry). Every change goes through ``cas`` (scripts/cas.lua), which checks the version and writes
the document, the command id, the events, the outbox entries, the action log, the deadline and
the publication in one atomic step. The writing process (``origin``) fans out from the reply
(``on_written``), so its own sockets hear a change without a pub/sub hop; the change is
published, naming its writer, only when another process watches the table (``Keys.watchers``,
which the hub keeps: ``watching``), so a table whose sockets are all on one process (the proxy
sends a table's sockets to one replica) costs no publication and no echo to parse. A write
whose reply was lost (``on_unsure``) is re-read for the writer's sockets.

Redis Cluster (docs/operations/cluster.md): the script touches only keys with the table's bucket
tag (app/store/keys.py), and that includes the indexes a change moves the table in: its
bucket's clocks (what sweepers scan), the registry of live tables, the outbox consumer's set of
streams and the lobby's facets. So a move is one EVALSHA on the table's node, one round trip,
and a table and its index entries can never disagree: a change that lost its race writes
nothing at all, and a failover that loses the last writes loses them together.

The process keeps the last snapshot of each table it has seen. A cached snapshot is trusted only
for tables the hub watches (it hears every new version of those through pub/sub); others are
reloaded. ``round_trips`` counts Redis round trips (a pipeline is one) so tests can hold a move
to one (cache current) or two (cache stale or cold); ``on_trip`` is told of each one with its
duration in seconds (the metrics count them per action and time them, without the store
knowing of metrics).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import orjson
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .connection import Client, node_groups
from .keys import BUCKETS, Keys, bucket_of, by_bucket
from .lane import FALLBACK, Lane
from .outage import REDIS_DOWN

SCRIPTS = Path(__file__).parent / "scripts"
log = logging.getLogger(__name__)
T = TypeVar("T")
LANE_TIMEOUT = 5.0  # s: a compare-and-set's reply, when the client sets no socket timeout
REPLICA_RECHECK = 2.0  # s: how often a node with no replica is asked whether one attached
LOG_TTL = 7 * 24 * 3600  # an action log outlives its match by far (records are built at the end)


@dataclasses.dataclass
class Snapshot:
    tid: str
    v: int
    doc: Any  # the table document (app/services/table/doc.py TableDoc), never interpreted here
    memo: dict[str, Any] = dataclasses.field(default_factory=dict)  # per-process derived data


@dataclasses.dataclass(frozen=True)
class CasResult:
    status: str  # "ok" | "dup" (command seen before) | "stale" (version moved on)
    v: int
    current: Snapshot | None = None  # "ok": the new snapshot; "stale": the table as it is now


class NotReplicated(RedisTimeoutError):
    """The change was written but fewer replicas than ``wait_replicas`` acknowledged it in
    ``wait_ms`` (or the acknowledgement could not be read): it must not be acknowledged to a
    player (it would be lost if the primary failed now). A Redis timeout, so the API answers
    503 ``redis_unavailable`` and the socket an error of that code; a resent command is
    answered from its first result."""


class TableStore:
    def __init__(
        self,
        redis: Client,
        keys: Keys,
        *,
        stream_len: int,
        command_ttl: int,
        on_trip: Callable[[float], None] = lambda seconds: None,
        wait_replicas: int = 0,
        wait_ms: int = 100,
    ):
        """``wait_replicas``: a change is answered only once that many replicas have it
        (Redis ``WAIT``, docs/operations/cluster.md "Failover"); 0 answers as soon as the primary
        has it."""
        self.redis = redis
        self.sharded = False  # the hub sets it: publish on shard channels (a cluster, Redis 7)
        # the hub sets these: its process's name in the publications, and what it is told of
        # this process's own changes (see ``cas``)
        self.origin = ""
        self.on_written: Callable[[str, int, list[dict[str, Any]]], None] = lambda t, v, e: None
        self.on_unsure: Callable[[str], None] = lambda tid: None
        self.wait_replicas, self.wait_ms = wait_replicas, wait_ms
        self.on_trip = on_trip
        self.keys = keys
        self.stream_len = stream_len
        self.command_ttl = command_ttl
        self.round_trips = 0
        self.cache: dict[str, Snapshot] = {}
        self.heard: dict[str, int] = {}  # latest version announced on pub/sub, watched tables
        # this process's compare-and-sets in flight (futures: waiting on them costs no task)
        self.writing: dict[str, list[asyncio.Future]] = {}
        # nodes with no replica attached (a promoted one whose old primary has not rejoined):
        # their changes are acknowledged without WAIT until one attaches (``_write``)
        self.unreplicated: set[str] = set()
        self._rechecks: set[asyncio.Task] = set()
        self._cas = self.script("cas.lua")
        self._watchers = self.script("watchers.lua")
        self._chips = self.script("chips.lua")
        self.lanes: dict[str, Lane] = {}  # by node name ("" for a single server)

    async def close(self) -> None:
        """Close the lanes (the client itself is closed by its owner)."""
        for task in list(self._rechecks):
            task.cancel()
        await asyncio.gather(*self._rechecks, return_exceptions=True)
        lanes, self.lanes = list(self.lanes.values()), {}
        for lane in lanes:
            await lane.close()

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
            # another process's change, which our compare-and-set in flight will meet and
            # return (stale, with the document): wait for it rather than load it again
            await asyncio.wait(self.writing[tid], timeout=1.0)
            snap = self.cache.get(tid)
        if snap is not None and tid in self.heard and snap.v >= self.heard[tid]:
            return snap
        return None

    async def watching(self, tids: list[str], watched: bool = True) -> None:
        """Say that this process watches these tables (or no longer does), so that the
        changes other processes make are published for it. Said again at every presence beat
        (app/ws/presence.py): a set lost to a failover is whole again within a beat. A process
        that died stays listed until the table closes: its tables' changes are published for
        nobody, as they all were before."""
        if not tids:  # no round trip to count
            return
        op = "SADD" if watched else "SREM"
        groups = [[self.keys.watchers(t) for t in some] for some in by_bucket(tids).values()]
        # a script per bucket (scripts/watchers.lua), on the lanes: in the order said (a
        # leave's SREM never overtakes the next join's SADD)
        calls = (self.run_script(self._watchers, keys, [op, self.origin]) for keys in groups)
        await self._trip(asyncio.gather(*calls))

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
        """Every table not closed, newest first: one pipelined read of every bucket (the
        audit and the operators' console; the lobby reads its index, ``lobby_page``)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in range(BUCKETS):
                pipe.zrange(self.keys.live(b), 0, -1, withscores=True)
            return [tid for tid, _ in _merged(await self._trip(pipe.execute()))]

    async def live_count(self) -> int:
        """How many tables are live: one ZCARD per bucket in one pipeline (the metrics), the
        same commands however many tables there are."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in range(BUCKETS):
                pipe.zcard(self.keys.live(b))
            return sum(await self._trip(pipe.execute()))

    async def chips_at_tables(self) -> tuple[int, list[str]]:
        """(the chips on the seats of every live table as their hashes' ``chips`` say, the
        live tables whose hash lacks it: their documents are the caller's to read). One script
        per bucket (scripts/chips.lua), one after another: each sums its bucket on the server,
        so the audit reads ``BUCKETS`` replies and no document, and no node is held longer
        than one bucket takes (about 1,600 tables at 100,000: bench/README.md)."""
        total, unsaid = 0, []
        for b in range(BUCKETS):
            counted, missing = await self._chips(
                keys=[self.keys.live(b)], args=[self.keys.tables_of(b)]
            )
            total += int(counted)
            unsaid += [_str(tid) for tid in missing]
        return total, unsaid

    async def lobby_page(self, facet: str, start: int, count: int) -> tuple[int, list[str]]:
        """(how many tables the facet lists, the ids of ``count`` of them from ``start``),
        newest first. The page is merged from each bucket's first ``start + count`` entries
        (and every bucket's count): one pipeline per node, side by side, ``BUCKETS / nodes``
        small reads each, however many tables are live. A node that cannot answer (failing
        over) leaves its tables out of the page rather than failing it; all of them, and it
        fails as Redis unavailable."""
        keys = [self.keys.lobby(b, facet) for b in range(BUCKETS)]

        async def node(buckets: list[int]) -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                for b in buckets:
                    pipe.zcard(keys[b])
                    pipe.zrange(keys[b], 0, start + count - 1, desc=True, withscores=True)
                return await pipe.execute()

        groups = list(node_groups(self.redis, keys).values())
        replies = await self._trip(
            asyncio.gather(*(node(buckets) for buckets in groups), return_exceptions=True)
        )
        answered = [r for r in replies if not isinstance(r, BaseException)]
        failed = [r for r in replies if isinstance(r, BaseException)]
        if not answered:
            raise failed[0]
        total = sum(n for r in answered for n in r[0::2])
        rows = [rows for r in answered for rows in r[1::2]]
        return total, [tid for tid, _ in _merged(rows)][start : start + count]

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
    def script_keys(
        self,
        tid: str,
        match_no: int,
        cmd: tuple[Any, str] | None,
        unlist: Sequence[str] = (),
        list_: Sequence[str] = (),
    ) -> list[str]:
        """The KEYS of scripts/cas.lua: all with the table's bucket tag (one Cluster slot)."""
        k, b = self.keys, bucket_of(tid)
        return [
            k.table(tid),
            k.events(tid),
            k.outbox(tid),
            k.log(tid, match_no),
            k.command(tid, _command_id(*cmd) if cmd else "-"),
            k.clocks(b),
            k.live(b),
            k.outboxes(b),
            k.channel(tid),
            k.watchers(tid),
            k.outbox_backlog(b),
            k.outbox_oldest(b),
            *(k.lobby(b, f) for f in unlist),
            *(k.lobby(b, f) for f in list_),
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
        lobby: tuple[Sequence[str], Sequence[tuple[str, int]]] = ((), ()),
        chips: int | None = None,
    ) -> CasResult:
        """``cmd``: (player, command id) of a player's move, applied at most once: a second
        compare-and-set with the same pair answers "dup" with the first one's version. The
        pair, not the id alone: ids are the clients' own, and another player's move that
        reused one would be dropped as a duplicate.
        ``log`` and ``outbox``: the action log's and the outbox's new entries, as JSON (the
        caller keeps the same lines with its snapshot, app/services/table/write.py).
        ``live``: "" leaves the registry alone, "+<created ms>" adds the table (creation), "-"
        removes it (closing; ``expire`` then sets the keys' TTL).
        ``lobby``: (facets the table leaves, (facet, score) of those it joins or moves in): the
        lobby index, written by the same script (app/services/table/lobby_index.py names them).
        ``chips``: the chips on the document's seats, kept beside it (the hash's ``chips``) so
        the audit sums them without reading any document (``chips_at_tables``); None drops the
        field, and the audit reads that table's document instead."""
        unlist, listed = lobby
        list_ = [f for f, _ in listed]
        args = [
            tid,
            expected,
            orjson.dumps(doc),
            "1" if cmd else "0",
            orjson.dumps(events),
            "" if deadline_ms is None else deadline_ms,
            "1" if self.sharded else "0",
            self.stream_len,
            self.command_ttl,
            "" if expire is None else expire,
            live,
            len(unlist),
            len(list_),
            " ".join(str(score) for _, score in listed),
            "" if chips is None else chips,
            len(outbox),
            *outbox,
            len(log),
            *log,
            LOG_TTL,
            self.origin,
        ]
        keys = self.script_keys(tid, match_no, cmd, unlist, list_)
        done = asyncio.get_running_loop().create_future()
        self.writing.setdefault(tid, []).append(done)
        try:
            try:
                reply = await self._send(keys, args)
            except Exception:
                self.on_unsure(tid)  # it may have been written (and published) all the same
                raise
            res = self._settle(tid, doc, reply)
            if res.status == "ok":
                self.on_written(tid, res.v, events)
            return res
        finally:
            done.set_result(None)
            futures = self.writing.get(tid, [])
            if done in futures:
                futures.remove(done)
            if not futures:
                self.writing.pop(tid, None)

    async def _send(self, keys: list[str], args: list) -> list:
        return await self._trip(self._loaded(self._cas, keys[0], lambda: self._write(keys, args)))

    async def _loaded(self, script: AsyncScript, key: str, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``'s reply; where the server lacks the script (first use on this server, or
        its script cache was flushed: a replica promoted by a failover) it is loaded once and
        called again (one round trip all the same: a one-time cost like opening a connection)."""
        try:
            return await call()
        except NoScriptError:
            await self._load(script, key)
            return await call()

    async def _load(self, script: AsyncScript, key: str) -> None:
        """Load the script on the node of ``key`` alone: redis-py's ``script_load`` sends it to
        every primary of a cluster, so a dead one fails every other node's first call."""
        if isinstance(self.redis, RedisCluster):
            node = self.redis.get_node_from_key(key)
            await self.redis.execute_command("SCRIPT LOAD", script.script, target_nodes=node)
        else:
            await self.redis.script_load(script.script)

    async def run_script(self, script: AsyncScript, keys: list[str], args: list) -> Any:
        """A script whose keys share one slot, on their node's lane (not counted as a round
        trip: the callers are the process's background beats, not a player's action)."""
        call = ("EVALSHA", script.sha, len(keys), *keys, *args)
        return await self._loaded(script, keys[0], lambda: self._call(keys[0], *call))

    def script(self, name: str) -> AsyncScript:
        """One of scripts/, registered with the client (``run_script`` runs it)."""
        return self.redis.register_script((SCRIPTS / name).read_text())

    async def _write(self, keys: list[str], args: list) -> list:
        """The script, and with ``wait_replicas`` the replicas' acknowledgement of it on the
        same connection (one pipeline: one round trip to the table's node); without, on the
        node's lane (app/store/lane.py), the table re-read for the sockets should the lane
        fail (``_call``).

        A node with no replica attached at all (a promoted replica before its old primary
        rejoins) has nothing a WAIT could wait for and nothing to fail over to: its changes
        are acknowledged as written, without WAIT, until a replica attaches
        (docs/operations/cluster.md "Failover"); the other nodes keep waiting for theirs."""
        node = self._lane(keys[0])[0]
        if not self.wait_replicas or node in self.unreplicated:
            return await self._call(
                keys[0],
                "EVALSHA",
                self._cas.sha,
                len(keys),
                *keys,
                *args,
                unsure=lambda: self.on_unsure(args[0]),
            )
        async with self.redis.pipeline(transaction=False) as pipe:
            # (execute_command: a cluster pipeline blocks ``evalsha`` by name, not the command)
            pipe.execute_command("EVALSHA", self._cas.sha, len(keys), *keys, *args)
            wait = ("WAIT", self.wait_replicas, self.wait_ms)
            if isinstance(self.redis, RedisCluster):  # WAIT names no key: send it to the node
                target = self.redis.get_node_from_key(keys[0])  # that runs the script
                pipe.execute_command(*wait, target_nodes=target)
            else:
                pipe.execute_command(*wait)
            reply, acked = await pipe.execute(raise_on_error=False)
        if isinstance(reply, Exception):
            raise reply
        written = reply[0] in (b"ok", b"dup")  # "dup": the first one may not be replicated yet
        if written and (isinstance(acked, Exception) or acked < self.wait_replicas):
            if acked == 0 and not await self._replicas(keys[0]):
                self._unreplicated(node, keys[0])
                return reply
            raise NotReplicated(f"{acked!r} of {self.wait_replicas} replicas acknowledged")
        return reply

    async def _replicas(self, key: str) -> int:
        """How many replicas the node of ``key`` has attached (ROLE)."""
        role = await self._call(key, "ROLE")
        return len(role[2]) if role and role[0] in (b"master", "master") else 0

    def _unreplicated(self, node: str, key: str) -> None:
        """Acknowledge the node's changes without WAIT until a replica attaches, which is
        checked every ``REPLICA_RECHECK`` seconds."""
        if node in self.unreplicated:  # another move in flight found it first
            return
        self.unreplicated.add(node)
        log.warning(
            "Redis node %s has no replica: its tables' moves are acknowledged unreplicated "
            "until one attaches",
            node,
            extra={"node": node},
        )
        task = asyncio.get_running_loop().create_task(self._recheck(node, key))
        self._rechecks.add(task)
        task.add_done_callback(self._rechecks.discard)

    async def _recheck(self, node: str, key: str) -> None:
        while True:
            await asyncio.sleep(REPLICA_RECHECK)
            with contextlib.suppress(*REDIS_DOWN):
                if await self._replicas(key):
                    self.unreplicated.discard(node)
                    log.info("Redis node %s has a replica again", node, extra={"node": node})
                    return

    async def _call(self, key: str, *args: Any, unsure: Callable[[], None] | None = None) -> Any:
        """A command on the lane of ``key``'s node; where the lane cannot (a lost connection,
        a slot that moved), the client's own call, after ``unsure()``: the lane's write may
        have been applied before it failed."""
        name, lane = self._lane(key)
        if lane is not None:
            try:
                return await lane.call(*args)
            except FALLBACK:
                if self.lanes.get(name) is lane:
                    del self.lanes[name]
                if unsure is not None:
                    unsure()
        return await self.redis.execute_command(*args)

    def _lane(self, key: str) -> tuple[str, Lane | None]:
        """The lane of the node that holds ``key``, made from the client's own connection
        settings without their socket timeout (the lane times its calls itself); None while
        the cluster client knows no node for its slot (its own call finds one, or fails)."""
        cls: type[AbstractConnection]
        if isinstance(self.redis, RedisCluster):
            node = self.redis.get_node_from_key(key)
            if node is None:
                return "", None
            name, cls, kwargs = node.name, node.connection_class, node.connection_kwargs
        else:
            pool = self.redis.connection_pool
            name, cls, kwargs = "", pool.connection_class, pool.connection_kwargs
        lane = self.lanes.get(name)
        if lane is None:
            timeout = kwargs.get("socket_timeout") or LANE_TIMEOUT
            opts = {
                **kwargs,
                "socket_timeout": None,
                "socket_connect_timeout": timeout,
                "client_name": "meja-lane",  # CLIENT LIST tells the lanes apart
            }
            lane = self.lanes[name] = Lane(lambda: cls(**opts), timeout)
        return name, lane

    def _settle(self, tid: str, doc: dict[str, Any], reply: list) -> CasResult:
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
        clocks = self.keys.clocks(bucket_of(tid))
        if at_ms is None:
            await self._trip(self.redis.zrem(clocks, tid))
        else:
            await self._trip(self.redis.zadd(clocks, {tid: at_ms}))

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


def _merged(rows: list[list[tuple[bytes, float]]]) -> list[tuple[str, float]]:
    """Each bucket's (id, score) rows as one list, highest score first, then the highest id:
    the order of ``ZRANGE ... REV`` within each bucket, so a bucket's first rows (what
    ``lobby_page`` reads of each) are its first rows of the merged list, ties included."""
    out = [(tid.decode(), score) for some in rows for tid, score in some]
    out.sort(key=lambda row: (row[1], row[0]), reverse=True)
    return out


def _str(x: bytes | str) -> str:
    return x.decode() if isinstance(x, bytes) else x


def _command_id(player: Any, cmd: str) -> str:
    """A command's record is per player: ``<player>:<id>`` (the ids of players, who send
    commands, hold no colon, so the pair reads back one way only)."""
    return f"{player}:{cmd}"
