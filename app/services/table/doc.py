"""The table document and its pure transitions (no I/O): seats, dealing, moves, clocks, messages.

A table document (``TableDoc`` below, with its ``Seat`` and ``Clock``) is a JSON-ready dict kept
in Redis next to its version; ``TableStatus`` is its status, the same the API answers.

Everything game specific goes through the ruleset, so every game is served by this one module.
A ruleset whose descriptor says ``chips`` is played for chips, one state per round (Gaple, G-12):
the table fills in each round's ``managed`` options (``stacks``, ``previous_winner``) from its
seats, deals rounds while at least two seated players hold a stake, and adds each round's score
deltas to the seats' stacks. Any other ruleset plays one state per match, then the table offers
a rematch.

Readings taken where the issue leaves room:
- A match starts when every seat is taken (bots count) and at least one human sits; a chips
  table deals when at least two seated players hold a stake (busted and away seats sit the
  round out). Tables with no human left who is not away do not start anything new.
- O-5: a chips table that has two players ready waits ``start_seconds`` for more (a clock of
  kind ``start``), restarted by every sit; a full table deals at once. Between rounds the
  round pause (G-12, kind ``next``) runs its course: a sit then does not cut or prolong it.
  Either clock keeps its time through changes that are not sits (a seen-write, a leave).
- Leaving during a match (a round at chips tables) hands the seat to the bot until it ends; the
  seat is freed then. Bots that cannot cover a stake leave between rounds.
- Idle seats: a human who is ``away`` (O-3) when the match (round) ends is freed then,
  like one who left. A human not playing in the current match (waiting for players or a
  rematch, or sitting a chips round out) whose last act/sit/sync/chat (``seen``) is older than
  ``idle_seat_seconds`` is freed at once. Humans playing the current match are governed by O-3
  (timeouts, then away), so a long wait for one's turn never counts as idle.
- A table with no human seat at all for ``empty_table_seconds``, and no match being played,
  closes: every (bot) seat is freed, so its stake goes back to the house.
- O-4 forced moves and every bot/away/timeout move are applied by ``play``, the same function a
  player's move goes through, and logged with who made them.
- Between two rounds the table pauses (``pause``, docs/rules.md O-6) so that the result can be
  read: after a chips round (G-12) and after a round of a match that goes on (the rules deal the
  next one at once; no one moves, no clock runs and no forced move is played until the pause
  ends). It ends at ``round_pause`` seconds, or as soon as every seated human who is there
  (not away or leaving) said ``ready``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict

import orjson

from app.games import bots, registry
from app.games.base import Action, Ruleset
from app.games.rng import rng_for
from app.services import avatars

from .names import table_name


class TableStatus(StrEnum):
    """A table's status; a ``StrEnum``, so documents keep plain strings in Redis."""

    WAITING = "waiting"  # seats to fill (or a chips table between rounds without two players)
    PLAYING = "playing"
    OVER = "over"  # a finished match offers a rematch
    CLOSED = "closed"  # no human for ``empty_table_seconds``: every seat freed, refuses all


class Seat(TypedDict):
    player: Any  # a player id, or "bot:<n>"
    name: str
    bot: bool
    away: bool  # O-3: played by the bot until the player sends anything
    timeouts: int
    stack: int | None  # chips tables: the chips on the seat
    sit: int  # the table version the seat was taken at
    leaving: bool  # left during the match: the bot plays it to the end
    rematch: bool
    seen: int | None  # ms: the player's last act, sit, sync or chat
    buy_in: NotRequired[str | None]  # chips tables: the key of the buy-in this seat holds
    avatar: NotRequired[str]  # the player's when they sat (app/services/avatars.py)


class Clock(TypedDict):
    kind: Literal["turn", "bot", "next", "start"]
    at: int  # ms since the epoch
    seat: int | None
    v: int  # the version it was set at


class Pause(TypedDict):
    until: int | None  # ms; None until the write path times it (``time_pause``)
    ready: list[int]  # the table seats that asked for the next round


