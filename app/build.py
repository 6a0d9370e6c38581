"""The running build: its version and its git commit, for ``python -m app --version``, the
start-up line and ``meja_build_info`` (replicas on different builds after a roll-out).

The version is the installed package's (``importlib.metadata``); the image does not install
the package (Dockerfile), so there it is read from the pyproject.toml it carries beside
``app/``. The commit is ``MEJA_GIT_COMMIT`` when set (the image's build argument, which
docker-compose.yml passes from the variable of that name), else the checkout's ``HEAD`` when
the code runs from a git checkout (one ``git rev-parse`` per process, a few milliseconds),
else ``unknown``. A leaf: it imports nothing of the app.
"""

from __future__ import annotations

import os
import subprocess
import tomllib
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed_version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNKNOWN = "unknown"


@cache
def version() -> str:
    try:
        return installed_version("meja")
    except PackageNotFoundError:
        pass
    try:
        return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return UNKNOWN


@cache
def commit() -> str:
    given = os.environ.get("MEJA_GIT_COMMIT", "").strip()
    if given:
        return given
    if not (ROOT / ".git").exists():
        return UNKNOWN
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):  # no git on this machine
        return UNKNOWN
    return done.stdout.strip() if done.returncode == 0 else UNKNOWN
