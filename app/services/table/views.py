"""What clients see of a table: the summary, each seat's view, and the socket messages.

An object the table services hold (over the store). Views are computed once per game seat and
version and kept on the snapshot (``memo``) as JSON bytes (``orjson.Fragment``), so a fan-out to
many sockets of one table costs one ``ruleset.view`` and one dump per seat, whatever the number
of sockets. Bytes, not the views' dicts and lists: four views per move, kept with the snapshot
until the table's next move, were most of what the garbage collector had to scan at hundreds of
moves a second, in pauses of 20-130 ms (bench/README.md).
"""

from __future__ import annotations

from typing import Any

import orjson

from app.games import registry
from app.store.tables import Snapshot, TableStore

from . import doc as D

# A new socket's first state brings the table's last HISTORY events, the length of the browser's
# history (static/js/table.js MAX_LOG), so a page that opens or reloads shows the lines a page
# that stayed shows.
HISTORY = 200
SYNC_ANSWERS = 8  # cached sync answers per table version (from-version x seat)


class TableViews:
    def __init__(self, store: TableStore):
        self.store = store

    def summary(self, snap: Snapshot) -> dict:
        if "summary" not in snap.memo:
            snap.memo["summary"] = D.summary(snap.doc, snap.v)
        return snap.memo["summary"]

    def summary_for(self, snap: Snapshot, pid: Any) -> dict:
        """The summary as the player ``pid`` (None: anonymous) may see it: a private table's
        join code is its seated players' to share, so nobody else reads it (a spectator, an
        anonymous ``GET /api/tables/{id}``)."""
        summary = self.summary(snap)
        if summary["code"] is None or (pid is not None and D.seat_of(snap.doc, pid) is not None):
            return summary
        return {**summary, "code": None}

    def view(self, snap: Snapshot, table_seat: int | None) -> dict | None:
        """The rules view for a table seat (a spectator's for None or an unseated player)."""
        state = D.state_of(snap)
        if state is None:
            return None
        view = registry.get_ruleset(snap.doc["game"]).view(state, D.game_seat(snap.doc, table_seat))
        if snap.doc.get("pause"):  # O-5: nobody moves until the next round starts
            view["legal"] = []
        return view

    def _view_json(self, snap: Snapshot, table_seat: int | None) -> orjson.Fragment | None:
        """The view of a table seat as JSON bytes, dumped once per seat and version."""
        if D.state_of(snap) is None:  # nothing dealt yet: no view, nothing kept
            return None
        gseat = D.game_seat(snap.doc, table_seat)
        views = snap.memo.setdefault("views", {})
        if gseat not in views:
            views[gseat] = orjson.Fragment(orjson.dumps(self.view(snap, table_seat)))
        return views[gseat]

    def seat_of(self, tid: str, pid: Any) -> int | None:
        snap = self.store.cached(tid)
        return D.seat_of(snap.doc, pid) if snap else None

    def state_message(self, snap: Snapshot, pid: Any, events: list | None) -> dict:
        n = D.seat_of(snap.doc, pid) if pid is not None else None
        summary = self.summary(snap)
        msg = {
            "type": "state",
            "v": snap.v,
            "table": {**summary, "you": n, "code": summary["code"] if n is not None else None},
            "view": self._view_json(snap, n),
            "events": events or [],
        }
        if events is None:
            msg["gap"] = True
        return msg

    async def sync_message(self, tid: str, pid: Any, since: int | None) -> dict | None:
        """A fresh ``state`` with the events after ``since`` (``gap`` when they are gone).
        Without ``since`` (a new socket) the table's last ``HISTORY`` events come with it
        (of its last ``HISTORY`` versions up to the state's: a move makes at least one event):
        the rules state keeps no display history, so this is what the client's
        history is rebuilt from. Events are public facts, the same for every socket."""
        snap = await self.store.snapshot(tid)
        if snap is None:
            return None
        events: list | None = []
        if since is None:
            events = (await self.store.recent_events(tid, snap.v, HISTORY))[-HISTORY:]
        elif since < snap.v:
            got = await self.store.events_since(tid, since, snap.v)
            events = None if got is None else [e for _, es in got for e in es]
        return self.state_message(snap, pid, events)

    async def sync_answer(self, tid: str, pid: Any, since: int | None) -> tuple[int, bytes] | None:
        """(version, JSON) of ``sync_message``. Answers that carry events are kept with the
        snapshot (``memo``, so only until the table's next version), per from-version and seat:
        a socket repeating ``sync`` costs a lookup, not a stream read and a dump of some 50 KiB
        each time."""
        snap = await self.store.snapshot(tid)
        if snap is None:
            return None
        key = (since, D.seat_of(snap.doc, pid) if pid is not None else None)
        cached = since is not None and since < snap.v
        answers = snap.memo.setdefault("sync", {}) if cached else {}
        if key in answers:
            return snap.v, answers[key]
        msg = await self.sync_message(tid, pid, since)
        if msg is None:
            return None
        data = orjson.dumps(msg)
        if cached and msg["v"] == snap.v:
            if len(answers) >= SYNC_ANSWERS:
                del answers[next(iter(answers))]
            answers[key] = data
        return msg["v"], data

    async def fanout(self, tid: str, message: dict, socks: list) -> None:
        """Send each local socket of the table its own view of the version just published
        (or re-announced, without its events, after a pub/sub gap)."""
        v = message["v"]
        snap = await self.store.snapshot(tid, at_least=v)
        socks = [s for s in socks if 0 <= s.last_v < snap.v] if snap else []
        if snap is None or not socks:
            return
        low = min(s.last_v for s in socks)
        got: list[tuple[int, list]] | None
        if low == v - 1 and snap.v == v and "e" in message:  # (none: a re-announced version,
            got = [(v, message["e"])]  # app/store/hub.py; the stream has its events)
        else:
            got = await self.store.events_since(tid, low, snap.v)
        for s in socks:
            events = None if got is None else [e for ev, es in got if ev > s.last_v for e in es]
            s.push(self.state_message(snap, s.pid, events))
            s.last_v = snap.v
