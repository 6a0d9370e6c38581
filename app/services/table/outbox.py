"""What a table change means for chips and records: its outbox entries, typed, built without I/O.

The write path (``TableWriter.change``, write.py) calls :func:`change_entries` for every change
just before its compare-and-set and writes each entry (``dumps``) to the table's outbox stream in
the same atomic step, so a move and its chip movements land together or not at all. Building
them reads nothing: when a change ends a match (``needs_log``) the writer reads the match's
action log first and hands it in, since the match's record holds every move. The records
consumer (app/store/outbox.py, app/services/records.py) writes them to the database later.

- each rules step: Lewat payments, round settlements and the finished match (``step_entries``);
- a bot taking a seat with a stack: ``house_stake`` (the house funds bots, so wallets + stacks
  + the house still sum to zero); a bot leaving: ``house_return``;
- a player's seat freed (left, removed, table closed): ``cash_out`` of the seat's stack;
- a player's seat taken with a buy-in: ``buy_in_seated`` (the pending buy-in is resolved).
Human buy-ins are not here: they are a database transaction *before* the seat is taken
(``money.buy_in``), since they must be refused when the wallet cannot pay.

Every entry carries a unique idempotency ``key`` (``lewat:<table>:<version>:<payer>``,
``round:<table>:<match>:<round>``, ``match:<table>:<match>``,
``cash_out:<table>:<seat>:<sit>``, ``seated:<buy-in>``, ``house_stake|house_return:<table>:
<seat>:<sit>``), so the consumer writes each exactly once (app/services/records_write.py).
The wire format is documented in app/store/outbox.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal, TypedDict

import orjson

from app.games.base import Payment, Ruleset, Step
from app.games.registry import get_ruleset

from .doc import Change, TableDoc, TableStatus

PlayerId = Any  # a player's database id, a bot's "bot:<n>", or None for an empty seat


class LoggedMove(TypedDict):
    """One move of a match's action log, as the table logs it."""

    seat: int
    v: int
    action: Any


class Parties(TypedDict):
    payer: int
    payee: int
    payer_id: PlayerId
    payee_id: PlayerId


class Settlement(Parties):
    amount: int
    shortfall: int
    pips: int | None


class LewatEntry(Parties):
    """G-6: a Lewat payment, stack to stack."""

    kind: Literal["lewat"]
    key: str
    table: str
    match: int
    game: str
    version: int
    at: str
    round: int
    amount: int
    shortfall: int


class RoundEntry(TypedDict):
    """G-10/G-11: a round that ended, with its settlements."""

    kind: Literal["round"]
    key: str
    table: str
    match: int
    game: str
    version: int
    at: str
    round: int
    players: list[PlayerId]
    winner: int | None
    ending: str | None
    multiplier: int | None
    stake: Any
    field: Any
    settlements: list[Settlement]
    detail: Any


class MatchEntry(TypedDict):
    """The finished match: enough to replay it (options, seed, every move)."""

    kind: Literal["match"]
    key: str
    table: str
    match: int
    game: str
    version: int
    at: str
    options: dict[str, Any]
    seed: str
    players: list[PlayerId]
    result: Any
    moves: list[LoggedMove]
    started_at: str | None
    finished_at: str
    private: bool


class CashOutEntry(TypedDict):
    """A seat's stack back to the player's wallet."""

    kind: Literal["cash_out"]
    key: str
    table: str
    seat: int
    player: PlayerId
    amount: int
    at: str


class SeatedEntry(TypedDict):
    """A pending buy-in is a seat's stack now."""

    kind: Literal["buy_in_seated"]
    key: str
    table: str
    buy_in: str
    at: str


class HouseEntry(TypedDict):
    """The house funds a bot's stack (``house_stake``) or takes it back (``house_return``)."""

    kind: Literal["house_stake", "house_return"]
    key: str
    table: str
    who: str
    amount: int
    at: str


Entry = LewatEntry | RoundEntry | MatchEntry | CashOutEntry | SeatedEntry | HouseEntry


