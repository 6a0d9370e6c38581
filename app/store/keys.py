"""Redis key names, laid out for Redis Cluster: every key a move writes is in one slot.

Tables are spread over ``BUCKETS`` buckets (a table's bucket is a stable hash of its id). The
bucket is the hash tag: a table's keys are ``t:{b07}:<tid>...`` and its bucket's indexes
(``clocks:{b07}``, ``live:{b07}``, ``outboxes:{b07}``, ``lobby:{b07}:<facet>``) and counters
(``outbox:backlog:{b07}``, ``outbox:oldest:{b07}``) share the tag,
so the compare-and-set script (scripts/cas.lua) writes a table and every index it is in,
atomically, on one node. Every process reads every bucket (the sweepers, the lobby, the outbox
consumer), so what was one global key is now ``BUCKETS`` small ones, pipelined per node.

Sixty-four buckets: more than any cluster here has masters (a bucket is the unit that moves
between nodes) and few enough that sweeping them all every quarter second is one cheap
pipeline. The number is part of the data layout, not a setting: changing it moves every table.

All keys start with the configured prefix (``meja:`` by default; tests use a random one each);
the prefix holds no braces, so only the bucket decides the slot.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

BUCKETS = 64


def bucket_of(tid: str) -> int:
    """The table's bucket: crc32 of its id (the same in every process, unlike ``hash``)."""
    return zlib.crc32(tid.encode()) % BUCKETS


def by_bucket(items: Iterable[T], table: Callable[[T], str] = str) -> dict[int, list[T]]:
    """Items (table ids, or keys whose ``table`` gives one) grouped by bucket: one slot each,
    so one script or one multi-stream read takes a bucket's keys together."""
    groups: dict[int, list[T]] = {}
    for item in items:
        groups.setdefault(bucket_of(table(item)), []).append(item)
    return groups


def tag(bucket: int) -> str:
    return _TAGS[bucket]


_TAGS = tuple(f"{{b{b:02d}}}" for b in range(BUCKETS))


@lru_cache(maxsize=1 << 14)
def _base(prefix: str, tid: str) -> str:
    """Kept: a move names eight of its table's keys (scripts/cas.lua), each from this."""
    return f"{prefix}t:{_TAGS[bucket_of(tid)]}:{tid}"


