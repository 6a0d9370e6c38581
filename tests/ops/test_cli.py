"""The command line (app/__main__.py, Click): help for every command, arguments validated with
one line naming the bad one, and the same figures as the simulation's own function."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from app.__main__ import cli
from app.simulate import run


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="python -m app")


def test_help_lists_every_command_and_exits_0():
    done = subprocess.run(
        [sys.executable, "-m", "app", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    for name in ("serve", "outbox", "migrate", "simulate", "replay"):
        assert f"  {name} " in done.stdout


@pytest.mark.parametrize("name", ["serve", "outbox", "migrate", "simulate", "replay"])
def test_every_command_has_help(name):
    result = invoke(name, "--help")
    assert result.exit_code == 0
    assert f"Usage: python -m app {name}" in result.output
    assert "\n\n  " in result.output  # a sentence saying what it does, not a bare usage line


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--rounds", "-5"], "'--rounds'"),
        (["--players", "9"], "--players"),
        (["--options", "{bad"], "--options"),
        (["--options", '{"stake": "x"}'], "stake"),
        (["--random-seats", "1,x"], "--random-seats"),
        (["--random-seats", "7"], "--random-seats"),
        (["--game", "chess"], "'--game'"),
    ],
)
def test_bad_simulate_arguments_name_the_argument_without_a_traceback(args, names):
    result = invoke("simulate", *args)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)  # a usage error, not a crash
    assert "Error: Invalid value" in result.output and names in result.output


def test_simulate_prints_and_writes_the_seeded_report(tmp_path):
    out = tmp_path / "report.json"
    result = invoke(
        "simulate", "--game", "cross", "--players", "3", "--rounds", "5", "--json", str(out)
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("cross: 5 matches, 3 players, seeds 0..4")
    report = json.loads(out.read_text())
    expected = run("cross", 3, 5, 0, {}, frozenset())
    assert report["win_rate_by_seat"] == expected["win_rate_by_seat"]
    assert report["score_total_by_seat"] == expected["score_total_by_seat"]


def test_replay_refuses_a_match_id_that_cannot_exist():
    result = invoke("replay", "0")
    assert result.exit_code == 2 and "MATCH_ID" in result.output


def test_admin_grant_of_an_unknown_account_names_the_argument(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/meja.db"
    assert invoke("migrate", "--url", url).exit_code == 0
    result = invoke("admin", "grant", "nobody", "--url", url)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "Invalid value for 'USERNAME'" in result.output and "nobody" in result.output
