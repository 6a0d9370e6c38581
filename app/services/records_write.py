"""Outbox entries written as database rows: the records consumer's side of the outbox.

The entries are built by the table's write path (app/services/table/outbox.py, typed there) and
XADDed to its outbox stream with the move; the consumer (app/store/outbox.py) reads a batch and
its writer (app/services/records.py) writes it with ``apply_entries`` in a database transaction
of its own. Entries arrive here as parsed JSON, so a field is read as the mapping it is, and
one that is missing makes the entry a bad one (dead-lettered, ``BadEntry``). The entry format
is documented in app/store/outbox.py.

Every entry carries a unique idempotency ``key``; applying an entry twice changes nothing:
- chip movements are ledger transactions keyed ``lewat:<table>:<version>``,
  ``settle:<table>:<match>:<round>:<payer seat>`` and ``cash_out:<table>:<seat>:<sit>``, written
  with ON CONFLICT DO NOTHING (app/db/ledger.py);
- the round and match records are claimed once: the rows still unwritten are locked
  (``SELECT ... FOR UPDATE``), then written with ``UPDATE ... WHERE <unwritten> IS NULL``;
- ``match`` and ``round`` rows are found or created by their natural keys (table, number) and
  (match, number), so entries of one match may arrive in any order;
- the players' totals (stats_write.py) and daily missions (missions_write.py) are counted by the
  entry that claims its record, so once; a mission's reward is a ledger transaction keyed
  ``mission:<player>:<day>:<mission>``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.ledger import Leg, stack_account
from app.db.models import Bet, LewatPayment, Match, MatchSeat, Move, Round
from app.services import missions_write, stats_write
from app.services.money import cash_out_in, mark_seated_in
from app.store.outbox import BadEntry

# Rows are written through the tables (Core statements), not the ORM's unit of work or bulk
# paths: the outbox writes every entry's rows, and the ORM's bookkeeping was most of its CPU.
ROUNDS, MATCHES = cast(Table, Round.__table__), cast(Table, Match.__table__)


def _claim(table: Table, unwritten: str, columns: Sequence[str]):
    """``UPDATE table SET columns WHERE id = :row AND <unwritten> IS NULL``, run for the rows
    ``_claim_records`` found unwritten and locked. Built once, its values bound per entry: a
    statement built per entry cost its cache key every time."""
    return (
        update(table)
        .where(table.c.id == bindparam("row"), table.c[unwritten].is_(None))
        .values({c: bindparam(f"new_{c}", type_=table.c[c].type) for c in columns})
    )


def _round_values(session: AsyncSession, e: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "row": _round_id(session, e),
        "new_version": e["version"],
        "new_winner": e["winner"],
        "new_ending": e["ending"],
        "new_multiplier": e["multiplier"],
        "new_detail": e["detail"],
    }


def _match_values(session: AsyncSession, e: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "row": _match_id(session, e),
        "new_options": e["options"],
        "new_seed": e["seed"],
        "new_n_seats": len(e["players"]),
        "new_result": e["result"],
        "new_started_at": _when(e.get("started_at")),
        "new_finished_at": _finished(e),
        "new_private": bool(e.get("private")),  # absent from entries written before it was
    }


class _Record(NamedTuple):
    """A record written once, by the entry that claims its row (``_claim_records``)."""

    table: Table
    unwritten: str  # the column still NULL while the record is unwritten
    claim: Any  # the UPDATE that writes it
    values: Callable[[AsyncSession, Mapping[str, Any]], dict[str, Any]]


RECORDS = {
    "round": _Record(
        ROUNDS,
        "version",
        _claim(ROUNDS, "version", ("version", "winner", "ending", "multiplier", "detail")),
        _round_values,
    ),
    "match": _Record(
        MATCHES,
        "finished_at",
        _claim(
            MATCHES,
            "finished_at",
            ("options", "seed", "n_seats", "result", "started_at", "finished_at", "private"),
        ),
        _match_values,
    ),
}


async def apply_entries(
    session: AsyncSession,
    entries: Sequence[Mapping[str, Any]],
    after: Callable[[Mapping[str, Any]], None] | None = None,
) -> list[bool]:
    """Write outbox entries in order inside the caller's transaction; per entry, False when it
    was written before. Statements are made per batch, not per entry: the match and round rows
    the entries belong to are found or made first (``_learn_ids``), the batch's Lewat payments
    and settlements are posted in one statement (``_post_payments``), its rounds and matches
    claimed with two per kind (``_claim_records``), and the players' totals and daily missions
    are summed and written with one each at the end (``stats_write.flush``,
    ``missions_write.flush``, which also pays a mission completed: rare). ``after(entry)``:
    called once each entry is written (a test hook)."""
    await _learn_ids(session, entries)
    await _post_payments(session, entries)
    await _claim_records(session, entries)
    written = []
    for entry in entries:
        kind = str(entry.get("kind"))
        if kind not in WRITERS:
            raise BadEntry(f"unknown outbox entry kind {kind!r}")
        with _named(entry):
            written.append(await WRITERS[kind](session, entry))
        if after is not None:
            after(entry)
    await stats_write.flush(session)
    await missions_write.flush(session)
    return written


@contextlib.contextmanager
def _named(entry: Mapping[str, Any]) -> Iterator[None]:
    """A field missing from an entry, as the bad entry it is (it is dead-lettered)."""
    try:
        yield
    except KeyError as missing:
        raise BadEntry(f"outbox entry {entry.get('key')} lacks {missing}") from None


async def _post_payments(session: AsyncSession, entries: Sequence[Mapping[str, Any]]) -> None:
    """Post the batch's Lewat payments (G-6) and round settlements (G-10/G-11), most of a busy
    table's chip movements, with one statement (``ledger.post_many``: a key already written,
    or given twice, is written once). Their writers find each transaction's id, None when it
    was there before, in ``session.info["posted"]``: a Lewat's by the entry, a settlement's by
    the entry and its place. No wallet moves here (stacks only), so their order does not
    matter."""
    owners: list[Any] = []
    txns: list[ledger.Txn] = []
    for e in entries:
        kind = e.get("kind")
        with _named(e):
            if kind == "lewat":
                owners.append(id(e))
                txns.append(ledger.Txn(e["key"], "lewat", _transfer(e, e), e["table"]))
            elif kind == "round":
                for i, p in enumerate(e["settlements"]):
                    owners.append((id(e), i))
                    key = f"settle:{e['table']}:{e['match']}:{e['round']}:{p['payer']}"
                    txns.append(ledger.Txn(key, "settlement", _transfer(e, p), e["table"]))
    session.info["posted"] = dict(zip(owners, await ledger.post_many(session, txns)))


async def _claim_records(session: AsyncSession, entries: Sequence[Mapping[str, Any]]) -> None:
    """Claim the batch's round and match records: per kind, one ``SELECT ... FOR UPDATE`` of
    the rows still unwritten, in id order, then one UPDATE run for all of them (executemany),
    instead of an UPDATE per record. A consumer racing for the same rows waits for this
    transaction and then finds them written (Postgres checks the condition again on the row it
    waited for; SQLite's ``BEGIN IMMEDIATE`` lets one writer in at a time). The writers find
    what their entry claimed in ``session.info["claimed"]`` (by ``id(entry)``); of an entry
    given twice in one batch, the first claims."""
    claimed: set[int] = set()
    session.info["claimed"] = claimed
    for kind, record in RECORDS.items():
        wanted: dict[int, tuple[Mapping[str, Any], dict[str, Any]]] = {}
        for e in entries:
            if e.get("kind") == kind:
                with _named(e):
                    values = record.values(session, e)
                wanted.setdefault(values["row"], (e, values))
        if not wanted:
            continue
        table = record.table
        unwritten = await session.execute(
            select(table.c.id)
            .where(table.c.id.in_(list(wanted)), table.c[record.unwritten].is_(None))
            .order_by(table.c.id)
            .with_for_update()
        )
        rows = list(unwritten.scalars())
        if rows:
            await session.execute(record.claim, [wanted[row][1] for row in rows])
            claimed.update(id(wanted[row][0]) for row in rows)


# The entries that belong to a match's row; of those, the ones that also belong to a round's.
MATCH_KINDS = frozenset({"lewat", "round", "match"})
ROUND_KINDS = frozenset({"lewat", "round"})


async def _learn_ids(session: AsyncSession, entries: Sequence[Mapping[str, Any]]) -> None:
    """The ids of the match and round rows the batch's entries belong to, made where missing:
    a statement or two for all the batch's matches and the same for its rounds
    (``ledger.ensure_rows``), not up to four for each round's first entry."""
    matches: dict[tuple, dict[str, Any]] = {}
    for e in entries:
        if e.get("kind") in MATCH_KINDS:
            with _named(e):
                key = _match_key(e)
                if _known(session, key) is None:
                    matches[key] = {"table_id": e["table"], "number": e["match"], "game": e["game"]}
    await _ensure(session, Match, ("table_id", "number"), matches)
    rounds: dict[tuple, dict[str, Any]] = {}
    for e in entries:
        if e.get("kind") in ROUND_KINDS:
            with _named(e):
                key = _round_key(session, e)
                if _known(session, key) is None:
                    rounds[key] = {"match_id": key[1], "number": e["round"]}
    await _ensure(session, Round, ("match_id", "number"), rounds)


async def _ensure(session: AsyncSession, model, unique: tuple[str, ...], rows: dict) -> None:
    if rows:
        ids = await ledger.ensure_rows(session, model, unique, list(rows.values()))
        for key in rows:
            _learn(session, key, ids[key[1:]])


def _match_key(e: Mapping[str, Any]) -> tuple:
    return (Match.__tablename__, e["table"], e["match"])


def _round_key(session: AsyncSession, e: Mapping[str, Any]) -> tuple:
    return (Round.__tablename__, _match_id(session, e), e["round"])


def _match_id(session: AsyncSession, e: Mapping[str, Any]) -> int:
    return _id(session, _match_key(e))


def _round_id(session: AsyncSession, e: Mapping[str, Any]) -> int:
    return _id(session, _round_key(session, e))


def _id(session: AsyncSession, key: tuple) -> int:
    """A row id ``_learn_ids`` learnt for this batch (or an earlier one)."""
    row_id = _known(session, key)
    assert row_id is not None, f"{key} was not learnt for the batch"
    return row_id


# Match and round ids never change once committed, and the entries of one round come one by
# one (each Lewat payment, then the round): a writer that keeps the ids it learnt makes them
# only for the rounds that start in a batch. ``session.info["ids"]`` is the caller's map of
# committed ids; the ids learnt in this transaction wait in ``"new_ids"`` until the caller has
# committed (a rolled back id must never be reused).
def _known(session: AsyncSession, key: tuple) -> int | None:
    info = session.info
    return info.get("new_ids", {}).get(key) or info.get("ids", {}).get(key)


def _learn(session: AsyncSession, key: tuple, value: int) -> None:
    session.info.setdefault("new_ids", {})[key] = value


def _pid(who: Any) -> int | None:
    """The database player id of a seat's occupant (bots have none)."""
    return who if type(who) is int else None


def _transfer(e: Mapping[str, Any], payment: Mapping[str, Any]) -> list[Leg]:
    amount, payer, payee = payment["amount"], payment["payer_id"], payment["payee_id"]
    return [
        Leg(stack_account(e["table"], payer), _pid(payer), -amount),
        Leg(stack_account(e["table"], payee), _pid(payee), amount),
    ]


def _people(p: Mapping[str, Any]) -> dict:
    return {
        "payer_seat": p["payer"],
        "payer_id": _pid(p["payer_id"]),
        "payee_seat": p["payee"],
        "payee_id": _pid(p["payee_id"]),
    }


async def _write_lewat(session: AsyncSession, e: Mapping[str, Any]) -> bool:
    """G-6: one Lewat payment, stack to stack, and its record."""
    txn = session.info["posted"][id(e)]  # posted with the batch's others (apply_entries)
    if txn is None:
        return False
    await ledger.insert_rows(
        session,
        LewatPayment.__table__,
        [
            dict(
                round_id=_round_id(session, e),
                txn_id=txn,
                version=e["version"],
                amount=e["amount"],
                shortfall=e["shortfall"],
                **_people(e),
            )
        ],
    )
    return True


async def _write_round(session: AsyncSession, e: Mapping[str, Any]) -> bool:
    """G-10/G-11: the round row, and per payer a settlement transaction and a ``bet`` row."""
    round_id = _round_id(session, e)
    posted = session.info["posted"]  # the settlements, posted with the batch (_post_payments)
    txns = [posted[(id(e), i)] for i in range(len(e["settlements"]))]
    if id(e) not in session.info["claimed"]:  # claimed with the batch (_claim_records)
        if any(txn is not None for txn in txns):
            raise BadEntry(f"round {e['key']} was written before, but not all its settlements")
        return False
    at = _when(e.get("at")) or datetime.now(UTC)
    lines = stats_write.round_lines(e["game"], e.get("players"), e["detail"])
    stats_write.add(session, e["game"], at, lines)
    counts = missions_write.round_counts(e["game"], e.get("players"), e["detail"])
    missions_write.add(session, at, counts)
    bets = []
    for i, (p, txn) in enumerate(zip(e["settlements"], txns, strict=True)):
        if txn is None:
            raise BadEntry(f"settlement #{i} of {e['key']} exists but its round was not written")
        bets.append(
            dict(
                round_id=round_id,
                txn_id=txn,
                stake=e["stake"],
                field=e["field"],
                multiplier=e["multiplier"],
                pips=p["pips"] if e["field"] == "bet" else None,
                amount=p["amount"],
                shortfall=p["shortfall"],
                **_people(p),
            )
        )
    await ledger.insert_rows(session, Bet.__table__, bets)
    return True


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _finished(e: Mapping[str, Any]) -> datetime:
    return _when(e["finished_at"]) or datetime.now(UTC)


async def _write_match(session: AsyncSession, e: Mapping[str, Any]) -> bool:
    """The finished match: options, seed, seats, result and the action log, written once."""
    if id(e) not in session.info["claimed"]:  # claimed with the batch (_claim_records)
        return False
    match_id, result = _match_id(session, e), e["result"]
    winners, scores = set(result.get("winners", ())), result.get("scores", ())
    await ledger.insert_rows(
        session,
        MatchSeat.__table__,
        [
            dict(
                match_id=match_id,
                seat=s,
                player_id=_pid(pid),
                winner=s in winners,
                score=scores[s] if s < len(scores) else None,
            )
            for s, pid in enumerate(e["players"])
        ],
    )
    await ledger.insert_rows(
        session,
        Move.__table__,
        [
            dict(
                match_id=match_id, seq=i, seat=mv["seat"], version=mv.get("v"), action=mv["action"]
            )
            for i, mv in enumerate(e["moves"])
        ],
    )
    lines = stats_write.match_lines(e["game"], e["players"], result)
    stats_write.add(session, e["game"], _finished(e), lines)
    return True


async def _write_seated(session: AsyncSession, e: Mapping[str, Any]) -> bool:
    return await mark_seated_in(session, e["buy_in"])


async def _write_cash_out(session: AsyncSession, e: Mapping[str, Any]) -> bool:
    return await cash_out_in(session, e["player"], e["table"], e["amount"], key=e["key"])


async def _write_house(session: AsyncSession, e: Mapping[str, Any]) -> bool:
    """A bot's stack comes from the house and goes back to it."""
    amount = e["amount"] if e["kind"] == "house_stake" else -e["amount"]
    legs = [
        Leg(ledger.HOUSE, None, -amount),
        Leg(stack_account(e["table"], e["who"]), None, amount),
    ]
    return await ledger.post(session, e["key"], e["kind"], legs, e["table"]) is not None


WRITERS = {
    "lewat": _write_lewat,
    "round": _write_round,
    "match": _write_match,
    "cash_out": _write_cash_out,
    "buy_in_seated": _write_seated,
    "house_stake": _write_house,
    "house_return": _write_house,
}