@dataclass(frozen=True)
class Keys:
    prefix: str

    def base(self, tid: str) -> str:
        return _base(self.prefix, tid)

    def table(self, tid: str) -> str:
        """Hash: ``v`` (version), ``doc`` (the JSON table document), ``at`` (next deadline)
        and ``chips`` (the chips on its seats, written with the document: the audit sums it)."""
        return self.base(tid)

    def tables_of(self, bucket: int) -> str:
        """What the names of a bucket's table hashes start with (``table`` adds the id): for a
        script that reads the bucket's tables by the ids in its registry (scripts/chips.lua)."""
        return f"{self.prefix}t:{tag(bucket)}:"

    def events(self, tid: str) -> str:
        """Capped stream, one entry per version (id ``<v>-0``) holding that version's events."""
        return f"{self.base(tid)}:events"

    def outbox(self, tid: str) -> str:
        """Stream of chip movements / records for the database (chips & records consume it)."""
        return f"{self.base(tid)}:outbox"

    def log(self, tid: str, match_no: int) -> str:
        """List: the action log of one match (one JSON entry per applied action)."""
        return f"{self.base(tid)}:log:{match_no}"

    def command(self, tid: str, cmd: str) -> str:
        """The first result of a client command id (expires after ``command_ttl_seconds``)."""
        return f"{self.base(tid)}:cmd:{cmd}"

    def chat(self, tid: str) -> str:
        """List: the table's recent chat lines (JSON, oldest first), capped with LTRIM and
        expiring when no line is said for a while, so a page that opens shows what was said."""
        return f"{self.base(tid)}:chat"

    def presence(self, tid: str) -> str:
        """Sorted set: ``<player>/<process>`` -> when it expires (ms). Who holds a socket at the
        table, from every process; a member its process stops refreshing (the process died)
        lapses by itself (app/store/presence.py)."""
        return f"{self.base(tid)}:presence"

    def watchers(self, tid: str) -> str:
        """Set: the processes (their hubs' origins) with sockets at the table. A change is
        published only when a process other than its writer is in it (scripts/cas.lua)."""
        return f"{self.base(tid)}:watchers"

    def channel(self, tid: str) -> str:
        """Pub/sub channel announcing each new version of the table (a shard channel on a
        cluster: it has the table's slot)."""
        return f"{self.base(tid)}:ch"

    @staticmethod
    def table_of_outbox(stream: str) -> str:
        """The table id of an outbox stream's name (``...t:{bNN}:<tid>:outbox``)."""
        return stream.rsplit(":", 2)[-2]

    # --- per bucket ------------------------------------------------------------------------
    def clocks(self, bucket: int) -> str:
        """Sorted set: table id -> next deadline (ms since the epoch)."""
        return f"{self.prefix}clocks:{tag(bucket)}"

    def live(self, bucket: int) -> str:
        """Sorted set: table id -> creation time (ms); every table not closed (the audit, the
        operators' console, the metrics)."""
        return f"{self.prefix}live:{tag(bucket)}"

    def outboxes(self, bucket: int) -> str:
        """Set of table ids whose outbox stream the consumer reads (app/store/outbox.py): added
        when the table is created, removed by the consumer once it is closed and drained."""
        return f"{self.prefix}outboxes:{tag(bucket)}"

    def outbox_backlog(self, bucket: int) -> str:
        """Integer: the entries in the bucket's outbox streams, not yet in the database. Kept
        by the scripts that add and remove them (scripts/cas.lua, scripts/ack.lua, the dead
        letters' retry), so the metrics read 64 numbers, however many tables there are."""
        return f"{self.prefix}outbox:backlog:{tag(bucket)}"

    def outbox_oldest(self, bucket: int) -> str:
        """Sorted set: table id -> the time (ms, its stream id) of the oldest entry of its
        outbox stream; a table is in it while its stream holds entries (the outbox's lag)."""
        return f"{self.prefix}outbox:oldest:{tag(bucket)}"

    def lobby(self, bucket: int, facet: str) -> str:
        """Sorted set: the listed tables of one lobby facet (app/services/table/lobby_index.py names
        them: a game, a stake, open seats...) -> their creation time (ms)."""
        return f"{self.prefix}lobby:{tag(bucket)}:{facet}"

    # --- not per table -----------------------------------------------------------------------
    def player(self, pid: int | str) -> str:
        """JSON: the signed-in player's cache, with its session epoch (app/services/players.py)."""
        return f"{self.prefix}player:{pid}"

    def player_tables(self, pid: int | str) -> str:
        """Set: the tables a player took a seat at (pruned when read; app/store/seated.py)."""
        return f"{self.prefix}player:{pid}:tables"

    def join_code(self, code: str) -> str:
        """A private table's join code: the table id (app/store/seated.py)."""
        return f"{self.prefix}code:{code}"

    def ticket(self, ticket: str) -> str:
        """A single-use socket ticket: the access token it stands for (expires in seconds)."""
        return f"{self.prefix}ticket:{ticket}"

    @property
    def control(self) -> str:
        """A channel every hub subscribes to, so its pub/sub connection is never idle-empty;
        plain pub/sub (a cluster broadcasts it to every node)."""
        return f"{self.prefix}control"

    @property
    def dead_letters(self) -> str:
        """Stream of outbox entries that could not be written (app/store/outbox.py)."""
        return f"{self.prefix}outbox:dead"

    @property
    def limits(self) -> str:
        """The ``limits`` package's key prefix (it adds ``:LIMITER/<action>/<who>/...``): one
        list of hit times per limited action, client and window (app/store/limits.py)."""
        return f"{self.prefix}limits"
