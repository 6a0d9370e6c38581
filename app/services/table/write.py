"""The single write path of a table: every change of every table goes through ``change``.

``change(tid, build)`` takes the table's snapshot (the process cache when it is known to be
current), lets ``build`` produce the new document with the pure functions of doc.py
(which call the ruleset), and writes it with one compare-and-set (``store.cas``). A lost race is
built again once on the table as the script returned it, then answered ``stale``. After a
successful write, a bot's turn or a chips table's next round is woken by a local task after its
delay (``wake``, the ``Tables`` service's ``run_clock``, clocks.py); the Redis clock set is the
backstop any process sweeps (app/store/clocks.py).

Chips and records: ``_outbox`` turns each change into outbox entries (outbox.py) that the
same compare-and-set writes, so a move and its chip movements land together or not at all; it
also writes the chips on the seats beside the document (``chips.chips_at``: a sum over the
seats, no round trip), which the audit reads instead of every document.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from app.config import Settings
from app.games import registry
from app.games.base import Ruleset
from app.games.rng import new_seed
from app.metrics import Metrics
from app.store.outage import REDIS_DOWN
from app.store.tables import CasResult, Snapshot, TableStore

from . import chips, lobby_index, outbox
from . import doc as D
from .errors import TableError, closed, not_found

log = logging.getLogger(__name__)

Build = Callable[[Snapshot, int], "D.Change | None"]


def now_ms() -> int:
    return int(time.time() * 1000)


class TableWriter:
    def __init__(
        self,
        settings: Settings,
        store: TableStore,
        *,
        metrics: Metrics,
        wake: Callable[[str, int], Awaitable[Any]],
        seeds: Callable[[str, int], int] | None = None,
        chips: bool = False,
    ):
        """``wake(tid, v)``: apply the clock set at version ``v`` (a bot's turn, the next
        round). ``chips``: a database records chip movements (the outbox is written)."""
        self.settings = settings
        self.store = store
        self.metrics = metrics
        self.wake = wake
        self.seeds = seeds or (lambda tid, match_no: new_seed())
        self.chips = chips
        self.tasks: set[asyncio.Task] = set()

    @staticmethod
    def ruleset(game: str) -> Ruleset:
        return registry.get_ruleset(game)

    async def snap(self, tid: str) -> Snapshot:
        """The table's snapshot; ``not_found`` when there is none."""
        snap = await self.store.snapshot(tid)
        if snap is None:
            raise not_found(tid)
        return snap

    def begin(self, snap: Snapshot) -> D.Change:
        return D.begin(snap.doc, D.state_of(snap))

    async def change(
        self,
        tid: str,
        build: Build,
        *,
        snap: Snapshot | None = None,
        cmd: tuple[Any, str] | None = None,
        retry: bool = True,
    ) -> tuple[CasResult | None, D.Change | None]:
        """Build and write one change; ``(None, None)`` when ``build`` found nothing to do.
        ``cmd``: (player, client command id), recorded by the script, so a player's command is
        applied once."""
        snap = snap or await self.store.snapshot(tid)
        for attempt in range(2):
            if snap is None:
                raise not_found(tid)
            if snap.doc["status"] == D.TableStatus.CLOSED:
                raise closed(tid)
            v_next = snap.v + 1
            ch = build(snap, v_next)
            if ch is None:
                return None, None
            rs = self.ruleset(ch.doc["game"])
            D.time_pause(ch.doc, now_ms(), self.settings.round_pause)
            clock = D.next_clock(
                ch.doc,
                rs,
                ch.state,
                now_ms(),
                v_next,
                bot_delay=self.settings.bot_delay,
                round_pause=self.settings.round_pause,
            )
            ch.doc["clock"] = clock
            D.seal(ch)
            D.note_empty(ch.doc, now_ms())
            closing = ch.doc["status"] == D.TableStatus.CLOSED
            outbox = await self._outbox(tid, snap, ch, v_next)
            logged = [orjson.dumps(e) for e in ch.log]
            res = await self.store.cas(
                tid,
                snap.v,
                ch.doc,
                events=ch.events,
                cmd=cmd,
                deadline_ms=self.deadline(ch.doc),
                log=logged,
                match_no=ch.doc["match_no"],
                outbox=outbox,
                live="-" if closing else "",
                expire=self.settings.closed_table_ttl if closing else None,
                lobby=lobby_index.facet_change(snap.doc, ch.doc),
                chips=chips.chips_at(ch.doc),
            )
            if res.status == "ok":
                assert res.current is not None
                res.current.memo["state"] = ch.state
                _remember_log(snap, res.current, ch, logged)
                self._schedule(tid, clock)
                self.metrics.record_change(tid, res.v, ch)
                return res, ch
            if res.status == "dup":
                return res, None
            if not retry or attempt:
                raise TableError(409, "stale", "the table changed meanwhile; try again")
            snap = res.current
        raise AssertionError("unreachable")

    async def create(self, tid: str, doc: D.TableDoc) -> CasResult:
        """Write a new table's first version (a fresh random id: it cannot lose a race)."""
        return await self.store.cas(
            tid,
            0,
            doc,
            events=[{"type": "created"}],
            deadline_ms=self.deadline(doc),
            live=f"+{doc['created']}",
            lobby=lobby_index.facet_change(None, doc),
            chips=chips.chips_at(doc),
        )

    def maybe_deal(self, ch: D.Change, v_next: int) -> None:
        """Deal the next match (round) when the table is ready for it; never during the pause
        between rounds (O-6: a player sitting down then does not cut the others' pause short)."""
        if ch.doc.get("pause"):
            return
        players = D.dealable(ch.doc)
        if players is not None:
            rs = self.ruleset(ch.doc["game"])
            D.deal(ch, rs, self.seeds(ch.doc["id"], ch.doc["match_no"] + 1), players, v_next)

    def resume(self, ch: D.Change, v_next: int) -> None:
        """End the pause between rounds (O-6): a match plays on from its next round's forced
        moves, if any; a chips table deals its next round when it can."""
        ch.doc["pause"] = None
        if ch.doc["status"] == D.TableStatus.PLAYING:
            D.forced(ch, self.ruleset(ch.doc["game"]), v_next)
        else:
            self.maybe_deal(ch, v_next)

    # --- clocks ----------------------------------------------------------------------------
    def chores_ms(self) -> tuple[int, int]:
        s = self.settings
        return int(s.idle_seat_seconds * 1000), int(s.empty_table_seconds * 1000)

    def chores_at(self, doc: D.TableDoc) -> int | None:
        idle_ms, empty_ms = self.chores_ms()
        return D.chores_at(doc, idle_ms=idle_ms, empty_ms=empty_ms)

    def deadline(self, doc: D.TableDoc) -> int | None:
        """The table's clock entry: its game clock or its chores, whichever comes first."""
        clock = doc["clock"]
        times = [t for t in (clock and clock["at"], self.chores_at(doc)) if t is not None]
        return min(times, default=None)

    def _schedule(self, tid: str, clock: D.Clock | None) -> None:
        """Run a bot's turn or the next round here, after its delay (the sweeper backs it up)."""
        if clock is None or clock["kind"] == "turn":
            return
        delay = max(0.0, (clock["at"] - now_ms()) / 1000)
        task = asyncio.get_running_loop().create_task(self._later(tid, clock["v"], delay))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _later(self, tid: str, v: int, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self.wake(tid, v)
        except REDIS_DOWN as err:  # its node away (a failover): the sweeper runs it later
            log.warning(
                "clock of table %s at v%s: Redis unavailable (%s)",
                tid,
                v,
                err,
                extra={"table": tid, "v": v},
            )
        except Exception:  # a failed bot turn is retried by the sweeper
            log.exception("clock of table %s at v%s failed", tid, v, extra={"table": tid, "v": v})

    async def _outbox(self, tid: str, before: Snapshot, ch: D.Change, v_next: int) -> list[str]:
        """The outbox entries of this change (payments, records, cash-outs) as the stream holds
        them; the match's action log is read first when the change ends a match."""
        if not self.chips:
            return []
        log = await self.store.action_log(tid, ch.doc["match_no"]) if outbox.needs_log(ch) else None
        entries = outbox.change_entries(tid, before.doc, ch, v_next, log=log)
        return [outbox.dumps(e) for e in entries]


def _remember_log(before: Snapshot, after: Snapshot, ch: D.Change, logged: list[bytes]) -> None:
    """Keep the current match's action log with the snapshot just written, as the script
    appended it: JSON bytes (``store.action_log`` reads it back without a round trip; as
    dicts, a match's moves on every cached table were a third of the collector's middle
    generation, bench/README.md). Known only when the previous snapshot had it, or when this
    change dealt the match (its log starts here)."""
    match_no = ch.doc["match_no"]
    if before.memo.get("log_match") == match_no:
        after.memo["log"] = before.memo["log"] + logged
    elif before.doc["match_no"] != match_no:
        after.memo["log"] = logged
    else:
        return
    after.memo["log_match"] = match_no
