"""The outbox: chip movements and finished rounds / matches on their way to the database.

Writing side (live tables): the compare-and-set script of a move XADDs each entry to the table's
own stream ``<prefix>t:{<table_id>}:outbox`` (``Keys.outbox``: same hash tag as the table's other
keys, so the move and its entries are one atomic step) as ``XADD <stream> * e <json>``. The
entries are built by ``app.services.table.outbox.change_entries`` (typed there). Every entry is
a JSON object:

    common: kind, key (unique idempotency key), table, at (ISO time); per match entries also
            match (number), game, version (the table version the move created)
    lewat    round, payer, payee (seats), payer_id, payee_id (players), amount, shortfall
    round    round, players (id per seat), winner, ending, multiplier (x value), stake, field,
             detail (round_over event),
             settlements: [{payer, payee, payer_id, payee_id, amount, shortfall, pips}]
    match    options, seed (decimal string), players (id per seat), result (Outcome JSON),
             moves: [{seat, v, action}], started_at, finished_at, private (a private table's)
    cash_out seat, player, amount     (stack -> wallet, when a player leaves)
    buy_in_seated  buy_in (the key of a pending buy-in that is now a seat's stack)
    house_stake / house_return  who (a bot's id, e.g. "bot:2"), amount  (house <-> bot stack)

Reading side: :class:`OutboxConsumer`, one per process, all in the consumer group ``db``. It
finds streams through each bucket's set of them (``Keys.outboxes``: the script that creates a
table adds it; it stays listed after the table closed, so its last entries are still read,
also after a restart), and at start and every minute SCANs for ``<prefix>t:*:outbox`` as a
backstop. The stream of a closed table (or one whose keys expired) is deleted and unlisted once
it is empty (scripts/drop_outbox.lua, atomic, so an entry added meanwhile is never lost).
The entries of one read (one XREADGROUP, on a cluster the pipeline of one per bucket, or one
XAUTOCLAIM reply) are written in ONE database transaction (the ``write`` it is given:
app/services/records.py, which calls ``records_write.apply_entries``, in stream order),
committed, and only then XACKed and XDELed together. A consumer that dies between reading and
committing, or between committing and acknowledging, leaves the entries pending; after
``min_idle_ms`` any consumer takes them over with XAUTOCLAIM and writes them again, which
changes nothing where they were committed. Duplicates need no look-up up front: every writer is
idempotent by the entry's key inside the transaction (ledger rows ``ON CONFLICT DO NOTHING``,
round / match records claimed by ``UPDATE ... WHERE <not yet written>``), so an entry written
before (or twice in one batch) just reports "not written" and the batch goes on. Any other error
rolls the batch back and it is written again one entry per transaction, so a bad entry is found
and dead-lettered while the others are written (a database outage is not retried one by one: it
is raised at once). So every movement reaches the database exactly once. While the database is
down the entries stay in Redis (pending or unread) and the consumer retries with backoff; play
is not affected. An entry that can never be written (malformed, or failing ``max_attempts``
times for a reason other than the database being unreachable) is moved to
``<prefix>outbox:dead`` with the error, for an operator.

Counting without reading every stream: the script that adds entries (scripts/cas.lua) adds
their number to its bucket's backlog (``Keys.outbox_backlog``) and puts the table in the
bucket's zset of oldest entries (``Keys.outbox_oldest``: table -> the time of its stream's
oldest entry) unless it is there; the acknowledgement (scripts/ack.lua, one per stream in one
pipeline) takes off what XDEL deleted and moves the table's time to its new oldest entry, or
drops it when the stream is empty. Both are atomic with the stream's own change, so the counts
are exact for every entry written through the scripts (and the dead letters' retry); an entry
XADDed by hand is not counted (the backlog never goes below zero). ``totals`` reads them:
``BUCKETS`` numbers, whatever the number of tables (the metrics, the audit). ``backlog``
still reads every stream (tests and tools that write entries by hand).

Multi-stream XREADGROUP needs all streams in one slot, so on Redis Cluster a consumer reads
bucket by bucket (``per_bucket=True``; a bucket is one slot, app/store/keys.py), every bucket in
one pipeline.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError, ResponseError

from .connection import Client
from .keys import BUCKETS, Keys, bucket_of, by_bucket

log = logging.getLogger("meja.outbox")

GROUP = "db"
FIELD = "e"
ACK = (Path(__file__).parent / "scripts" / "ack.lua").read_text()
DROP = (Path(__file__).parent / "scripts" / "drop_outbox.lua").read_text()
ACK_IDS = 1000  # entry ids per acknowledgement script (Lua's unpack has a limit)
Write = Callable[[list[dict]], Awaitable[list[bool]]]
Fault = Callable[[str, dict], None]


def _s(x) -> str:
    return x.decode() if isinstance(x, bytes) else x


class DatabaseUnavailable(Exception):
    """The database could not be reached; the entry stays pending and is retried."""


class BadEntry(ValueError):
    """An entry that can never be written (malformed): dead-lettered at once."""


class OutboxConsumer:
    def __init__(
        self,
        redis: Client,
        write: Write,
        *,
        prefix: str = "meja:",
        name: str | None = None,
        group: str = GROUP,
        min_idle_ms: int = 30_000,
        block_ms: int = 2_000,
        count: int = 100,
        scan_every: float = 60.0,
        max_attempts: int = 5,
        per_bucket: bool | None = None,
        discover_every: float = 1.0,
        pass_every: float = 1.0,
        streams: Callable[[], Awaitable[list[str]]] | None = None,
        fault: Fault | None = None,
    ):
        """``write(entries)`` applies a batch in one database transaction and says, per entry,
        whether it was written now (False: written before); it raises DatabaseUnavailable for
        an outage and BadEntry for an entry that can never be written. ``fault(stage, entry)``
        is a test hook called at the stages "read" and "commit" (committed, not acknowledged).

        Per pass the consumer reads new entries; the recovery reads (XAUTOCLAIM on every
        stream, this consumer's own pending entries) run only every ``min_idle_ms / 2`` and
        after a pass that failed, and the registry is re-read every ``discover_every`` seconds
        or when a pass found nothing; ``run`` starts a pass at most every ``pass_every``
        seconds while entries keep coming. With hundreds of live tables one pass (a read
        across every stream, a transaction) costs about as much for one entry as for a
        hundred, and passes back to back cost most of a core (bench/README.md); one a second
        keeps the records under two seconds behind the tables."""
        self.redis, self.write, self.prefix, self.group = redis, write, prefix, group
        self.keys_of = Keys(prefix)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{id(self):x}"
        self.min_idle_ms, self.block_ms, self.count = min_idle_ms, block_ms, count
        self.scan_every, self.max_attempts = scan_every, max_attempts
        self.per_bucket = isinstance(redis, RedisCluster) if per_bucket is None else per_bucket
        self.discover_every, self.pass_every = discover_every, pass_every
        self.recover_every = min_idle_ms / 2000
        self.last_discover = self.last_recover = float("-inf")
        self.keys: list[str] = []
        self.failed = False  # the last pass raised: recover at once
        self.streams_fn, self.fault = streams, fault
        self.known: set[str] = set()
        self.ready: set[str] = set()
        self.attempts: dict[str, int] = {}
        self.last_scan = 0.0
        self.applied = self.duplicates = self.dead = 0
        # (stream, id) of the entries this consumer has read and not yet settled: the
        # process's ``meja_outbox_pending`` (cleared by every pass that ends well, when none
        # is left: one that another consumer took over is not counted twice for long)
        self.held: set[tuple[str, str]] = set()
        self._sha = {script: self.redis.register_script(script).sha for script in (ACK, DROP)}

    # --- finding streams -----------------------------------------------------------------------
    async def discover(self) -> list[str]:
        if self.streams_fn is not None:
            self.known.update(await self.streams_fn())
            return sorted(self.known)
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in range(BUCKETS):
                pipe.smembers(self.keys_of.outboxes(b))
            replies = await pipe.execute()
        listed = {self.keys_of.outbox(_s(t)) for some in replies for t in some}
        self.known |= listed
        if time.monotonic() - self.last_scan >= self.scan_every:
            self.last_scan = time.monotonic()
            async for key in self.redis.scan_iter(match=f"{self.prefix}t:*:outbox", count=1000):
                self.known.add(_s(key))  # backstop: a stream whose table is not listed
            for key in await self._drop_closed(sorted(self.known)):
                self.known.discard(key)
                self.ready.discard(key)
        return sorted(self.known)

    async def _drop_closed(self, keys: list[str]) -> list[str]:
        """Delete the drained outbox streams among ``keys`` whose table is closed or gone,
        and unlist them (scripts/drop_outbox.lua, one a stream, all in one pipeline); the
        streams deleted."""
        calls = []
        for key in keys:
            tid = Keys.table_of_outbox(key)
            table, listed = self.keys_of.table(tid), self.keys_of.outboxes(bucket_of(tid))
            calls.append(("EVALSHA", self._sha[DROP], 3, key, table, listed, tid))
        replies = await self._scripts(DROP, calls)
        return [key for key, dropped in zip(keys, replies) if dropped]

    async def _ensure_group(self, key: str) -> None:
        if key in self.ready:
            return
        try:
            await self.redis.xgroup_create(key, self.group, id="0", mkstream=True)
        except ResponseError as err:
            if "BUSYGROUP" not in str(err):
                raise
        self.ready.add(key)

    # --- the loop ------------------------------------------------------------------------------
    async def run(self) -> None:
        """Consume until cancelled; Redis or database outages are waited out with backoff."""
        backoff = 0.2
        while True:
            try:
                started = time.monotonic()
                if await self.run_once():  # gather a batch: a pass costs the same for 1 or 100
                    await asyncio.sleep(self.pass_every - (time.monotonic() - started))
                backoff = 0.2
            except asyncio.CancelledError:
                raise
            except Exception as err:  # noqa: BLE001 - keep consuming through outages
                log.warning("outbox: %s; retrying in %.1fs", err, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 10.0)

    async def run_once(self, block_ms: int | None = None) -> int:
        """Read new entries (after the recovery reads, when due) and write them.
        Returns how many entries were settled (written or found already written)."""
        now = time.monotonic()
        if self.failed or now - self.last_discover >= self.discover_every:
            self.keys = await self.discover()
            self.last_discover = now
        keys = self.keys
        if not keys:
            self.last_discover = float("-inf")
            await asyncio.sleep((self.block_ms if block_ms is None else block_ms) / 1000)
            return 0
        for key in keys:
            await self._ensure_group(key)
        recover = self.failed or now - self.last_recover >= self.recover_every
        self.failed = True  # until this pass ends well
        done = 0
        try:
            if recover:
                for key in keys:
                    done += await self._reclaim(key)
                done += await self._read(keys, "0", None)
                self.last_recover = now
            done += await self._read(keys, ">", self.block_ms if block_ms is None else block_ms)
        except ResponseError as err:
            if "NOGROUP" in str(err):
                self.ready.clear()  # a stream was deleted and recreated; make the groups again
                return done
            raise
        self.failed = False
        self.held.clear()
        if not done:
            self.last_discover = float("-inf")  # idle: look for new streams on the next pass
        return done

    async def _reclaim(self, key: str) -> int:
        done, start = 0, "0-0"
        while True:
            reply = await self.redis.xautoclaim(
                key, self.group, self.name, self.min_idle_ms, start_id=start, count=self.count
            )
            start, entries = _s(reply[0]), reply[1]
            for entry_id, fields in entries:
                if not fields:  # deleted while pending
                    await self.redis.xack(key, self.group, entry_id)
            done += await self._settle([(key, i, f) for i, f in entries if f])
            if start == "0-0":
                return done

    async def _read(self, keys: list[str], start: str, block: int | None) -> int:
        """One XREADGROUP over every stream; on a cluster one per bucket (a multi-stream read
        needs one slot), all in one pipeline, without blocking (an idle pass sleeps instead)."""
        if not self.per_bucket:
            reply: Any = await self.redis.xreadgroup(
                self.group, self.name, {k: start for k in keys}, count=self.count, block=block
            )
            return await self._settle(_entries(reply))
        cluster = self.redis if isinstance(self.redis, RedisCluster) else None
        async with self.redis.pipeline(transaction=False) as pipe:
            for some in by_bucket(keys, Keys.table_of_outbox).values():
                # on a cluster, sent to the bucket's node by name: XREADGROUP's keys are
                # movable, and the cluster client asks COMMAND GETKEYS of its first node for
                # each one otherwise (a round trip per bucket per pass, and a dependence on
                # that one node)
                node = {"target_nodes": cluster.get_node_from_key(some[0])} if cluster else {}
                pipe.execute_command(
                    "XREADGROUP",
                    "GROUP",
                    self.group,
                    self.name,
                    "COUNT",
                    self.count,
                    "STREAMS",
                    *some,
                    *[start] * len(some),
                    **node,
                )
            replies = await pipe.execute()
        # one transaction for every bucket's entries: a pass's cost does not grow with the
        # buckets that had some (64 a pass at a few hundred moves a second, bench/README.md)
        done = await self._settle([e for reply in replies for e in _entries(reply)])
        if not done and block:
            await asyncio.sleep(min(block, 250) / 1000)
        return done

    async def _settle(self, batch: list[tuple[str, object, dict]]) -> int:
        """Write one read's entries ``(stream, id, fields)`` in one transaction, then ack them;
        on an error other than an outage, write them one by one instead."""
        self.held.update((key, _s(entry_id)) for key, entry_id, _ in batch)
        good = []
        for key, entry_id, fields in batch:
            raw = fields.get(FIELD, fields.get(FIELD.encode()))
            entry = await self._parse(key, entry_id, raw)
            if entry is not None:
                good.append((key, entry_id, raw, entry))
        if len(good) > 1:
            try:
                written = await self._write([entry for *_, entry in good])
            except DatabaseUnavailable:
                raise
            except Exception as err:  # noqa: BLE001 - one bad entry: find it one by one
                log.info("outbox: batch of %d failed (%r); writing one by one", len(good), err)
            else:
                for (*_, entry), w in zip(good, written, strict=True):
                    self._written(entry, w)
                await self._ack([(key, entry_id) for key, entry_id, *_ in good])
                return len(batch)
        for key, entry_id, raw, entry in good:
            await self._handle(key, entry_id, raw, entry)
        return len(batch)

    async def _parse(self, key: str, entry_id, raw) -> dict | None:
        """The entry as a dict, or None when it was malformed (and is now a dead letter)."""
        try:
            entry = orjson.loads(raw)
        except (orjson.JSONDecodeError, TypeError) as err:
            await self._bury(key, entry_id, raw, f"not JSON: {err}")
            return None
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
            await self._bury(key, entry_id, raw, "not an object with a string key")
            return None
        if self.fault:
            self.fault("read", entry)
        return entry

    async def _write(self, entries: list[dict]) -> list[bool]:
        """Apply the entries in one transaction; per entry, False when it was written before."""
        written = await self.write(entries)
        if self.fault:
            for entry in entries:
                self.fault("commit", entry)  # committed, not acknowledged
        return written

    def _written(self, entry: dict, written: bool) -> None:
        self.attempts.pop(entry["key"], None)
        if written:
            self.applied += 1
        else:
            self.duplicates += 1

    async def _handle(self, key: str, entry_id, raw, entry: dict) -> None:
        """One entry in a transaction of its own; dead-lettered when it can never be written."""
        try:
            [written] = await self._write([entry])
        except DatabaseUnavailable:
            raise
        except Exception as err:  # noqa: BLE001 - counted, then dead-lettered
            tries = self.attempts.get(entry["key"], 0) + 1
            if tries >= self.max_attempts or isinstance(err, BadEntry):
                await self._bury(key, entry_id, raw, repr(err))
                return
            self.attempts[entry["key"]] = tries
            raise
        self._written(entry, written)
        await self._ack([(key, entry_id)])

    async def _ack(self, done: list[tuple[str, object]]) -> None:
        """XACK and XDEL written entries with the bucket's counters (scripts/ack.lua): one
        script per stream, atomic with its counters, all in one pipeline. A script the server
        lacks is loaded on its node and the pipeline sent again (settling twice is harmless:
        the second finds nothing left to delete)."""
        by_stream: dict[str, list] = {}
        for key, entry_id in done:
            by_stream.setdefault(key, []).append(entry_id)
        calls = []
        for key, ids in by_stream.items():
            tid = Keys.table_of_outbox(key)
            b = bucket_of(tid)
            counters = (self.keys_of.outbox_backlog(b), self.keys_of.outbox_oldest(b))
            for i in range(0, len(ids), ACK_IDS):
                some = ids[i : i + ACK_IDS]
                calls.append(("EVALSHA", self._sha[ACK], 3, key, *counters, self.group, tid, *some))
        await self._scripts(ACK, calls)
        self.held.difference_update((key, _s(i)) for key, i in done)

    async def _scripts(self, script: str, calls: list[tuple]) -> list:
        """Run EVALSHA ``calls`` of ``script`` in one pipeline; their replies. A script the
        server lacks is loaded on its node and the pipeline sent again (both scripts may run
        twice: the second finds nothing left to do)."""
        for attempt in range(2):
            async with self.redis.pipeline(transaction=False) as pipe:
                for call in calls:
                    pipe.execute_command(*call)
                replies = await pipe.execute(raise_on_error=False)
            failed = [(c, r) for c, r in zip(calls, replies) if isinstance(r, Exception)]
            if not failed:
                break
            if attempt or not all(isinstance(r, NoScriptError) for _, r in failed):
                raise failed[0][1]
            await self._load(script, [c[3] for c, _ in failed])
        return replies

    async def _load(self, script: str, keys: list[str]) -> None:
        """Load ``script`` on the nodes of ``keys`` (a cluster's other nodes may be down)."""
        if not isinstance(self.redis, RedisCluster):
            await self.redis.script_load(script)
            return
        nodes = {n.name: n for n in map(self.redis.get_node_from_key, keys) if n is not None}
        for node in nodes.values():
            await self.redis.execute_command("SCRIPT LOAD", script, target_nodes=node)

    async def _bury(self, key: str, entry_id, raw, error: str) -> None:
        log.error("outbox: entry %s of %s moved to the dead letters: %s", entry_id, key, error)
        self.dead += 1
        await self.redis.xadd(
            self.keys_of.dead_letters,
            {"stream": key, "id": _s(entry_id), FIELD: raw or "", "error": error[:500]},
        )
        await self._ack([(key, entry_id)])

    async def backlog(self) -> int:
        """Entries not yet written to the database (acknowledged entries are deleted), read
        from every stream, one XLEN each: for tests and tools (``totals`` counts them)."""
        return sum([await self.redis.xlen(k) for k in await self.discover()])

    async def totals(self) -> tuple[int, int | None, int]:
        """(entries not yet in the database, the time in ms of the oldest of them or None, the
        dead letters), from the buckets' counters: ``BUCKETS`` GETs, ``BUCKETS`` one-member
        ZRANGEs and one XLEN in one pipeline (a cluster's split per node), the same commands
        however many tables and streams there are."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for b in range(BUCKETS):
                pipe.get(self.keys_of.outbox_backlog(b))
                pipe.zrange(self.keys_of.outbox_oldest(b), 0, 0, withscores=True)
            pipe.xlen(self.keys_of.dead_letters)
            replies = await pipe.execute()
        backlog = sum(max(0, int(n or 0)) for n in replies[0:-1:2])
        oldest = [int(score) for first in replies[1:-1:2] for _, score in first]
        return backlog, min(oldest, default=None), int(replies[-1])


class DeadLetters:
    """The dead letters (``<prefix>outbox:dead``), for an operator: read them, and put one back
    on its table's stream to be written again. A retry is safe however often it is made: every
    writer is idempotent by the entry's key (see above), and one that fails again is
    dead-lettered again with its new error."""

    def __init__(self, redis: Client, prefix: str):
        self.keys = Keys(prefix)
        self.redis, self.key = redis, self.keys.dead_letters

    async def count(self) -> int:
        return int(await self.redis.xlen(self.key))

    async def page(self, *, page: int, per_page: int) -> tuple[int, list[dict[str, Any]]]:
        """(how many there are, the page of them newest first)."""
        total = await self.count()
        rows: Any = await self.redis.xrevrange(self.key, count=page * per_page)
        return total, [_letter(i, f) for i, f in rows[(page - 1) * per_page :]]

    async def get(self, entry_id: str) -> dict[str, Any] | None:
        rows: Any = await self.redis.xrange(self.key, entry_id, entry_id)
        return _letter(*rows[0]) if rows else None

    async def retry(self, entry_id: str) -> dict[str, Any] | None:
        """Append the entry to its stream again (counted in its bucket's backlog, in one MULTI
        with it) and drop the dead letter; None if unknown. Two steps: the dead letters sit in
        another Cluster slot, and a crash between them leaves a dead letter whose retry is
        harmless."""
        letter = await self.get(entry_id)
        if letter is None:
            return None
        tid = Keys.table_of_outbox(letter["stream"])
        b = bucket_of(tid)
        async with self.redis.pipeline(transaction=True) as pipe:  # one slot: the table's
            pipe.xadd(letter["stream"], {FIELD: letter["raw"]})
            pipe.sadd(self.keys.outboxes(b), tid)
            pipe.incrby(self.keys.outbox_backlog(b), 1)  # counted as scripts/cas.lua counts
            pipe.zadd(self.keys.outbox_oldest(b), {tid: int(time.time() * 1000)}, nx=True)
            await pipe.execute()
        await self.redis.xdel(self.key, entry_id)
        return letter


def _entries(reply: Any) -> list[tuple[str, object, dict]]:
    return [
        (_s(key), entry_id, fields)
        for key, entries in reply or ()
        for entry_id, fields in entries
        if fields
    ]


def _letter(entry_id, fields: dict) -> dict[str, Any]:
    f = {_s(k): _s(v) for k, v in fields.items()}
    return {
        "id": _s(entry_id),
        "stream": f.get("stream", ""),
        "raw": f.get(FIELD, ""),
        "error": f.get("error", ""),
    }
