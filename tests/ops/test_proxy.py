"""deploy/nginx.conf for real: Debian's nginx, started here as a process of its own, in front of
two ``python -m app serve`` processes on one Redis and one database (as in test_scale_out.py).

The file needs nginx >= 1.27.3 for ``server ... resolve`` (Docker's DNS, read again as replicas
come and go); Debian's nginx is older and refuses it. So the test runs the same file with only
that switched off, derived line by line: the ``resolver`` line dropped, each ``server app:8000
resolve`` line replaced by one line per process (same parameters), ``listen`` on a free port.
Everything else (the WebSocket upgrade, the table's sockets hashed to one process, timeouts,
retries, the hidden ``/metrics``) runs as written. Through nginx, four players use the lobby
over REST and play a Domino Cross match over WebSockets, all four on the process the table's
path hashes to; mid-round that process gets SIGTERM, its sockets close with 1012, the players
reconnect through nginx (which passes them to the other process) and the match finishes with
every action applied once.
"""

from __future__ import annotations

import asyncio
import difflib
import getpass
import re
import shutil
import signal
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest
import websockets

from tests.ops.deploy import ROOT
from tests.ops.test_scale_out import (
    Player,
    Server,
    _free_port,
    _outbox_empty,
    _until,
    finished_once,
    metric_values,
    migrate,
    server_env,
)
from tests.ws.client import register

DEPLOY_CONF = ROOT / "deploy" / "nginx.conf"
RESOLVE_SINCE = (1, 27, 3)  # nginx's changelog: "resolve" in the open-source upstream module
UPSTREAM = re.compile(r"^(\s*)server app:8000 resolve( .*)?;$")


def nginx_bin() -> str:
    path = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if path is None:
        pytest.fail("nginx is not installed (Debian: apt-get install -y nginx-light; make test)")
    return path


