"""What the load tools' command lines share: the arguments that choose the services and the
sockets, the services built from them, and the entry point that prints the report.

bench/load.py and bench/connections.py run against the same kind of deployment, so they take
the same arguments for it and build their ``Services`` the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import orjson

from bench.services import DEFAULT_DB, ROOT, Services, workdir

Report = dict[str, Any]


def add_socket_args(p: argparse.ArgumentParser) -> None:
    """How the players' sockets connect."""
    p.add_argument("--sources", type=int, default=4, help="source addresses 127.0.0.1..n")
    p.add_argument(
        "--no-deflate", action="store_true", help="do not offer permessage-deflate (browsers do)"
    )


def add_service_args(p: argparse.ArgumentParser) -> None:
    """Which Redis, database and server a run starts or targets (see ``services_from_args``)."""
    p.add_argument("--url", help="target a running server instead of starting one")
    p.add_argument(
        "--code",
        type=Path,
        default=ROOT,
        help="the checkout the server runs from (e.g. an export of a commit)",
    )
    p.add_argument("--server-pid", type=int, help="with --url: the server's pid (else found)")
    p.add_argument(
        "--servers",
        type=int,
        default=1,
        help="serve processes to start (replicas; sockets spread round robin, REST on the first)",
    )
    p.add_argument("--redis-url", help="an existing Redis (default: a private redis-server)")
    p.add_argument(
        "--cluster",
        action="store_true",
        help="a private Redis Cluster (3 masters, 3 replicas), or with --redis-url a seed of one",
    )
    p.add_argument("--database-url", help=f"default: DATABASE_URL or {DEFAULT_DB}")
    p.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra server environment, e.g. MEJA_BOT_DELAY=0",
    )


def services_from_args(
    args: argparse.Namespace,
    *,
    tag: str,
    nofile: int,
    env: dict[str, str] | None = None,
    outbox_worker: bool = False,
) -> Services:
    """The services ``add_service_args`` asked for; ``--env`` overrides the tool's ``env``."""
    return Services(
        redis_url=args.redis_url,
        database_url=args.database_url,
        url=args.url,
        server_pid=args.server_pid,
        nofile=nofile,
        env={**(env or {}), **dict(e.split("=", 1) for e in args.env)},
        log_dir=workdir(tag),
        code=args.code,
        outbox_worker=outbox_worker,
        servers=args.servers,
        cluster=args.cluster,
    )


def run_tool(
    main_async: Callable[[argparse.Namespace], Coroutine[Any, Any, Report]],
    args: argparse.Namespace,
    report_text: Callable[[Report], str],
) -> Report:
    """Run a tool's ``main_async(args)`` on uvloop when installed and print its report (JSON
    with ``--json``, else the text table); returns the report for the exit status."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    report = asyncio.run(main_async(args))
    print(
        orjson.dumps(report, option=orjson.OPT_INDENT_2).decode()
        if args.json
        else report_text(report)
    )
    return report
