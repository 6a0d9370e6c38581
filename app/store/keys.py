"""Redis key names. Every key of one table shares the hash tag ``{table_id}`` so a table's keys sit
in one Redis Cluster slot and one Lua script may touch them all. All keys start with the
configured prefix (``meja:`` by default; tests use a random one each)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    prefix: str

    def table(self, tid: str) -> str:
        """Hash: ``v`` (version) and ``doc`` (the JSON table document)."""
        return f"{self.prefix}t:{{{tid}}}"

    def events(self, tid: str) -> str:
        """Capped stream, one entry per version (id ``<v>-0``) holding that version's events."""
        return f"{self.prefix}t:{{{tid}}}:events"

    def outbox(self, tid: str) -> str:
        """Stream of chip movements / records for the database (chips & records consume it)."""
        return f"{self.prefix}t:{{{tid}}}:outbox"

    def log(self, tid: str, match_no: int) -> str:
        """List: the action log of one match (one JSON entry per applied action)."""
        return f"{self.prefix}t:{{{tid}}}:log:{match_no}"

    def command(self, tid: str, cmd: str) -> str:
        """The first result of a client command id (expires after a day)."""
        return f"{self.prefix}t:{{{tid}}}:cmd:{cmd}"

    def chat(self, tid: str) -> str:
        """List: the table's recent chat lines (JSON, oldest first), capped with LTRIM and
        expiring when no line is said for a while, so a page that opens shows what was said."""
        return f"{self.prefix}t:{{{tid}}}:chat"

    def presence(self, tid: str) -> str:
        """Sorted set: ``<player>/<process>`` -> when it expires (ms). Who holds a socket at the
        table, from every process; a member its process stops refreshing (the process died)
        lapses by itself (app/store/presence.py)."""
        return f"{self.prefix}t:{{{tid}}}:presence"

    def channel(self, tid: str) -> str:
        """Pub/sub channel announcing each new version of the table."""
        return f"{self.prefix}t:{{{tid}}}:ch"

    @property
    def clocks(self) -> str:
        """Sorted set: table id -> next deadline (ms since the epoch)."""
        return f"{self.prefix}clocks"

    @property
    def live(self) -> str:
        """Sorted set: table id -> creation time (ms); the lobby and the outbox consumer read it."""
        return f"{self.prefix}tables:live"

    @property
    def outbox_streams(self) -> str:
        """Set of outbox stream names the consumer must read (app/store/outbox.py): a stream
        is added when its table is created and closed, and removed once it is drained."""
        return f"{self.prefix}outbox:streams"

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
        """A channel every hub subscribes to, so its pub/sub connection is never idle-empty."""
        return f"{self.prefix}control"

    @property
    def limits(self) -> str:
        """The ``limits`` package's key prefix (it adds ``:LIMITER/<action>/<who>/...``): one
        list of hit times per limited action, client and window (app/store/limits.py)."""
        return f"{self.prefix}limits"
