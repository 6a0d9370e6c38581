"""Seeded randomness for the rules core.

A match's randomness is a pure function of its seed: every shuffle asks ``rng_for(seed, label...)``
for a fresh ``random.Random`` keyed by what it is for (e.g. the round number). So the state only
needs to hold the seed, a match replays exactly from (seed, actions), and no code touches the
module-level ``random`` generator. Seeds for live tables come from ``secrets`` (docs/rules.md
preamble).
"""

from __future__ import annotations

import hashlib
import random
import secrets


def new_seed() -> int:
    """A fresh, cryptographically secure match seed (63 bits, fits JSON and SQL BIGINT)."""
    return secrets.randbits(63)


def rng_for(seed: int, *labels: object) -> random.Random:
    """A generator determined by the seed and the labels, independent for different labels."""
    key = "/".join([str(seed), *map(str, labels)]).encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