class TableDoc(TypedDict):
    id: str
    game: str
    n_seats: int
    options: dict[str, Any]  # the ruleset's parsed options, without the table-managed ones
    turn_seconds: int
    start_seconds: NotRequired[int]  # O-5, chips tables: the start countdown (absent: 0)
    stake: int | None  # None when the game is not played for chips
    chips: bool
    status: str  # a TableStatus
    seats: list[Seat | None]
    empty_since: int | None  # ms: since when no human has a seat; None while one has
    match_no: int
    players: list[int]  # game seat -> table seat of the current state
    seed: int | None
    state: Any  # the dumped rules state (JSON, or its bytes as an orjson.Fragment)
    match_options: dict[str, Any] | None  # what ``new_state`` got: with the seed and the log
    result: dict[str, Any] | None  # the last outcome
    clock: Clock | None
    created: int  # ms
    # Chips tables: recent buy-ins by key -> ["seated" | "void", ms], so a buy-in is seated or
    # voided (then refunded) exactly once, decided by the compare-and-set (buy_ins.py).
    buy_ins: NotRequired[dict[str, list[Any]]]
    # A private table is never listed; friends come in by its link or its join ``code``.
    private: NotRequired[bool]
    code: NotRequired[str | None]
    pause: NotRequired[Pause | None]  # between two rounds (O-6); absent in older documents


Doc = TableDoc
MAX_FORCED = 10_000


class Change:
    """What one compare-and-set writes: the new document plus its events, log and state."""

    def __init__(self, doc: Doc, state: Any = None):
        self.doc = doc
        self.state = state
        self.events: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.steps: list[Any] = []  # the rules steps applied, for the outbox
        self.vacated: list[tuple[int, Seat]] = []  # (table seat, seat) freed by this change
        self.dirty = False  # ``state`` moved on: ``seal`` dumps it into the document


def seal(ch: Change) -> None:
    """Dump the change's final state into the document, once: a move with forced passes after
    it is several steps, and dumping after each one was a tenth of a busy server (bench/README.md).

    The dump is kept as JSON bytes (``orjson.Fragment``, written into the document as is): the
    process caches every watched table's document, and a tree of lists per table, replaced on
    every move, filled the garbage collector's older generations (pauses of 100-200 ms at
    hundreds of moves a second). ``state_json`` reads either form back.

    orjson dumps the state dataclass itself, in C: the same JSON as the ruleset's own ``dump``
    (app/games/codec.py, the format ``load`` reads), as the playout tests check for every game
    (states hold tuples, ints, strs, enums and str-keyed dicts; derived fields are named with a
    leading underscore, which orjson leaves out). The codec's walk in Python was 7-8% of a busy
    server's samples (bench/README.md)."""
    if ch.dirty:
        ch.doc["state"] = orjson.Fragment(orjson.dumps(ch.state))
        ch.dirty = False


def state_of(snap: Any) -> Any:
    """The rules state of a snapshot, loaded once and kept in its ``memo`` (None before the
    first deal)."""
    if "state" not in snap.memo:
        raw = state_json(snap.doc)
        rs = registry.get_ruleset(snap.doc["game"])
        snap.memo["state"] = rs.load(raw) if raw is not None else None
    return snap.memo["state"]


def state_json(doc: Doc) -> Any:
    """The dumped state of a document, as JSON values (None before the first deal)."""
    raw = doc["state"]
    return orjson.loads(orjson.dumps(raw)) if isinstance(raw, orjson.Fragment) else raw


def new_doc(
    rs: Ruleset,
    tid: str,
    n_seats: int,
    options: dict,
    turn_seconds: int,
    created_ms: int,
    start_seconds: int = 0,
    *,
    code: str | None = None,
) -> Doc:
    """``code``: a private table's join code (None: a table the lobby lists)."""
    chips = rs.descriptor.chips
    return {
        "id": tid,
        "game": rs.name,
        "n_seats": n_seats,
        "turn_seconds": turn_seconds,
        "start_seconds": start_seconds if chips else 0,
        "options": {k: v for k, v in options.items() if k not in rs.descriptor.managed},
        "chips": chips,
        "stake": options.get("stake") if chips else None,
        "status": TableStatus.WAITING,
        "seats": [None] * n_seats,
        "match_no": 0,
        "players": [],
        "seed": None,
        "match_options": None,
        "state": None,
        "result": None,
        "clock": None,
        "created": created_ms,
        "empty_since": created_ms,
        "private": code is not None,
        "code": code,
        "pause": None,
    }


def taken_seat(doc: Doc, n: int) -> Seat:
    """Seat ``n``, known to be taken."""
    taken = doc["seats"][n]
    assert taken is not None, f"seat {n} is empty"
    return taken


