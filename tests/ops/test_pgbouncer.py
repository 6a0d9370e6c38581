"""The database path through a real PgBouncer in transaction mode (Debian's ``pgbouncer``,
started here on a spare port with its own ini, in front of 127.0.0.1:5432 with trust auth):
the migrations, a sign-up's grant, a buy-in and a Gaple round's records written through the
outbox, with ``MEJA_DATABASE_PGBOUNCER`` on. Without it, named prepared statements meet on
the pooler's shared server connections and fail (checked here too, so the pooler really is
in transaction mode). Also: the pool's settings reach the engine, within their bounds."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import uuid

import httpx
import pytest
from pydantic import ValidationError
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError

from app.config import Settings
from app.db.models import Bet, BuyIn, LedgerTxn, Round
from app.db.session import make_engine, make_sessionmaker
from app.services import money
from tests.db.fixtures import ON_PG, PG_URL
from tests.games.playout import ROUND_END_EVENTS
from tests.redis_server import spare_port, wait_listening
from tests.ws.client import SeatClient, register, sit_at_new_chips_table

pytestmark = pytest.mark.skipif(not ON_PG, reason="PgBouncer fronts Postgres (DATABASE_URL)")


@pytest.fixture
async def database():
    """A database of the test's own (PgBouncer 1.18 refuses a search_path startup parameter,
    so the tests' schema-per-test does not pass through it), dropped afterwards."""
    name = "pgb_" + uuid.uuid4().hex[:10]
    admin = make_engine(PG_URL, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield name
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    await admin.dispose()


@pytest.fixture
def pgbouncer(tmp_path, database):
    """PgBouncer in transaction mode on a spare port, two server connections for every
    client; yields the URL of the test's database through it."""
    binary = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin")
    if binary is None:
        pytest.fail(
            "pgbouncer is not installed (make system-deps; Debian: apt-get install pgbouncer)"
        )
    port = spare_port()
    tmp_path.chmod(0o755)  # it drops root for the postgres user, who reads these files
    (tmp_path / "users.txt").write_text('"postgres" ""\n')
    ini = tmp_path / "pgbouncer.ini"
    ini.write_text(
        "\n".join(
            [
                "[databases]",
                "* = host=127.0.0.1 port=5432",
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                f"listen_port = {port}",
                "unix_socket_dir =",
                "auth_type = trust",
                f"auth_file = {tmp_path / 'users.txt'}",
                "pool_mode = transaction",
                "default_pool_size = 2",
                "max_client_conn = 200",
                *(["user = postgres"] if os.geteuid() == 0 else []),  # it refuses to run as root
                "",
            ]
        )
    )
    for f in tmp_path.iterdir():
        f.chmod(0o644)
    log = (tmp_path / "pgbouncer.log").open("w")
    proc = subprocess.Popen([binary, str(ini)], stdout=log, stderr=subprocess.STDOUT)
    wait_listening(port, proc, "pgbouncer", tmp_path / "pgbouncer.log")
    yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/{database}"
    proc.kill()
    proc.wait(10)
    log.close()


async def count(sessions, model) -> int:
    async with sessions() as session:
        return (await session.execute(select(func.count()).select_from(model))).scalar_one()


def round_over(message: dict) -> bool:
    return any(e["type"] in ROUND_END_EVENTS for e in message.get("events", ()))


async def test_migrations_a_buy_in_and_the_outbox_work_through_pgbouncer(pgbouncer, live_server):
    # The migrations in a process of their own, as the compose file's migrate service: its
    # statements stay on the pooler's server connections after it exits.
    env = {**os.environ, "MEJA_DATABASE_PGBOUNCER": "true"}
    cli = [sys.executable, "-m", "app", "migrate", "--url", pgbouncer]
    done = subprocess.run(cli, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    behind = Settings(database_url=pgbouncer, database_pgbouncer=True)
    engine = make_engine(pgbouncer, settings=behind)
    srv = await live_server(
        database_url=pgbouncer, database_pgbouncer=True, rate_per_second=1e4, **FAST
    )
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        token, auth = await register(http, "Sari")
        tid = await sit_at_new_chips_table(http, auth, seats=4, buy_in=300)
        assert (await http.post(f"/api/tables/{tid}/bots", headers=auth)).status_code == 200
        me = await SeatClient(srv.ws_url, tid, token).connect()
        await me.play(round_over, timeout=60)
        await me.close()
        sessions = make_sessionmaker(engine)
        async with asyncio.timeout(30):  # the outbox writes the round through the pooler
            while not await count(sessions, Round) or await srv.live.outbox.backlog():
                await asyncio.sleep(0.1)
        r = await http.get("/api/players/me/wallet", headers=auth)
        assert r.json()["balance"] == srv.settings.starting_balance - 300, r.text
    assert await count(sessions, BuyIn) == 1 and await count(sessions, Bet) >= 1
    assert await count(sessions, LedgerTxn) >= 3  # the grant, the buy-in, the bots' stakes
    assert (await money.audit(sessions))["ok"]
    await engine.dispose()

    # Without the setting, a connection's statements stay on the server connection they were
    # prepared on, and the pooler hands its next transaction another one.
    plain = make_engine(pgbouncer, settings=Settings(database_url=pgbouncer))
    query = text("SELECT count(*) FROM player")
    with pytest.raises(DBAPIError, match="prepared statement"):
        async with plain.connect() as a, plain.connect() as b:
            await a.execute(query)  # a holds server connection X
            await b.execute(query)  # so b is given Y, and prepares there
            await b.commit()
            await a.commit()  # X was released last: the next transaction gets it
            await b.execute(query)  # b's statement is on Y
    await plain.dispose()


FAST = {"bot_delay": 0, "round_pause": 0, "outbox_reclaim_ms": 1000}


def test_the_pool_follows_its_settings_within_bounds():
    settings = Settings(
        database_url=PG_URL,
        database_pool_size=7,
        database_max_overflow=3,
        database_pool_timeout=4,
        database_pool_recycle=60,
    )
    pool = make_engine(PG_URL, settings=settings).pool
    assert (pool.size(), pool._max_overflow, pool._timeout, pool._recycle) == (7, 3, 4, 60)
    for bad in (
        {"database_pool_size": 0},
        {"database_max_overflow": -1},
        {"database_pool_timeout": 0},
        {"database_pool_recycle": -2},
    ):
        with pytest.raises(ValidationError, match=next(iter(bad))):
            Settings(**bad)
