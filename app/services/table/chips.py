"""The chips on a table's seats, kept beside its document by the write path (``TableStore.cas``'s
``chips``), so the audit sums them per bucket instead of reading every document."""

from __future__ import annotations

from typing import Any

from .doc import TableDoc


def chips_at(doc: TableDoc) -> int:
    """The chips on a table document's seats: what the write path keeps beside the document
    (``TableStore.cas``'s ``chips``) for the audit."""
    return sum(seat["stack"] or 0 for seat in doc["seats"] if seat)


async def stacks_in_redis(store: Any) -> int:
    """The chips on the seats of every live table, as Redis has them (the audit compares them
    with the ledger's stack accounts once the outbox is drained): the tables' ``chips``,
    summed per bucket on the server, and the documents of only those tables written before
    the field was (none once each has been written again)."""
    total, unsaid = await store.chips_at_tables()
    return total + sum(chips_at(snap.doc) for snap in await store.load_many(unsaid))
