"""Containers of the image, run by podman as an engine would run compose's services: on the
host's network (this machine's Postgres and the run's Redis; no compose DNS here), with the
init process compose's ``init: true`` gives, and explicit ulimits (podman's defaults, nofile
1048576, are above this machine's hard limits and refused).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import socket
import subprocess
import time
import uuid

import httpx
import pytest
import yaml

from tests.ops.deploy import ROOT

# docker-compose.yml's services (its anchors merged); the tests run their commands.
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
# The app's stop_grace_period ("30s"): the seconds between SIGTERM and SIGKILL.
GRACE = int(COMPOSE["app"]["stop_grace_period"].removesuffix("s"))
ULIMITS = ["--ulimit", "nofile=16384:16384", "--ulimit", "nproc=4096:4096"]


def free_port() -> int:
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Podman:
    def __init__(self, command: str, image: str):
        self.argv, self.image = shlex.split(command), image
        self.names: list[str] = []

    def __call__(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([*self.argv, *args], capture_output=True, text=True, timeout=timeout)

    def inspect(self) -> dict:
        done = self("image", "inspect", self.image)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)[0]

    def run_once(self, env: dict, *command: str) -> str:
        """A one-shot container (compose's migrate): its output; fails the test on an exit
        other than 0."""
        name = self._name("once")
        done = self("run", "--rm", "--name", name, *self._options(env), self.image, *command)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def start(self, role: str, env: dict, *command: str, options: tuple[str, ...] = ()):
        """A service container, detached, with an init process (compose's ``init: true``); its
        ``PORT`` a free one on the host; ``options`` for ``podman run`` besides."""
        port = free_port()
        name = self._name(role)
        done = self(
            "run", "--detach", "--init", "--name", name,
            *self._options({**env, "PORT": str(port)}), *options, self.image, *command,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return Container(self, name, port)

    def remove_all(self) -> None:
        for name in self.names:
            self("rm", "--force", "--time", "5", name)

    def _name(self, role: str) -> str:
        name = f"meja-{role}-{uuid.uuid4().hex[:6]}"
        self.names.append(name)
        return name

    @staticmethod
    def _options(env: dict) -> list[str]:
        # No health timer: podman schedules it with systemd, which this machine has not; the
        # tests run the check themselves (`podman healthcheck run`).
        options = ["--network", "host", *ULIMITS, "--health-interval", "disable"]
        for key, value in env.items():
            options += ["--env", f"{key}={value}"]
        return options


class Container:
    """One detached container of the image, serving on 127.0.0.1:``port``."""

    def __init__(self, podman: Podman, name: str, port: int):
        self.podman, self.name, self.port = podman, name, port
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"

    async def ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient() as http:
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(f"{self.url}/readyz", timeout=2)).status_code == 200:
                        return
                if self.state()["Status"] != "running" or time.monotonic() > deadline:
                    pytest.fail(f"{self.name} did not start:\n{self.logs()[-3000:]}")
                await asyncio.sleep(0.3)

    def state(self) -> dict:
        done = self.podman("inspect", "--format", "{{json .State}}", self.name)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def exec(self, *command: str) -> subprocess.CompletedProcess:
        return self.podman("exec", self.name, *command)

    def healthcheck(self) -> subprocess.CompletedProcess:
        """The container's HEALTHCHECK command, run once as the engine's timer runs it."""
        return self.podman("healthcheck", "run", self.name)

    def stop(self, grace: int) -> int:
        """SIGTERM (the image's stop signal), SIGKILL after ``grace`` seconds: the exit code."""
        done = self.podman("stop", "--time", str(grace), self.name, timeout=grace + 30)
        assert done.returncode == 0, done.stderr
        return self.state()["ExitCode"]

    def logs(self) -> str:
        done = self.podman("logs", self.name)
        return done.stdout + done.stderr