def begin(doc: Doc, state: Any = None) -> Change:
    """A change on a copy of the document (only seats are edited in place; the rest is
    replaced, so a shallow copy of them is enough and the dumped state is not copied)."""
    new = doc.copy()
    new["seats"] = [s.copy() if s else None for s in doc["seats"]]
    return Change(new, state)


def seat_of(doc: Doc, pid: Any) -> int | None:
    for n, seat in enumerate(doc["seats"]):
        if seat and not seat["bot"] and seat["player"] == pid:
            return n
    return None


def game_seat(doc: Doc, table_seat: int | None) -> int | None:
    if (
        table_seat is None
        or doc["status"] != TableStatus.PLAYING
        or table_seat not in doc["players"]
    ):
        return None
    return doc["players"].index(table_seat)


def human_seated(doc: Doc) -> bool:
    """Someone is really there: a seated human who is neither leaving nor away."""
    return any(s and not s["bot"] and not s["leaving"] and not s["away"] for s in doc["seats"])


def make_seat(
    pid: Any,
    name: str,
    *,
    bot: bool,
    stack: int | None,
    sit: int,
    seen: int | None = None,
    buy_in: str | None = None,
    avatar: str | None = None,
) -> Seat:
    return {
        "avatar": avatar or avatars.default_for(bot or pid),
        "player": pid,
        "name": name,
        "bot": bot,
        "away": False,
        "timeouts": 0,
        "stack": stack,
        "sit": sit,
        "leaving": False,
        "rematch": False,
        "seen": seen,
        "buy_in": buy_in,
    }


BUY_IN_MEMORY_MS = 24 * 3600 * 1000  # far longer than any buy-in stays pending


def buy_in_outcome(doc: Doc, key: str) -> str | None:
    """ "seated" or "void" once the table decided the buy-in ``key``; None before."""
    noted = (doc.get("buy_ins") or {}).get(key)
    return noted[0] if noted else None


def note_buy_in(doc: Doc, key: str, outcome: str, now_ms: int) -> None:
    """Record the table's decision on a buy-in (forgetting those older than a day)."""
    kept = {k: v for k, v in (doc.get("buy_ins") or {}).items() if now_ms - v[1] < BUY_IN_MEMORY_MS}
    kept[key] = [outcome, now_ms]
    doc["buy_ins"] = kept


def any_human(doc: Doc) -> bool:
    return any(s and not s["bot"] for s in doc["seats"])


def remove(ch: Change, n: int) -> None:
    """A human gives up the seat (left, or idle): during the match they play, the bot plays it
    to the end and the seat is freed then; otherwise at once. The last human out of a table
    that is not playing takes the bots with them (their stakes go back to the house)."""
    if game_seat(ch.doc, n) is not None:
        taken_seat(ch.doc, n)["leaving"] = True
        ch.events.append({"type": "leaving", "table_seat": n})
    else:
        vacate(ch, n)
    if not human_seated(ch.doc) and ch.doc["status"] != TableStatus.PLAYING:
        for m, seat in enumerate(ch.doc["seats"]):
            if seat and seat["bot"]:
                vacate(ch, m)


# --- dealing ---------------------------------------------------------------------------------
def dealable(doc: Doc) -> list[int] | None:
    """The table seats the next match/round would deal to, or None when it cannot start."""
    if doc["status"] == TableStatus.PLAYING or not human_seated(doc):
        return None
    seats = doc["seats"]
    if doc["chips"]:
        ready = [
            n
            for n, s in enumerate(seats)
            if s and not s["leaving"] and not s["away"] and (s["stack"] or 0) >= (doc["stake"] or 0)
        ]
        return ready if len(ready) >= 2 else None
    taken = [s for s in seats if s is not None and not s["leaving"]]
    if len(taken) < len(seats):
        return None
    if doc["status"] == TableStatus.OVER and not all(s["rematch"] for s in taken if not s["bot"]):
        return None
    return list(range(len(seats)))


def deal_at_once(doc: Doc) -> bool:
    """O-5: a sit (or bots) deals at once when the table is full of ready players, or has no
    start countdown; never during the pause between rounds (O-6), which runs its course."""
    if doc.get("pause"):
        return False
    ready = dealable(doc)
    return ready is not None and (len(ready) == doc["n_seats"] or not doc.get("start_seconds"))


def restart_countdown(doc: Doc) -> None:
    """O-5: a player sitting down restarts a running start countdown (``next_clock`` sets a
    new one)."""
    if doc["clock"] is not None and doc["clock"]["kind"] == "start":
        doc["clock"] = None


