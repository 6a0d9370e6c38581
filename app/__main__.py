"""One command line: ``python -m app serve | outbox | migrate | simulate | replay | admin``
(``--help`` on each). Each command lives in its own module as a Click command; this file only
gathers them."""

from __future__ import annotations

import sys

import click

from app.admin_cli import admin
from app.config import get_settings, problems_of
from app.db.migrate import migrate
from app.outbox_worker import outbox
from app.serve import serve
from app.services.replay import replay
from app.simulate import simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Meja: online domino tables (Gaple, Moon, Domino Cross, Mexican Train)."""
    try:
        get_settings()  # a bad setting: one line naming it, before any command starts
    except ValueError as err:
        for problem in problems_of(err):
            click.echo(f"refusing to start: {problem} (see .env.example)", err=True)
        sys.exit(2)


for command in (serve, outbox, migrate, simulate, replay, admin):
    cli.add_command(command)

if __name__ == "__main__":
    cli(prog_name="python -m app")
