"""``MEJA_REDIS_MODE=sentinel``: REDIS_URL names a Sentinel, and the app works on the primary
it reports (a real redis-server and a real Sentinel, on free ports of this test's own)."""

from __future__ import annotations

import subprocess
import time

from app.config import Settings
from app.store.connection import open_redis
from app.store.keys import Keys
from app.store.tables import TableStore
from tests.cluster import free_ports


def _ping(port: int, *command: str) -> str:
    return subprocess.run(
        ["redis-cli", "-p", str(port), *command], capture_output=True, text=True
    ).stdout


async def test_the_app_writes_to_the_primary_a_sentinel_names(tmp_path):
    primary, sentinel = free_ports(2)
    conf = tmp_path / "sentinel.conf"
    conf.write_text(f"port {sentinel}\nsentinel monitor meja 127.0.0.1 {primary} 1\n")
    procs = [
        subprocess.Popen(
            ["redis-server", "--port", str(primary), "--save", "", "--dir", str(tmp_path)],
            stdout=subprocess.DEVNULL,
        ),
        subprocess.Popen(["redis-server", str(conf), "--sentinel"], stdout=subprocess.DEVNULL),
    ]
    try:
        deadline = time.monotonic() + 20
        while str(primary) not in _ping(sentinel, "sentinel", "get-master-addr-by-name", "meja"):
            assert time.monotonic() < deadline, "the Sentinel never named the primary"
            time.sleep(0.1)
        settings = Settings(
            redis_url=f"redis://127.0.0.1:{sentinel}/0",
            redis_mode="sentinel",
            redis_master="meja",
            data_dir=tmp_path,
        )
        async with open_redis(settings) as redis:
            store = TableStore(redis, Keys("sentinel:"), stream_len=10, command_ttl=60)
            assert (await store.cas("t1", 0, {"n": 1}, events=[], live="+1")).status == "ok"
            assert (await store.load("t1")).doc == {"n": 1}
            await store.close()
        assert _ping(primary, "hget", Keys("sentinel:").table("t1"), "v").strip() == "1"
    finally:
        for proc in procs:
            proc.kill()
            proc.wait(10)