def deal(ch: Change, rs: Ruleset, seed: int, players: list[int], v_next: int) -> None:
    doc = ch.doc
    opts = dict(doc["options"])
    if doc["chips"]:
        opts["stacks"] = [taken_seat(doc, p)["stack"] for p in players]
        last = (doc["result"] or {}).get("winner_seat")
        opts["previous_winner"] = players.index(last) if last in players else None
    ch.state = rs.new_state(opts, len(players), seed)
    doc["status"], doc["players"], doc["seed"] = TableStatus.PLAYING, players, seed
    doc["match_no"] += 1
    doc["result"], doc["match_options"], doc["pause"] = None, opts, None
    ch.dirty = True
    for s in doc["seats"]:
        if s:
            s["rematch"] = False
    ch.events.append({"type": "match_started", "match_no": doc["match_no"], "players": players})
    forced(ch, rs, v_next)


# --- moves -----------------------------------------------------------------------------------
def play(ch: Change, rs: Ruleset, gseat: int, action: Action, by: str, v_next: int) -> None:
    """Apply one action (raises GameError when it is refused), then the O-4 forced moves."""
    step = rs.apply(ch.state, gseat, action)
    _record(ch, rs, step, gseat, action, by, v_next)
    forced(ch, rs, v_next)


def forced(ch: Change, rs: Ruleset, v_next: int) -> None:
    """docs/rules.md O-4: while a pass or a draw is the only move, apply it at once. A ruleset whose
    forced moves never end would hang the table's writer, so that is an error instead."""
    for _ in range(MAX_FORCED):
        if ch.state is None or ch.doc["status"] != TableStatus.PLAYING or ch.doc.get("pause"):
            return
        action = rs.forced_action(ch.state)
        if action is None:
            return
        gseat = rs.to_act(ch.state)
        assert gseat is not None  # a forced action has a seat to act
        _record(ch, rs, rs.apply(ch.state, gseat, action), gseat, action, "forced", v_next)
    raise RuntimeError(f"{ch.doc['game']}: more than {MAX_FORCED} forced moves in a row")


def _record(
    ch: Change, rs: Ruleset, step, gseat: int, action: Action, by: str, v_next: int
) -> None:
    ch.state = step.state
    ch.steps.append(step)
    ch.events.extend(step.events)
    ch.log.append(
        {
            "v": v_next,
            "match_no": ch.doc["match_no"],
            "seat": gseat,
            "action": action.to_json(),
            "by": by,
        }
    )
    ch.dirty = True
    if rs.to_act(step.state) is None:
        _finish(ch, rs)
    elif any(e.get("type") == "round_over" for e in step.events):  # O-6: the match goes on
        ch.doc["pause"] = {"until": None, "ready": []}


def _finish(ch: Change, rs: Ruleset) -> None:
    doc = ch.doc
    outcome = rs.outcome(ch.state)
    assert outcome is not None  # nobody to act: the match is over
    result = outcome.to_json()
    result["winner_seat"] = doc["players"][outcome.winners[0]] if outcome.winners else None
    doc["status"], doc["result"] = TableStatus.OVER, result
    if doc["chips"]:
        doc["pause"] = {"until": None, "ready": []}  # O-6, before the next round (G-12)
        for gseat, delta in enumerate(outcome.scores):
            stacked = taken_seat(doc, doc["players"][gseat])
            stacked["stack"] = (stacked["stack"] or 0) + delta
    ch.events.append(
        {
            "type": "table_over",
            "match_no": doc["match_no"],
            "winners": [doc["players"][w] for w in outcome.winners],
        }
    )
    for n, s in enumerate(doc["seats"]):
        if s and (
            s["leaving"]
            or (not s["bot"] and s["away"])
            or (doc["chips"] and s["bot"] and (s["stack"] or 0) < (doc["stake"] or 0))
        ):
            vacate(ch, n)


def vacate(ch: Change, n: int) -> None:
    ch.vacated.append((n, taken_seat(ch.doc, n)))
    ch.doc["seats"][n] = None
    ch.events.append({"type": "left", "table_seat": n})


