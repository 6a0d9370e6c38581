"""A redis-server of a test's own (Debian's binary) on a spare port, which the test may kill
with SIGKILL and start again on the same port. Its data is an append-only file fsynced on
every write (``appendfsync always``), so a kill loses nothing and the tables are there again
when it comes back, as with production's AOF. Extra arguments start it in other modes (a
Cluster node: ``--cluster-enabled yes``)."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path


def spare_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def wait_listening(
    port: int, proc: subprocess.Popen, what: str, log: Path | None = None, timeout: float = 10
) -> None:
    """Until ``proc`` accepts connections on ``port``; fails with ``what`` (and its log, when
    given) if it exits or is not there in ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            said = log.read_text() if log is not None and log.exists() else ""
            assert proc.poll() is None, f"{what} exited: {said}"
            assert time.monotonic() < deadline, f"{what} did not start: {said}"
            time.sleep(0.05)


def spare_cluster_port() -> int:
    """A spare port whose Cluster bus port (10000 above it) is spare too."""
    while True:
        port = spare_port()
        if port + 10000 > 65535:
            continue
        try:
            with socket.socket() as bus:
                bus.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue


class RedisServer:
    def __init__(self, folder: Path, *args: str):
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed (Debian: apt-get install -y redis-server)"
        self.binary, self.folder, self.args = binary, folder, args
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = spare_cluster_port() if "--cluster-enabled" in args else spare_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.log = (self.folder / "redis.log").open("a")
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--dir",
                str(self.folder),
                "--repl-diskless-sync-delay",  # a replica's first sync at once (Redis 7: 5 s)
                "0",
                *self.args,
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        # a loaded machine starts it slowly
        wait_listening(self.port, self.proc, "redis-server", self.folder / "redis.log", 30)
        return self

    def kill(self) -> None:
        """SIGKILL: the server vanishes mid-whatever, as a crashed or fenced-off node does."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self.log.close()
