"""CPU and memory of the processes in a run, and of the machine, read with psutil.

The server, the generator, Redis and the outbox worker each run in a process of their own, so
their shares of the two cores are reported apart; the machine's busy and steal shares and its
load average say how much of the result is the (shared) machine's.
"""

from __future__ import annotations

import os
import time
from typing import Any

import psutil


class Usage:
    """CPU seconds and memory of some processes together (the server's, which may be several
    ``serve`` processes), or of this generator when no pid is given."""

    def __init__(self, *pids: int):
        self.procs = [psutil.Process(pid) for pid in pids] or [psutil.Process(os.getpid())]

    def cpu(self) -> float:
        return sum(t.user + t.system for t in (p.cpu_times() for p in self.procs))

    def rss(self) -> int:
        return sum(p.memory_info().rss for p in self.procs)


class Window:
    """CPU shares over a measurement window: server, generator, Redis, the whole machine."""

    def __init__(self, server: Usage, redis_pid: int | None, worker_pid: int | None = None):
        self.server, self.me = server, Usage()
        self.redis = Usage(redis_pid) if redis_pid else None
        self.worker = Usage(worker_pid) if worker_pid else None
        self.t0 = time.monotonic()
        self.c0 = self._cpus()
        self.m0 = psutil.cpu_times()
        self.load0 = os.getloadavg()

    def result(self) -> dict[str, Any]:
        wall = time.monotonic() - self.t0
        c1 = self._cpus()
        m1 = psutil.cpu_times()
        busy = (sum(m1) - m1.idle - m1.iowait) - (sum(self.m0) - self.m0.idle - self.m0.iowait)
        total = sum(m1) - sum(self.m0)
        steal = getattr(m1, "steal", 0.0) - getattr(self.m0, "steal", 0.0)  # Linux only
        pct = [round(100 * (b - a) / wall, 1) for a, b in zip(self.c0, c1)]
        return {
            "seconds": round(wall, 2),
            "server_cpu_pct": pct[0],  # of one core (the serve processes together)
            "generator_cpu_pct": pct[1],
            "redis_cpu_pct": pct[2] if self.redis else None,
            "outbox_worker_cpu_pct": pct[3] if self.worker else None,  # python -m app outbox
            "machine_busy_pct": round(100 * busy / total, 1) if total else None,  # of all cores
            # time the hypervisor gave our vCPUs to others (counted in busy): with a busy
            # neighbour the same code takes more of a core, so compare runs with little of it
            "machine_steal_pct": round(100 * steal / total, 1) if total else None,
            "cores": psutil.cpu_count(),
            "loadavg_start": [round(x, 2) for x in self.load0],
            "loadavg_end": [round(x, 2) for x in os.getloadavg()],
            "server_rss_mib": round(self.server.rss() / 2**20, 1),
            "generator_rss_mib": round(self.me.rss() / 2**20, 1),
        }

    def _cpus(self) -> tuple[float, ...]:
        return (
            self.server.cpu(),
            self.me.cpu(),
            self.redis.cpu() if self.redis else 0.0,
            self.worker.cpu() if self.worker else 0.0,
        )