def timeout(ch: Change, rs: Ruleset, clock: dict, v_next: int, *, away_after: int) -> None:
    """O-3: play for the seat whose clock ran out (a bot's or away player's turn, or a human's
    timeout): the forced move if there is one, else the bot's choice. ``away_after`` timeouts
    in a row mark a human away."""
    doc, n = ch.doc, clock["seat"]
    assert n is not None  # a turn or bot clock belongs to a seat
    seat = doc["seats"][n]
    assert seat is not None
    by = "bot" if seat["bot"] or seat["away"] or seat["leaving"] else "timeout"
    if by == "timeout":
        seat["timeouts"] += 1
        ch.events.append({"type": "timeout", "table_seat": n})
        if seat["timeouts"] >= away_after:
            seat["away"] = True
            ch.events.append({"type": "away", "table_seat": n})
    gseat = doc["players"].index(n)
    action = rs.forced_action(ch.state)
    if action is None:
        raw = bot_action(doc["game"], rs.view(ch.state, gseat), doc["seed"] or 0, v_next)
        action = rs.parse_action(raw)
    play(ch, rs, gseat, action, by, v_next)


def bot_action(game: str, view: dict, seed: int, v: int) -> dict:
    """The bot's choice for a seat, seeded by the match seed and the version (replayable)."""
    return bots.choose(game, view, rng_for(seed, "bot", v))


# --- clocks ---------------------------------------------------------------------------------
def next_clock(
    doc: Doc,
    rs: Ruleset,
    state: Any,
    now_ms: int,
    v_next: int,
    *,
    bot_delay: float,
    round_pause: float,
) -> Clock | None:
    """O-3: the deadline of the seat to act (a bot's short delay for bots and away players); the
    end of the pause before the next round (O-6; a round paused for seats: ``round_pause`` from
    now); at a chips table ready to deal, its start countdown (O-5). ``doc["clock"]`` is still
    the previous clock: a running countdown keeps its time."""
    if doc["status"] == TableStatus.CLOSED:
        return None
    pause = doc.get("pause")
    if doc["status"] == TableStatus.PLAYING:
        if pause:
            return {"kind": "next", "at": pause["until"] or now_ms, "seat": None, "v": v_next}
        gseat = rs.to_act(state)
        assert gseat is not None  # a table plays while its match has a seat to act
        n = doc["players"][gseat]
        seat = doc["seats"][n]
        assert seat is not None
        if seat["bot"] or seat["away"] or seat["leaving"]:
            return {"kind": "bot", "at": now_ms + int(bot_delay * 1000), "seat": n, "v": v_next}
        at = now_ms + doc["turn_seconds"] * 1000
        return {"kind": "turn", "at": at, "seat": n, "v": v_next}
    if doc["chips"] and dealable(doc):
        if pause:
            at = pause["until"] or now_ms + int(round_pause * 1000)
            return {"kind": "next", "at": at, "seat": None, "v": v_next}
        before = doc["clock"]
        if before is not None and before["kind"] == "start":
            return {**before, "v": v_next}
        at = now_ms + doc.get("start_seconds", 0) * 1000
        return {"kind": "start", "at": at, "seat": None, "v": v_next}
    return None


# --- the pause between rounds (O-6) ----------------------------------------------------------
def time_pause(doc: Doc, now_ms: int, round_pause: float) -> None:
    """Give a new pause its end (``round_pause`` from now), once; a chips table that cannot
    deal another round has no pause to show (nobody would be dealt in when it ends)."""
    pause = doc.get("pause")
    if not pause:
        return
    if doc["status"] != TableStatus.PLAYING and not (doc["chips"] and dealable(doc)):
        doc["pause"] = None
    elif pause["until"] is None:  # a new dict: the snapshot's document is shared until written
        doc["pause"] = {"until": now_ms + int(round_pause * 1000), "ready": pause["ready"]}


def awaited(doc: Doc) -> list[int]:
    """The table seats the pause still waits for: humans who are there and not ready."""
    pause = doc.get("pause")
    ready = pause["ready"] if pause else []
    return [
        n
        for n, s in enumerate(doc["seats"])
        if s and not s["bot"] and not s["away"] and not s["leaving"] and n not in ready
    ]


def mark_ready(ch: Change, n: int) -> bool:
    """Seat ``n`` asks for the next round; whether the pause is over (nobody else awaited)."""
    pause = ch.doc.get("pause")
    assert pause is not None  # the caller checked there is a pause
    ch.doc["pause"] = {"until": pause["until"], "ready": sorted({*pause["ready"], n})}
    return not awaited(ch.doc)


