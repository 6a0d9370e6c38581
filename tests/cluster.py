"""A real Redis Cluster for tests: 3 masters and 3 replicas of Debian's redis-server on free
ports in a folder of their own, stopped by pid (as .ci/run starts one for CI)."""

from __future__ import annotations

import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.redis_server import wait_listening

NODE_TIMEOUT_MS = 2000  # how soon a replica takes over a failed master (the failover test)


def free_ports(n: int) -> list[int]:
    """Ports P with P + 10000 free too (the cluster bus), below the ephemeral range."""
    ports: list[int] = []
    while len(ports) < n:
        port = random.randrange(20000, 30000)
        if port not in ports and all(_free(p) for p in (port, port + 10000)):
            ports.append(port)
    return ports


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class LocalCluster:
    """Configured as docs/operations/cluster.md "Redis Cluster runbook" says:
    ``cluster-require-full-coverage no`` (a failed shard's slots do not stop the others) and a short
    ``cluster-node-timeout``."""

    def __init__(self, folder: Path, n_masters: int = 3, node_timeout_ms: int = NODE_TIMEOUT_MS):
        self.folder, self.n = folder, n_masters * 2
        self.node_timeout_ms = node_timeout_ms
        self.chosen = free_ports(self.n)  # now: its URL is known before it starts
        self.procs: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{min(self.procs or self.chosen)}/0"

    @property
    def ports(self) -> list[int]:
        return sorted(self.procs)

    def start(self) -> LocalCluster:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install -y redis-server)")
        for port in self.chosen:
            log = open(self.folder / f"{port}.log", "wb")  # noqa: SIM115 - the server keeps it
            self.procs[port] = subprocess.Popen(
                [
                    binary,
                    "--port",
                    str(port),
                    "--bind",
                    "127.0.0.1",
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    f"nodes-{port}.conf",
                    "--cluster-node-timeout",
                    str(self.node_timeout_ms),
                    "--cluster-require-full-coverage",
                    "no",
                    # a replica's first sync starts at once: Redis 7's default waits 5 s for
                    # more replicas to share one transfer
                    "--repl-diskless-sync-delay",
                    "0",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.folder),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        for port in self.procs:
            wait_listening(port, self.procs[port], f"redis-server on port {port}")
        subprocess.run(
            [
                "redis-cli",
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in self.procs),
                "--cluster-replicas",
                "1",
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        for port in self.procs:
            self.wait_ok(port)
        for port in self.procs:  # and every replica has had its first sync (WAIT counts it)
            self._wait_info(port, lambda info: "role:master" in info or "link_status:up" in info)
        return self

    def _wait_info(self, port: int, ok, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(
                ["redis-cli", "-p", str(port), "info", "replication"],
                capture_output=True,
                text=True,
            ).stdout
            if ok(out):
                return
            time.sleep(0.1)
        raise RuntimeError(f"the cluster node on {port} never synced")

    def wait_ok(self, port: int, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(
                ["redis-cli", "-p", str(port), "cluster", "info"], capture_output=True, text=True
            ).stdout
            if "cluster_state:ok" in out:
                return
            time.sleep(0.1)
        raise RuntimeError(f"the cluster node on {port} is not ok")

    def kill(self, port: int) -> None:
        """SIGKILL one node's process (a crashed machine: nothing is flushed or handed over)."""
        proc = self.procs.pop(port)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def stop(self) -> None:
        for proc in self.procs.values():
            proc.kill()
            proc.wait(10)
        self.procs.clear()
