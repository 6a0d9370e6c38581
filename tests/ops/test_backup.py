"""The restore drill of docs/operations/backup.md, run as the page writes it: a database where
players signed up, bought in and played a Gaple round (ledger entries, a match, its round and
payments) is dumped with pg_dump and restored with pg_restore into a fresh database (Debian's
postgresql-client); the migrations' revision is checked and the page's audit query balances on
the copy, agreeing with ``money.audit``. The query also has to catch a wallet that no longer
matches its ledger, or it checks nothing."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.db.migrate import upgrade
from app.db.models import Bet, LedgerEntry, LewatPayment, Match, Player, Round
from app.db.session import make_engine, make_sessionmaker
from app.services import money
from tests.db.fixtures import ON_PG, PG_URL
from tests.ops.deploy import ROOT
from tests.ops.test_pgbouncer import count, round_over
from tests.ws.client import SeatClient, register, sit_at_new_chips_table

pytestmark = pytest.mark.skipif(not ON_PG, reason="pg_dump and pg_restore need Postgres")

PAGE = ROOT / "docs" / "operations" / "backup.md"
NEEDED = (Player, LedgerEntry, Match, Round, Bet)  # a round may end without a Lewat
RECORDS = (*NEEDED, LewatPayment)


def drill() -> str:
    """The shell block of the page's "Restore drill" section."""
    section = PAGE.read_text().split("## Restore drill", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```sh\n(.*?)```", section, re.S)
    return block


def plain_url(database: str) -> str:
    """A libpq URL of ``database`` on the tests' Postgres server (pg_dump reads no driver)."""
    url = make_url(PG_URL).set(drivername="postgresql", database=database, query={})
    return url.render_as_string(hide_password=False)


def run(script: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def audit_rows(output: str) -> dict[str, str]:
    """``name | value`` lines of psql's expanded output."""
    return dict(
        (name.strip(), value.strip())
        for name, sep, value in (line.partition("|") for line in output.splitlines())
        if sep and not name.startswith("-")
    )


@pytest.fixture
async def databases():
    """(source, target): a migrated database of the test's own and the name of one that does
    not exist yet; both dropped afterwards."""
    source, target = ("bk_" + uuid.uuid4().hex[:10] for _ in range(2))
    admin = make_engine(PG_URL, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{source}"'))
    engine = make_engine(plain_url(source))
    await upgrade(engine)
    await engine.dispose()
    yield source, target
    async with admin.connect() as conn:
        for name in (source, target):
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    await admin.dispose()


async def records(url: str) -> tuple[dict, dict]:
    """(row counts of the records, ``money.audit``) of the database at ``url``."""
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    try:
        counts = {model.__tablename__: await count(sessions, model) for model in RECORDS}
        return counts, await money.audit(sessions)
    finally:
        await engine.dispose()


async def test_the_restore_drill_restores_a_played_database_whose_audit_balances(
    live_server, databases, tmp_path
):
    source, target = databases
    srv = await live_server(database_url=plain_url(source), outbox_reclaim_ms=1000)
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        await register(http, "Budi")
        token, auth = await register(http, "Sari")
        tid = await sit_at_new_chips_table(http, auth, seats=4, buy_in=300)
        assert (await http.post(f"/api/tables/{tid}/bots", headers=auth)).status_code == 200
        me = await SeatClient(srv.ws_url, tid, token).connect()
        await me.play(round_over, timeout=60)
        await me.close()
    engine = make_engine(plain_url(source))
    sessions = make_sessionmaker(engine)
    async with asyncio.timeout(30):  # the outbox writes the round to the database
        while not await count(sessions, Round) or await srv.live.outbox.backlog():
            await asyncio.sleep(0.1)
    await engine.dispose()
    await srv.stop()  # nothing changes the source after this: the copy must equal it
    before, audited = await records(plain_url(source))
    assert all(before[m.__tablename__] for m in NEEDED), before
    assert audited["ok"] and audited["stacks_in_play"] > 0, audited

    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "DATABASE_URL": plain_url(source),
        "RESTORE_DB": target,
        "RESTORE_URL": plain_url(target),
    }
    script = drill()
    output = run(script, tmp_path, env)
    assert "up to date" in output, output
    shown = audit_rows(output)
    assert shown["ok"] == "t", output

    after, restored = await records(plain_url(target))
    assert after == before
    assert restored == audited
    for name in ("granted", "wallets", "stacks_in_play"):
        assert int(shown[name]) == restored[name], (name, output)

    # The same query on a copy whose wallet no longer matches its ledger says so.
    engine = make_engine(plain_url(target))
    async with engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE wallet SET balance = balance + 1 WHERE player_id = "
                "(SELECT min(player_id) FROM wallet)"
            )
        )
    await engine.dispose()
    query = script[script.index("psql ") :]
    shown = audit_rows(run(query, tmp_path, env))
    assert (shown["ok"], shown["wallets_not_matching_ledger"]) == ("f", "1"), shown
