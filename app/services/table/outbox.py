"""What a table change means for chips and records: the seam between live tables and money.

The write path (``TableWriter.change``) calls :func:`change_entries` for every change just before
its compare-and-set, and writes the strings it returns to the table's outbox in the same atomic
step. Nothing here does database I/O; it reads the match's action log from Redis only when a
change ends a match (the record needs the whole log).

- each rules step: Lewat payments, round settlements and the finished match
  (``results.outbox_entries``);
- a bot taking a seat with a stack: ``house_stake`` (the house funds bots, so wallets + stacks
  + the house still sum to zero); a bot leaving: ``house_return``;
- a player's seat freed (left, removed, table closed): ``cash_out`` of the seat's stack;
- a player's seat taken with a buy-in: ``buy_in_seated`` (the pending buy-in is resolved).
Human buy-ins are not here: they are a database transaction *before* the seat is taken
(``money.buy_in``), since they must be refused when the wallet cannot pay.
"""

from __future__ import annotations

from typing import Any

from app.games.registry import get_ruleset
from app.services import results

from .doc import TableStatus


def _occupants(before_doc: dict, ch: Any) -> dict[int, dict]:
    """Each table seat's occupant during this change (freed seats included)."""
    seats = {n: s for n, s in enumerate(before_doc["seats"]) if s}
    seats.update({n: s for n, s in ch.vacated})
    seats.update({n: s for n, s in enumerate(ch.doc["seats"]) if s})
    return seats


async def change_entries(store: Any, tid: str, before_doc: dict, ch: Any, v_next: int) -> list[str]:
    doc, out = ch.doc, []
    for n, seat in enumerate(doc["seats"]):
        if not seat or seat["sit"] != v_next:
            continue
        if seat["bot"] and seat["stack"]:
            out.append(
                results.house_entry(
                    "house_stake",
                    tid,
                    seat["player"],
                    seat["stack"],
                    f"house_stake:{tid}:{n}:{v_next}",
                )
            )
        elif seat.get("buy_in"):
            out.append(results.seated_entry(tid, seat["buy_in"]))
    rs = get_ruleset(doc["game"])
    if any(results.recorded(rs, step) for step in ch.steps):
        occupants = _occupants(before_doc, ch)
        players = [occupants[p]["player"] if p in occupants else None for p in doc["players"]]
        ctx = results.MatchContext(
            tid,
            doc["match_no"],
            doc["game"],
            doc["seed"],
            doc["match_options"],
            players,
            private=doc.get("private", False),
        )
        logged: list[dict] | None = None
        for i, step in enumerate(ch.steps):
            log: list[dict] = []
            ends_match = doc["status"] != TableStatus.PLAYING
            if step is ch.steps[-1] and ends_match:
                if logged is None:
                    logged = await store.action_log(tid, doc["match_no"])
                log = logged + [e for e in ch.log[: i + 1] if e["match_no"] == doc["match_no"]]
            out.extend(results.outbox_entries(ctx, v_next, step, log))
    for n, seat in ch.vacated:
        if not seat.get("stack"):
            continue
        if seat["bot"]:
            out.append(
                results.house_entry(
                    "house_return",
                    tid,
                    seat["player"],
                    seat["stack"],
                    f"house_return:{tid}:{n}:{seat['sit']}",
                )
            )
        else:
            out.append(results.cash_out_entry(tid, n, seat["player"], seat["stack"], seat["sit"]))
    return out
