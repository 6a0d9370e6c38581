"""A player's move, a player asking for the next round (O-6) and a player coming back (O-3),
all through the single write path.
"""

from __future__ import annotations

from typing import Any

from app import logs
from app.games.errors import GameError, IllegalAction
from app.store.tables import Snapshot

from . import doc as D
from .base import TableParts
from .errors import TableError, error_reply
from .write import now_ms

READY = {"kind": "ready"}  # the table's own action, not the rules' (O-6): "deal the next round"


class Moves(TableParts):
    """What a seated player sends over the table's socket."""

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

    def _stale_seen(self, doc: D.TableDoc, n: int) -> bool:
        """Worth writing ``seen``: older than a tenth of the idle limit, and the seat's idleness
        counts (it is not playing the current match, where its moves keep ``seen``)."""
        seat = doc["seats"][n]
        seen = seat.get("seen") if seat else None
        return D.game_seat(doc, n) is None and (
            seen is None or now_ms() - seen > self.settings.idle_seat_seconds * 100
        )
