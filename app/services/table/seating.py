"""Seats and the tables they are taken at: create, sit, leave, fill with bots, rematch and
quick join. Every change goes through the single write path (``TableWriter.change``).

A chips table's buy-in leaves the wallet (one locked database transaction, ``money.buy_in``, that
also records it as pending) before the seat is taken, so a wallet that cannot pay is refused.
The compare-and-set that takes the seat notes the buy-in as seated in the document and writes an
outbox entry that marks it seated in the database; a refused seat refunds it at once. A crash or
a lost connection in between leaves it pending, for the reconciler (buy_ins.py).

The amount is checked against the stake's bounds and the wallet first (stakes.py), so a refusal
is precise and moves nothing.

A sit restarts a chips table's start countdown (O-5); only a full table deals at once, so
friends can still join and the bots can still be asked for. A sit also notes the table in the
player's set (app/store/seated.py: "my tables", listing.py).
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any

from app.db import reach
from app.games import registry
from app.games.base import opt_int
from app.games.errors import BadOptions
from app.services import admin_players, money
from app.store.tables import Snapshot

from . import doc as D
from . import lobby_index
from .base import TableParts
from .errors import TableError, closed
from .rooms import balance, pick_room
from .stakes import buy_in_limits
from .write import now_ms

JOIN_CANDIDATES = 20  # the newest open tables quick join tries before it makes a new one
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6


def not_at_table() -> TableError:
    return TableError(
        403, "not_at_table", "only a player seated at this table may fill it with bots"
    )


def join_code(raw: str) -> str:
    """A join code as typed (any case, spaces or dashes) in its one form; 422 ``bad_code``."""
    code = raw.strip().upper().replace("-", "").replace(" ", "")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise TableError(
            422, "bad_code", f"a join code is {CODE_LENGTH} letters and digits", "path.code"
        )
    return code


class Seating(TableParts):
    """Taking and leaving seats, and the tables they are taken at."""

    async def create(
        self,
        game: str,
        n_seats: int,
        options: dict,
        turn_seconds: int | None,
        *,
        private: bool = False,
        start_seconds: int | None = None,
        creator: dict | None = None,
        buy_in: int | None = None,
    ) -> dict:
        """A new table (``private``: unlisted, with a join code). ``creator``: seated in seat 0
        (with ``buy_in``, else the default) or no table at all: a buy-in the creator could not
        make is refused before the table is made, and a sit that fails after all takes the new
        table away again."""
        rs, parsed, turn_seconds, start_seconds = self._parse(
            game, n_seats, options, turn_seconds, start_seconds
        )
        if creator is not None and rs.descriptor.chips:
            buy_in = await self._buy_in_amount(creator, parsed["stake"], buy_in)
        tid = secrets.token_urlsafe(12)  # 96 bits: a private table's address is its invitation
        code = await self._new_code(tid) if private else None
        doc = D.new_doc(rs, tid, n_seats, parsed, turn_seconds, now_ms(), start_seconds, code=code)
        res = await self.writer.create(tid, doc)
        if creator is None:
            return D.summary(doc, res.v)
        try:
            return await self.sit(creator, tid, 0, buy_in)
        except TableError:
            await self._discard(tid)
            raise

    def _parse(
        self,
        game: str,
        n_seats: int,
        options: dict,
        turn_seconds: int | None,
        start_seconds: int | None,
    ) -> tuple[Any, dict, int, int]:
        """The ruleset, its parsed options and the table's own two (O-3, O-5), or 422
        ``bad_options`` naming the field. The table's options may also come among the game's
        (docs/rules.md lists them as table options)."""
        start_field = "start_seconds"
        try:
            rs = registry.get_ruleset(game)
            rs.check_seats(n_seats)
            options = dict(options)
            if "turn_seconds" in options:
                turn_seconds = opt_int(options, "turn_seconds", 20, 1, 600)
                del options["turn_seconds"]
            if "start_seconds" in options:
                start_seconds, start_field = options.pop("start_seconds"), "options.start_seconds"
            if start_seconds is None:
                start_seconds = self.settings.start_seconds
            else:
                start_seconds = opt_int({"start_seconds": start_seconds}, "start_seconds", 0, 0, 60)
                if not rs.descriptor.chips:
                    raise BadOptions("start_seconds", "only a chips table waits to start (O-5)")
            for key in options:
                if key in rs.descriptor.managed:
                    raise BadOptions(key, "is set by the table, not by its creator")
            parsed = rs.parse_options(options, n_seats)
        except BadOptions as e:
            if e.field == "start_seconds":
                field = start_field
            else:
                field = e.field if e.field in ("game", "seats") else f"options.{e.field}"
            raise TableError(422, "bad_options", e.message, field) from e
        return rs, parsed, turn_seconds or self.settings.turn_seconds, start_seconds

    async def _discard(self, tid: str) -> None:
        """Close a table made for a creator whose sit failed, so none is left unseated."""

        def build(snap: Snapshot, v_next: int) -> D.Change | None:
            if D.any_human(snap.doc):  # somebody sat meanwhile: the table is theirs
                return None
            ch = self.writer.begin(snap)
            D.close(ch)
            return ch

        with contextlib.suppress(TableError):
            await self.writer.change(tid, build)

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
            stack = await self._buy_in_amount(player, doc["stake"], buy_in, paid_now=True)
            key = await self._buy_in(player["id"], tid, n, stack, snap.v + 1, doc["stake"])
        await self.seated.note(player["id"], tid)  # before the seat: the set never misses one

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
                avatar=player.get("avatar"),
            )
            if key is not None:
                D.note_buy_in(ch.doc, key, "seated", now_ms())
            ch.events.append({"type": "seated", "table_seat": n, "name": player["name"]})
            D.restart_countdown(ch.doc)
            if D.deal_at_once(ch.doc):
                self.writer.maybe_deal(ch, v_next)
            return ch

        try:
            res, _ = await self.writer.change(tid, build, snap=snap)
        except TableError:
            if key is not None:  # this call's seat was surely not taken: refund it now
                with contextlib.suppress(reach.Unavailable):  # else the reconciler will
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
        """Bots in every empty seat, asked by a player seated at the table or an operator (403
        ``not_at_table``): anyone else could fill a stranger's table, a private one too."""
        seated = D.seat_of((await self.writer.snap(tid)).doc, player["id"]) is not None
        operator = (
            not seated
            and self.db is not None
            and await admin_players.role_of(self.db, player["id"]) == "admin"
        )
        if not (seated or operator):
            raise not_at_table()

        def build(snap: Snapshot, v_next: int) -> D.Change:
            if not operator and D.seat_of(snap.doc, player["id"]) is None:  # left meanwhile
                raise not_at_table()
            ch = self.writer.begin(snap)
            stake = ch.doc["stake"]
            stack = buy_in_limits(stake, self.settings).high if stake is not None else None
            for n, seat in enumerate(ch.doc["seats"]):
                if seat is None:
                    ch.doc["seats"][n] = D.make_seat(
                        f"bot:{n}", f"Bot {n + 1}", bot=True, stack=stack, sit=v_next
                    )
                    ch.events.append({"type": "seated", "table_seat": n, "bot": True})
            if D.deal_at_once(ch.doc):
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

    async def quick_join(
        self, player: dict, game: str, stake: int | None = None, buy_in: int | None = None
    ) -> dict:
        """An open seat at one of the newest fitting tables (lobby_index's join facet), else a
        new table full of bots. A chips game sits in a stake room (rooms.py): its tables only,
        with ``buy_in`` (else the default), all of it checked before any table is tried."""
        if game not in registry.available():
            raise TableError(422, "bad_options", f"unknown game {game!r}", "game")
        rs = registry.get_ruleset(game)
        facet, options = lobby_index.join_facet(game), {}
        if rs.descriptor.chips and self.settings.stake_rooms:
            wallet = None if self.db is None else await balance(self.db, player["id"])
            room = pick_room(self.settings, stake, wallet)
            buy_in = await self._buy_in_amount(player, room.stake, buy_in)
            facet, options = lobby_index.join_facet(game, room.stake), {"stake": room.stake}
        elif stake is not None or buy_in is not None:
            raise TableError(422, "no_rooms", f"{game} is not played for chips", "stake")
        _, tids = await self.store.lobby_page(facet, 0, JOIN_CANDIDATES)
        for snap in await self.store.load_many(tids):
            doc = snap.doc
            if None in doc["seats"] and D.seat_of(doc, player["id"]) is None:
                n = doc["seats"].index(None)
                try:
                    return {"table": await self.sit(player, doc["id"], n, buy_in), "seat": n}
                except TableError:
                    continue
        n_seats = max(rs.min_seats, min(4, rs.max_seats))
        table = await self.create(game, n_seats, options, None, creator=player, buy_in=buy_in)
        return {"table": await self.add_bots(player, table["id"]), "seat": 0}

    async def _new_code(self, tid: str) -> str:
        """A join code no other table holds (the alphabet gives 32**6, about 10**9, codes)."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if await self.seated.claim_code(code, tid):
                return code

    async def _changed(self, tid: str, build) -> dict:
        """Write a change that always changes something; the table's new summary."""
        res, _ = await self.writer.change(tid, build)
        assert res is not None and res.current is not None
        return self.views.summary(res.current)

    async def _buy_in_amount(
        self, player: dict, stake: int, asked: int | None, *, paid_now: bool = False
    ) -> int:
        """The buy-in this player sits with at ``stake``: the amount asked, if the table allows
        it (422 ``buy_in_too_low`` / ``buy_in_too_high``) and the wallet holds it (409
        ``insufficient_chips``), else the default (stakes.py). Refused before any
        chip moves or any table is made. ``paid_now``: the buy-in's own transaction follows at
        once and checks the wallet under its lock with the same 409, so an amount asked needs
        no read of the balance first (one transaction fewer a sit; the default still does)."""
        read = self.db is not None and not (paid_now and asked is not None)
        wallet = await balance(self.db, player["id"]) if read else None
        limits = buy_in_limits(stake, self.settings, wallet)
        amount = limits.default if asked is None else asked
        if amount < limits.low:
            message = f"the buy-in at this table is at least {limits.low}"
            raise TableError(422, "buy_in_too_low", message, "buy_in")
        if amount > limits.high:
            message = f"the buy-in at this table is at most {limits.high}"
            raise TableError(422, "buy_in_too_high", message, "buy_in")
        if wallet is not None and amount > wallet:
            raise TableError(
                409,
                "insufficient_chips",
                f"you have {wallet} chips in your wallet; the buy-in is {amount}",
            )
        return amount

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
        limits = buy_in_limits(stake, self.settings)
        try:
            await money.buy_in(
                self.db,
                pid,
                tid,
                seat,
                amount,
                key=key,
                minimum=limits.low,
                maximum=limits.high,
            )
            return key
        except money.BadBuyIn as e:
            raise TableError(422, e.code, e.message, "buy_in") from e
        except reach.Unavailable as e:
            raise TableError(503, e.code, e.message) from e
        except money.MoneyError as e:
            raise TableError(409, e.code, e.message) from e
