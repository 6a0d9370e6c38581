"""What the Dockerfile and docker-compose.yml run, read from the files themselves, so the tests
run exactly those commands outside a container (no Docker engine on our machines)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SECRETS = {
    "POSTGRES_PASSWORD": "ops-test-pw-4f1c-8d2b",
    "MEJA_SECRET_KEY": "ops-test-key-9a7e-51c3-b0d2-6f48-aa17",
}


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the runtime stage, continuation lines joined."""
    lines, current = [], ""
    for raw in (ROOT / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        current = f"{current} {line[:-1].strip()}" if line.endswith("\\") else f"{current} {line}"
        if not line.endswith("\\"):
            lines.append(current.strip())
            current = ""
    stages: list[list[tuple[str, str]]] = []
    for line in lines:
        word, _, rest = line.partition(" ")
        if word.upper() == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((word.upper(), rest.strip()))
    return stages[-1]


def dockerfile_exec(instruction: str) -> list[str]:
    """The exec-form (JSON) command of CMD, or of HEALTHCHECK's CMD."""
    for word, rest in dockerfile_instructions():
        if word == instruction:
            if word == "HEALTHCHECK":
                rest = rest[rest.index("CMD ") + 4 :]
            return json.loads(rest)
    raise AssertionError(f"the Dockerfile has no {instruction}")


def local(argv: list[str]) -> list[str]:
    """A container command run here: `python` is this interpreter (the project's venv)."""
    return [sys.executable, *argv[1:]] if argv[0] == "python" else argv


def compose_bin() -> str:
    path = shutil.which("docker-compose")
    if path is None:
        pytest.fail(
            "docker-compose is not installed (Debian: apt-get install -y docker-compose); "
            "it validates docker-compose.yml without a Docker engine"
        )
    return path


def compose_dir(tmp_path: Path, secrets: dict[str, str] | None = SECRETS) -> Path:
    """A copy of the compose file with a .env made from .env.example, secrets filled in (or
    removed when ``secrets`` is None), as an operator would prepare it."""
    env_lines = []
    for line in (ROOT / ".env.example").read_text().splitlines():
        name = line.split("=", 1)[0]
        if name in SECRETS:
            if secrets is None:
                continue
            line = f"{name}={secrets[name]}"
        env_lines.append(line)
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    (tmp_path / ".env").write_text("\n".join(env_lines) + "\n")
    return tmp_path


def compose_env() -> dict[str, str]:
    """This environment without the variables an operator's .env would set."""
    return {k: v for k, v in os.environ.items() if k not in SECRETS and not k.startswith("MEJA_")}


def compose(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [compose_bin(), *args],
        cwd=tmp_path,
        env=compose_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def compose_config(tmp_path: Path) -> dict:
    done = compose(compose_dir(tmp_path), "config")
    assert done.returncode == 0, done.stderr
    return yaml.safe_load(done.stdout)


def image_tree(dest: Path) -> Path:
    """The files the runtime stage COPYs into its WORKDIR, laid out the same way under
    ``dest``: a process started there runs only what the image would contain."""
    for word, rest in dockerfile_instructions():
        if word != "COPY" or rest.startswith("--"):
            continue
        *sources, target = rest.split()
        for src in sources:
            to = dest / target / Path(src).name if target.endswith("/") else dest / target
            to.parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / src).is_dir():
                shutil.copytree(ROOT / src, to, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(ROOT / src, to)
    return dest
