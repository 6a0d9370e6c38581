"""Shutdown never hangs: workers that swallow a cancellation are cancelled again, and a server
that cannot bind its port runs its lifespan shutdown and exits (it used to hang for good)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid

from app.main import cancel_all
from tests.ops.deploy import ROOT


async def test_workers_that_swallow_a_cancel_are_cancelled_again():
    async def stubborn():
        with contextlib.suppress(asyncio.CancelledError):  # as 3.11's wait_for can
            await asyncio.sleep(30)
        await asyncio.sleep(30)

    tasks = [asyncio.create_task(stubborn()), asyncio.create_task(asyncio.sleep(30))]
    await asyncio.sleep(0)
    start = time.monotonic()
    await cancel_all(tasks, timeout=5)
    assert all(t.done() for t in tasks) and time.monotonic() - start < 2


def test_a_server_that_cannot_bind_exits_after_its_lifespan(tmp_path, live_redis_url, live_prefix):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        env = {
            **os.environ,
            "REDIS_URL": live_redis_url,
            "MEJA_KEY_PREFIX": live_prefix,
            "MEJA_SECRET_KEY": "ops-shutdown-key-" + uuid.uuid4().hex,
            "MEJA_DATA_DIR": str(tmp_path),
            "DATABASE_URL": f"sqlite:///{tmp_path}/m.db",
            "PORT": str(busy.getsockname()[1]),
        }
        done = subprocess.run(
            [sys.executable, "-m", "app", "serve"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 3, done.stderr[-2000:]  # uvicorn: startup failed
    assert "address already in use" in done.stderr
    assert "Application shutdown complete." in done.stderr
