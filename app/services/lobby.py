"""The lobby's side of a table: create, list, look at, sit, leave, fill with bots, rematch and
quick join. Every change goes through the single write path (``TableWriter.change``).

A chips table's buy-in leaves the wallet (one locked database transaction, ``money.buy_in``, that
also records it as pending) before the seat is taken, so a wallet that cannot pay is refused.
The compare-and-set that takes the seat notes the buy-in as seated in the document and writes an
outbox entry that marks it seated in the database; a refused seat refunds it at once. A crash or
a lost connection in between leaves it pending, for the reconciler (app/services/buy_ins.py).
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any

from app.games import registry
from app.games.base import opt_int
from app.games.errors import BadOptions
from app.store.tables import Snapshot

from . import lobby_index, money
from . import table_doc as D
from .table_errors import TableError, closed
from .table_views import TableViews
from .table_write import TableWriter, now_ms

JOIN_CANDIDATES = 20  # the newest open tables quick join tries before it makes a new one


class Lobby:
    def __init__(self, writer: TableWriter, views: TableViews, *, db: Any = None):
        """``db``: the async_sessionmaker of chips and records (buy-ins); None: stacks are
        free (tests of the live tables alone)."""
        self.writer = writer
        self.views = views
        self.settings = writer.settings
        self.store = writer.store
        self.db = db

    async def create(
        self, game: str, n_seats: int, options: dict, turn_seconds: int | None
    ) -> dict:
        try:
            rs = registry.get_ruleset(game)
            rs.check_seats(n_seats)
            options = dict(options)
            if "turn_seconds" in options:  # docs/rules.md O-3 lists it among the table options
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
        doc = D.new_doc(
            rs, tid, n_seats, parsed, turn_seconds or self.settings.turn_seconds, now_ms()
        )
        res = await self.writer.create(tid, doc)
        return D.summary(doc, res.v)

    async def get(self, tid: str) -> dict:
        return self.views.summary(await self.writer.snap(tid))

    async def list_tables(
        self, *, game: str | None, stake: int | None, open_seats: bool, page: int, per_page: int
    ) -> dict:
        """One page of the lobby from its index (app/services/lobby_index.py): two round trips,
        the page's ids and then their documents, however many tables are live."""
        facet = lobby_index.facet(game, stake, open_seats)
        total, tids = await self.store.lobby_page(facet, (page - 1) * per_page, per_page)
        snaps = await self.store.load_many(tids)
        return {
            "items": [self.views.summary(s) for s in snaps],
            "page": page,
            "per_page": per_page,
            "total": total,
        }

    async def sit(self, player: dict, tid: str, n: int, buy_in: int | None) -> dict:
        snap = await self.writer.snap(tid)
        doc = snap.doc
        if doc["status"] == D.TableStatus.CLOSED:
            raise closed(tid)
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

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            outcome = D.buy_in_outcome(snap.doc, key) if key is not None else None
            if outcome == "seated":  # this request's own write landed; its reply was lost
                return None
            if outcome == "void":
                raise TableError(
                    409,
                    "buy_in_expired",
                    "taking the seat took too long; the buy-in is back in your wallet",
                )
            if snap.doc["seats"][n] is not None:
                raise TableError(409, "seat_taken", f"seat {n} is taken")
            if D.seat_of(snap.doc, player["id"]) is not None:  # a concurrent sit won
                raise TableError(409, "already_seated", "you already sit at this table")
            ch = self.writer.begin(snap)
            ch.doc["seats"][n] = D.make_seat(
                player["id"],
                player["name"],
                bot=False,
                stack=stack,
                sit=v_next,
                seen=now_ms(),
                buy_in=key,
            )
            if key is not None:
                D.note_buy_in(ch.doc, key, "seated", now_ms())
            ch.events.append({"type": "seated", "table_seat": n, "name": player["name"]})
            self.writer.maybe_deal(ch, v_next)
            return ch

        try:
            res, _ = await self.writer.change(tid, build, snap=snap)
        except TableError:
            if key is not None:  # this call's seat was surely not taken: refund it now
                with contextlib.suppress(money.Unavailable):  # else the reconciler will
                    await money.settle_buy_in(self.db, key, seated=False)
            raise
        if res is None or res.current is None:
            return self.views.summary(await self.writer.snap(tid))
        return self.views.summary(res.current)

    async def leave(self, player: dict, tid: str, n: int) -> dict:
        def build(snap: Snapshot, v_next: int) -> D.Change:
            doc = snap.doc
            if not 0 <= n < doc["n_seats"] or D.seat_of(doc, player["id"]) != n:
                raise TableError(409, "not_seated", f"you do not sit in seat {n}")
            ch = self.writer.begin(snap)
            D.remove(ch, n)  # in the match: the bot plays it to the end
            return ch

        return await self._changed(tid, build)

    async def add_bots(self, player: dict, tid: str) -> dict:
        def build(snap: Snapshot, v_next: int) -> D.Change:
            ch = self.writer.begin(snap)
            stack = self.settings.bot_stack if ch.doc["chips"] else None
            for n, seat in enumerate(ch.doc["seats"]):
                if seat is None:
                    ch.doc["seats"][n] = D.make_seat(
                        f"bot:{n}", f"Bot {n + 1}", bot=True, stack=stack, sit=v_next
                    )
                    ch.events.append({"type": "seated", "table_seat": n, "bot": True})
            self.writer.maybe_deal(ch, v_next)
            return ch

        return await self._changed(tid, build)

    async def rematch(self, player: dict, tid: str) -> dict:
        def build(snap: Snapshot, v_next: int) -> D.Change:
            n = D.seat_of(snap.doc, player["id"])
            if n is None or snap.doc["status"] != D.TableStatus.OVER:
                raise TableError(409, "no_rematch", "only a seated player, once the match is over")
            ch = self.writer.begin(snap)
            D.taken_seat(ch.doc, n)["rematch"] = True
            ch.events.append({"type": "rematch", "table_seat": n})
            self.writer.maybe_deal(ch, v_next)
            return ch

        return await self._changed(tid, build)

    async def quick_join(self, player: dict, game: str) -> dict:
        """An open seat at one of the newest fitting tables (lobby_index's join facet), else a
        new table full of bots."""
        if game not in registry.available():
            raise TableError(422, "bad_options", f"unknown game {game!r}", "game")
        _, tids = await self.store.lobby_page(lobby_index.join_facet(game), 0, JOIN_CANDIDATES)
        for snap in await self.store.load_many(tids):
            doc = snap.doc
            if None in doc["seats"] and D.seat_of(doc, player["id"]) is None:
                n = doc["seats"].index(None)
                try:
                    return {"table": await self.sit(player, doc["id"], n, None), "seat": n}
                except TableError:
                    continue
        rs = registry.get_ruleset(game)
        table = await self.create(game, max(rs.min_seats, min(4, rs.max_seats)), {}, None)
        await self.sit(player, table["id"], 0, None)
        return {"table": await self.add_bots(player, table["id"]), "seat": 0}

    async def _changed(self, tid: str, build) -> dict:
        """Write a change that always changes something; the table's new summary."""
        res, _ = await self.writer.change(tid, build)
        assert res is not None and res.current is not None
        return self.views.summary(res.current)

    async def _buy_in(
        self, pid: Any, tid: str, seat: int, amount: int, sit: int, stake: int
    ) -> str | None:
        """The buy-in leaves the wallet before the seat is taken; refused with a clear error
        when the wallet cannot pay. Returns its key. Each sit request has its own buy-in (a
        nonce in the key), refunded if that request's seat is not taken, so a double-click
        can never seat one buy-in twice."""
        if self.db is None:
            return None
        key = f"{money.buy_in_key(tid, seat, sit)}:{secrets.token_hex(4)}"
        try:
            await money.buy_in(
                self.db,
                pid,
                tid,
                seat,
                amount,
                key=key,
                minimum=stake,
                maximum=stake * self.settings.buy_in_max_stakes,
            )
            return key
        except money.BadBuyIn as e:
            raise TableError(422, e.code, e.message, "buy_in") from e
        except money.Unavailable as e:
            raise TableError(503, e.code, e.message) from e
        except money.MoneyError as e:
            raise TableError(409, e.code, e.message) from e
