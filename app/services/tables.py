"""Table lifecycle and moves: the one service path every game, player, bot and clock goes through.

Every change is ``_change(tid, build)``: take the table's snapshot (the process cache when it is
known to be current), let ``build`` produce the new document with the pure functions of
``table_doc`` (which call the ruleset), and write it with one compare-and-set (store.cas). A
lost race is built again once on the table as the script returned it, then answered ``stale``.
After a successful write, a bot's turn or a chips table's next round is run by a local task
after the configured delay; the Redis clock set is the backstop any process sweeps (clocks.py).

Idle seats and closing (issue 7): the clock entry of a table is the earliest of its game clock
and its chores (``table_doc.chores_at``: an idle human seat to free, or the closing of a table
no human sat at for a while). Whoever claims it runs ``run_clock``, which does the due one
through ``_change``, so a seat is freed, its stack cashed out (outbox) and a table closed
exactly once however many processes sweep. A closed table refuses everything with
``table_closed``, leaves the lobby registry and its keys expire (``closed_table_ttl``); the
outbox consumer still writes its last entries (it remembers streams, app/store/outbox.py).

Seams for chips & records (CONTRACTS.md): ``_buy_in`` is called before a seat is taken and
``_outbox`` turns each change into outbox entries written by the same compare-and-set.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import orjson

from app.config import Settings
from app.games import registry
from app.games.base import opt_int
from app.games.errors import BadOptions, GameError, IllegalAction
from app.games.rng import new_seed
from app.metrics import Metrics
from app.store.tables import CasResult, Snapshot, TableStore

from . import money, table_money
from . import table_doc as D
from .table_views import TableViews

log = logging.getLogger(__name__)


class TableError(Exception):
    """A refused lobby request: HTTP ``status``, a stable ``code``, and the ``field`` for 422."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field


def _not_found(tid: str) -> TableError:
    return TableError(404, "not_found", f"no table {tid}")


def _closed(tid: str) -> TableError:
    return TableError(409, "table_closed", f"table {tid} is closed; pick another one")


