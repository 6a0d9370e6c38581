"""Moves: a player's action, a player coming back, and the clocks (timeouts, bots' turns, the
next round, idle seats and closing) — all through the single write path.

Idle seats and closing: the clock entry of a table is the earliest of its game clock and its
chores (``table_doc.chores_at``: an idle human seat to free, or the closing of a table no human
sat at for a while). Whoever claims it runs ``run_clock``, which does the due one through the
write path, so a seat is freed, its stack cashed out (outbox) and a table closed exactly once
however many processes sweep. A closed table refuses everything with ``table_closed``, leaves
the lobby registry and its keys expire (``closed_table_ttl``); the outbox consumer still writes
its last entries (it remembers streams, app/store/outbox.py).
"""

from __future__ import annotations

from typing import Any

from app import logs
from app.games.errors import GameError, IllegalAction
from app.store.tables import Snapshot

from . import table_doc as D
from .table_errors import TableError, error_reply
from .table_write import TableWriter, now_ms

READY = {"kind": "ready"}  # the table's own action, not the rules' (O-6): "deal the next round"


class Moves:
    def __init__(self, writer: TableWriter):
        self.writer = writer
        self.settings = writer.settings
        self.store = writer.store

    async def act(self, tid: str, pid: Any, cmd: str, v: int, raw: Any) -> dict:
        """A player's move: ``ack`` or ``error`` (never applied twice for one command id);
        timed, its Redis round trips counted and its log lines tagged with the table."""
        with self.writer.metrics.action() as probe, logs.table_context(tid, v):
            probe.reply = await self._act(tid, pid, cmd, v, raw)
            snap = self.store.cached(tid)
            probe.game = snap.doc["game"] if snap is not None else "unknown"
        return probe.reply

    async def _act(self, tid: str, pid: Any, cmd: str, v: int, raw: Any) -> dict:
        snap = await self.store.snapshot(tid, at_least=v)
        if snap is None:
            return error_reply(cmd, "not_found", f"no table {tid}")
        if snap.doc["status"] == D.TableStatus.CLOSED:
            return error_reply(cmd, "table_closed", f"table {tid} is closed")
        if v != snap.v:
            first = await self.store.command_result(tid, pid, cmd)
            if first is not None:
                return {"type": "ack", "cmd": cmd, "v": first}
            return error_reply(cmd, "stale", f"the table is at version {snap.v}, not {v}")
        n = D.seat_of(snap.doc, pid)
        if raw == READY:
            return await self._ready(tid, snap, pid, cmd, n)
        if snap.doc.get("pause") and snap.doc["status"] == D.TableStatus.PLAYING:
            return error_reply(cmd, "between_rounds", "the next round has not started yet")
        gseat = D.game_seat(snap.doc, n)
        if n is None or gseat is None or snap.doc["seats"][n]["leaving"]:
            return error_reply(cmd, "not_your_turn", "you have no seat in a match being played")
        rs = self.writer.ruleset(snap.doc["game"])
        try:
            action = rs.parse_action(raw)
        except IllegalAction as e:
            return error_reply(cmd, e.code, e.message)

        def build(snap: Snapshot, v_next: int) -> D.Change:
            ch = self.writer.begin(snap)
            seat = D.taken_seat(ch.doc, n)
            seat["timeouts"] = 0
            seat["seen"] = now_ms()
            if seat["away"]:
                seat["away"] = False
                ch.events.append({"type": "back", "table_seat": n})
            D.play(ch, rs, gseat, action, "player", v_next)
            return ch

        try:
            res, _ = await self.writer.change(tid, build, snap=snap, cmd=(pid, cmd), retry=False)
        except (GameError, TableError) as e:
            return error_reply(cmd, e.code, e.message)
        assert res is not None
        return {"type": "ack", "cmd": cmd, "v": res.v}

    async def _ready(self, tid: str, snap: Snapshot, pid: Any, cmd: str, n: int | None) -> dict:
        """O-6: a seated player asks for the next round. Once every human who is there asked,
        the pause ends at once. Asking again changes nothing (acknowledged at the version)."""
        if n is None:
            return error_reply(cmd, "not_seated", "only a seated player asks for the next round")
        pause = snap.doc.get("pause")
        if not pause:
            return error_reply(cmd, "not_between_rounds", "no round is waiting to be dealt")
        if n in pause["ready"]:
            return {"type": "ack", "cmd": cmd, "v": snap.v}

        def build(snap: Snapshot, v_next: int) -> D.Change:
            ch = self.writer.begin(snap)
            seat = D.taken_seat(ch.doc, n)
            seat["seen"] = now_ms()
            if seat["away"]:  # O-3: anything the player sends brings them back
                seat["away"], seat["timeouts"] = False, 0
                ch.events.append({"type": "back", "table_seat": n})
            if D.mark_ready(ch, n):
                self.writer.resume(ch, v_next)
            return ch

        try:
            res, _ = await self.writer.change(tid, build, snap=snap, cmd=(pid, cmd), retry=False)
        except TableError as e:
            return error_reply(cmd, e.code, e.message)
        assert res is not None
        return {"type": "ack", "cmd": cmd, "v": res.v}

    async def back(self, tid: str, pid: Any) -> None:
        """O-3: an away player who sends anything (sync, chat) is theirs to play again. It also
        counts as activity against idle removal; ``seen`` is written only when it is older
        than a tenth of the idle limit, so a chatty player costs a write every few minutes."""
        snap = await self.store.snapshot(tid)
        n = D.seat_of(snap.doc, pid) if snap else None
        if (
            snap is None
            or n is None
            or not (snap.doc["seats"][n]["away"] or self._stale_seen(snap.doc, n))
        ):
            return

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            ch = self.writer.begin(snap)
            seat = ch.doc["seats"][n]
            if seat is None or seat["bot"] or seat["player"] != pid:
                return None
            if not seat["away"] and not self._stale_seen(snap.doc, n):
                return None
            seat["seen"] = now_ms()
            if seat["away"]:
                seat["away"], seat["timeouts"] = False, 0
                ch.events.append({"type": "back", "table_seat": n})
            return ch

        await self.writer.change(tid, build, snap=snap)

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

    def _stale_seen(self, doc: D.TableDoc, n: int) -> bool:
        """Worth writing ``seen``: older than a tenth of the idle limit, and the seat's idleness
        counts (it is not playing the current match, where its moves keep ``seen``)."""
        seat = doc["seats"][n]
        seen = seat.get("seen") if seat else None
        return D.game_seat(doc, n) is None and (
            seen is None or now_ms() - seen > self.settings.idle_seat_seconds * 100
        )