def nginx_version() -> tuple[int, ...]:
    out = subprocess.run([nginx_bin(), "-v"], capture_output=True, text=True).stderr
    return tuple(int(x) for x in re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", out).groups())


def local_conf(upstreams: list[int], listen: int) -> str:
    """deploy/nginx.conf with only the newer-version feature switched off (see above)."""
    out = []
    for line in DEPLOY_CONF.read_text().splitlines():
        if re.match(r"^\s*resolver\s", line):
            continue
        if m := UPSTREAM.match(line):
            out += [f"{m[1]}server 127.0.0.1:{port}{m[2] or ''};" for port in upstreams]
        elif re.fullmatch(r"\s*listen 80;", line):
            out.append(line.replace("listen 80;", f"listen 127.0.0.1:{listen};"))
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def main_conf(prefix: Path, site: str, connections: int = 512) -> Path:
    """What the nginx image's own nginx.conf does around conf.d/default.conf, with every path
    (pid, logs, temp files) under ``prefix``, in the foreground; ``connections`` per worker
    (bench/reconnect.py holds thousands of sockets through it)."""
    (prefix / "default.conf").write_text(site)
    temp = "\n".join(
        f"    {kind}_temp_path {prefix}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = prefix / "nginx.conf"
    conf.write_text(
        f"daemon off;\nuser {getpass.getuser()};\nworker_processes 1;\n"
        f"pid {prefix}/nginx.pid;\nerror_log {prefix}/error.log info;\n"
        f"worker_rlimit_nofile {2 * connections + 64};\n"
        f"events {{ worker_connections {connections}; }}\n"
        f"http {{\n    access_log {prefix}/access.log;\n{temp}\n"
        f"    include {prefix}/default.conf;\n}}\n"
    )
    return conf


class Proxy:
    """nginx as a real process: ``-p`` prefix and ``-c`` config, stopped by its pid."""

    name = "nginx"

    def __init__(self, prefix: Path, upstreams: list[int], connections: int = 512):
        self.prefix, self.port = prefix, _free_port()
        self.site = local_conf(upstreams, self.port)
        self.conf = main_conf(prefix, self.site, connections)
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> Proxy:
        self.proc = subprocess.Popen(
            [nginx_bin(), "-p", str(self.prefix), "-c", str(self.conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        pid_file = self.prefix / "nginx.pid"
        deadline = time.monotonic() + 10
        while not pid_file.exists() or not pid_file.read_text().strip():
            assert self.proc.poll() is None, self.error_log()
            assert time.monotonic() < deadline, self.error_log()
            await asyncio.sleep(0.05)
        self.pid = int(pid_file.read_text())
        assert self.pid == self.proc.pid  # the master, in the foreground
        return self

    def stop(self) -> None:
        """Stop the master (in the foreground: ``proc``), also after a start that failed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # nginx's graceful shutdown
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def error_log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text()[-3000:] if path.exists() else ""


def test_only_the_resolve_lines_differ_from_the_deploy_file():
    original = DEPLOY_CONF.read_text().splitlines()
    derived = local_conf([8101, 8102], 8100).splitlines()
    diff = [d for d in difflib.ndiff(original, derived) if d[:1] in "+-"]
    removed = sorted(d[2:].strip() for d in diff if d[0] == "-")
    added = sorted(d[2:].strip() for d in diff if d[0] == "+")
    assert removed == [
        "listen 80;",
        "resolver 127.0.0.11 valid=10s ipv6=off;",
        *["server app:8000 resolve max_fails=1 fail_timeout=5s;"] * 2,  # meja, meja_tables
    ]
    assert added == [
        "listen 127.0.0.1:8100;",
        *["server 127.0.0.1:8101 max_fails=1 fail_timeout=5s;"] * 2,
        *["server 127.0.0.1:8102 max_fails=1 fail_timeout=5s;"] * 2,
    ]
    # The minimum version is stated where an operator looks for it.
    assert "nginx >= 1.27.3" in DEPLOY_CONF.read_text()
    assert "nginx 1.27.3" in (ROOT / "docs" / "operations" / "deploy.md").read_text()


def test_this_nginx_takes_the_derived_file_and_needs_1_27_3_for_the_deploy_file(tmp_path):
    def check(site: str) -> subprocess.CompletedProcess:
        prefix = tmp_path / uuid.uuid4().hex[:6]
        prefix.mkdir()
        conf = main_conf(prefix, site)
        return subprocess.run(
            [nginx_bin(), "-t", "-p", str(prefix), "-c", str(conf)], capture_output=True, text=True
        )

    derived = check(local_conf([_free_port(), _free_port()], _free_port()))
    assert derived.returncode == 0, derived.stderr
    if nginx_version() < RESOLVE_SINCE:  # Debian 12's 1.22: the one newer feature is refused
        deploy = check(DEPLOY_CONF.read_text().replace("listen 80;", f"listen {_free_port()};"))
        assert deploy.returncode == 1
        assert 'invalid parameter "resolve"' in deploy.stderr, deploy.stderr


async def test_a_table_plays_through_nginx_while_one_process_stops(
    tmp_path, live_redis_url, live_prefix, database
):
    env = server_env(
        live_redis_url,
        database,
        live_prefix,
        tmp_path,
        MEJA_TRUSTED_PROXIES='["127.0.0.1"]',
        MEJA_LOG_LEVEL="warning",
    )
    migrate(env)
    a = Server("A", env, tmp_path).start()
    b = Server("B", env, tmp_path).start()
    (tmp_path / "nginx").mkdir()
    proxy = Proxy(tmp_path / "nginx", [a.port, b.port])
    players: list[Player] = []
    try:
        await asyncio.gather(a.ready(), b.ready(), proxy.start())
        async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
            # The page and the lobby, through nginx; /metrics stays on the internal network.
            assert (await http.get("/")).status_code == 200
            assert (await http.get("/metrics")).status_code == 404
            creds = [await register(http, f"Proxy {i}") for i in range(4)]
            tokens, auth = [t for t, _ in creds], [h for _, h in creds]
            r = await http.post(
                "/api/tables",
                headers=auth[0],
                json={"game": "cross", "seats": 4, "options": {"target": 20}},
            )
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            r = await http.post(f"/api/tables/{tid}/seats/0", headers=auth[0])
            assert r.status_code == 200, r.text  # the lobby lists tables someone is at
            lobby = await http.get("/api/tables")
            assert lobby.status_code == 200, lobby.text
            assert tid in lobby.text

            # A browser's handshake: nginx passes Host with its port, so the page's own Origin
            # is accepted and another site's refused (app/ws/endpoint.py).
            async with websockets.connect(
                f"{proxy.ws_url}/ws/tables/{tid}", origin=proxy.url
            ) as browser:
                assert '"state"' in await asyncio.wait_for(browser.recv(), 10)
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(
                    f"{proxy.ws_url}/ws/tables/{tid}", origin="https://elsewhere.example"
                )
            assert refused.value.response.status_code == 403

            # Four sockets: nginx hashes the table's path, so all four reach one process.
            for i in range(4):
                players.append(await Player(i, tokens[i], tid, proxy).connect(proxy))

            def open_sockets() -> list[float]:
                return [metric_values(s)["meja_open_sockets"] for s in (a, b)]

            await _until(lambda: sorted(open_sockets()) == [0, 4], "not all on one process")
            doomed, other = (a, b) if open_sockets()[0] else (b, a)
            for i in range(1, 4):
                r = await http.post(f"/api/tables/{tid}/seats/{i}", headers=auth[i])
                assert r.status_code == 200, r.text

        def over(m: dict) -> bool:
            return m["table"]["status"] == "over" and m["table"]["match_no"] == 1

        killed_at: dict[str, int] = {}

        async def terminate_mid_round() -> None:
            first_v = None
            while True:
                seen = [
                    p.latest["v"]
                    for p in players
                    if p.latest and p.latest["view"] and not p.latest["view"]["over"]
                ]
                assert not any(over(p.latest) for p in players if p.latest), "ended too soon"
                first_v = first_v or (min(seen) if seen else None)
                if seen and max(seen) >= first_v + 3:  # three moves into the round
                    break
                await asyncio.sleep(0.02)
            latest = max((p.latest for p in players), key=lambda m: m["v"])
            assert not latest["view"]["over"]
            killed_at["v"] = latest["v"]
            doomed.proc.send_signal(signal.SIGTERM)

        await asyncio.gather(terminate_mid_round(), *(p.play(proxy, over) for p in players))
        exit_code = await asyncio.to_thread(doomed.proc.wait, 30)
        assert exit_code in (0, -signal.SIGTERM), doomed.err_path.read_text()[-3000:]

        # The four sockets were closed with 1012 and reconnected through nginx to the other
        # process, where the match went on.
        closes = [p.closes for p in players]
        assert closes == [[1012]] * 4, (closes, proxy.error_log())
        after = metric_values(other)
        assert after["meja_open_sockets"] == 4
        assert after["meja_action_redis_round_trips_count"] > 0  # it answered the moves since

        # The match finished as the rules say, each action applied once.
        snap = await finished_once(live_redis_url, live_prefix, tid, killed_at["v"])
        assert all(p.latest["v"] == snap.v for p in players)

        # With one process gone, every REST call through nginx still answers (retried on the
        # other): the match reaches each player's history.
        await _until(lambda: _outbox_empty(other), "the outbox backlog did not reach 0")
        async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
            for headers in auth:
                r = await http.get("/api/players/me/matches", headers=headers)
                assert r.status_code == 200, r.text
                assert [m["table"] for m in r.json()["items"]] == [tid]
    finally:
        for p in players:
            await p.ws.close()
        proxy.stop()
        a.stop()
        b.stop()
    assert proxy.proc.returncode == 0, proxy.error_log()  # its graceful stop was complete