@dataclasses.dataclass(frozen=True)
class MatchContext:
    """What the table knows about the match a step belongs to.

    ``options`` are the options given to ``new_state`` (Gaple: including the round's starting
    ``stacks``), so ``new_state(options, len(players), seed)`` plus the log rebuilds the match.
    ``players``: the player id on each seat (None for an empty seat). ``private``: a private
    table's match, readable by its players only (app/services/history.py).
    """

    table_id: str
    match_no: int
    game: str
    seed: int
    options: Mapping[str, Any]
    players: Sequence[PlayerId]
    started_at: str | None = None
    round_no: int = 1
    private: bool = False


def now() -> str:
    """An entry's ``at``: ISO 8601 in UTC."""
    return datetime.now(UTC).isoformat()


def dumps(entry: Entry) -> str:
    """An entry as the outbox stream holds it (JSON)."""
    return orjson.dumps(entry).decode()


def recorded(rs: Ruleset, step: Step) -> bool:
    """Whether a step makes outbox entries: payments, rounds ended, or the match over. Most
    moves make none, and their callers then build no context (and read no clock)."""
    return bool(step.payments or step.rounds) or rs.to_act(step.state) is None


def step_entries(
    ctx: MatchContext,
    version: int,
    step: Step,
    log: Sequence[Mapping[str, Any]],
    at: str | None = None,
) -> list[Entry]:
    """The entries of one applied step at table version ``version``.

    ``log`` is the match's action log including this step's action, one
    ``{"seat", "v", "action"}`` per move; it is only read when the step ends the match.
    """
    rs = get_ruleset(ctx.game)
    if not recorded(rs, step):
        return []
    outcome = rs.outcome(step.state) if rs.to_act(step.state) is None else None
    t, m, players = ctx.table_id, ctx.match_no, list(ctx.players)
    at = at or now()
    rules = getattr(step.state, "options", None)  # parsed: with the defaults filled in
    rules = rules if isinstance(rules, Mapping) else ctx.options
    out: list[Entry] = []
    for pay in step.payments:  # G-6 Lewat
        out.append(
            LewatEntry(
                kind="lewat",
                key=f"lewat:{t}:{version}:{pay.payer}",
                table=t,
                match=m,
                game=ctx.game,
                version=version,
                at=at,
                round=ctx.round_no,
                **_parties(pay, players),
                amount=pay.amount,
                shortfall=pay.shortfall,
            )
        )
    for rnd in step.rounds:
        number = ctx.round_no if rnd.number is None else rnd.number
        out.append(
            RoundEntry(
                kind="round",
                key=f"round:{t}:{m}:{number}",
                table=t,
                match=m,
                game=ctx.game,
                version=version,
                at=at,
                round=number,
                players=players,
                winner=rnd.winner,
                ending=rnd.ending,
                multiplier=rnd.multiplier,
                stake=rules.get("stake"),
                field=rules.get("field", "normal"),
                settlements=[
                    Settlement(
                        **_parties(p, players),
                        amount=p.amount,
                        shortfall=p.shortfall,
                        pips=p.pips,
                    )
                    for p in rnd.settlements
                ],
                detail=rnd.detail,
            )
        )
    if outcome is not None:
        out.append(
            MatchEntry(
                kind="match",
                key=f"match:{t}:{m}",
                table=t,
                match=m,
                game=ctx.game,
                version=version,
                at=at,
                options=dict(ctx.options),
                seed=str(ctx.seed),
                players=players,
                result=outcome.to_json(),
                moves=[
                    LoggedMove(seat=e["seat"], v=e.get("v", e.get("version")), action=e["action"])
                    for e in log
                ],
                started_at=ctx.started_at,
                finished_at=at,
                private=ctx.private,
            )
        )
    return out


def _parties(payment: Payment, players: list[PlayerId]) -> Parties:
    payer, payee = payment.payer, payment.payee
    return Parties(payer=payer, payee=payee, payer_id=players[payer], payee_id=players[payee])