# --- idle seats and closing ------------------------------------------------------------------
def _idle_candidates(doc: Doc) -> list[tuple[int, int]]:
    """(table seat, ms last seen) of the humans whose inactivity counts: not playing now."""
    return [
        (n, seen)
        for n, s in enumerate(doc["seats"])
        if s
        and not s["bot"]
        and not s["leaving"]
        and (seen := s.get("seen")) is not None
        and game_seat(doc, n) is None
    ]


def chores_at(doc: Doc, *, idle_ms: int, empty_ms: int) -> int | None:
    """When the table next needs an idle check or its closing (ms), or None."""
    if doc["status"] == TableStatus.CLOSED:
        return None
    times = [seen + idle_ms for _, seen in _idle_candidates(doc)]
    idle = doc["status"] != TableStatus.PLAYING and not any_human(doc)
    empty_since = doc.get("empty_since")
    if idle and empty_since is not None:
        times.append(empty_since + empty_ms)
    return min(times, default=None)


def chores(ch: Change, now_ms: int, *, idle_ms: int, empty_ms: int) -> bool:
    """Free the idle seats and close the table if it is due; whether anything changed."""
    doc, changed = ch.doc, False
    for n, seen in _idle_candidates(doc):
        if seen + idle_ms <= now_ms:
            ch.events.append({"type": "removed", "table_seat": n, "reason": "idle"})
            remove(ch, n)
            changed = True
    note_empty(doc, now_ms)
    at = chores_at(doc, idle_ms=idle_ms, empty_ms=empty_ms)
    idle = doc["status"] != TableStatus.PLAYING and not any_human(doc)
    if idle and at is not None and at <= now_ms:
        close(ch)
        changed = True
    return changed


def close(ch: Change) -> None:
    """Free every seat and close. A chips round in play is abandoned: the Lewat payments made
    in it are in the ledger already (G-6, through the outbox), so each seat leaves with the
    chips the round's state holds now, not those it was dealt with (its stack in the
    document moves only when a round ends, ``_finish``)."""
    doc = ch.doc
    if doc["chips"] and doc["status"] == TableStatus.PLAYING and ch.state is not None:
        rs = registry.get_ruleset(doc["game"])
        for gseat, chips in enumerate(rs.stacks(ch.state)):
            taken_seat(doc, doc["players"][gseat])["stack"] = chips
    for n, seat in enumerate(ch.doc["seats"]):
        if seat:
            vacate(ch, n)
    ch.doc["status"], ch.doc["clock"] = TableStatus.CLOSED, None
    ch.events.append({"type": "table_closed"})


def note_empty(doc: Doc, now_ms: int) -> None:
    """Keep ``empty_since``: when the last human seat was freed (None while a human sits)."""
    if any_human(doc):
        doc["empty_since"] = None
    elif doc.get("empty_since") is None:
        doc["empty_since"] = now_ms


# --- what clients see ------------------------------------------------------------------------
def summary(doc: Doc, v: int) -> dict[str, Any]:
    seats: list[dict[str, Any]] = []
    for n, s in enumerate(doc["seats"]):
        if s is None:
            seats.append(
                {
                    "seat": n,
                    "name": None,
                    "avatar": None,
                    "player_id": None,
                    "bot": False,
                    "away": False,
                    "stack": None,
                    "leaving": False,
                }
            )
        else:
            seats.append(
                {
                    "seat": n,
                    "name": s["name"],
                    "avatar": s.get("avatar")
                    or avatars.default_for(None if s["bot"] else s["player"]),
                    "player_id": s["player"],
                    "bot": s["bot"],
                    "away": s["away"],
                    "stack": s["stack"],
                    "leaving": s["leaving"],
                    "rematch": s["rematch"],
                }
            )
    clock = doc["clock"]
    return {
        "id": doc["id"],
        "name": table_name(doc["id"]),
        "game": doc["game"],
        "v": v,
        "n_seats": doc["n_seats"],
        "options": doc["options"],
        "stake": doc["stake"],
        "turn_seconds": doc["turn_seconds"],
        "start_seconds": doc.get("start_seconds", 0) if doc["chips"] else None,
        "status": doc["status"],
        "match_no": doc["match_no"],
        "players": doc["players"],
        "seats": seats,
        "open_seats": sum(s is None for s in doc["seats"]),
        "deadline": clock["at"] if clock and clock["kind"] == "turn" else None,
        "clock": clock and {"kind": clock["kind"], "at": clock["at"], "seat": clock["seat"]},
        "result": doc["result"],
        "created": doc["created"],
        "private": doc.get("private", False),
        "code": doc.get("code"),
        "pause": doc.get("pause"),
    }
