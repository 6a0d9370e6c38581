"""One command line: ``python -m app serve | outbox | migrate | simulate | replay | admin``
(``--help`` on each, ``--version``). Each command lives in its own module as a Click command;
this file gathers them.

Every command reads the settings only once Click has parsed its own arguments, so ``--help``
and ``--version`` answer whatever the environment holds; a bad setting then stops the command
with one line naming it, exit 2 (app/process.py).
"""

from __future__ import annotations

import functools

import click

from app import build
from app.admin_cli import admin
from app.db.migrate import migrate
from app.outbox_worker import outbox
from app.process import load_settings
from app.serve import serve
from app.services.replay import replay
from app.simulate import simulate


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"meja {build.version()} (commit {build.commit()})")
        ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help="Show the version and the git commit, and exit.",
)
def cli() -> None:
    """Meja: online domino tables (Gaple, Moon, Domino Cross, Mexican Train)."""


def settings_first(command: click.Command) -> None:
    """Load the settings before ``command`` runs (and each of a group's commands), after its
    arguments are parsed. A group (``migrate``, ``admin``) checks them itself only when it runs
    without a subcommand: its callback runs before the subcommand's ``--help`` is parsed."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            settings_first(sub)
    callback = command.callback
    if callback is None:
        return

    @functools.wraps(callback)
    def checked(*args, **kwargs):
        ctx = click.get_current_context()
        if not isinstance(command, click.Group) or ctx.invoked_subcommand is None:
            load_settings()
        return callback(*args, **kwargs)

    command.callback = checked


for command in (serve, outbox, migrate, simulate, replay, admin):
    settings_first(command)
    cli.add_command(command)

if __name__ == "__main__":
    cli(prog_name="python -m app")