def cash_out_entry(
    table_id: str, seat: int, player_id: PlayerId, amount: int, sit: int, at: str | None = None
) -> CashOutEntry:
    """The entry that returns a stack to the wallet when a player leaves (or is removed)."""
    return CashOutEntry(
        kind="cash_out",
        key=f"cash_out:{table_id}:{seat}:{sit}",
        table=table_id,
        seat=seat,
        player=player_id,
        amount=amount,
        at=at or now(),
    )


def seated_entry(table_id: str, buy_in: str, at: str | None = None) -> SeatedEntry:
    """The entry that marks a pending buy-in seated (written with the seat, seating.py)."""
    return SeatedEntry(
        kind="buy_in_seated", key=f"seated:{buy_in}", table=table_id, buy_in=buy_in, at=at or now()
    )


def house_entry(
    kind: Literal["house_stake", "house_return"],
    table_id: str,
    who: str,
    amount: int,
    key: str,
    at: str | None = None,
) -> HouseEntry:
    """``house_stake`` (the house funds a bot's stack) or ``house_return`` (it takes it back)."""
    return HouseEntry(kind=kind, key=key, table=table_id, who=who, amount=amount, at=at or now())


def needs_log(ch: Change) -> bool:
    """Whether this change's entries need the match's action log: its last step ends the
    match (the match's record holds every move). The writer reads it before ``change_entries``."""
    if not ch.steps or ch.doc["status"] == TableStatus.PLAYING:
        return False
    return get_ruleset(ch.doc["game"]).to_act(ch.steps[-1].state) is None


def _occupants(before_doc: TableDoc, ch: Change) -> dict[int, Any]:
    """Each table seat's occupant during this change (freed seats included)."""
    seats: dict[int, Any] = {n: s for n, s in enumerate(before_doc["seats"]) if s}
    seats.update({n: s for n, s in ch.vacated})
    seats.update({n: s for n, s in enumerate(ch.doc["seats"]) if s})
    return seats


def change_entries(
    tid: str,
    before_doc: TableDoc,
    ch: Change,
    v_next: int,
    *,
    log: Sequence[Mapping[str, Any]] | None = None,
    at: str | None = None,
) -> list[Entry]:
    """The entries of one change written at version ``v_next``. ``log``: the match's action log
    before this change, given when ``needs_log(ch)`` (else not read)."""
    doc, out = ch.doc, list[Entry]()
    at = at or now()
    for n, seat in enumerate(doc["seats"]):
        if not seat or seat["sit"] != v_next:
            continue
        stack, buy_in = seat["stack"], seat.get("buy_in")
        if seat["bot"] and stack:
            key = f"house_stake:{tid}:{n}:{v_next}"
            out.append(house_entry("house_stake", tid, seat["player"], stack, key, at))
        elif buy_in:
            out.append(seated_entry(tid, buy_in, at))
    rs = get_ruleset(doc["game"])
    if any(recorded(rs, step) for step in ch.steps):
        occupants = _occupants(before_doc, ch)
        players = [occupants[p]["player"] if p in occupants else None for p in doc["players"]]
        seed, options = doc["seed"], doc["match_options"]
        assert seed is not None and options is not None, "a step is taken in a dealt match"
        ctx = MatchContext(
            tid,
            doc["match_no"],
            doc["game"],
            seed,
            options,
            players,
            private=doc.get("private", False),
        )
        last = len(ch.steps) - 1
        for i, step in enumerate(ch.steps):
            step_log: list[Mapping[str, Any]] = []
            if i == last and needs_log(ch):
                assert log is not None, "a change that ends a match needs its action log"
                step_log = [*log, *(e for e in ch.log[: i + 1] if e["match_no"] == doc["match_no"])]
            out.extend(step_entries(ctx, v_next, step, step_log, at))
    for n, seat in ch.vacated:
        stack = seat.get("stack")
        if not stack:
            continue
        if seat["bot"]:
            key = f"house_return:{tid}:{n}:{seat['sit']}"
            out.append(house_entry("house_return", tid, seat["player"], stack, key, at))
        else:
            out.append(cash_out_entry(tid, n, seat["player"], stack, seat["sit"], at))
    return out
