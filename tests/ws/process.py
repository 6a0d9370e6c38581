"""A server started as a real process (``python -m app serve``, the image's command), for the
tests that count what the process itself holds: its resident memory and its open sockets."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import time
from pathlib import Path

import httpx
import psutil
import pytest

from tests.ops.deploy import ROOT, dockerfile_exec, local


class ServerProcess:
    def __init__(self, env: dict[str, str], log: Path):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.env = {**os.environ, **env, "PORT": str(self.port)}
        self.log = log
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"

    async def start(self, timeout: float = 60) -> ServerProcess:
        self._err = open(self.log, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            local(dockerfile_exec("CMD")),
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self._err,
        )
        self.ps = psutil.Process(self.proc.pid)
        deadline = time.monotonic() + timeout
        while True:
            try:
                async with httpx.AsyncClient() as http:
                    if (await http.get(f"{self.url}/readyz", timeout=2)).status_code == 200:
                        return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the server did not start:\n{self.log.read_text()[-3000:]}")
            await asyncio.sleep(0.2)

    def rss_mib(self) -> float:
        return self.ps.memory_info().rss / 2**20

    def sockets(self) -> int:
        """TCP connections the process holds on its port (the listener aside)."""
        return sum(
            1
            for c in self.ps.net_connections("tcp")
            if c.laddr and c.laddr.port == self.port and c.status != psutil.CONN_LISTEN
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._err.close()
