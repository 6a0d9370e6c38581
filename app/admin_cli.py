"""``python -m app admin grant|revoke USERNAME``: who may use the operators' console.

The first operator cannot be made from the console itself, so the role is given from the
command line, on a machine that holds the database's credentials
(docs/operations/console.md). Each change is written to the operators' log with no operator (the
command line).
"""

from __future__ import annotations

import asyncio

import click

from app.db.migrate import URL_HELP
from app.db.session import make_engine, make_sessionmaker
from app.services.admin_players import AdminError, set_role


@click.group()
def admin() -> None:
    """Give or take the admin role (the operators' console at /admin)."""


def _set(url: str | None, username: str, role: str) -> None:
    async def run() -> int:
        engine = make_engine(url)
        try:
            return (await set_role(make_sessionmaker(engine), username, role)).id
        finally:
            await engine.dispose()

    try:
        pid = asyncio.run(run())
    except AdminError as err:
        raise click.BadParameter(err.message, param_hint="'USERNAME'") from None
    click.echo(f"{username}: role {role} (player {pid})")


@admin.command()
@click.argument("username")
@click.option("--url", help=URL_HELP)
def grant(username: str, url: str | None) -> None:
    """Make the account USERNAME an operator (it signs in as usual, then opens /admin)."""
    _set(url, username, "admin")


@admin.command()
@click.argument("username")
@click.option("--url", help=URL_HELP)
def revoke(username: str, url: str | None) -> None:
    """Take the admin role from the account USERNAME (refused from its next request on)."""
    _set(url, username, "player")
