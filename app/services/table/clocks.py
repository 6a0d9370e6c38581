"""The clocks of a table: a timeout, a bot's or away player's turn, the next round, the start
countdown's end; and the chores (idle seats, closing), all through the single write path.

Idle seats and closing: the clock entry of a table is the earliest of its game clock and its
chores (``doc.chores_at``: an idle human seat to free, or the closing of a table no human sat
at for a while). Whoever claims it runs ``run_clock``, which does the due one through the write
path, so a seat is freed, its stack cashed out (outbox) and a table closed exactly once however
many processes sweep (app/store/clocks.py). A closed table refuses everything with
``table_closed``, leaves the lobby registry and its keys expire (``closed_table_ttl``); the
outbox consumer still writes its last entries (it remembers streams, app/store/outbox.py).
"""

from __future__ import annotations

from app.store.tables import Snapshot

from . import doc as D
from .base import TableParts
from .errors import TableError
from .write import now_ms


class Clocks(TableParts):
    """What a table does when its time comes, whoever notices first."""

    async def run_clock(self, tid: str, v: int | None = None, *, claimed: bool = False) -> bool:
        """Apply a due clock (a timeout, a bot's or away player's turn, the next round, the
        start countdown's end) once.

        ``v``: the version the clock was set at, when known. Whoever applies it, the
        compare-and-set against that version makes sure it happens exactly once."""
        snap = await self.store.snapshot(tid, at_least=v or 0, fresh=claimed)
        if snap is None and claimed:  # a stray entry (a lost create): nothing to wake up
            await self.store.set_deadline(tid, None)
        if snap is None or (v is not None and v != snap.v):
            return False
        clock = snap.doc["clock"]
        if clock is None or clock["at"] > now_ms() + 5:
            if v is None and (self.writer.chores_at(snap.doc) or 1 << 62) <= now_ms() + 5:
                return await self._chores(tid, snap)
            if claimed:  # the claim moved the deadline: put back the document's own
                await self.store.set_deadline(tid, self.writer.deadline(snap.doc))
            return False

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            if snap.doc["clock"] != clock:
                return None
            ch = self.writer.begin(snap)
            if clock["kind"] == "next":  # the pause between rounds (O-6)
                self.writer.resume(ch, v_next)
            elif clock["kind"] == "start":  # a chips table's start countdown (O-5)
                self.writer.maybe_deal(ch, v_next)
            else:
                D.timeout(
                    ch,
                    self.writer.ruleset(ch.doc["game"]),
                    clock,
                    v_next,
                    away_after=self.settings.away_after_timeouts,
                )
            return ch

        try:
            res, _ = await self.writer.change(tid, build, snap=snap, retry=False)
        except TableError:
            return False
        return res is not None and res.status == "ok"

    async def _chores(self, tid: str, snap: Snapshot) -> bool:
        """Free the idle seats / close the table, when due; once, version-checked."""

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            ch = self.writer.begin(snap)
            idle_ms, empty_ms = self.writer.chores_ms()
            return ch if D.chores(ch, now_ms(), idle_ms=idle_ms, empty_ms=empty_ms) else None

        try:
            res, _ = await self.writer.change(tid, build, snap=snap, retry=False)
        except TableError:
            return False
        if res is None:  # nothing due after all: put back the document's own deadline
            await self.store.set_deadline(tid, self.writer.deadline(snap.doc))
            return False
        return res.status == "ok"