class TableService(TableViews):
    def __init__(self, settings: Settings, store: TableStore, *,
                 seeds: Callable[[str, int], int] | None = None, db=None,
                 metrics: Metrics | None = None):
        self.settings = settings
        self.store = store
        self.metrics = metrics or Metrics()  # ops: counts and logs every applied change
        self.db = db  # async_sessionmaker: buy-ins (chips & records); None: stacks are free
        self.seeds = seeds or (lambda tid, match_no: new_seed())
        self.tasks: set[asyncio.Task] = set()

    @staticmethod
    def now_ms() -> int:
        return int(time.time() * 1000)

    # --- lobby ---------------------------------------------------------------------------------
    async def create(self, game: str, n_seats: int, options: dict, turn_seconds: int | None
                     ) -> dict:
        try:
            rs = registry.get_ruleset(game)
            rs.check_seats(n_seats)
            options = dict(options)
            if "turn_seconds" in options:  # RULES.md O-3 lists it among the table options
                turn_seconds = opt_int(options, "turn_seconds", 20, 1, 600)
                del options["turn_seconds"]
            for key in options:
                if key in rs.descriptor.managed:
                    raise BadOptions(key, "is set by the table, not by its creator")
            parsed = rs.parse_options(options, n_seats)
        except BadOptions as e:
            field = e.field if e.field in ("game", "seats") else f"options.{e.field}"
            raise TableError(422, "bad_options", e.message, field) from e
        tid = secrets.token_hex(5)
        doc = D.new_doc(rs, tid, n_seats, parsed, turn_seconds or self.settings.turn_seconds,
                        self.now_ms())
        res = await self.store.cas(tid, 0, doc, events=[{"type": "created"}],
                                   deadline_ms=self._deadline(doc), live=str(doc["created"]))
        return D.summary(doc, res.v)

    async def get(self, tid: str) -> dict:
        snap = await self._snap(tid)
        return self.summary(snap)

    async def list(self, *, game: str | None, stake: int | None, open_seats: bool,
                   page: int, per_page: int) -> dict:
        snaps = await self._live_snaps()
        items = [self.summary(s) for s in snaps]
        items = [t for t in items if (game is None or t["game"] == game)
                 and (stake is None or t["stake"] == stake)
                 and (not open_seats or t["open_seats"] > 0)]
        start = (page - 1) * per_page
        return {"items": items[start:start + per_page], "page": page, "per_page": per_page,
                "total": len(items)}

    async def sit(self, player: dict, tid: str, n: int, buy_in: int | None) -> dict:
        snap = await self._snap(tid)
        doc = snap.doc
        if doc["status"] == "closed":
            raise _closed(tid)
        if not 0 <= n < doc["n_seats"]:
            raise TableError(404, "no_seat", f"table {tid} has no seat {n}")
        if D.seat_of(doc, player["id"]) is not None:
            raise TableError(409, "already_seated", "you already sit at this table")
        if doc["seats"][n] is not None:
            raise TableError(409, "seat_taken", f"seat {n} is taken")
        stack = key = None
        if doc["chips"]:
            stack = self.settings.default_stack if buy_in is None else buy_in
            if stack < doc["stake"]:
                raise TableError(422, "bad_buy_in", "the buy-in must cover one stake", "buy_in")
            key = await self._buy_in(player["id"], tid, n, stack, snap.v + 1, doc["stake"])

        def build(snap: Snapshot, v_next: int) -> D.Change:
            if snap.doc["seats"][n] is not None:
                raise TableError(409, "seat_taken", f"seat {n} is taken")
            if D.seat_of(snap.doc, player["id"]) is not None:  # a concurrent sit won
                raise TableError(409, "already_seated", "you already sit at this table")
            ch = D.begin(snap.doc, self._state(snap))
            ch.doc["seats"][n] = D.make_seat(player["id"], player["name"], bot=False,
                                             stack=stack, sit=v_next, seen=self.now_ms())
            ch.events.append({"type": "seated", "table_seat": n, "name": player["name"]})
            self._maybe_deal(ch, v_next)
            return ch

        try:
            res, _ = await self._change(tid, build, snap=snap)
        except TableError:
            if key is not None:  # this call's seat was surely not taken: give its buy-in back
                await self._refund(player["id"], tid, n, stack, key)
            raise
        return self.summary(res.current)

    async def leave(self, player: dict, tid: str, n: int) -> dict:
        def build(snap: Snapshot, v_next: int) -> D.Change:
            doc = snap.doc
            if not 0 <= n < doc["n_seats"] or D.seat_of(doc, player["id"]) != n:
                raise TableError(409, "not_seated", f"you do not sit in seat {n}")
            ch = D.begin(doc, self._state(snap))
            D.remove(ch, n)  # in the match: the bot plays it to the end
            return ch

        res, _ = await self._change(tid, build)
        return self.summary(res.current)

    async def add_bots(self, player: dict, tid: str) -> dict:
        def build(snap: Snapshot, v_next: int) -> D.Change:
            ch = D.begin(snap.doc, self._state(snap))
            stack = self.settings.bot_stack if ch.doc["chips"] else None
            for n, seat in enumerate(ch.doc["seats"]):
                if seat is None:
                    ch.doc["seats"][n] = D.make_seat(f"bot:{n}", f"Bot {n + 1}", bot=True,
                                                     stack=stack, sit=v_next)
                    ch.events.append({"type": "seated", "table_seat": n, "bot": True})
            self._maybe_deal(ch, v_next)
            return ch

        res, _ = await self._change(tid, build)
        return self.summary(res.current)

    async def rematch(self, player: dict, tid: str) -> dict:
        def build(snap: Snapshot, v_next: int) -> D.Change:
            n = D.seat_of(snap.doc, player["id"])
            if n is None or snap.doc["status"] != "over":
                raise TableError(409, "no_rematch", "only a seated player, once the match is over")
            ch = D.begin(snap.doc, self._state(snap))
            ch.doc["seats"][n]["rematch"] = True
            ch.events.append({"type": "rematch", "table_seat": n})
            self._maybe_deal(ch, v_next)
            return ch

        res, _ = await self._change(tid, build)
        return self.summary(res.current)

    async def quick_join(self, player: dict, game: str) -> dict:
        """An open seat at a fitting table (default options), else a new table full of bots."""
        if game not in registry.available():
            raise TableError(422, "bad_options", f"unknown game {game!r}", "game")
        snaps = await self._live_snaps()
        for snap in snaps:
            doc = snap.doc
            if (doc["game"] == game and None in doc["seats"] and D.human_seated(doc)
                    and D.seat_of(doc, player["id"]) is None
                    and (doc["chips"] or doc["status"] == "waiting")):
                n = doc["seats"].index(None)
                try:
                    return {"table": await self.sit(player, doc["id"], n, None), "seat": n}
                except TableError:
                    continue
        rs = self._ruleset(game)
        table = await self.create(game, max(rs.min_seats, min(4, rs.max_seats)), {}, None)
        await self.sit(player, table["id"], 0, None)
        return {"table": await self.add_bots(player, table["id"]), "seat": 0}

    # --- moves ---------------------------------------------------------------------------------
    async def act(self, tid: str, pid: Any, cmd: str, v: int, raw: Any) -> dict:
        """A player's move: ``ack`` or ``error`` (never applied twice for one command id)."""
        snap = await self.store.snapshot(tid)
        if snap is not None and v > snap.v:
            snap = await self.store.load(tid)
        if snap is None:
            return _error(cmd, "not_found", f"no table {tid}")
        if snap.doc["status"] == "closed":
            return _error(cmd, "table_closed", f"table {tid} is closed")
        if v != snap.v:
            first = await self.store.command_result(tid, pid, cmd)
            if first is not None:
                return {"type": "ack", "cmd": cmd, "v": first}
            return _error(cmd, "stale", f"the table is at version {snap.v}, not {v}")
        n = D.seat_of(snap.doc, pid)
        gseat = D.game_seat(snap.doc, n)
        if gseat is None or snap.doc["seats"][n]["leaving"]:
            return _error(cmd, "not_your_turn", "you have no seat in a match being played")
        rs = self._ruleset(snap.doc["game"])
        try:
            action = rs.parse_action(raw)
        except IllegalAction as e:
            return _error(cmd, e.code, e.message)

        def build(snap: Snapshot, v_next: int) -> D.Change:
            ch = D.begin(snap.doc, self._state(snap))
            seat = ch.doc["seats"][n]
            seat["timeouts"] = 0
            seat["seen"] = self.now_ms()
            if seat["away"]:
                seat["away"] = False
                ch.events.append({"type": "back", "table_seat": n})
            D.play(ch, rs, gseat, action, "player", v_next)
            return ch

        try:
            res, _ = await self._change(tid, build, snap=snap, cmd=(pid, cmd), retry=False)
        except GameError as e:
            return _error(cmd, e.code, e.message)
        except TableError as e:
            return _error(cmd, e.code, e.message)
        return {"type": "ack", "cmd": cmd, "v": res.v}

    async def back(self, tid: str, pid: Any) -> None:
        """O-3: an away player who sends anything (sync, chat) is theirs to play again. It also
        counts as activity against idle removal; ``seen`` is written only when it is older
        than a tenth of the idle limit, so a chatty player costs a write every few minutes."""
        snap = await self.store.snapshot(tid)
        n = D.seat_of(snap.doc, pid) if snap else None
        if n is None or not (snap.doc["seats"][n]["away"] or self._stale_seen(snap.doc, n)):
            return

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            ch = D.begin(snap.doc, self._state(snap))
            seat = ch.doc["seats"][n]
            if seat is None or seat["bot"] or seat["player"] != pid:
                return None
            if not seat["away"] and not self._stale_seen(snap.doc, n):
                return None
            seat["seen"] = self.now_ms()
            if seat["away"]:
                seat.update(away=False, timeouts=0)
                ch.events.append({"type": "back", "table_seat": n})
            return ch

        await self._change(tid, build, snap=snap)

    async def run_clock(self, tid: str, v: int | None = None, *, claimed: bool = False) -> bool:
        """Apply a due clock (a timeout, a bot's or away player's turn, the next round) once.

        ``v``: the version the clock was set at, when known. Whoever applies it, the
        compare-and-set against that version makes sure it happens exactly once."""
        snap = await (self.store.load(tid) if claimed else self.store.snapshot(tid))
        if snap is not None and v is not None and snap.v < v:
            snap = await self.store.load(tid)
        if snap is None and claimed:  # a stray entry (a lost create): nothing to wake up
            await self.store.set_deadline(tid, None)
        if snap is None or (v is not None and v != snap.v):
            return False
        clock = snap.doc["clock"]
        if clock is None or clock["at"] > self.now_ms() + 5:
            if v is None and (self._chores_at(snap.doc) or 1 << 62) <= self.now_ms() + 5:
                return await self._chores(tid, snap)
            if claimed:  # the claim moved the deadline: put back the document's own
                await self.store.set_deadline(tid, self._deadline(snap.doc))
            return False

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            if snap.doc["clock"] != clock:
                return None
            ch = D.begin(snap.doc, self._state(snap))
            if clock["kind"] == "next":
                self._maybe_deal(ch, v_next)
            else:
                D.timeout(ch, self._ruleset(ch.doc["game"]), clock, v_next,
                          away_after=self.settings.away_after_timeouts)
            return ch

        try:
            res, _ = await self._change(tid, build, snap=snap, retry=False)
        except TableError:
            return False
        return res is not None and res.status == "ok"

    async def _chores(self, tid: str, snap: Snapshot) -> bool:
        """Free the idle seats / close the table, when due (issue 7); once, version-checked."""
        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            ch = D.begin(snap.doc, self._state(snap))
            idle_ms, empty_ms = self._chores_ms()
            return ch if D.chores(ch, self.now_ms(), idle_ms=idle_ms, empty_ms=empty_ms) else None

        try:
            res, _ = await self._change(tid, build, snap=snap, retry=False)
        except TableError:
            return False
        if res is None:  # nothing due after all: put back the document's own deadline
            await self.store.set_deadline(tid, self._deadline(snap.doc))
            return False
        return res.status == "ok"

    def _chores_ms(self) -> tuple[int, int]:
        s = self.settings
        return int(s.idle_seat_seconds * 1000), int(s.empty_table_seconds * 1000)

    def _chores_at(self, doc: dict) -> int | None:
        idle_ms, empty_ms = self._chores_ms()
        return D.chores_at(doc, idle_ms=idle_ms, empty_ms=empty_ms)

    def _deadline(self, doc: dict) -> int | None:
        """The table's clock entry: its game clock or its chores, whichever comes first."""
        times = [t for t in (doc["clock"] and doc["clock"]["at"], self._chores_at(doc))
                 if t is not None]
        return min(times, default=None)

    def _stale_seen(self, doc: dict, n: int) -> bool:
        """Worth writing ``seen``: older than a tenth of the idle limit, and the seat's idleness
        counts (it is not playing the current match, where its moves keep ``seen``)."""
        seen = doc["seats"][n].get("seen")
        return D.game_seat(doc, n) is None and (
            seen is None or self.now_ms() - seen > self.settings.idle_seat_seconds * 100)

    # --- the one write path --------------------------------------------------------------------
    async def _change(self, tid: str, build, *, snap: Snapshot | None = None,
                      cmd: tuple[Any, str] | None = None, retry: bool = True
                      ) -> tuple[CasResult | None, D.Change | None]:
        snap = snap or await self.store.snapshot(tid)
        for attempt in range(2):
            if snap is None:
                raise _not_found(tid)
            if snap.doc["status"] == "closed":
                raise _closed(tid)
            v_next = snap.v + 1
            ch = build(snap, v_next)
            if ch is None:
                return None, None
            rs = self._ruleset(ch.doc["game"])
            clock = D.next_clock(ch.doc, rs, ch.state, self.now_ms(), v_next,
                                 bot_delay=self.settings.bot_delay,
                                 round_pause=self.settings.round_pause)
            ch.doc["clock"] = clock
            D.seal(ch, rs)
            D.note_empty(ch.doc, self.now_ms())
            closing = ch.doc["status"] == "closed"
            outbox = await self._outbox(tid, snap, ch, v_next)
            logged = [orjson.dumps(e) for e in ch.log]
            res = await self.store.cas(
                tid, snap.v, ch.doc, events=ch.events, cmd=cmd,
                deadline_ms=self._deadline(ch.doc), log=logged,
                match_no=ch.doc["match_no"], outbox=outbox, live="-" if closing else "",
                expire=self.settings.closed_table_ttl if closing else None,
                repair=not retry or bool(attempt))
            if res.status == "ok":
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

    def _schedule(self, tid: str, clock: dict | None) -> None:
        """Run a bot's turn or the next round here, after its delay (the sweeper backs it up)."""
        if clock is None or clock["kind"] == "turn":
            return
        delay = max(0.0, (clock["at"] - self.now_ms()) / 1000)
        task = asyncio.get_running_loop().create_task(self._later(tid, clock["v"], delay))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _later(self, tid: str, v: int, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self.run_clock(tid, v)
        except Exception:  # a failed bot turn is retried by the sweeper
            log.exception("clock of table %s at v%s failed", tid, v,
                          extra={"table": tid, "v": v})

    def _maybe_deal(self, ch: D.Change, v_next: int) -> None:
        players = D.dealable(ch.doc)
        if players is not None:
            rs = self._ruleset(ch.doc["game"])
            D.deal(ch, rs, self.seeds(ch.doc["id"], ch.doc["match_no"] + 1), players, v_next)

    # --- seams for chips & records -------------------------------------------------------------
    async def _buy_in(self, pid: Any, tid: str, seat: int, amount: int, sit: int,
                      stake: int) -> str | None:
        """The buy-in leaves the wallet (one locked database transaction) before the seat is
        taken; refused with a clear error when the wallet cannot pay (chips & records).
        Returns its key. Each sit request has its own buy-in (a nonce in the key), refunded if
        that request's seat is not taken, so a double-click can never seat one buy-in twice."""
        if self.db is None:
            return None
        key = f"{money.buy_in_key(tid, seat, sit)}:{secrets.token_hex(4)}"
        try:
            await money.buy_in(self.db, pid, tid, seat, amount, key=key, minimum=stake,
                               maximum=stake * self.settings.buy_in_max_stakes)
            return key
        except money.BadBuyIn as e:
            raise TableError(422, e.code, e.message, "buy_in") from e
        except money.MoneyError as e:
            raise TableError(503 if isinstance(e, money.Unavailable) else 409, e.code,
                             e.message) from e

    async def _refund(self, pid: Any, tid: str, seat: int, amount: int, key: str) -> None:
        await money.cash_out(self.db, pid, tid, seat, amount, key="refund:" + key)

    async def _outbox(self, tid: str, before: Snapshot, ch: D.Change, v_next: int) -> list[str]:
        """The outbox entries of this change: payments, records, cash-outs (chips & records)."""
        if self.db is None:
            return []
        return await table_money.change_entries(self.store, tid, before.doc, ch, v_next)

    # --- reading -------------------------------------------------------------------------------
    async def _live_snaps(self) -> list[Snapshot]:
        """The lobby's tables. A closed one still listed (its process died between closing and
        leaving the registry) is dropped from the registry here."""
        snaps = await self.store.load_many(await self.store.live_tables())
        closed = [s.tid for s in snaps if s.doc["status"] == "closed"]
        if closed:
            await self.store.unlist(closed)
        return [s for s in snaps if s.doc["status"] != "closed"]

    async def _snap(self, tid: str) -> Snapshot:
        snap = await self.store.snapshot(tid)
        if snap is None:
            raise _not_found(tid)
        return snap


def _remember_log(before: Snapshot, after: Snapshot, ch: D.Change, logged: list[bytes]) -> None:
    """Keep the current match's action log with the snapshot just written, as the script
    appended it: JSON bytes (``store.action_log`` reads it back without a round trip; as
    dicts, a match's moves on every cached table were a third of the collector's middle
    generation, issue 10). Known only when the previous snapshot had it, or when this change
    dealt the match (its log starts here)."""
    match_no = ch.doc["match_no"]
    if before.memo.get("log_match") == match_no:
        after.memo["log"] = before.memo["log"] + logged
    elif before.doc["match_no"] != match_no:
        after.memo["log"] = logged
    else:
        return
    after.memo["log_match"] = match_no


def _error(cmd: str | None, code: str, message: str) -> dict:
    return {"type": "error", "cmd": cmd, "code": code, "message": message}
