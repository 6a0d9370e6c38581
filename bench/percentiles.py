"""Nearest-rank percentiles: a latency figure is one that was really measured, never a blend."""

from __future__ import annotations


def percentiles(values: list[float], ps: tuple[int, ...] = (50, 95, 99)) -> dict[str, float | None]:
    """Nearest-rank percentiles and the max, in the values' unit."""
    if not values:
        return {**{f"p{p}": None for p in ps}, "max": None}
    s = sorted(values)
    out: dict[str, float | None] = {
        f"p{p}": s[min(len(s) - 1, max(0, -(-p * len(s) // 100) - 1))] for p in ps
    }
    out["max"] = s[-1]
    return out
