"""A table's readable name ("Melati 12"), derived from its id: said in the lobby, the table's
header and the match history instead of the id (docs/players.md "Tables").

Decisions:
- Derived, not stored: the history names the tables of matches long finished from their ids
  alone, and no table document or database row needs a new field. A name is a label, not an
  address: 24 flowers by 99 numbers give 2,376 names, so two tables may rarely share one; the
  id (in the link) still tells them apart.
- Flowers of the archipelago, read the same in both languages.
"""

from __future__ import annotations

import hashlib

FLOWERS = (
    "Melati",
    "Mawar",
    "Anggrek",
    "Kenanga",
    "Cempaka",
    "Kamboja",
    "Teratai",
    "Dahlia",
    "Seroja",
    "Kemuning",
    "Tanjung",
    "Soka",
    "Bakung",
    "Lili",
    "Cendana",
    "Flamboyan",
    "Kenikir",
    "Asoka",
    "Kana",
    "Gardenia",
    "Lavender",
    "Krisan",
    "Aster",
    "Bougenvil",
)


def table_name(tid: str) -> str:
    """The same name for the same id, on every replica and in every year."""
    n = int.from_bytes(hashlib.blake2b(tid.encode(), digest_size=8).digest(), "big")
    return f"{FLOWERS[n % len(FLOWERS)]} {n // len(FLOWERS) % 99 + 1}"
